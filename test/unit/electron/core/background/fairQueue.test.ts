import { describe, expect, it } from 'vitest';

import { FairQueue } from '../../../../../electron/core/background/fairQueue.js';

describe('FairQueue', () => {
  it('serves parties in turn, the one served longest ago first, each in its own order', () => {
    const q = new FairQueue<string>({ total: 64, perParty: 8 });
    for (const j of ['a1', 'a2', 'a3', 'a4']) expect(q.push('a', j)).toBeNull();
    expect(q.shift()).toBe('a1'); // a is at work
    expect(q.push('b', 'b1')).toBeNull(); // b comes after a's others, and is served next
    expect(q.push('c', 'c1')).toBeNull();
    expect([q.shift(), q.shift(), q.shift(), q.shift(), q.shift(), q.shift()]).toEqual(['b1', 'c1', 'a2', 'a3', 'a4', undefined]);
    expect(q.size).toBe(0);
    // a was served last: when a and b both wait again, b goes first although a came first.
    q.push('a', 'a5');
    q.push('b', 'b2');
    expect([q.shift(), q.shift()]).toEqual(['b2', 'a5']);
  });

  it("refuses past a party's share and past the total, and the refusal says which", () => {
    const q = new FairQueue<number>({ total: 5, perParty: 2 });
    expect([q.push('a', 1), q.push('a', 2), q.push('a', 3)]).toEqual([null, null, 'party-full']);
    expect([q.push('b', 1), q.push('b', 2), q.push('c', 1), q.push('d', 1)]).toEqual([null, null, null, 'full']);
    expect(q.drain().sort()).toEqual([1, 1, 1, 2, 2]);
    expect(q.size).toBe(0);
  });

  it('keeps a bounded memory of parties however many come and go', () => {
    const q = new FairQueue<number>({ total: 4, perParty: 1 });
    for (let i = 0; i < 5_000; i++) {
      q.push(`p${i}`, i);
      expect(q.shift()).toBe(i);
    }
    expect((q as unknown as { served: Map<string, number> }).served.size).toBeLessThanOrEqual(1_024);
  });
});
