import { describe, expect, it, vi } from 'vitest';

import { AskGate, type Requester } from '../../../../../electron/core/access/askGate.js';
import { RequestCancel } from '../../../../../electron/core/base/requestCancel.js';
import { MemoryBudget } from '../../../../../electron/core/clientMemory/memoryBudget.js';
import type { AccessAsk } from '../../../../../shared/shelfApi.js';

const memory = new MemoryBudget().account();
const who = (connectionId: number, name: string | null = `client-${connectionId}`): Requester => ({
  connectionId,
  memory,
  name,
  version: '1',
  protocolVersion: '2026-07-28',
  transport: 'socket',
  connectedAt: 1000,
  grantable: true,
});
/** A 2026-07-28 HTTP client: no connection of its own, only the name it sends. */
const modernHttp = (name: string): Requester => ({
  connectionId: 99,
  memory,
  name,
  version: '1',
  protocolVersion: '2026-07-28',
  transport: 'http',
  connectedAt: 1000,
  grantable: false,
});
const target = (name: string, folder = '/f') => ({ uri: `file://${folder}/${name}`, folder, path: name, size: 3 });

function gate(windows = 1, timeoutMs = 5000) {
  const seen: AccessAsk[][] = [];
  const g = new AskGate({ timeoutMs: () => timeoutMs, windows: () => windows, changed: (asks) => seen.push(asks) });
  return { g, seen };
}

const outcome = (p: Promise<void>) =>
  p.then(
    () => 'allowed',
    (e: { code: number; data: { reason: string } }) => `${e.code}:${e.data.reason}`,
  );

describe('AskGate', () => {
  it('waits for an answer: once allows one read, deny refuses with 1005 and the reason', async () => {
    const { g, seen } = gate();
    const first = outcome(g.check(who(1), target('a.txt')));
    expect(g.pending()).toMatchObject([{ client: 'client-1', path: 'a.txt', folder: '/f' }]);
    expect(g.answer(g.pending()[0]!.id, 'once')).toBe(true);
    expect(await first).toBe('allowed');
    // "Once" grants nothing more.
    const second = outcome(g.check(who(1), target('a.txt')));
    expect(g.pending()).toHaveLength(1);
    g.answer(g.pending()[0]!.id, 'deny');
    expect(await second).toBe('1005:denied');
    expect(seen.at(-1)).toEqual([]);
    expect(g.answer(12345, 'once')).toBe(false);
  });

  it('allowing the client covers its other reads from that folder until it disconnects, and no one else', async () => {
    const { g } = gate();
    const a = outcome(g.check(who(1), target('a.txt')));
    const b = outcome(g.check(who(1), target('b.txt')));
    const other = outcome(g.check(who(2), target('a.txt')));
    g.answer(g.pending()[0]!.id, 'client');
    expect(await a).toBe('allowed');
    expect(await b).toBe('allowed');
    expect(g.pending().map((p) => p.connectionId)).toEqual([2]);
    expect(await outcome(g.check(who(1), target('c.txt')))).toBe('allowed');
    // Another folder still asks.
    const elsewhere = outcome(g.check(who(1), target('x.txt', '/g')));
    expect(g.pending()).toHaveLength(2);
    g.connectionClosed(1);
    expect(await elsewhere).toBe('1005:disconnected');
    const again = outcome(g.check(who(1), target('c.txt')));
    expect(g.pending().some((p) => p.connectionId === 1)).toBe(true);
    g.close();
    expect(await again).toBe('1005:no-window');
    expect(await other).toBe('1005:no-window');
  });

  it('refuses at once without a window, denies at the timeout, and bounds what waits', async () => {
    expect(await outcome(gate(0).g.check(who(1), target('a.txt')))).toBe('1005:no-window');
    const quick = gate(1, 30).g;
    expect(await outcome(quick.check(who(1), target('a.txt')))).toBe('1005:timeout');
    const { g } = gate();
    const waits = Array.from({ length: 9 }, (_, i) => outcome(g.check(who(1), target(`${i}.txt`))));
    expect(await waits[8]).toBe('1005:busy');
    // The same file asked twice by one client is one ask.
    void g.check(who(2), target('same.txt')).catch(() => undefined);
    void g.check(who(2), target('same.txt')).catch(() => undefined);
    expect(g.pending().filter((p) => p.connectionId === 2)).toHaveLength(1);
    g.folderChanged('/f', false);
    expect(await waits[0]).toBe('allowed');
    expect(g.pending()).toEqual([]);
  });

  it('a 2026-07-28 HTTP client can be allowed once only: "this client" grants nothing another request with its name could borrow', async () => {
    const { g } = gate();
    const first = outcome(g.check(modernHttp('Claude'), target('a.txt')));
    expect(g.pending()[0]).toMatchObject({ allowClient: false, transport: 'http', connectedAt: 1000 });
    g.answer(g.pending()[0]!.id, 'client');
    expect(await first).toBe('allowed');
    // The next request under that name (any program can send it) is asked about again.
    const borrowed = outcome(g.check(modernHttp('Claude'), target('b.txt')));
    expect(g.pending()).toHaveLength(1);
    // Two requests for the same file are two asks: allowing one does not allow the other.
    const twin = outcome(g.check(modernHttp('Claude'), target('b.txt')));
    expect(g.pending()).toHaveLength(2);
    g.answer(g.pending()[0]!.id, 'once');
    expect(await borrowed).toBe('allowed');
    g.answer(g.pending()[0]!.id, 'deny');
    expect(await twin).toBe('1005:denied');
  });

  it('the waiting list is shared fairly: one party on many connections cannot keep another out', async () => {
    const { g } = gate();
    const flood: Array<Promise<string>> = [];
    // One name over 8 connections, 8 reads each: it gets one party's share (16), the rest busy.
    for (let c = 1; c <= 8; c++) for (let i = 0; i < 8; i++) flood.push(outcome(g.check(who(c, 'flood'), target(`${c}-${i}.txt`))));
    expect(g.pending()).toHaveLength(16);
    // Distinct names, 8 connections each holding 8: the list fills…
    for (let c = 11; c <= 16; c++) for (let i = 0; i < 8; i++) flood.push(outcome(g.check(who(c), target(`${c}-${i}.txt`))));
    expect(g.pending()).toHaveLength(64);
    // …and a new client still gets its ask shown: the largest party's newest ask makes room.
    const newcomer = outcome(g.check(who(50, 'Claude Desktop'), target('mine.txt')));
    expect(g.pending().some((p) => p.client === 'Claude Desktop')).toBe(true);
    expect(g.pending()).toHaveLength(64);
    expect(g.pending().filter((p) => p.client === 'flood')).toHaveLength(15);
    g.answer(g.pending().find((p) => p.client === 'Claude Desktop')!.id, 'once');
    expect(await newcomer).toBe('allowed');
    g.close();
    expect((await Promise.all(flood)).filter((o) => o === '1005:busy').length).toBe(8 * 8 - 16 + 1);
  });

  it('within a party (a name anyone can give), a connection with fewer asks takes the place of the busiest connection’s newest', async () => {
    const { g } = gate();
    const squatter: Array<Promise<string>> = [];
    // Someone gives the name "Claude Desktop" on two connections and holds the party's 16.
    for (let c = 1; c <= 2; c++) for (let i = 0; i < 8; i++) squatter.push(outcome(g.check(who(c, 'Claude Desktop'), target(`${c}-${i}.txt`))));
    expect(g.pending()).toHaveLength(16);
    const real = outcome(g.check(who(9, 'Claude Desktop'), target('mine.txt')));
    expect(g.pending().some((p) => p.connectionId === 9)).toBe(true);
    expect(g.pending()).toHaveLength(16);
    // New connections of the squatter only push out its own asks, never the newcomer's one.
    for (let c = 3; c <= 10; c++) squatter.push(outcome(g.check(who(c === 9 ? 99 : c, 'Claude Desktop'), target(`again-${c}.txt`))));
    expect(g.pending().filter((p) => p.connectionId === 9)).toHaveLength(1);
    expect(g.pending()).toHaveLength(16);
    g.answer(g.pending().find((p) => p.connectionId === 9)!.id, 'once');
    expect(await real).toBe('allowed');
    g.close();
    expect((await Promise.all(squatter)).filter((o) => o === '1005:busy')).toHaveLength(9);
  });
  it('a read cancelled before its ask was made asks nobody (the window never sees it)', async () => {
    const { g, seen } = gate();
    const cancel = new RequestCancel();
    cancel.cancel(); // the cancel came while the read was still looking its file up
    expect(await outcome(g.check(who(1), target('a.txt'), cancel))).toBe('1005:cancelled');
    expect(seen).toEqual([]);
  });

  it('a read-cancel loop raises no more asks than its connection’s share per ask timeout; other connections are not held up', async () => {
    const { g, seen } = gate(1, 60_000);
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++) {
      const cancel = new RequestCancel();
      const read = outcome(g.check(who(1), target('a.txt'), cancel));
      cancel.cancel();
      outcomes.push(await read);
    }
    // Each ask made reached the person (list, notification): 8, as if they had stayed; the rest were busy.
    const asked = new Set(seen.flatMap((list) => list.map((a) => a.id)));
    expect(asked.size).toBe(8);
    expect(outcomes.filter((o) => o === '1005:cancelled')).toHaveLength(8);
    expect(outcomes.filter((o) => o === '1005:busy')).toHaveLength(22);
    expect(g.pending()).toEqual([]);
    // Another connection is asked as usual; the looping one again once it reconnects.
    const other = outcome(g.check(who(2), target('a.txt')));
    expect(g.pending().map((a) => a.connectionId)).toEqual([2]);
    g.connectionClosed(1);
    void g.check(who(1), target('b.txt')).catch(() => undefined);
    expect(g.pending().map((a) => a.connectionId)).toEqual([2, 1]);
    g.close();
    expect(await other).toBe('1005:no-window');
  });

  it('a withdrawn ask stops counting at its deadline', async () => {
    vi.useFakeTimers();
    try {
      const { g } = gate(1, 60_000);
      for (let i = 0; i < 8; i++) {
        const cancel = new RequestCancel();
        const read = outcome(g.check(who(1), target(`${i}.txt`), cancel));
        cancel.cancel();
        expect(await read).toBe('1005:cancelled');
      }
      expect(await outcome(g.check(who(1), target('late.txt')))).toBe('1005:busy');
      vi.advanceTimersByTime(60_000);
      const late = outcome(g.check(who(1), target('late.txt')));
      expect(g.pending()).toHaveLength(1);
      g.close();
      expect(await late).toBe('1005:no-window');
    } finally {
      vi.useRealTimers();
    }
  });
});
