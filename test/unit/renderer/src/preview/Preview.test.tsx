// @vitest-environment happy-dom
import { rm } from 'node:fs/promises';

import { cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { PreviewBody } from '../../../../../renderer/src/preview/Preview';
import { previewKind, rawResponseText } from '../../../../../renderer/src/preview/previewKind';
import type { ReadPreview } from '../../../../../shared/shelfApi.js';
import { makeTree, uriOf } from '../../../../support/fixtures.js';
import { startService, type TestService } from '../../../../support/service.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('preview kinds, from real reads', () => {
  let root: string;
  let svc: TestService;
  const read = (rel: string): Promise<ReadPreview> => svc.service.readResource(uriOf(root, rel));

  beforeAll(async () => {
    root = await makeTree({
      'code.ts': 'export const answer: number = 42;\n',
      'data.json': '{"a":1,"b":[1,2]}',
      'notes.md': '# Title\n\nSome **bold** text.\n',
      'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      'pixel.png': PNG,
      'blob.bin': Buffer.from([0, 1, 2, 0x41, 0x42, 255]),
      'big.txt': 'x'.repeat(3000),
    });
    svc = await startService({ maxReadBytes: 2048 });
    await svc.service.addFolders([root]);
  });
  afterEach(cleanup);
  afterAll(async () => {
    await svc.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('highlights code with line numbers', async () => {
    const p = await read('code.ts');
    expect(previewKind(p)).toBe('code');
    const { getByTestId } = render(<PreviewBody preview={p} name="code.ts" />);
    const view = getByTestId('code-view');
    expect(view.dataset.language).toBe('typescript');
    expect(view.querySelector('.hljs-keyword')?.textContent).toBe('export');
    expect(view.querySelector('.gutter')?.textContent).toBe('1');
  });

  it('pretty-prints JSON', async () => {
    const p = await read('data.json');
    expect(previewKind(p)).toBe('json');
    const { getByTestId } = render(<PreviewBody preview={p} name="data.json" />);
    expect(getByTestId('code-view').querySelector('code')?.textContent).toBe('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}');
  });

  it('renders Markdown, and shows its source on request', async () => {
    const p = await read('notes.md');
    const { getByTestId, getByText, queryByTestId } = render(<PreviewBody preview={p} name="notes.md" />);
    expect(getByTestId('markdown-view').querySelector('h1')?.textContent).toBe('Title');
    expect(getByTestId('markdown-view').querySelector('strong')?.textContent).toBe('bold');
    getByText('Source').click();
    await new Promise((r) => setTimeout(r, 0));
    expect(queryByTestId('markdown-view')).toBeNull();
  });

  it('shows SVG as an image, never as inline markup', async () => {
    const p = await read('icon.svg');
    expect(previewKind(p)).toBe('image');
    const { getByTestId, container } = render(<PreviewBody preview={p} name="icon.svg" />);
    expect(getByTestId('image-view').getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
    expect(container.querySelector('svg, script')).toBeNull();
  });

  it('renders a PNG blob as an image', async () => {
    const p = await read('pixel.png');
    const { getByTestId } = render(<PreviewBody preview={p} name="pixel.png" />);
    expect(getByTestId('image-view').getAttribute('src')).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('shows other binaries as hex', async () => {
    const p = await read('blob.bin');
    expect(previewKind(p)).toBe('hex');
    const { getByTestId } = render(<PreviewBody preview={p} name="blob.bin" />);
    expect(getByTestId('hex-view')).toBeTruthy();
  });

  it('shows the client’s error for a file over the limit, and the raw response elides long strings', async () => {
    const p = await read('big.txt');
    expect(previewKind(p)).toBe('error');
    const { getByTestId } = render(<PreviewBody preview={p} name="big.txt" />);
    expect(getByTestId('preview-error').textContent).toContain('Error 1004');
    expect(getByTestId('preview-error').textContent).toContain('"limit": 2048');
    const raw = JSON.parse(rawResponseText(p));
    expect(raw.error).toMatchObject({ code: 1004, data: { size: 3000, limit: 2048 } });
    const text = await read('code.ts');
    expect(rawResponseText(text, 10)).toContain('"export con… [24 more characters]"');
    expect(JSON.parse(rawResponseText(text))).toEqual({
      result: { contents: [expect.objectContaining({ uri: expect.any(String), text: expect.stringContaining('export') })] },
    });
  });
});
