// npm run dev [-- --web] [-- FOLDER…]: the app with live reload while you work on it
// (folders, and with --web serve's options, pass on to the app).
//
// With an Electron binary: electron-vite dev (the window hot-reloads; main
// and preload rebuild and restart). Without one, or with --web: the headless
// core, rebuilt and restarted when its sources change, and the same window
// from Vite's dev server (hot reload), its /api WebSocket handed on to the
// core's web host. The address printed carries the window's token, as
// `serve --ui` prints it; the core keeps that address between restarts.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { build, createServer } from 'vite';

import { electronBinary } from './electron-binary.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const web = args.includes('--web');
const serveArgs = args.filter((a) => a !== '--web');
const children = [];

function run(command, argv, options = {}) {
  const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], ...options });
  children.push(child);
  return child;
}

function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

const bin = electronBinary();
if (bin.path && !web) {
  run(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'dev', ...(serveArgs.length > 0 ? ['--', ...serveArgs] : [])]).on(
    'exit',
    (code) => stopAll(code ?? 0),
  );
} else {
  if (!web) process.stderr.write(`mcp-shelf dev: no Electron here (${bin.reason.split(':')[0]}); the window runs in your browser instead.\n`);
  await new Promise((resolve, reject) =>
    run(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')]).on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error('the build failed')),
    ),
  );
  // The core: its bundle rebuilt on every source change, and the server
  // restarted after each rebuild (not before the first: the window would
  // meet a server going down).
  let core = null;
  let window = null;
  let firstAddress;
  const addressSeen = new Promise((resolve) => (firstAddress = resolve));
  const startCore = () => {
    const child = run(process.execPath, ['dist/electron/cli.js', 'serve', '--ui', '--no-open', ...serveArgs], { stdio: ['ignore', 'inherit', 'pipe'] });
    let seen = '';
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      if (seen.length < 100_000) seen += chunk.toString();
      const m = /window: http:\/\/127\.0\.0\.1:(\d+)\/#token=(\S+)/.exec(seen);
      if (m && !window) firstAddress((window = { port: Number(m[1]), token: m[2] }));
    });
    child.on('exit', (code, signal) => {
      if (child === core && signal === null) stopAll(code ?? 1); // it ended on its own: say so by ending too
    });
    return child;
  };
  const restartCore = async () => {
    const old = core;
    core = null;
    if (old && old.exitCode === null) {
      const exited = new Promise((r) => old.once('exit', r));
      old.kill('SIGINT');
      await exited;
    }
    core = startCore();
  };
  const watcher = await build({ configFile: path.join(ROOT, 'cli.vite.config.ts'), logLevel: 'warn', build: { watch: {} } });
  let restarting = Promise.resolve();
  watcher.on('event', (event) => {
    if (event.code === 'END') restarting = restarting.then(restartCore);
    if (event.code === 'ERROR')
      process.stderr.write(`mcp-shelf dev: the core did not build (the server keeps running the last build): ${event.error.message}\n`);
    if ('result' in event && event.result) event.result.close();
  });
  children.push({ exitCode: null, kill: () => void watcher.close() });
  await addressSeen;
  const target = `http://127.0.0.1:${window.port}`;
  const server = await createServer({
    configFile: false,
    root: path.join(ROOT, 'renderer'),
    plugins: [react()],
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      proxy: {
        // The web host lets a socket in only from its own origin: the proxy speaks for the page.
        '/api': { target, ws: true, changeOrigin: true, configure: (proxy) => proxy.on('proxyReqWs', (req) => req.setHeader('origin', target)) },
        // File links (a PDF's preview at an address ending in its name) come from the web host too.
        '/file/': { target, changeOrigin: true },
      },
    },
  });
  await server.listen();
  const address = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${server.config.server.port}/`;
  process.stderr.write(`mcp-shelf dev: window with live reload: ${address}#token=${window.token}\n`);
}
