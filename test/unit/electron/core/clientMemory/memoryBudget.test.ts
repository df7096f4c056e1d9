import { describe, expect, it } from 'vitest';

import { heldCost, MEMORY_LIMITS, MemoryBudget } from '../../../../../electron/core/clientMemory/memoryBudget.js';
import { ErrorCodes } from '../../../../../shared/errorCodes.js';

describe('MemoryBudget: what clients make the server keep, per connection and in total', () => {
  const limits = { total: 2000, free: 100, uris: { perAccount: 1000, total: 1500, free: 50 } };

  it('URIs: refused past a connection’s share, saying so, and taken back when released', () => {
    const budget = new MemoryBudget(limits);
    const a = budget.account();
    expect(a.holdUris(900)).toBeNull();
    expect(a.holdUris(200)).toMatch(
      /^one connection's subscriptions and listens may keep at most 1 KiB of URIs; this one keeps 1 KiB and this would add 1 KiB/,
    );
    expect(a.bytes).toBe(900);
    a.releaseUris(500);
    expect(a.holdUris(200)).toBeNull();
    expect(a.bytes).toBe(600);
  });

  it('URIs: refused past their own total, while each connection’s first bytes of URIs stay its own; a closed connection gives all back', () => {
    const budget = new MemoryBudget(limits);
    const [a, b, c] = [budget.account(), budget.account(), budget.account()];
    expect(a.holdUris(1000)).toBeNull(); // 950 of the URIs' total
    expect(b.holdUris(500)).toBeNull(); // 1400
    expect(c.holdUris(400)).toMatch(/together may keep at most 2 KiB of URIs, and they do/);
    expect(c.holdUris(50)).toBeNull(); // its free part
    expect(budget.held).toBe(1550);
    a.close();
    expect(budget.held).toBe(550);
    expect(c.holdUris(300)).toBeNull();
    expect(a.holdUris(1)).toBe('the connection is closing');
    a.releaseUris(1000); // after close: nothing moves
    expect(budget.held).toBe(850);
  });

  it('a reply’s reservation is refused once the shared total is spent, with error 1007 before any byte exists; each account’s free part still goes through', () => {
    const budget = new MemoryBudget(limits);
    const [a, b] = [budget.account(), budget.account()];
    const big = a.reserve(2100, 'reading a.txt'); // 2000 of the shared total, after its 100 free
    expect(budget.spent).toBe(true);
    let refused: unknown;
    try {
      b.reserve(500, 'reading b.txt');
    } catch (err) {
      refused = err;
    }
    expect(refused).toMatchObject({ code: ErrorCodes.serverBusy, data: { reason: 'memory' } });
    expect((refused as Error).message).toMatch(
      /^The server is busy: the memory it keeps for clients' replies \(2 KiB\) is in use, so reading b\.txt \(about 1 KiB\) was not started; try again shortly$/,
    );
    const small = b.reserve(90, 'reading c.txt'); // within b's own free part
    expect(budget.held).toBe(2190);
    big.release();
    big.release(); // once only
    expect(budget.held).toBe(90);
    expect(budget.spent).toBe(false);
    small.release();
    expect(budget.held).toBe(0);
  });

  it('bytes that already exist (input, output) are always counted; an account over its free part while the total is spent is over, and room is announced once it frees', () => {
    const budget = new MemoryBudget(limits);
    const [a, b] = [budget.account(), budget.account()];
    let rooms = 0;
    budget.onRoom(() => rooms++);
    a.set('output', 2500); // a client not reading: more than the total, counted all the same
    expect(budget.spent).toBe(true);
    expect(a.over).toBe(true);
    expect(b.over).toBe(false);
    b.set('input', 50);
    expect(b.over).toBe(false); // within its free part
    expect(() => b.reserve(100, 'a read')).toThrow(/busy/);
    a.set('output', 1000);
    expect(rooms).toBe(1);
    expect(a.over).toBe(false);
    expect(() => b.reserve(100, 'a read').release()).not.toThrow();
    a.close();
    b.close();
    expect(budget.held).toBe(0);
  });

  it('the standard bounds: 256 MiB shared, 128 KiB each account’s own; URIs 4 MiB a connection, 64 MiB in all; a URI costs two bytes a character and its entry', () => {
    expect(MEMORY_LIMITS).toEqual({
      total: 256 * 1024 * 1024,
      free: 128 * 1024,
      uris: { perAccount: 4 * 1024 * 1024, total: 64 * 1024 * 1024, free: 32 * 1024 },
    });
    expect(heldCost('abc')).toBe(70);
  });
});
