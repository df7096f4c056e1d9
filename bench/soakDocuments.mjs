// The soak's hostile documents: Office files whose zips lie about their sizes
// (3 GiB inflated from 3 MB) and a PDF with a Flate bomb (2 GiB from 2 MB),
// rewritten as new versions in a loop so the extraction worker keeps meeting
// them, and read as text by one client. Every read must be refused as
// too-large; the other clients' latency is the soak's own measure.
// Kept apart from soak.mjs so its mixes merge without conflicts.
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { flateBombPdf, lyingZip } from './hostileDocuments.mjs';
import { lineConnection } from './subjects.mjs';

const KINDS = [
  ['docx', 'word/document.xml'],
  ['xlsx', 'xl/worksheets/sheet1.xml'],
  ['pptx', 'ppt/slides/slide1.xml'],
  ['pdf', null],
];

/**
 * Starts the loop until `end` (a Date.now() time). `quietly(fn)` runs fn
 * while no bomb is being extracted (the soak samples RSS there: a PDF bomb
 * takes the server up to its 1 GiB extraction budget for a few seconds).
 */
export function soakDocuments({ folder, sock, end }) {
  const stats = { reads: 0, refused: 0, wrong: 0 };
  let busy = null;
  let release = () => undefined;
  const run = (async () => {
    const dir = path.join(folder, 'bombs');
    await mkdir(dir, { recursive: true });
    const s = net.connect(sock);
    s.on('error', () => undefined);
    await new Promise((r, j) => (s.once('connect', r), s.once('error', j)));
    const { call: request, notify } = lineConnection(s, s);
    await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak-bombs', version: '1' } });
    notify('notifications/initialized');
    for (let round = 0; Date.now() < end; round++) {
      const [kind, part] = KINDS[round % KINDS.length];
      const file = path.join(dir, `bomb.${kind}`);
      busy = new Promise((r) => (release = r));
      // A new version each round (another size), so it is extracted again rather than answered from the cache.
      await writeFile(file, part ? lyingZip(part, 3072 + (round % 64)) : flateBombPdf(2048 + (round % 64)));
      await new Promise((r) => setTimeout(r, 300)); // the watcher sees the new version
      const reply = await request('resources/read', { uri: `${pathToFileURL(file).href}?as=text` });
      stats.reads++;
      if (reply.error?.data?.reason === 'too-large') stats.refused++;
      else {
        stats.wrong++;
        console.error(`hostile document ${kind}: expected too-large, got ${JSON.stringify(reply.error ?? 'text')}`);
      }
      await new Promise((r) => setTimeout(r, 500)); // the stopped worker's memory goes back
      release();
      busy = null;
      await new Promise((r) => setTimeout(r, 2000));
    }
    s.destroy();
  })();
  return {
    run,
    stats,
    async quietly(fn) {
      while (busy) await busy;
      return fn();
    },
  };
}
