import { resolve } from 'node:path';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * main and preload for Electron, and the renderer that both hosts serve
 * (Electron loads it from out/renderer; the web host serves the same files).
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The workers are entries of their own: a Worker needs a file.
      lib: {
        entry: {
          main: resolve('electron/desktop/main.ts'),
          'extract-worker': resolve('electron/core/documents/extractWorker.ts'),
          'image-worker': resolve('electron/core/delivery/imageWorker.ts'),
          'grep-worker': resolve('electron/core/search/grepWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve('electron/desktop/preload.ts') },
      // A sandboxed preload must be one CommonJS file.
      rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'renderer',
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      rolldownOptions: { input: resolve('renderer/index.html') },
    },
  },
});
