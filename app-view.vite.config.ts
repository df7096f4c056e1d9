import { readFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const OUT = resolve('out/app-view');
const { version } = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version: string };

/**
 * The served copies sit beside each host's bundle, as extract-worker.js
 * does: dist/electron for the CLI, out/main for Electron (each host finds
 * the file next to its own code, wherever it is installed).
 */
function besideHosts(): Plugin {
  return {
    name: 'mcp-shelf-app-beside-hosts',
    apply: 'build',
    async closeBundle() {
      for (const dir of ['dist/electron', 'out/main']) {
        await mkdir(resolve(dir), { recursive: true });
        await copyFile(resolve(OUT, 'shelf-app.html'), resolve(dir, 'shelf-app.html'));
      }
    },
  };
}

/**
 * The in-chat app's view (MCP Apps): one self-contained HTML file — script,
 * styles and everything they import inlined — since a host loads it into a
 * sandboxed frame that may load nothing from the network.
 */
export default defineConfig({
  root: resolve('renderer/app-view'),
  base: './',
  plugins: [react(), viteSingleFile(), besideHosts()],
  define: { __SHELF_VERSION__: JSON.stringify(version) },
  build: {
    // Browsers with CSS light-dark() (the window's colours follow the host's theme through it); lowered, it would follow the OS only.
    target: ['chrome123', 'safari17.5', 'firefox120'],
    outDir: OUT,
    emptyOutDir: true,
    reportCompressedSize: false,
    rolldownOptions: { input: resolve('renderer/app-view/shelf-app.html') },
  },
});
