import { describe, expect, it } from 'vitest';

import { LineFramer } from '../../../../../electron/core/transport/lineFramer.js';

function collect(max: number) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const framer = new LineFramer(
    max,
    (l) => lines.push(l.toString()),
    (n) => overflows.push(n),
  );
  return { framer, lines, overflows };
}

describe('LineFramer', () => {
  it('splits lines across and within chunks', () => {
    const { framer, lines } = collect(100);
    framer.push(Buffer.from('{"a":1}\n{"b"'));
    framer.push(Buffer.from(':2}\n\n{"c":3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '', '{"c":3}']);
    expect(framer.buffered).toBe(0);
  });

  it('stops at the first line over the limit without buffering past it', () => {
    const { framer, lines, overflows } = collect(10);
    framer.push(Buffer.from('12345'));
    framer.push(Buffer.from('67890'));
    expect(overflows).toEqual([]);
    framer.push(Buffer.from('1'));
    expect(overflows).toEqual([11]);
    expect(framer.buffered).toBe(0);
    framer.push(Buffer.from('ok\n'));
    expect(lines).toEqual([]);
  });

  it('accepts a line of exactly the limit', () => {
    const { framer, lines, overflows } = collect(4);
    framer.push(Buffer.from('abcd\n'));
    expect(lines).toEqual(['abcd']);
    expect(overflows).toEqual([]);
  });
});
