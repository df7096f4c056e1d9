import { describe, expect, it } from 'vitest';

import { HELD_LIMITS, HeldBytes, heldCost } from '../../../../../electron/core/clientMemory/heldBytes.js';

describe('HeldBytes: what clients make the server keep, per connection and in total', () => {
  const limits = { perConnection: 1000, total: 2000, free: 100 };

  it('refuses past a connection’s share, saying so, and takes back what is released', () => {
    const held = new HeldBytes(limits);
    const a = held.account();
    expect(a.hold(900)).toBeNull();
    expect(a.hold(200)).toMatch(/^one connection's subscriptions and listens may keep at most 1 KiB of URIs; this one keeps 1 KiB and this would add 1 KiB/);
    expect(a.bytes).toBe(900);
    a.release(500);
    expect(a.hold(200)).toBeNull();
    expect(a.bytes).toBe(600);
  });

  it('refuses past the total, while each connection’s first bytes stay its own; a closed connection gives all back', () => {
    const held = new HeldBytes(limits);
    const [a, b, c] = [held.account(), held.account(), held.account()];
    expect(a.hold(1000)).toBeNull(); // 900 of the total
    expect(b.hold(1000)).toBeNull(); // 1800
    expect(c.hold(400)).toMatch(/together may keep at most 2 KiB of URIs, and they do/);
    expect(c.hold(100)).toBeNull(); // its free part
    expect(held.held).toBe(2100);
    a.close();
    expect(held.held).toBe(1100);
    expect(c.hold(300)).toBeNull();
    expect(a.hold(1)).toBe('the connection is closing');
    a.release(1000); // after close: nothing moves
    expect(held.held).toBe(1400);
  });

  it('the standard bounds: 4 MiB a connection, 64 MiB in all; a URI costs two bytes a character and its entry', () => {
    expect(HELD_LIMITS).toEqual({ perConnection: 4 * 1024 * 1024, total: 64 * 1024 * 1024, free: 32 * 1024 });
    expect(heldCost('abc')).toBe(70);
  });
});
