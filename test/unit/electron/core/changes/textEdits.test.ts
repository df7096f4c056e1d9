import { describe, expect, it } from 'vitest';

import { applyEdits } from '../../../../../electron/core/changes/textEdits.js';
import { ErrorCodes } from '../../../../../shared/errorCodes.js';

const uri = 'file:///f/a.ts';
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err as { code: number; message: string; data: { reason: string } };
  }
  throw new Error('no error');
};

describe('applyEdits: exact replacements, each found once', () => {
  it('applies edits in order, each on the text the ones before it left', () => {
    expect(
      applyEdits(uri, 'const a = 1;\nconst b = 2;\n', [
        { oldText: 'a = 1', newText: 'a = 10' },
        { oldText: 'a = 10;\nconst b', newText: 'a = 10;\nlet b' },
      ]),
    ).toBe('const a = 10;\nlet b = 2;\n');
  });

  it('a file with CRLF line ends takes the model’s LF text as CRLF, and keeps CRLF', () => {
    expect(applyEdits(uri, 'one\r\ntwo\r\nthree\r\n', [{ oldText: 'one\ntwo', newText: 'ONE\nTWO' }])).toBe('ONE\r\nTWO\r\nthree\r\n');
  });

  it('refuses oldText found twice, naming the lines, and writes nothing', () => {
    const err = refusal(() => applyEdits(uri, 'x\ny x\n', [{ oldText: 'x', newText: 'z' }]));
    expect(err).toMatchObject({ code: ErrorCodes.changeNotMade, data: { uri, reason: 'ambiguous' } });
    expect(err.message).toMatch(/occurs twice \(lines 1, 2\)/);
  });

  it('refuses oldText not found: a whitespace-only difference is named, never applied; else the nearest line', () => {
    const ws = refusal(() => applyEdits(uri, 'function f() {\n    return 1;\n}\n', [{ oldText: 'function f() {\n  return 1;', newText: 'x' }]));
    expect(ws.data.reason).toBe('no-match');
    expect(ws.message).toMatch(/matches line 1 if spaces, tabs and line breaks are ignored/);
    const near = refusal(() => applyEdits(uri, 'alpha\nconst total = compute(items);\nomega\n', [{ oldText: 'const totl = compute(items);', newText: 'x' }]));
    expect(near.message).toMatch(/The nearest line is 2: "const total = compute\(items\);"/);
    // Where reads ask first, the line's text is not given back.
    const hidden = refusal(() => applyEdits(uri, 'alpha\nsecret = 1234\n', [{ oldText: 'secret = 1243', newText: 'x' }], false));
    expect(hidden.message).toMatch(/The nearest line is 2\.$/);
    expect(hidden.message).not.toContain('1234');
  });
});
