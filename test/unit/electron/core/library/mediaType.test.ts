import { describe, expect, it } from 'vitest';

import { contentKind, decodeText, mediaType, typeFromName } from '../../../../../electron/core/library/mediaType.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

describe('contentKind', () => {
  it('is text for UTF-8 without NUL, or with a BOM', () => {
    expect(contentKind(Buffer.from('héllo\n'))).toBe('text');
    expect(contentKind(new Uint8Array())).toBe('text');
    expect(contentKind(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toBe('text');
    expect(contentKind(Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toBe('text'); // UTF-16LE has NULs
    expect(contentKind(Buffer.from([0xfe, 0xff, 0x00, 0x68]))).toBe('text');
  });

  it('is blob for NUL bytes or invalid UTF-8', () => {
    expect(contentKind(Buffer.from('a\0b'))).toBe('blob');
    expect(contentKind(Buffer.from([0xc3, 0x28]))).toBe('blob');
    expect(contentKind(PNG)).toBe('blob');
  });

  it('forgives a multi-byte sequence cut at the end of a prefix only', () => {
    const cut = Buffer.from('aé').subarray(0, 2);
    expect(contentKind(cut, true)).toBe('text');
    expect(contentKind(cut, false)).toBe('blob');
  });
});

describe('decodeText', () => {
  it('drops the BOM and decodes UTF-16', () => {
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toBe('hi');
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toBe('hi');
    expect(decodeText(Buffer.from([0xfe, 0xff, 0x00, 0x68, 0x00, 0x69]))).toBe('hi');
  });
});

describe('mediaType', () => {
  it('takes the type from the name, with source code as text', () => {
    expect(typeFromName('a.json')).toBe('application/json');
    expect(typeFromName('dir/a.png')).toBe('image/png');
    expect(typeFromName('a.ts')).toBe('text/x-typescript');
    expect(typeFromName('a.py')).toBe('text/x-python');
    expect(typeFromName('Dockerfile')).toBe('text/x-dockerfile');
    expect(typeFromName('LICENSE')).toBeNull();
  });

  it('sniffs content when the name says nothing', async () => {
    expect(await mediaType('picture', PNG, 'blob')).toBe('image/png');
    expect(await mediaType('LICENSE', Buffer.from('MIT'), 'text')).toBe('text/plain');
    expect(await mediaType('data', Buffer.from([1, 2, 3, 0]), 'blob')).toBe('application/octet-stream');
  });
});
