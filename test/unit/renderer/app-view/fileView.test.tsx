import { describe, expect, it } from 'vitest';

import { errorAdvice, fileView } from '../../../../renderer/app-view/fileView';

/** The read tool's results, today's and the model-facing shapes alike, as the view takes them. */
describe('fileView', () => {
  it('takes the first text item as the text and later ones as notes', () => {
    expect(fileView({ content: [{ type: 'text', text: 'a\nb\n' }] })).toEqual({ kind: 'text', text: 'a\nb\n', notes: [] });
    expect(
      fileView({
        content: [
          { type: 'text', text: 'line 1' },
          { type: 'text', text: 'Lines 1-1 of 500; offset 2 goes on.' },
        ],
      }),
    ).toEqual({ kind: 'text', text: 'line 1', notes: ['Lines 1-1 of 500; offset 2 goes on.'] });
  });

  it('takes an image block, or an embedded image blob, as an image; any other blob as a binary', () => {
    expect(
      fileView({
        content: [
          { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
          { type: 'text', text: 'Resized from 4000×3000.' },
        ],
      }),
    ).toEqual({ kind: 'image', data: 'AAAA', mimeType: 'image/jpeg', notes: ['Resized from 4000×3000.'] });
    expect(fileView({ content: [{ type: 'resource', resource: { uri: 'file:///a.png', mimeType: 'image/png', blob: 'iVBO' } }] })).toMatchObject({
      kind: 'image',
      mimeType: 'image/png',
    });
    expect(fileView({ content: [{ type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob: 'AAAAAAAA' } }] })).toEqual({
      kind: 'binary',
      mimeType: 'application/octet-stream',
      bytes: 6,
      notes: [],
    });
    // An SVG blob is not shown as an image (it would be markup run in the view).
    expect(fileView({ content: [{ type: 'resource', resource: { uri: 'file:///a.svg', mimeType: 'image/svg+xml', blob: 'PHN2Zz4=' } }] }).kind).toBe('binary');
    expect(fileView({ content: [{ type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hi' } }] })).toEqual({
      kind: 'text',
      text: 'hi',
      notes: [],
    });
  });

  it('takes what the read tool says in its _meta: a binary it described, and the parts of a document', () => {
    const described = {
      content: [
        { type: 'text' as const, text: 'data.bin: application/octet-stream, 300 KB (307,200 bytes). It is binary, so its bytes are not shown here.' },
        { type: 'resource_link' as const, uri: 'file:///data.bin', name: 'data.bin' },
      ],
      _meta: { 'dev.mcpshelf/read': { uri: 'file:///data.bin', mimeType: 'application/octet-stream', described: true, size: 307_200 } },
    };
    // Never handed to the chat as if the description were the file's text.
    expect(fileView(described)).toEqual({ kind: 'binary', mimeType: 'application/octet-stream', bytes: 307_200, notes: [described.content[0]?.text] });
    const document = { parts: 12, partName: 'Page', from: 3, to: 5 };
    expect(
      fileView({
        content: [
          { type: 'text', text: '--- Page 3 ---\n…' },
          { type: 'text', text: 'Text extracted from r.pdf' },
        ],
        _meta: { 'dev.mcpshelf/read': { document } },
      }),
    ).toEqual({
      kind: 'text',
      text: '--- Page 3 ---\n…',
      notes: ['Text extracted from r.pdf'],
      document,
    });
  });

  it('takes an isError result as the shelf error, with advice for a read the person did not allow', () => {
    const denied = fileView({
      isError: true,
      content: [{ type: 'text', text: 'Read not allowed (1005)' }],
      structuredContent: { error: { code: 1005, message: 'Read not allowed', data: { uri: 'file:///x', reason: 'denied' } } },
    });
    expect(denied).toEqual({ kind: 'error', code: 1005, message: 'Read not allowed', reason: 'denied' });
    expect(errorAdvice(denied as never)).toMatch(/You denied this read/);
    expect(errorAdvice({ kind: 'error', code: 1005, message: '', reason: 'no-window' })).toMatch(/no MCP Shelf window is open/);
    expect(fileView({ isError: true, content: [{ type: 'text', text: 'Something broke' }] })).toEqual({
      kind: 'error',
      code: null,
      message: 'Something broke',
      reason: null,
    });
  });
});
