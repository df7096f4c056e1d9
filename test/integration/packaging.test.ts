import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { extractFile, listPackage, statFile } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/**
 * A stand-in for the Electron binary: no Electron can be downloaded here, so
 * this file carries only the fuse wire electron-builder flips (the sentinel,
 * wire version 1, eight fuses), which lets the check read the fuses back.
 */
function standInElectron(): Buffer {
  return Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in for Electron: not a real binary" >&2; exit 1\n'),
    Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
    Buffer.from([1, 8]),
    Buffer.from('11111111'),
  ]);
}

describe('packaging check (electron-builder --linux dir with a stand-in Electron; not a run of Electron)', () => {
  let work: string;
  let unpacked: string;
  let files: string[];

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'pack-'));
    const dist = path.join(work, 'electron-dist');
    await import('node:fs/promises').then((fs) => fs.mkdir(dist));
    await writeFile(path.join(dist, 'electron'), standInElectron(), { mode: 0o755 });
    await run(
      path.join(ROOT, 'node_modules/.bin/electron-builder'),
      ['--linux', 'dir', `-c.electronDist=${dist}`, '-c.npmRebuild=false', `-c.directories.output=${path.join(work, 'release')}`],
      { cwd: ROOT, timeout: 240_000, env: { ...process.env, CI: 'true' } },
    );
    unpacked = path.join(work, 'release', 'linux-unpacked');
    files = listPackage(path.join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((f) => f.split(path.sep).join('/'));
  }, 300_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('holds the built main, preload, renderer, CLI and bridge', () => {
    for (const f of [
      '/package.json',
      '/out/main/main.js',
      '/out/preload/preload.cjs',
      '/out/renderer/index.html',
      '/dist/electron/cli.js',
      '/dist/electron/extract-worker.js',
      '/dist/electron/shelf-app.html',
      '/out/bridge/mcp-shelf-bridge.cjs',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.some((f) => /^\/out\/renderer\/assets\/index-.*\.js$/.test(f))).toBe(true);
  });

  it("ships the CLI as its bundle, not tsc's module-per-file output beside it", () => {
    const dist = files.filter((f) => f.startsWith('/dist/') && /\.\w+$/.test(f));
    expect(dist.filter((f) => !/^\/dist\/electron\/(cli\.js|[a-z]+-worker\.js|shelf-app\.html|cli-chunks\/[^/]+\.js)$/.test(f))).toEqual([]);
    // Every chunk the bundle imports is there.
    const cli = readFileSync(path.join(ROOT, 'dist/electron/cli.js'), 'utf8');
    for (const [, chunk] of cli.matchAll(/["']\.\/(cli-chunks\/[^"']+\.js)["']/g)) expect(files).toContain(`/dist/electron/${chunk}`);
  });

  it('holds the production dependencies the code imports, and no development ones', () => {
    const pkg = (name: string) => files.includes(`/node_modules/${name}/package.json`);
    for (const dep of [
      '@modelcontextprotocol/server',
      '@modelcontextprotocol/core',
      '@modelcontextprotocol/node',
      'chokidar',
      're2js',
      'mime',
      'file-type',
      'ws',
      'zod',
      'write-file-atomic',
      'env-paths',
      'picomatch',
      'jsonc-parser',
    ]) {
      expect(pkg(dep), dep).toBe(true);
    }
    for (const dev of [
      'electron',
      'vitest',
      'vite',
      'react',
      'react-dom',
      '@playwright/test',
      'typescript',
      'eslint',
      'electron-builder',
      'highlight.js',
      // The differential test's reference for .gitignore rules; the app matches them itself.
      'ignore',
      // The window's own: bundled into out/renderer.
      'react-resizable-panels',
      'remark-gfm',
      '@modelcontextprotocol/inspector',
      '@modelcontextprotocol/conformance',
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/client',
    ]) {
      expect(pkg(dev), dev).toBe(false);
    }
  });

  it('holds nothing else: no sources, tests, e2e, scripts or build resources beyond the tray icon', () => {
    const top = new Set(files.map((f) => f.split('/')[1]));
    expect([...top].sort()).toEqual(['build', 'dist', 'node_modules', 'out', 'package.json']);
    expect(files.filter((f) => f.startsWith('/build/') && f !== '/build')).toEqual(['/build/icon.png']);
    const own = files.filter((f) => !f.startsWith('/node_modules/'));
    expect(own.filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    expect(own.filter((f) => /(^|\/)(test|e2e|scripts|renderer\/src)(\/|$)|\.test\./.test(f))).toEqual([]);
    const big = own.filter((f) => {
      try {
        const s = statFile(path.join(unpacked, 'resources', 'app.asar'), f.slice(1), false) as { size?: number };
        return (s.size ?? 0) > 3 * 1024 * 1024;
      } catch {
        return false;
      }
    });
    expect(big).toEqual([]);
  });

  it('unpacks the native modules (the watcher, sharp and its libvips) so they load from disk', async () => {
    const natives = path.join(unpacked, 'resources', 'app.asar.unpacked', 'node_modules', '@img');
    const found = (await readdir(natives, { recursive: true })).map(String);
    expect(found.some((f) => f.endsWith('.node'))).toBe(true);
    expect(found.some((f) => /libvips.*\.so/.test(f))).toBe(true);
    expect(files).toContain('/out/main/image-worker.js');
    expect(files).toContain('/out/main/grep-worker.js');
    expect(files).toContain('/out/main/diff-worker.js');
  });

  it("unpacks the PDF and OCR engines' WebAssembly and the English OCR data, and leaves out the builds OCR never loads", async () => {
    const out = path.join(unpacked, 'resources', 'app.asar.unpacked', 'node_modules');
    for (const f of [
      '@embedpdf/pdfium/dist/pdfium.wasm',
      'tesseract.js-core/tesseract-core-simd-lstm.wasm',
      '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
    ]) {
      expect((await stat(path.join(out, f))).size, f).toBeGreaterThan(1024 * 1024);
    }
    expect(files).toContain('/node_modules/tesseract.js-core/tesseract-core-simd-lstm.js');
    const tesseract = files.filter((f) => f.startsWith('/node_modules/tesseract.js-core/tesseract-core'));
    expect(tesseract.sort()).toEqual([
      '/node_modules/tesseract.js-core/tesseract-core-simd-lstm.js',
      '/node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm',
    ]);
    expect(files.some((f) => f.startsWith('/node_modules/@tesseract.js-data/eng/4.0.0/'))).toBe(false);
  });

  it('unpacks the bridge so a plain Node (or the app in Node mode) runs it', async () => {
    const bridge = path.join(unpacked, 'resources', 'app.asar.unpacked', 'out', 'bridge', 'mcp-shelf-bridge.cjs');
    expect((await stat(bridge)).isFile()).toBe(true);
    // No shelf: it says so on stderr and answers the client's handshake with the reason, then ends with stdin.
    const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;
    const res = spawnSync(process.execPath, [bridge, 'connect', '--socket', path.join(work, 'nothing.sock')], {
      input: initialize,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('cannot reach MCP Shelf');
    expect(res.stdout).toMatch(/"instructions":"MCP Shelf is not running/);
    const help = await run(process.execPath, [bridge, 'connect', '--help']);
    expect(help.stdout).toContain('Usage: mcp-shelf connect');
  });

  it('sets the Electron fuses: cookie encryption on, runAsNode, NODE_OPTIONS and inspect off, asar only with integrity; the app is its own bridge', async () => {
    const wire = await getCurrentFuseWire(path.join(unpacked, 'mcp-shelf'));
    const on = (o: FuseV1Options) => String.fromCharCode(wire[o] as unknown as number);
    expect(on(FuseV1Options.RunAsNode)).toBe('0');
    expect(on(FuseV1Options.EnableCookieEncryption)).toBe('1');
    expect(on(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0');
    expect(on(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0');
    expect(on(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1');
    expect(on(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1');
    const config = await readFile(path.join(ROOT, 'electron-builder.yml'), 'utf8');
    expect(config).toMatch(/runAsNode: false\s*\n/);
    // With the fuse off, clients run the bridge as `<app> --mcp-bridge`: the packaged main handles it.
    const main = extractFile(path.join(unpacked, 'resources', 'app.asar'), 'out/main/main.js').toString('utf8');
    expect(main).toMatch(/["'`]--mcp-bridge["'`]/);
    expect(main).not.toContain('ELECTRON_RUN_AS_NODE');
  });

  it('asks macOS for no entitlement beyond the JIT', async () => {
    const plist = await readFile(path.join(ROOT, 'build', 'entitlements.mac.plist'), 'utf8');
    expect([...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])).toEqual(['com.apple.security.cs.allow-jit']);
  });
});
