import { afterEach, describe, expect, it, vi } from 'vitest';

import { type EntryDraft, isNoise, NoiseFolder } from '../../../../../electron/core/access/noiseFolder.js';

const notFound = (i: number, time = 1000 + i): EntryDraft => ({
  time,
  client: 'prober',
  clientVersion: '1',
  protocolVersion: '2025-11-25',
  transport: 'socket',
  via: 'resource',
  uri: `file:///nope/${i}`,
  folder: null,
  size: null,
  outcome: 'error',
  errorCode: -32602,
  errorMessage: 'Resource not found',
});

function folder(windowMs = 60_000) {
  const written: EntryDraft[] = [];
  return { written, noise: new NoiseFolder({ write: (e) => written.push(e), windowMs }) };
}

describe('NoiseFolder', () => {
  afterEach(() => vi.useRealTimers());

  it('writes a run’s first few not-found reads, then one entry for the rest when the client reads a real file', () => {
    const { written, noise } = folder();
    for (let i = 0; i < 1000; i++) noise.noise(7, notFound(i));
    expect(written.map((e) => e.uri)).toEqual(['file:///nope/0', 'file:///nope/1', 'file:///nope/2']);
    noise.real(7);
    expect(written).toHaveLength(4);
    expect(written[3]).toMatchObject({ uri: 'file:///nope/999', repeated: 997, time: 1999 });
    expect(written[3]?.errorMessage).toMatch(/^997 more like this in a row since .*: Resource not found$/);
    // A new run after the real read shows its first few again.
    noise.noise(7, notFound(2000));
    expect(written).toHaveLength(5);
    noise.real(7);
    expect(written).toHaveLength(5);
  });

  it('folds by reason: a run of outside, secret and missing reads is one entry per reason, each saying which', () => {
    const { written, noise } = folder();
    const reasons = ['outside', 'secret', 'not-found'] as const;
    for (let i = 0; i < 3; i++) noise.noise(7, notFound(i));
    for (let i = 3; i < 903; i++) noise.noise(7, { ...notFound(i), failure: reasons[i % 3] });
    noise.real(7);
    const summaries = written.slice(3);
    expect(summaries.map((e) => [e.failure, e.repeated])).toEqual([
      ['outside', 300],
      ['secret', 300],
      ['not-found', 300],
    ]);
  });

  it('keeps connections apart, writes what a closed one folded, and a flood that goes on is one entry a window', () => {
    vi.useFakeTimers();
    const { written, noise } = folder(1000);
    for (let i = 0; i < 10; i++) noise.noise(1, notFound(i));
    for (let i = 0; i < 10; i++) noise.noise(2, notFound(100 + i));
    expect(written).toHaveLength(6);
    noise.closed(2);
    expect(written.at(-1)).toMatchObject({ uri: 'file:///nope/109', repeated: 7 });
    vi.advanceTimersByTime(1000);
    expect(written.at(-1)).toMatchObject({ uri: 'file:///nope/9', repeated: 7 });
    // Still flooding: folded straight away (no new "first few"), summed again at the next window.
    for (let i = 0; i < 50; i++) noise.noise(1, notFound(10 + i, 1500));
    expect(written).toHaveLength(8);
    vi.advanceTimersByTime(1000);
    expect(written.at(-1)).toMatchObject({ repeated: 50 });
    // After a quiet window, a new run shows its first few again.
    noise.noise(1, notFound(99, 10_000));
    expect(written.at(-1)).toMatchObject({ uri: 'file:///nope/99' });
    expect(written.at(-1)?.repeated).toBeUndefined();
    noise.close();
  });

  it('counts as noise what a client can make at will: not found, and refusals nobody was asked about', () => {
    expect(isNoise({ outcome: 'error', errorCode: -32602 })).toBe(true);
    expect(isNoise({ outcome: 'denied', errorCode: 1005, errorReason: 'no-window' })).toBe(true);
    expect(isNoise({ outcome: 'denied', errorCode: 1005, errorReason: 'busy' })).toBe(true);
    // Asked, but cancelled by the client: it can read and cancel again and again.
    expect(isNoise({ outcome: 'denied', errorCode: 1005, errorReason: 'cancelled' })).toBe(true);
    // The person answered, or an ask waited out its time: real.
    expect(isNoise({ outcome: 'denied', errorCode: 1005, errorReason: 'denied' })).toBe(false);
    expect(isNoise({ outcome: 'denied', errorCode: 1005, errorReason: 'timeout' })).toBe(false);
    expect(isNoise({ outcome: 'error', errorCode: 1003 })).toBe(false);
    expect(isNoise({ outcome: 'ok', errorCode: null })).toBe(false);
  });
});
