// Generated benchmark data under bench/.data (ignored by git), made once and
// reused while its marker file says it is complete.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import sharp from 'sharp';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DATA = path.join(ROOT, 'bench/.data');
const MiB = 1024 * 1024;

export async function once(name, make) {
  const dir = path.join(DATA, name);
  const marker = path.join(dir, '.complete');
  if (!(await readFile(marker, 'utf8').catch(() => ''))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await make(dir);
    await writeFile(marker, 'ok');
  }
  return dir;
}

/** 2,000 text files of 1–4 KB in 20 folders; returns the folder and the files' paths. */
export async function smallFiles() {
  const dir = await once('small', async (d) => {
    for (let i = 0; i < 2000; i++) {
      const sub = path.join(d, `d${i % 20}`);
      await mkdir(sub, { recursive: true });
      await writeFile(path.join(sub, `f${i}.txt`), `line ${i} `.repeat(100 + ((i * 37) % 300)).slice(0, 1024 + ((i * 1531) % 3072)));
    }
  });
  return { dir, files: Array.from({ length: 2000 }, (_, i) => path.join(dir, `d${i % 20}`, `f${i}.txt`)) };
}

/** One 64 MiB binary file and one 64 MiB text file (with multi-byte characters and characters JSON escapes). */
export async function largeFiles() {
  const dir = await once('large', async (d) => {
    const bin = Buffer.allocUnsafe(64 * MiB);
    let x = 0x12345678;
    for (let i = 0; i < bin.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      bin.writeInt32LE(x | 0, i);
    }
    await writeFile(path.join(d, 'big.bin'), bin);
    const unit = Buffer.from('Log line with "quotes", a tab\t, accents é and 漢字, and a newline.\n');
    const text = Buffer.alloc(64 * MiB, 0x20);
    for (let off = 0; off + unit.length <= text.length; off += unit.length) unit.copy(text, off);
    await writeFile(path.join(d, 'big.txt'), text);
  });
  return { dir, bin: path.join(dir, 'big.bin'), text: path.join(dir, 'big.txt') };
}

/** 50,000 small files in 500 folders (100 each, two levels deep). */
export async function manyFiles() {
  return once('many', async (d) => {
    for (let f = 0; f < 500; f++) {
      const sub = path.join(d, `group${f % 25}`, `folder${f}`);
      await mkdir(sub, { recursive: true });
      await Promise.all(Array.from({ length: 100 }, (_, i) => writeFile(path.join(sub, `note-${i}.md`), `# Note ${f}/${i}\n`)));
    }
  });
}

/** An access history at its default budget: 60 MiB of JSON Lines segments (8 MiB each, as the store writes them), 40,000 files read. */
export async function fullHistory() {
  return once('history', async (d) => {
    const now = Date.now();
    let seq = 1;
    for (let segment = 0; segment < 8; segment++) {
      const first = seq;
      const lines = [];
      for (let bytes = 0; bytes < 7.5 * MiB; seq++) {
        const line = `${JSON.stringify({ seq, time: now - 86_400_000 + seq, client: 'Claude Desktop', clientVersion: '1.2.3', protocolVersion: '2026-07-28', transport: 'socket', via: 'resource', uri: `file:///home/me/projects/docs/folder${seq % 300}/file-${seq % 40_000}.md`, folder: '/home/me/projects/docs', size: 1234, outcome: 'ok', errorCode: null, errorMessage: null })}\n`;
        lines.push(line);
        bytes += line.length;
      }
      await writeFile(path.join(d, `history-${String(first).padStart(12, '0')}.jsonl`), lines.join(''));
    }
  });
}

/** A small folder whose files the change scenario rewrites. */
export async function changingFiles() {
  return once('changing', async (d) => {
    for (let i = 0; i < 20; i++) await writeFile(path.join(d, `watched-${i}.txt`), `version 0 of ${i}\n`);
  });
}

/** `count` empty-ish files, 100 per folder, in folders of 100 folders (a big monorepo or photo archive shape). */
export async function scaleFiles(count) {
  return once(`scale-${count}`, async (d) => {
    const folders = Math.ceil(count / 100);
    for (let f = 0; f < folders; f++) {
      const sub = path.join(d, `g${Math.floor(f / 100)}`, `f${f}`);
      await mkdir(sub, { recursive: true });
      const n = Math.min(100, count - f * 100);
      await Promise.all(Array.from({ length: n }, (_, i) => writeFile(path.join(sub, `file-${i}.txt`), `f${f} i${i}\n`)));
    }
  });
}

/**
 * A photo-like PNG of `width`×`height` (gradients with fine noise from
 * `seed`, as cameras and screenshots make them), made once; its path.
 */
export async function photoPng(width, height, seed) {
  const dir = await once(`png-${width}x${height}`, async (d) => {
    const px = Buffer.alloc(width * height * 3);
    let next = seed;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        next = (next * 1664525 + 1013904223) >>> 0;
        const noise = (next >>> 24) % 24;
        const i = (y * width + x) * 3;
        px[i] = ((x * 255) / width + noise) & 255;
        px[i + 1] = ((y * 255) / height + noise) & 255;
        px[i + 2] = (128 + noise) & 255;
      }
    }
    await sharp(px, { raw: { width, height, channels: 3 } })
      .png()
      .toFile(path.join(d, 'photo.png'));
  });
  return path.join(dir, 'photo.png');
}
