import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ChangeProposal } from '../../shared/changeTypes.js';
import { ErrorCodes } from '../../shared/errorCodes.js';
import { eventually, fingerprint, makeTree, uriOf } from '../support/fixtures.js';
import { CLI, connectSdkClient, type ShelfProcess, startShelf } from '../support/shelfProcess.js';
import { connectWebApi, type WebApi } from '../support/webApi.js';

/**
 * Changes by AI against the real `mcp-shelf serve --ui`, with official
 * clients as the model's (the Python SDK through the bridge, the TS v2
 * client over HTTP, the v1 client for tools/list_changed) and the window's
 * own WebSocket API as the person deciding. Nothing is written before the
 * person approves; conflicts, escapes and floods write nothing.
 */

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = path.join(ROOT, '.venv-py', 'bin', 'python');
if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run "npm run setup:python" (npm test does)`);

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown> & { error?: { code: number; data?: { reason?: string } } };
}
const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');
const reasonOf = (r: ToolResult) => r.structuredContent?.error?.data?.reason;

describe('changes by AI, approved in the window', () => {
  let base: string;
  let root: string;
  let outside: string;
  let shelf: ShelfProcess;
  let api: WebApi;
  let http: V2Client;
  let outsidePrint: string;

  beforeAll(async () => {
    base = await makeTree({
      'pub/notes.md': 'an old draft line\nanother line\n',
      'pub/keep.md': 'the person keeps this\n',
      'pub/.env': 'TOKEN=1\n',
      'pub/.git/config': '[core]\n',
      'pub/sub/inner.md': 'inner\n',
      'outside/target.md': 'OUTSIDE\n',
    });
    root = path.join(base, 'pub');
    outside = path.join(base, 'outside');
    await symlink(path.join(outside, 'target.md'), path.join(root, 'link.md'));
    await symlink(outside, path.join(root, 'linked-dir'));
    outsidePrint = await fingerprint(outside);
    shelf = await startShelf([root], ['--allow-changes', '--ui', '--ui-port', '0', '--no-open', '--http', '0']);
    api = await connectWebApi(shelf);
    http = new V2Client({ name: 'v2-writer', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await http.connect(new V2Http(new URL(shelf.http?.url as string), { requestInit: { headers: { Authorization: `Bearer ${shelf.http?.token}` } } }));
  });
  afterAll(async () => {
    await http?.close();
    await api?.close();
    await shelf?.stop();
    await rm(base, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown>) => http.callTool({ name, arguments: args }) as Promise<ToolResult>;
  const waitingFor = (p: string) =>
    eventually(async () => (await api.call('pendingChanges')).find((c: ChangeProposal) => c.path === p), 10_000, `a proposal for ${p}`);

  it('the Python SDK through the bridge: a new file approved is on disk byte for byte; an edit declined leaves the file; edits that match twice or not at all are refused without asking', async () => {
    const decided: string[] = [];
    const before = api.events('changes').length;
    const decide = (async () => {
      const created = await waitingFor('reports/q3/summary.md');
      expect(created).toMatchObject({ kind: 'create', client: 'python-writer', transport: 'socket', newFolders: ['reports', 'reports/q3'] });
      const diff = await api.call('changeDiff', created.id, 0, 50, true);
      expect(diff?.hunks[0]?.lines.map((l) => l.op)).toEqual(['+', '+', '+']);
      decided.push('created');
      await api.call('answerChange', created.id, { approve: true });
      const edit = await waitingFor('notes.md');
      decided.push('declined');
      await api.call('answerChange', edit.id, { approve: false });
    })();
    const { stdout } = await run(PYTHON, [
      path.join(ROOT, 'test/integration/interop/python_changes.py'),
      process.execPath,
      CLI,
      shelf.socketPath,
      uriOf(root, ''),
    ]);
    await decide;
    const out = JSON.parse(stdout) as Record<string, { isError: boolean; texts: string[]; structured: ToolResult['structuredContent'] }> & { tools: string[] };
    expect(out.tools).toEqual(expect.arrayContaining(['write_resource', 'edit_resource', 'read_resource']));
    expect(out.created?.isError).toBe(false);
    expect(out.created?.texts[0]).toMatch(
      /^Written file:\/\/.*summary\.md: 45 bytes, 3 lines \(\+3 −0\), approved by the person\. It made the folder\(s\) reports, reports\/q3\./,
    );
    expect(await readFile(path.join(root, 'reports/q3/summary.md'))).toEqual(Buffer.from('# Summary\n\nThe quarterly numbers grew. é€\n'));
    expect(out.declined).toMatchObject({ isError: true, structured: { error: { code: ErrorCodes.changeNotMade, data: { reason: 'declined' } } } });
    expect(await readFile(path.join(root, 'notes.md'), 'utf8')).toBe('an old draft line\nanother line\n');
    expect(out.twice?.structured?.error?.data?.reason).toBe('ambiguous');
    expect(out.twice?.texts[0]).toMatch(/occurs twice \(lines 1, 2\); make it longer/);
    expect(out.missing?.structured?.error?.data?.reason).toBe('no-match');
    expect(out.missing?.texts[0]).toMatch(/The nearest line is 1: "an old draft line"/);
    expect(out.dryRun?.texts[0]).toContain('-an old draft line\n+an old final line');
    // Two proposals reached the window (the ones decided); the refused edits and the dry run asked nobody.
    expect(decided).toEqual(['created', 'declined']);
    const proposals = api.events('changes').slice(before).flat();
    expect(new Set(proposals.map((p) => p.path))).toEqual(new Set(['reports/q3/summary.md', 'notes.md']));
    // History has both, with who and lines ±.
    const history = await api.call('queryHistory', { kind: 'change' });
    expect(history.entries.slice(0, 2).map((e) => [e.change?.outcome, e.client, e.change?.added])).toEqual([
      ['declined', 'python-writer', 1],
      ['written', 'python-writer', 3],
    ]);
  }, 120_000);

  it('TS v2 over HTTP: a file changed while its proposal waits is a conflict, and the person’s version is kept; Undo puts back the version before an approved edit', async () => {
    const uri = uriOf(root, 'keep.md');
    const pending = call('edit_resource', { uri, edits: [{ oldText: 'keeps this', newText: 'lost this' }] });
    const proposal = await waitingFor('keep.md');
    await writeFile(path.join(root, 'keep.md'), 'the person edited it meanwhile\n');
    await api.call('answerChange', proposal.id, { approve: true });
    const conflict = await pending;
    expect(reasonOf(conflict)).toBe('conflict');
    expect(text(conflict)).toContain('How your text differs from the file as it is now');
    expect(await readFile(path.join(root, 'keep.md'), 'utf8')).toBe('the person edited it meanwhile\n');

    const edit = call('edit_resource', { uri, edits: [{ oldText: 'meanwhile', newText: 'by the model' }] });
    await api.call('answerChange', (await waitingFor('keep.md')).id, { approve: true });
    expect((await edit).structuredContent).toMatchObject({ status: 'written', added: 1, removed: 1 });
    expect(await readFile(path.join(root, 'keep.md'), 'utf8')).toBe('the person edited it by the model\n');
    const entry = (await api.call('queryHistory', { kind: 'change' })).entries[0];
    const undoId = entry?.change?.undoId as string;
    expect(await api.call('undoStates', [undoId])).toEqual({ [undoId]: 'available' });
    expect(await api.call('undoChange', undoId)).toMatchObject({ ok: true });
    expect(await readFile(path.join(root, 'keep.md'), 'utf8')).toBe('the person edited it meanwhile\n');
    expect(await api.call('undoStates', [undoId])).toEqual({ [undoId]: 'undone' });
    expect(await api.call('undoChange', undoId)).toMatchObject({ ok: false, state: 'undone', message: expect.stringMatching(/undone already/) });
  }, 120_000);

  it('Undo refuses when the file changed again since, and says so', async () => {
    const uri = uriOf(root, 'undo-me.md');
    const write = call('write_resource', { uri, text: 'v1\n' });
    await api.call('answerChange', (await waitingFor('undo-me.md')).id, { approve: true });
    expect((await write).structuredContent).toMatchObject({ status: 'written', created: true });
    const undoId = (await api.call('queryHistory', { kind: 'change' })).entries[0]?.change?.undoId as string;
    await writeFile(path.join(root, 'undo-me.md'), 'v2 by the person\n');
    expect(await api.call('undoChange', undoId)).toMatchObject({ ok: false, state: 'changed-since', message: expect.stringMatching(/changed again since/) });
    expect(await readFile(path.join(root, 'undo-me.md'), 'utf8')).toBe('v2 by the person\n');
  }, 60_000);

  it('the person may edit the text before approving: what they wrote is what is written, and the model is told', async () => {
    const uri = uriOf(root, 'edited.md');
    const write = call('write_resource', { uri, text: 'the model wrote this\n' });
    await api.call('answerChange', (await waitingFor('edited.md')).id, { approve: true, text: 'the person wrote this instead\n' });
    const r = await write;
    expect(r.structuredContent).toMatchObject({ status: 'written', edited: true });
    expect(text(r)).toContain('The person edited your text before approving it');
    expect(await readFile(path.join(root, 'edited.md'), 'utf8')).toBe('the person wrote this instead\n');
  }, 60_000);

  it('a large change is diffed off the main thread: its prompt has the diff line by line, and approving writes it', async () => {
    // 100,000 lines (1.4 MB) with 30 lines changed: made in the diff worker (over 64 KiB), which the built server has.
    const lines = Array.from({ length: 100_000 }, (_, i) => `row ${i} of the ledger`);
    await writeFile(path.join(root, 'ledger.txt'), `${lines.join('\n')}\n`);
    const changed = lines.map((l, i) => (i % 3_400 === 7 ? `${l}, corrected` : l));
    const uri = uriOf(root, 'ledger.txt');
    const write = call('write_resource', { uri, text: `${changed.join('\n')}\n` });
    // 1.4 MB each way and a worker's first start: a busy machine takes its time (the deadline is for a failure).
    const proposal = (await eventually(
      async () => (await api.call('pendingChanges')).find((c: ChangeProposal) => c.path === 'ledger.txt'),
      90_000,
      'a proposal for ledger.txt',
    )) as ChangeProposal;
    expect(proposal).toMatchObject({ added: 30, removed: 30, hunks: 30 });
    const page = await api.call('changeDiff', proposal.id, 0, 40, false);
    expect(page?.hunks[0]?.lines.map((l: { op: string; text: string }) => `${l.op}${l.text}`)).toContain('+row 7 of the ledger, corrected');
    await api.call('answerChange', proposal.id, { approve: true });
    expect((await write).structuredContent).toMatchObject({ status: 'written', added: 30, removed: 30 });
    expect(await readFile(path.join(root, 'ledger.txt'), 'utf8')).toBe(`${changed.join('\n')}\n`);
  }, 180_000);

  it('every escape is refused without a prompt, and nothing is written outside the folder', async () => {
    const before = api.events('changes').length;
    const attempts: Array<[string, string]> = [
      ['dot-dot', `${uriOf(root, '')}/../outside/target.md`],
      ['encoded dot-dot', `${uriOf(root, '')}/%2e%2e/outside/new.md`],
      ['dot-dot with encoded slash', `${uriOf(root, '')}/..%2Foutside%2Fnew.md`],
      ['a symlinked file', uriOf(root, 'link.md')],
      ['a symlinked parent', uriOf(root, 'linked-dir/new.md')],
      ['.env', uriOf(root, '.env')],
      ['.git/config', uriOf(root, '.git/config')],
      ['a name with NUL', `${uriOf(root, 'nul')}%00.md`],
      ['outside every folder', uriOf(outside, 'new.md')],
    ];
    for (const [what, uri] of attempts) {
      const r = await call('write_resource', { uri, text: 'PWNED\n' });
      expect(r.isError, what).toBe(true);
      expect(['not-published', 'not-a-file'], `${what}: ${text(r)}`).toContain(reasonOf(r));
    }
    expect(api.events('changes').length).toBe(before); // nobody was asked
    expect(await fingerprint(outside)).toBe(outsidePrint);
    expect(await readFile(path.join(root, '.env'), 'utf8')).toBe('TOKEN=1\n');
  }, 60_000);

  it('a folder swapped for a link while its change waits writes nothing outside', async () => {
    const write = call('write_resource', { uri: uriOf(root, 'sub/swapped.md'), text: 'PWNED\n' });
    const proposal = await waitingFor('sub/swapped.md');
    await rename(path.join(root, 'sub'), path.join(base, 'sub-moved'));
    await symlink(outside, path.join(root, 'sub'));
    await api.call('answerChange', proposal.id, { approve: true });
    const r = await write;
    expect(r.isError).toBe(true);
    expect(reasonOf(r)).toBe('not-a-file');
    expect(await fingerprint(outside)).toBe(outsidePrint);
    expect(await readdir(outside)).toEqual(['target.md']);
    await rm(path.join(root, 'sub'));
    await rename(path.join(base, 'sub-moved'), path.join(root, 'sub'));
  }, 60_000);

  it('a flood of proposals from one client stays within its share, while another client’s reads are answered', async () => {
    const flood = Array.from({ length: 30 }, (_, i) => call('write_resource', { uri: uriOf(root, `flood/f${i}.md`), text: `${i}\n` }));
    await eventually(async () => ((await api.call('pendingChanges')).length >= 4 ? true : null), 10_000, 'the first proposals');
    const reader = await connectSdkClient(shelf.socketPath, 'bystander');
    try {
      for (let i = 0; i < 10; i++) expect((await reader.readResource({ uri: uriOf(root, 'notes.md') })).contents).toHaveLength(1);
    } finally {
      await reader.close();
    }
    const waiting = await api.call('pendingChanges');
    expect(waiting.length).toBeLessThanOrEqual(8);
    for (const p of waiting) await api.call('answerChange', p.id, { approve: false });
    const results = await Promise.all(flood);
    const reasons = results.map(reasonOf);
    expect(reasons.filter((r) => r === 'busy').length).toBeGreaterThanOrEqual(20);
    expect(reasons.every((r) => r === 'busy' || r === 'declined')).toBe(true);
    expect(existsSync(path.join(root, 'flood'))).toBe(false);
  }, 60_000);
});

describe('changes by AI, off or with nobody to ask', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTree({ 'a.md': 'alpha\n' });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('with no window open, a change is refused at once, saying why, and nothing is written', async () => {
    const shelf = await startShelf([root], ['--allow-changes']);
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const r = (await client.callTool({ name: 'write_resource', arguments: { uri: uriOf(root, 'a.md'), text: 'beta\n' } })) as ToolResult;
      expect(reasonOf(r)).toBe('no-window');
      expect(text(r)).toMatch(/no MCP Shelf window is open/);
      expect(await readFile(path.join(root, 'a.md'), 'utf8')).toBe('alpha\n');
    } finally {
      await client.close();
      await shelf.stop();
    }
  }, 60_000);

  it('while no folder allows changes the tools are not listed and a forced call is refused; turning changes on and off sends tools/list_changed', async () => {
    const shelf = await startShelf([root], ['--ui', '--ui-port', '0', '--no-open']);
    const api = await connectWebApi(shelf);
    const client: Client = await connectSdkClient(shelf.socketPath);
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      expect(await names()).not.toContain('write_resource');
      const forced = (await client.callTool({
        name: 'edit_resource',
        arguments: { uri: uriOf(root, 'a.md'), edits: [{ oldText: 'alpha', newText: 'x' }] },
      })) as ToolResult;
      expect(reasonOf(forced)).toBe('off');
      expect(text(forced)).toMatch(/No published folder lets a model change files/);
      await api.call('setFolderOptions', root, { changes: 'ask' });
      await eventually(() => listChanged >= 1, 10_000, 'tools/list_changed');
      expect(await names()).toEqual(expect.arrayContaining(['write_resource', 'edit_resource']));
      await api.call('setFolderOptions', root, { changes: 'off' });
      await eventually(() => listChanged >= 2, 10_000, 'tools/list_changed again');
      expect(await names()).not.toContain('edit_resource');
      expect(await readFile(path.join(root, 'a.md'), 'utf8')).toBe('alpha\n');
    } finally {
      await client.close();
      await api.close();
      await shelf.stop();
    }
  }, 60_000);

  it('in a folder that allows no changes, a change is refused and names the folder option', async () => {
    const other = await makeTree({ 'b.md': 'b\n' });
    const shelf = await startShelf([root, other], ['--ui', '--ui-port', '0', '--no-open']);
    const api = await connectWebApi(shelf);
    await api.call('setFolderOptions', root, { changes: 'ask' });
    const client = await connectSdkClient(shelf.socketPath);
    try {
      const r = (await client.callTool({ name: 'write_resource', arguments: { uri: uriOf(other, 'b.md'), text: 'x\n' } })) as ToolResult;
      expect(reasonOf(r)).toBe('off');
      expect(text(r)).toMatch(/Changes by AI are off for .*Options/);
      await mkdir(path.join(other, 'never'), { recursive: true });
      expect(await readFile(path.join(other, 'b.md'), 'utf8')).toBe('b\n');
    } finally {
      await client.close();
      await api.close();
      await shelf.stop();
      await rm(other, { recursive: true, force: true });
    }
  }, 60_000);
});
