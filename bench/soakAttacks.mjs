// The soak's attacks of the fourth security review (issue 37), all at once,
// beside the well-behaved clients: a forged grep cursor into an
// ask-before-read folder, clients that never read their 1 MB replies, image
// reads of a 63 MiB PNG, a .gitignore built to backtrack, a changing folder
// whose searches must name the right file, HTTP reads of a 7 MiB file left
// unread, a thousand silent sockets, idle TCP connects to both ports, slow
// images (a nested-<use> SVG named .png, an animated WebP), 4 MiB lines
// queued behind busy slots, a subscribe flood of long non-ASCII URIs, and a
// redirect that would leave the host. Each counts what it got; a leak, a
// wrong search hit or a redirect off the host fails the soak's verdict.
// Run as a process of its own (soak.mjs starts it: `node bench/soakAttacks.mjs
// '{"dirs":…,"sock":…,"end":…}'`), so the attackers' work does not delay the
// well-behaved clients' own event loop and their latencies are the server's.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import sharp from 'sharp';

const uriOf = (dir, rel) => pathToFileURL(path.join(dir, rel)).href;
const line = (m) => `${JSON.stringify(m)}\n`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const INIT = (name) =>
  line({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } });
const INITIALIZED = line({ jsonrpc: '2.0', method: 'notifications/initialized' });

/** The folders the attacks need, made before the server starts: returned as extra folders to publish. */
export async function prepareAttacks(work) {
  const dirs = {
    private: path.join(work, 'private'),
    heavy: path.join(work, 'heavy'),
    trap: path.join(work, 'trap'),
    words: path.join(work, 'words'),
  };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
  await writeFile(path.join(dirs.private, 'pin.txt'), 'TOPSECRET bank PIN 1111\nfiller\nTOPSECRET bank PIN 2222\n');
  for (let i = 0; i < 16; i++) await writeFile(path.join(dirs.heavy, `mb${i}.txt`), `${i % 10}`.repeat(1_000_000));
  await writeFile(path.join(dirs.heavy, 'seven.bin'), Buffer.alloc(7 * 1024 * 1024 - 4096, 7));
  // A 63 MiB PNG of noise, a 2 KB SVG of nested <use> named .png, an animated WebP of 50 frames.
  const side = 4096;
  await sharp(Buffer.alloc(side * side * 4, 0x5a), { raw: { width: side, height: side, channels: 4 } })
    .png({ compressionLevel: 0 })
    .toFile(path.join(dirs.heavy, 'huge.png'));
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><rect id="l0" width="1" height="1"/>';
  for (let i = 1; i < 12; i++) svg += `<g id="l${i}">${Array.from({ length: 10 }, () => `<use xlink:href="#l${i - 1}"/>`).join('')}</g>`;
  await writeFile(path.join(dirs.heavy, 'logo.png'), `${svg}<use xlink:href="#l11"/></svg>`);
  const frames = 50;
  await sharp(Buffer.alloc(64 * 64 * frames * 3, 0x80), { raw: { width: 64, height: 64 * frames, channels: 3 } })
    .webp({ pageHeight: 64, loop: 0 })
    .toFile(path.join(dirs.heavy, 'anim.webp'));
  // The .gitignore the review built to backtrack, and a chain of 52 a/ folders beneath it.
  await writeFile(path.join(dirs.trap, '.gitignore'), '**/a/**/a/**/a/**/a/**/a/**/a/**/b\n');
  let deep = dirs.trap;
  for (let i = 0; i < 52; i++) deep = path.join(deep, 'a');
  await mkdir(deep, { recursive: true });
  await writeFile(path.join(deep, 'c.txt'), 'deep\n');
  // Logs with words of their own, and small files that come and go (the index compacts).
  for (let i = 0; i < 200; i++) {
    const words = Array.from({ length: 500 }, (_, k) => `w${i}x${k}`).join(' ');
    await writeFile(path.join(dirs.words, `log${i}.txt`), `${words}\n`);
  }
  return dirs;
}

/**
 * Runs every attack until `end`; `stats` is what they saw. The caller has
 * made `dirs.private` ask before each read.
 */
export function runAttacks({ dirs, sock, uiUrl, httpUrl, httpToken, end }) {
  const stats = { leaks: 0, wrongHits: 0, searches: 0, redirectsAway: 0, busyRefusals: 0, deafCuts: 0, silentHeld: 0, idleConnects: 0, reads: 0 };
  const live = () => Date.now() < end;
  const connect = () =>
    new Promise((resolve) => {
      const s = net.connect(sock);
      s.on('error', () => undefined);
      s.once('connect', () => resolve(s));
      s.once('error', () => resolve(s));
    });
  /** A client on the socket that reads its replies: `call` resolves with each. */
  const talker = async (name) => {
    const s = await connect();
    let buf = Buffer.alloc(0);
    const waiting = new Map();
    let id = 0;
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
        const text = buf.subarray(0, nl).toString();
        buf = buf.subarray(nl + 1);
        try {
          const m = JSON.parse(text);
          waiting.get(m.id)?.(m);
          waiting.delete(m.id);
        } catch {
          // not ours to parse
        }
      }
    });
    s.write(INIT(name) + INITIALIZED);
    const call = (method, params) =>
      new Promise((resolve) => {
        const n = ++id;
        waiting.set(n, resolve);
        s.write(line({ jsonrpc: '2.0', id: n, method, params }));
        setTimeout(() => resolve({ error: { message: 'no answer in 60 s' } }), 60_000).unref();
      });
    return { s, call };
  };
  const text = (r) => JSON.stringify(r.result?.content ?? r.error ?? '');

  const attacks = [
    // 1. A grep cursor made by hand, naming a file of the ask-before-read folder; and a sealed one from before it asked.
    async () => {
      const c = await talker('soak-cursor');
      while (live()) {
        const forged = Buffer.from(
          JSON.stringify({ folderId: 2, rel: 'pin.txt', inside: { from: 0, line: 1 }, query: JSON.stringify(['TOPSECRET', false, '']) }),
        ).toString('base64url');
        const r = await c.call('tools/call', { name: 'grep_resources', arguments: { pattern: 'TOPSECRET', cursor: forged } });
        if (text(r).includes('PIN')) stats.leaks++;
        await sleep(200);
      }
      c.s.destroy();
    },
    // 2. Clients that ask for 1 MB reads and never read; reconnect when cut.
    ...Array.from({ length: 8 }, (_, k) => async () => {
      while (live()) {
        const s = await connect();
        s.pause();
        s.write(
          INIT(`soak-deaf-${k}`) +
            INITIALIZED +
            Array.from({ length: 16 }, (_, i) =>
              line({ jsonrpc: '2.0', id: i + 1, method: 'resources/read', params: { uri: uriOf(dirs.heavy, `mb${i}.txt`) } }),
            ).join(''),
        );
        // Cut by the server (counted), or let go when the soak ends.
        const cut = await Promise.race([
          new Promise((r) => s.once('close', () => r(true)).once('error', () => r(true))),
          sleep(Math.max(0, end - Date.now())).then(() => false),
        ]);
        if (cut) stats.deafCuts++;
        s.destroy();
        await sleep(500);
      }
    }),
    // 3 and 9. Image reads: the 63 MiB PNG, the SVG bomb named .png, the animated WebP, over and over.
    async () => {
      const c = await talker('soak-images');
      while (live()) {
        await Promise.all(
          ['huge.png', 'logo.png', 'anim.webp', 'huge.png'].map((f) =>
            c.call('tools/call', { name: 'read_resource', arguments: { uri: uriOf(dirs.heavy, f) } }),
          ),
        );
        stats.reads += 4;
      }
      c.s.destroy();
    },
    // 4. The backtracking .gitignore read again and again (its folder is re-synced each time it changes).
    async () => {
      let deep = dirs.trap;
      for (let i = 0; i < 52; i++) deep = path.join(deep, 'a');
      for (let round = 0; live(); round++) {
        await writeFile(path.join(dirs.trap, '.gitignore'), `**/a/**/a/**/a/**/a/**/a/**/a/**/b\n# ${round}\n`);
        await writeFile(path.join(deep, `b${round % 5}.txt`), 'b\n');
        await sleep(2000);
      }
    },
    // 5. Searches whose answer is known: a log's own word must name that log, and only it.
    async () => {
      const c = await talker('soak-search');
      for (let round = 0; live(); round++) {
        const i = round % 200;
        const r = await c.call('tools/call', { name: 'search_resources', arguments: { query: `w${i}x${round % 500}` } });
        stats.searches++;
        const hits = r.result?.structuredContent?.results ?? [];
        if (hits.length > 0 && (hits.length !== 1 || !hits[0].path.endsWith(`log${i}.txt`))) stats.wrongHits++;
        // The small files that come and go, so the index removes and compacts while it is searched.
        const f = path.join(dirs.words, `tmp${round % 400}.txt`);
        await (round % 2 ? rm(f, { force: true }) : writeFile(f, `tmp ${round}\n`));
        await sleep(50);
      }
      c.s.destroy();
    },
    // 6. HTTP reads of a 7 MiB file left unread, 20 at a time.
    async () => {
      const url = new URL(httpUrl);
      while (live()) {
        const reqs = Array.from({ length: 20 }, (_, i) => {
          const req = http.request({
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent: false,
            headers: {
              authorization: `Bearer ${httpToken}`,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'resources/read',
              'mcp-name': uriOf(dirs.heavy, 'seven.bin'),
            },
          });
          req.on('response', (res) => res.pause());
          req.on('error', () => undefined);
          req.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: i,
              method: 'resources/read',
              params: {
                uri: uriOf(dirs.heavy, 'seven.bin'),
                _meta: {
                  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                  'io.modelcontextprotocol/clientCapabilities': {},
                  'io.modelcontextprotocol/clientInfo': { name: 'soak-http', version: '1' },
                },
              },
            }),
          );
          return req;
        });
        await sleep(10_000);
        for (const r of reqs) r.destroy();
      }
    },
    // 7. A thousand silent sockets, opened again as the server lets them go.
    async () => {
      const held = [];
      while (live()) {
        while (held.length < 1000 && live()) {
          const s = await connect();
          s.once('close', () => held.splice(held.indexOf(s), 1));
          held.push(s);
        }
        stats.silentHeld = held.length;
        await sleep(1000);
      }
      for (const s of held) s.destroy();
    },
    // 8. Idle TCP connects to the HTTP and window ports.
    async () => {
      const ports = [Number(new URL(httpUrl).port), Number(new URL(uiUrl).port)];
      const held = [];
      while (live()) {
        for (const port of ports) {
          // Topped up to 600 open (more than either port keeps), so the soak's own descriptors stay bounded.
          for (let i = 0; i < 200 && live() && held.length < 600; i++) {
            const s = net.connect(port, '127.0.0.1');
            s.on('error', () => undefined);
            s.once('close', () => held.splice(held.indexOf(s), 1));
            held.push(s);
            stats.idleConnects++;
          }
        }
        await sleep(2000);
      }
      for (const s of held) s.destroy();
    },
    // 10. 4 MiB lines queued behind reads waiting on their ask.
    async () => {
      const pad = 'p'.repeat(4 * 1024 * 1024 - 200);
      while (live()) {
        const s = await connect();
        s.write(INIT('soak-queue') + INITIALIZED);
        for (let i = 0; i < 8; i++) s.write(line({ jsonrpc: '2.0', id: 100 + i, method: 'resources/read', params: { uri: uriOf(dirs.private, 'pin.txt') } }));
        for (let i = 0; i < 20 && !s.destroyed; i++) s.write(line({ jsonrpc: '2.0', id: 1000 + i, method: 'ping', params: { pad } }));
        await sleep(5000);
        s.destroy();
      }
    },
    // 11. Subscribes of 8 KB URIs of '€' from 32 connections.
    async () => {
      while (live()) {
        const conns = await Promise.all(Array.from({ length: 32 }, () => connect()));
        for (const [k, s] of conns.entries()) {
          s.on('data', () => undefined);
          s.write(INIT(`soak-sub-${k}`) + INITIALIZED);
          for (let i = 0; i < 16; i++)
            s.write(line({ jsonrpc: '2.0', id: i + 1, method: 'resources/subscribe', params: { uri: `file:///${'€'.repeat(8000)}${i}` } }));
        }
        await sleep(3000);
        for (const s of conns) s.destroy();
      }
    },
    // 12. The redirect that would leave the host.
    async () => {
      const url = new URL(uiUrl);
      while (live()) {
        await new Promise((resolve) => {
          const req = http.get({ host: url.hostname, port: url.port, path: '/.//evil.example/?token=x', headers: { host: url.host } }, (res) => {
            if (/^\/\//.test(res.headers.location ?? '') || /evil\.example/.test(res.headers.location ?? '')) stats.redirectsAway++;
            res.resume();
            resolve();
          });
          req.on('error', resolve);
        });
        await sleep(1000);
      }
    },
  ];
  // Each attack's number in the review (its comment above); SOAK_ATTACKS=2,6 runs only those, to measure one at a time.
  const numbers = [1, ...Array(8).fill(2), 3, 4, 5, 6, 7, 8, 10, 11, 12];
  if (numbers.length !== attacks.length) throw new Error('every attack needs its number');
  const only = process.env.SOAK_ATTACKS ? new Set(process.env.SOAK_ATTACKS.split(',').map(Number)) : null;
  const chosen = attacks.filter((_, i) => !only || only.has(numbers[i]));
  // The private folder asks before each read; the window never answers (asks time out), as a person away would.
  const run = Promise.all(chosen.map((a) => a().catch((err) => console.error(`attack failed: ${err.message}`)))).then(() => undefined);
  return { run, stats };
}

/** As a process: the attacks of argv[2]'s JSON until its `end`, then their stats as the last line on stdout. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = JSON.parse(process.argv[2]);
  const { run, stats } = runAttacks(options);
  // An attack still waiting on the server (a reply that never comes) does not hold the soak past its end.
  const deadline = sleep(Math.max(0, options.end - Date.now()) + 15_000);
  await Promise.race([run, deadline]);
  process.stdout.write(`${JSON.stringify(stats)}\n`, () => process.exit(0));
}
