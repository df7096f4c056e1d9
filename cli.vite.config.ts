import { resolve } from 'node:path';

import { defineConfig } from 'vite';

/**
 * The command line as one ES module (plus lazily loaded chunks) at
 * dist/electron/cli.js, the path client configs and package.json's bin name:
 * loading the SDK and zod as hundreds of separate modules took ~340 ms of a
 * ~550 ms start; bundled, ~140 ms.
 */
export default defineConfig({
  // Everything is bundled but the native watcher, the modules only some runs
  // load, and write-file-atomic (CommonJS that names its tmp files after __filename).
  // PDFium and Tesseract stay modules of their own: they load their wasm from their package folders, and only the workers need them.
  // sharp is native (prebuilt N-API binaries with libvips), loaded from node_modules.
  ssr: {
    noExternal: true,
    external: ['@parcel/watcher', 'chokidar', 'file-type', 'ws', 'write-file-atomic', 'sharp', '@embedpdf/pdfium', 'tesseract.js-core'],
  },
  build: {
    // The CLI, and the workers it starts (a Worker needs a file of its own).
    ssr: true,
    outDir: 'dist/electron',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    sourcemap: true,
    rolldownOptions: {
      input: {
        cli: resolve('electron/cli/cli.ts'),
        'extract-worker': resolve('electron/core/documents/extractWorker.ts'),
        'image-worker': resolve('electron/core/delivery/imageWorker.ts'),
        'grep-worker': resolve('electron/core/search/grepWorker.ts'),
        'diff-worker': resolve('electron/core/changes/diffWorker.ts'),
      },
      output: { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'cli-chunks/[name].js' },
    },
  },
});
