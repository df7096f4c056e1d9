import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pdfWithText } from '../support/documents.js';
import { eventually, makeTree, uriOf } from '../support/fixtures.js';
import { RawClient } from '../support/rawClient.js';
import { CLI, connectSdkClient, type ShelfProcess, socketDir, startShelf } from '../support/shelfProcess.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = path.join(ROOT, '.venv-py', 'bin', 'python');
const PY_SCRIPT = path.join(ROOT, 'test', 'integration', 'interop', 'python_model_reads.py');

if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run "npm run setup:python" (npm test does)`);

type Content = { type: string; text?: string; data?: string; mimeType?: string; uri?: string; resource?: unknown };
interface ToolResult {
  content: Content[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, { next?: { offset: number; column?: number } | null } | undefined>;
}

/** 120,000 lines: varied lengths, some non-ASCII (é, €, an emoji outside the BMP), some CRLF, an ERROR now and then. */
function logText(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 120_000; i++) {
    const kind = i % 997 === 0 ? `ERROR ${i} disk full` : i % 13 === 0 ? `INFO café € 😀 ${i}` : `INFO req ${i} ${i % 300}ms`;
    lines.push(`12:00:${String(i % 60).padStart(2, '0')} ${kind}${'.'.repeat(i % 9)}${i % 101 === 0 ? '\r' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A noisy photo: a PNG of 3000×2000 random pixels (about 18 MB), which no model could take as it is. */
async function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

const textOf = (r: ToolResult) => r.content.filter((c) => c.type === 'text').map((c) => c.text as string);
const linksOf = (r: ToolResult) => r.content.filter((c) => c.type === 'resource_link').map((c) => c.uri);

describe('what the tools give a model (issue 23)', () => {
  let root: string;
  let shelf: ShelfProcess;
  let client: V2Client;
  let log: string;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as unknown as ToolResult;

  beforeAll(async () => {
    log = logText();
    const longLines = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`long/line${i}.txt`, `${'a'.repeat(200_000)}!\n`]));
    root = await makeTree({
      'report.pdf': await pdfWithText(['Quarterly report: page one', 'Revenue grew on page two', 'Costs fell on page three', 'Outlook on page four']),
      'photo.png': await noisyPng(3000, 2000),
      'app.log': log,
      'random.bin': randomBytes(300 * 1024),
      'notes.md': '# Notes\n\nThe quarterly numbers are in report.pdf.\n',
      ...longLines,
    });
    shelf = await startShelf([root]);
    client = new V2Client({ name: 'v2-model', version: '1.0.0' });
    await client.connect(new V2Stdio({ command: process.execPath, args: [CLI, 'connect', '--socket', shelf.socketPath], stderr: 'pipe' }));
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await shelf?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('offers grep_resources beside the other tools, each described for a model', async () => {
    const { tools } = await client.listTools();
    // What a model is offered: the in-chat app's own tools are for the app (hosts keep them from the model).
    const forModel = tools.filter((t) => !(t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility?.every((v) => v === 'app'));
    expect(forModel.map((t) => t.name)).toEqual(['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'browse_shelf']);
    const read = tools.find((t) => t.name === 'read_resource');
    expect(read?.description).toMatch(/offset/);
    expect(Object.keys(read?.inputSchema.properties ?? {})).toEqual(['uri', 'offset', 'limit', 'column', 'pages']);
  });

  it('a PDF comes as its text, by page when asked; never as a base64 document', async () => {
    const pdf = await call('read_resource', { uri: uriOf(root, 'report.pdf') });
    expect(pdf.isError).toBeFalsy();
    expect(pdf.content.some((c) => c.type === 'resource' || c.type === 'image')).toBe(false);
    const [text, note] = textOf(pdf);
    expect(text).toContain('--- Page 1 ---');
    expect(text).toContain('Quarterly report: page one');
    expect(text).toContain('Outlook on page four');
    expect(note).toMatch(/^Text extracted from report\.pdf \(PDF, 4 page\(s\)/);
    expect(linksOf(pdf)).toEqual([uriOf(root, 'report.pdf')]);
    const pages = textOf(await call('read_resource', { uri: uriOf(root, 'report.pdf'), pages: '2-3' }));
    expect(pages[0]).toContain('Revenue grew on page two');
    expect(pages[0]).toContain('Costs fell on page three');
    expect(pages[0]).not.toContain('page one');
    expect(pages[0]).not.toContain('page four');
    expect(pages[1]).toContain('pages 2–3 of 4');
    const bad = await call('read_resource', { uri: uriOf(root, 'report.pdf'), pages: '9' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)[0]).toMatch(/has 4 page/);
  });

  it('a 3000×2000 PNG comes as an image block a model can take: at most 1568 px a side and 1.5 MB, with its original size said', async () => {
    const r = await call('read_resource', { uri: uriOf(root, 'photo.png') });
    const image = r.content.find((c) => c.type === 'image');
    expect(image).toBeDefined();
    const bytes = Buffer.from(image?.data as string, 'base64');
    expect(bytes.length).toBeLessThanOrEqual(1.5 * 1024 * 1024);
    const meta = await sharp(bytes).metadata();
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(1568);
    expect(meta.width / meta.height).toBeCloseTo(1.5, 1);
    expect(`image/${meta.format}`).toBe(image?.mimeType);
    expect(textOf(r)[0]).toMatch(/^photo\.png: PNG, 3000×2000 px, .*; shown at \d+×\d+ as (JPEG|PNG|WEBP)/);
  });

  it('a 120,000-line log: 2,000-line pages put back together are the file; -5 is its tail; a read without a range stops at the budget and says how to go on', async () => {
    let offset: number | null = 1;
    const pages: string[] = [];
    while (offset !== null) {
      const page = await call('read_resource', { uri: uriOf(root, 'app.log'), offset, limit: 2000 });
      expect(page.isError).toBeFalsy();
      pages.push(page.content[0]?.text as string);
      offset = page._meta?.['dev.mcpshelf/read']?.next?.offset ?? null;
    }
    expect(pages).toHaveLength(60);
    expect(pages.join('') === log).toBe(true);
    const tail = await call('read_resource', { uri: uriOf(root, 'app.log'), offset: -5 });
    expect(tail.content[0]?.text).toBe(`${log.split('\n').slice(-6, -1).join('\n')}\n`);
    expect(textOf(tail)[1]).toBe('Showing lines 119,996–120,000 of 120,000 (the end).');
    const first = await call('read_resource', { uri: uriOf(root, 'app.log') });
    const shown = first.content[0]?.text as string;
    expect(shown.length).toBeLessThanOrEqual(100_000);
    expect(log.startsWith(shown)).toBe(true);
    const lines = shown.split('\n').length - 1;
    expect(textOf(first)[1]).toBe(
      `Showing lines 1–${lines.toLocaleString('en')} of 120,000. The read stopped at its budget of characters. To read on, call read_resource with offset ${lines + 1}.`,
    );
  });

  it('a line longer than the budget goes on from a column, and the parts make the line', async () => {
    const uri = uriOf(root, 'long/line0.txt');
    const parts: string[] = [];
    let next: { offset: number; column?: number } | null = { offset: 1 };
    while (next) {
      const r = await call('read_resource', { uri, ...next });
      parts.push(r.content[0]?.text as string);
      next = r._meta?.['dev.mcpshelf/read']?.next ?? null;
    }
    expect(parts.map((p) => p.length)).toEqual([100_000, 100_000, 2]);
    expect(parts.join('')).toBe(`${'a'.repeat(200_000)}!\n`);
  });

  it('a random binary is described in a few lines, with a link to its bytes, not dumped as base64', async () => {
    const r = await call('read_resource', { uri: uriOf(root, 'random.bin') });
    expect(JSON.stringify(r).length).toBeLessThan(2000);
    expect(textOf(r)[0]).toMatch(/^random\.bin: application\/octet-stream, 300 KB \(307,200 bytes\)\. It is binary/);
    expect(linksOf(r)).toEqual([uriOf(root, 'random.bin')]);
    // resources/read stays byte-exact for clients that read resources themselves.
    const raw = await client.readResource({ uri: uriOf(root, 'random.bin') });
    expect(Buffer.from((raw.contents[0] as { blob: string }).blob, 'base64').equals(await readFile(path.join(root, 'random.bin')))).toBe(true);
  });

  it('grep answers (a+)+$ over 40 lines of 200,000 characters at once while another client is served throughout', async () => {
    const other = await connectSdkClient(shelf.socketPath, 'other-client');
    try {
      let grepDone = false;
      const during: number[] = [];
      const reads = (async () => {
        while (!grepDone) {
          const t = performance.now();
          await other.readResource({ uri: uriOf(root, 'notes.md') });
          during.push(performance.now() - t);
        }
      })();
      const r = await call('grep_resources', { pattern: '(a+)+$', glob: 'long/*.txt' });
      grepDone = true;
      await reads;
      expect(r.isError).toBeFalsy();
      expect(textOf(r)[0]).toBe('No line matches /(a+)+$/ (40 file(s) searched).');
      // The other client's reads went on while grep ran (a thread held by the regex would have served none).
      expect(during.length).toBeGreaterThan(3);
      const hit = await call('grep_resources', { pattern: '(a+)+!$', glob: 'long/line1*.txt' });
      expect(hit.structuredContent?.matches).toBe(11);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('grep gives line numbers, context and links, pages with a cursor, and refuses a bad pattern with a clear error', async () => {
    const r = await call('grep_resources', { pattern: 'ERROR \\d+ disk', context: 1, glob: '*.log', maxResults: 3 });
    const [text] = textOf(r);
    expect(text).toContain(`${uriOf(root, 'app.log')}\n  996- 12:00:36 INFO req 996 `);
    expect(text).toContain('  997: 12:00:37 ERROR 997 disk full');
    expect(linksOf(r)).toEqual([uriOf(root, 'app.log')]);
    const cursor = r.structuredContent?.nextCursor as string;
    expect(text).toContain(`call grep_resources again with cursor "${cursor}"`);
    const more = await call('grep_resources', { pattern: 'ERROR \\d+ disk', context: 1, glob: '*.log', maxResults: 500, cursor });
    const files = more.structuredContent?.files as Array<{ matches: Array<{ line: number }> }>;
    expect(files[0]?.matches[0]?.line).toBe(997 * 4);
    expect(more.structuredContent?.matches).toBe(Math.floor(120_000 / 997) - 3);
    const bad = await call('grep_resources', { pattern: '(unclosed' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)[0]).toMatch(/^Invalid pattern: .*\(-32602\)$/);
    const lookaround = await call('grep_resources', { pattern: 'a(?=b)' });
    expect(lookaround.isError).toBe(true);
  });

  it('search results carry resource links; a client of a revision before links gets none (its SDK would reject the result)', async () => {
    await eventually(async () => (await call('search_resources', { query: 'quarterly' })).content.length > 1, 20_000, 'the index to hold the files');
    const r = await call('search_resources', { query: 'quarterly' });
    expect(new Set(linksOf(r))).toEqual(new Set([uriOf(root, 'notes.md'), uriOf(root, 'report.pdf')]));
    const old = await RawClient.connect(shelf.socketPath);
    try {
      const init = await old.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } });
      expect((init.result as { protocolVersion: string }).protocolVersion).toBe('2025-03-26');
      old.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const res = await old.request('tools/call', { name: 'search_resources', arguments: { query: 'quarterly' } });
      const content = (res.result as ToolResult).content;
      expect(content.map((c) => c.type)).toEqual(['text']);
    } finally {
      old.close();
    }
  });

  it('the history says which part a tool read gave', async () => {
    await call('read_resource', { uri: uriOf(root, 'app.log'), offset: 10, limit: 5 });
    const dir = path.join(path.dirname(shelf.socketPath), 'history');
    const entries = await eventually(
      async () => {
        const files = await readdir(dir);
        const lines = (await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')))).join('').split('\n').filter(Boolean);
        const found = lines.map((l) => JSON.parse(l) as { via: string; detail?: string }).filter((e) => e.detail === 'lines 10–14 of 120,000');
        return found.length > 0 ? found : null;
      },
      5000,
      'the read in the history',
    );
    expect(entries[0]?.via).toBe('tool');
  });

  it('the official Python SDK through the bridge: PDF text, an image block, the log paged back together, a described binary, links', async () => {
    const { stdout } = await run(PYTHON, [PY_SCRIPT, process.execPath, CLI, shelf.socketPath, uriOf(root, '').replace(/\/$/, '')], {
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const seen = JSON.parse(stdout) as {
      pdf: { kinds: string[]; texts: string[] };
      pdfPages: { texts: string[] };
      image: { kinds: string[]; mimeType: string; data: string; texts: string[] };
      log: { sha256: string; calls: number };
      tail: string[];
      defaultRead: { length: number; note: string | null };
      binary: { kinds: string[]; texts: string[]; size: number };
      searchLinks: string[];
      grep: { texts: string[]; links: string[] };
    };
    expect(seen.pdf.kinds).toEqual(['text', 'text', 'resource_link']);
    expect(seen.pdf.texts[0]).toContain('Revenue grew on page two');
    expect(seen.pdfPages.texts[0]).toContain('Costs fell on page three');
    // The image, what it is, its link; and, after them, its OCR text or (not read yet: an image never waits for it) where it will be.
    expect(seen.image.kinds.slice(0, 3)).toEqual(['image', 'text', 'resource_link']);
    for (const t of seen.image.texts.slice(1)) expect(t).toMatch(/^Text in the image/);
    const meta = await sharp(Buffer.from(seen.image.data, 'base64')).metadata();
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(1568);
    expect(seen.log).toEqual({ sha256: createHash('sha256').update(log).digest('hex'), calls: 60 });
    expect(seen.tail[1]).toBe('Showing lines 119,996–120,000 of 120,000 (the end).');
    expect(seen.defaultRead.length).toBeLessThanOrEqual(100_000);
    expect(seen.defaultRead.note).toMatch(/To read on, call read_resource with offset \d+\./);
    expect(seen.binary.kinds).toEqual(['text', 'resource_link']);
    expect(seen.binary.size).toBeLessThan(2000);
    expect(seen.searchLinks).toContain(uriOf(root, 'notes.md'));
    expect(seen.grep.links).toEqual([uriOf(root, 'app.log')]);
    expect(seen.grep.texts[0]).toContain('  997: 12:00:37 ERROR 997 disk full');
  }, 180_000);
});

describe('per-client shaping', () => {
  it('Claude Code gets pages within its 25,000-token tool output; the settings give a client its own budget', async () => {
    const root = await makeTree({ 'big.txt': `${'word '.repeat(19)}\n`.repeat(10_000) });
    const dir = await socketDir();
    await writeFile(path.join(dir, 'settings.json'), JSON.stringify({ delivery: { clients: { 'Small-Client': { textBudget: 5000 } } } }));
    const shelf = await startShelf([root], [], { socketPath: path.join(dir, 's.sock') });
    const lengthFor = async (name: string) => {
      const c = await connectSdkClient(shelf.socketPath, name);
      try {
        return (
          ((await c.callTool({ name: 'read_resource', arguments: { uri: uriOf(root, 'big.txt') } })) as unknown as ToolResult).content[0]?.text?.length ?? 0
        );
      } finally {
        await c.close();
      }
    };
    try {
      // Whole lines of 96 characters, within each budget.
      expect(await lengthFor('claude-code')).toBe(781 * 96); // 75,000
      expect(await lengthFor('some-client')).toBe(1041 * 96); // 100,000
      expect(await lengthFor('small-client')).toBe(52 * 96); // 5,000 from the settings (names match in any case)
    } finally {
      await shelf.stop();
      await rm(root, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
