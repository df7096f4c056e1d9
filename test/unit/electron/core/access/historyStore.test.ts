import { execFileSync } from 'node:child_process';
import { appendFile, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { HistoryStore } from '../../../../../electron/core/access/historyStore.js';
import type { AccessEntry } from '../../../../../shared/shelfApi.js';
import { tempDirs } from '../../../../support/tempDirs.js';

const DAY = 86_400_000;
const roomy = { maxBytes: 64 * 1024 * 1024, maxAgeMs: 90 * DAY };

function entry(uri: string, extra: Partial<AccessEntry> = {}): Omit<AccessEntry, 'seq'> {
  return {
    time: Date.now(),
    client: 'tester',
    clientVersion: '1.0',
    protocolVersion: '2025-11-25',
    transport: 'socket',
    via: 'resource',
    uri,
    folder: '/f',
    size: 10,
    outcome: 'ok',
    errorCode: null,
    errorMessage: null,
    ...extra,
  };
}

describe('HistoryStore', () => {
  const tempDir = tempDirs('history-');

  it('keeps entries across a reopen, newest first, with per-file counts and sequence numbers that go on', async () => {
    const dir = await tempDir();
    const a = await HistoryStore.open(dir, roomy);
    a.append(entry('file:///f/a.txt', { client: 'one' }));
    a.append(entry('file:///f/a.txt', { client: 'two' }));
    a.append(entry('file:///f/b.txt', { outcome: 'denied', errorCode: 1005, errorMessage: 'no' }));
    await a.close();

    const b = await HistoryStore.open(dir, roomy);
    await b.counted;
    const page = await b.query({});
    expect(page.entries.map((e) => [e.seq, e.uri, e.outcome])).toEqual([
      [3, 'file:///f/b.txt', 'denied'],
      [2, 'file:///f/a.txt', 'ok'],
      [1, 'file:///f/a.txt', 'ok'],
    ]);
    expect(page.total).toBe(3);
    // Only successful reads count as reads of a file.
    expect(b.fileAccess()).toEqual([{ uri: 'file:///f/a.txt', reads: 2, lastTime: expect.any(Number), lastClient: 'two' }]);
    // Every client of every outcome is offered for filtering, from earlier runs too.
    expect(page.clients).toEqual(['one', 'tester', 'two']);
    expect(b.append(entry('file:///f/c.txt'))?.seq).toBe(4);
    await b.close();
  });

  it('pages newest first with filters, from memory and from older segments alike', async () => {
    const dir = await tempDir();
    const s = await HistoryStore.open(dir, roomy);
    for (let i = 0; i < 5000; i++) s.append(entry(`file:///f/${i}.txt`, { client: i % 2 === 0 ? 'even' : 'odd' }));
    await s.flush();
    const seen: number[] = [];
    let before: number | undefined;
    do {
      const page = await s.query({ client: 'even', limit: 700, ...(before !== undefined ? { beforeSeq: before } : {}) });
      seen.push(...page.entries.map((e) => e.seq));
      before = page.nextBeforeSeq;
    } while (before !== undefined);
    expect(seen).toHaveLength(2500);
    expect(seen[0]).toBe(4999);
    expect(seen.every((seq, i) => i === 0 || seq < (seen[i - 1] as number))).toBe(true);
    expect(seen.every((seq) => seq % 2 === 1)).toBe(true);
    await s.close();
  });

  it('skips a line torn by a crash and never writes into an old segment again', async () => {
    const dir = await tempDir();
    const a = await HistoryStore.open(dir, roomy);
    a.append(entry('file:///f/a.txt'));
    await a.close();
    const [first] = await readdir(dir);
    const file = path.join(dir, first as string);
    await appendFile(file, '{"seq":2,"time":1,"uri":"file:///f/torn');
    const before = await readFile(file, 'utf8');

    const b = await HistoryStore.open(dir, roomy);
    expect((await b.query({})).entries.map((e) => e.seq)).toEqual([1]);
    b.append(entry('file:///f/b.txt'));
    await b.close();
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readdir(dir)).toHaveLength(2);
    const c = await HistoryStore.open(dir, roomy);
    expect((await c.query({})).entries.map((e) => e.uri)).toEqual(['file:///f/b.txt', 'file:///f/a.txt']);
    await c.close();
  });

  it('drops the oldest segments past the byte budget and the age limit, and their reads from the counts', async () => {
    const dir = await tempDir();
    const limits = { maxBytes: 1024 * 1024, maxAgeMs: 90 * DAY };
    const s = await HistoryStore.open(dir, limits);
    const big = 'x'.repeat(1000);
    for (let i = 0; i < 4000; i++) {
      s.append(entry(i < 10 ? 'file:///f/early.txt' : `file:///f/${i}.txt`, { errorMessage: big }));
      if (i % 500 === 0) await s.flush();
    }
    await s.flush();
    const bytes = (await Promise.all((await readdir(dir)).map((n) => stat(path.join(dir, n))))).reduce((n, st) => n + st.size, 0);
    // The budget plus at most the segment being written.
    expect(bytes).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024 + 4096);
    expect(s.fileAccess().find((f) => f.uri === 'file:///f/early.txt')).toBeUndefined();
    const page = await s.query({ limit: 100_000 });
    expect(page.entries.length).toBeLessThan(4000);
    expect(page.entries[0]?.seq).toBe(4000);
    await s.close();

    // An entry older than the age limit goes at the next open.
    const old = await HistoryStore.open(await tempDir(), roomy);
    old.append(entry('file:///f/old.txt', { time: Date.now() - 10 * DAY }));
    await old.close();
    const reopened = await HistoryStore.open(old.dir, { maxBytes: roomy.maxBytes, maxAgeMs: DAY });
    await reopened.counted;
    expect((await reopened.query({})).entries).toEqual([]);
    expect(reopened.fileAccess()).toEqual([]);
    await reopened.close();
  });

  it('opens without reading earlier runs: their reads are counted in the background, and a segment pruned meanwhile is not', async () => {
    const dir = await tempDir();
    const a = await HistoryStore.open(dir, roomy);
    for (let i = 0; i < 3000; i++) a.append(entry(`file:///f/${i % 10}.pdf${i % 2 ? '?as=text' : ''}`, { client: `c${i}` }));
    await a.close();
    const b = await HistoryStore.open(dir, roomy);
    expect(b.counting).toBe(true);
    expect(b.fileAccess()).toEqual([]);
    const early = await b.query({ limit: 2 });
    // Sequence numbers go on from the newest entry before anything was counted; queries read the segments.
    expect(early.entries.map((e) => e.seq)).toEqual([3000, 2999]);
    expect(b.append(entry('file:///f/new.txt'))?.seq).toBe(3001);
    await b.counted;
    expect(b.counting).toBe(false);
    const page = await b.query({ limit: 1 });
    expect(page.total).toBe(3001);
    expect(page.counting).toBeUndefined();
    expect(page.oldest).toEqual(expect.any(Number));
    // A document's text counts as a read of the document.
    expect(b.fileAccess().find((f) => f.uri === 'file:///f/3.pdf')).toMatchObject({ reads: 300, lastClient: 'c2993' });
    expect(b.fileAccess().some((f) => f.uri.endsWith('?as=text'))).toBe(false);
    await b.close();

    // Cleared while earlier runs are counted: nothing of them comes back.
    const c = await HistoryStore.open(dir, roomy);
    await c.clear();
    await c.counted;
    expect(c.fileAccess()).toEqual([]);
    expect(c.clients()).toEqual([]);
    expect((await c.query({})).total).toBe(0);
    await c.close();
  });

  it('a FIFO or a link named like a segment is left alone: open, counting and queries neither hang nor follow it', async () => {
    const dir = await tempDir();
    const a = await HistoryStore.open(dir, roomy);
    a.append(entry('file:///f/a.txt'));
    await a.close();
    execFileSync('mkfifo', [path.join(dir, 'history-000000000900.jsonl')]);
    const outside = path.join(await tempDir(), 'elsewhere.jsonl');
    await writeFile(outside, `${JSON.stringify({ ...entry('file:///f/secret.txt'), seq: 0 })}\n`);
    // Named as the oldest segment, so a query reads it.
    await symlink(outside, path.join(dir, 'history-000000000000.jsonl'));
    const b = await HistoryStore.open(dir, roomy);
    await b.counted;
    expect((await b.query({})).entries.map((e) => e.uri)).toEqual(['file:///f/a.txt']);
    expect(b.fileAccess().map((f) => f.uri)).toEqual(['file:///f/a.txt']);
    await b.close();
  });

  it('keeps the bound when one burst holds more than a segment', async () => {
    const dir = await tempDir();
    const s = await HistoryStore.open(dir, { maxBytes: 1024 * 1024, maxAgeMs: 90 * DAY });
    for (let i = 0; i < 3000; i++) s.append(entry(`file:///f/${i}.txt`, { errorMessage: 'y'.repeat(1500) }));
    await s.flush();
    const sizes = await Promise.all((await readdir(dir)).map((n) => stat(path.join(dir, n))));
    expect(sizes.every((st) => st.size <= 256 * 1024)).toBe(true);
    expect(sizes.reduce((n, st) => n + st.size, 0)).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024);
    expect((await s.query({ limit: 1 })).entries[0]?.seq).toBe(3000);
    await s.close();
  });

  it('exports CSV with formula-looking cells defused, and JSON Lines, oldest first', async () => {
    const s = await HistoryStore.open(await tempDir(), roomy);
    s.append(entry('file:///f/a.txt', { client: '=HYPERLINK("http://evil")' }));
    s.append(entry('file:///f/b,c.txt'));
    s.append(entry('file:///f/d.txt', { client: 'x;=1+1;' }));
    const csv = await s.export({}, 'csv');
    expect(csv.count).toBe(3);
    const lines = csv.text.trim().split('\n');
    // Quoted, so a spreadsheet that splits on ";" keeps it one cell (which starts with x, not =).
    expect(lines[3]).toContain(',"x;=1+1;",');
    expect(lines[0]).toBe(
      'time,client,clientVersion,protocolVersion,transport,via,uri,folder,size,outcome,errorCode,errorReason,errorMessage,reads,detail,failure,search,change',
    );
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[2]).toContain('"file:///f/b,c.txt"');
    const jsonl = await s.export({ uri: 'file:///f/b,c.txt' }, 'jsonl');
    expect(jsonl).toMatchObject({ count: 1, matched: 1 });
    expect(JSON.parse(jsonl.text.trim())).toMatchObject({ uri: 'file:///f/b,c.txt', seq: 2 });
    await s.clear();
    expect((await s.query({})).entries).toEqual([]);
    await s.close();
  });

  it('noise (not-found reads) holds at most its share of the budget: a flood of it, from any number of clients, prunes no real read or count', async () => {
    const dir = await tempDir();
    const s = await HistoryStore.open(dir, { maxBytes: 1024 * 1024, maxAgeMs: 90 * DAY });
    s.append(entry('file:///f/real.txt', { client: 'victim' }));
    let kept = 0;
    for (let i = 0; i < 30_000; i++) {
      const junk = entry(`file:///f/junk-${i}-${'x'.repeat(100)}.txt`, {
        client: `junk-${i}`,
        folder: null,
        size: null,
        outcome: 'error',
        errorCode: -32602,
        errorMessage: 'Resource not found',
      });
      if (s.append(junk)) kept++;
    }
    await s.flush();
    expect(kept).toBeGreaterThan(100);
    expect(kept).toBeLessThan(1000);
    expect(s.noiseDropped).toBe(30_000 - kept);
    expect((await s.query({ client: 'victim' })).entries.map((e) => e.uri)).toEqual(['file:///f/real.txt']);
    expect(s.fileAccess()).toEqual([expect.objectContaining({ uri: 'file:///f/real.txt', reads: 1 })]);
    // Sequence numbers leave no gap for what was not kept.
    expect((await s.query({ limit: 1 })).entries[0]?.seq).toBe(kept + 1);
    // Real reads still take the whole budget, oldest first.
    for (let i = 0; i < 3000; i++) s.append(entry(`file:///f/${i}.txt`, { errorMessage: 'y'.repeat(1500) }));
    await s.flush();
    expect((await s.query({ client: 'victim' })).entries).toEqual([]);
    await s.close();
  });
});

describe('HistoryStore while it writes', () => {
  const tempDir = tempDirs('history-writing-');

  it('counts a batch being written in its total: a page never shows more rows than the count it gives', async () => {
    const dir = await tempDir();
    const store = await HistoryStore.open(dir, roomy);
    for (let i = 0; i < 7; i++) {
      store.append(entry(`file:///f/${i}.txt`));
      // Asked for while the entry is on its way to disk (the write has begun, not ended).
      const writing = store.flush();
      const page = await store.query({});
      expect(page.entries).toHaveLength(i + 1);
      expect(page.total).toBe(i + 1);
      await writing;
      expect((await store.query({})).total).toBe(i + 1);
    }
    await store.close();
  });
});
