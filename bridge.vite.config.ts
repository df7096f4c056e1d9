import { resolve } from 'node:path';

import { defineConfig } from 'vite';

/** The standalone stdio bridge: one CommonJS file, Node built-ins only. */
export default defineConfig({
  build: {
    ssr: resolve('electron/cli/bridgeMain.ts'),
    outDir: 'out/bridge',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rolldownOptions: { output: { format: 'cjs', entryFileNames: 'mcp-shelf-bridge.cjs' } },
  },
});
