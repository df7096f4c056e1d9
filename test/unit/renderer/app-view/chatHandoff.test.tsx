import { describe, expect, it } from 'vitest';

import { documentParts, handoffFor, MAX_HANDOFF_CHARS, partName, partsText } from '../../../../renderer/app-view/chatHandoff';
import type { ShelfFile } from '../../../../renderer/app-view/useTree';

const file = (over: Partial<ShelfFile> = {}): ShelfFile => ({
  type: 'file',
  path: 'notes/plan.md',
  name: 'plan.md',
  uri: 'file:///home/me/notes/plan.md',
  mimeType: 'text/markdown',
  size: 12,
  folder: '/home/me',
  ...over,
});

/** What "Add to chat" hands the host. */
describe('chatHandoff', () => {
  const pdf = '--- Page 1 ---\nOne.\n\n--- Page 2 ---\nTwo.\n\n--- Page 3 ---\nThree.\n';

  it('cuts a document text at its part markers, and gives a range of parts exactly', () => {
    const parts = documentParts(pdf);
    expect(parts.map((p) => p.label)).toEqual(['Page 1', 'Page 2', 'Page 3']);
    expect(partName(parts)).toBe('Page');
    expect(partsText(pdf, parts, 2, 3)).toBe('--- Page 2 ---\nTwo.\n\n--- Page 3 ---\nThree.\n');
    expect(partsText(pdf, parts, 1, 3)).toBe(pdf);
    // Out of range is clamped.
    expect(partsText(pdf, parts, 0, 99)).toBe(pdf);
    expect(documentParts('no markers here')).toEqual([]);
    expect(partName(documentParts('--- Slide 1 ---\nx'))).toBe('Slide');
    expect(partName(documentParts('--- Sheet: Totals ---\na\tb'))).toBe('Sheet');
  });

  it('hands on a text exactly, in a block of its own after a line naming the file', () => {
    const h = handoffFor({ file: file(), folderName: 'me', view: { kind: 'text', text: '# Plan\n', notes: [] } });
    expect(h?.content).toEqual([
      { type: 'text', text: 'From MCP Shelf: me/notes/plan.md (file:///home/me/notes/plan.md). Its text follows in the next block, exactly.' },
      { type: 'text', text: '# Plan\n' },
    ]);
    expect(h).toMatchObject({ label: 'plan.md', chars: 7, cut: false });
  });

  it('says which pages, names the text URI of a document, and passes on the read tool notes', () => {
    const doc = file({ path: 'r.pdf', name: 'r.pdf', uri: 'file:///d/r.pdf', textUri: 'file:///d/r.pdf?as=text', mimeType: 'application/pdf' });
    const h = handoffFor({
      file: doc,
      folderName: 'd',
      view: { kind: 'text', text: 'Two.', notes: ['Lines 1-1 of 9.'] },
      range: { from: 2, to: 2, of: 3, name: 'Page' },
    });
    expect(h?.label).toBe('r.pdf, page 2 of 3');
    expect(h?.content[0]).toEqual({
      type: 'text',
      text: 'From MCP Shelf: d/r.pdf, page 2 of 3 (file:///d/r.pdf?as=text). Its text follows in the next block, exactly.\nLines 1-1 of 9.',
    });
    expect(
      handoffFor({ file: doc, folderName: 'd', view: { kind: 'text', text: 'x', notes: [] }, range: { from: 1, to: 3, of: 3, name: 'Page' } })?.label,
    ).toBe('r.pdf');
    expect(
      handoffFor({ file: doc, folderName: 'd', view: { kind: 'text', text: 'x', notes: [] }, range: { from: 1, to: 2, of: 3, name: 'Page' } })?.label,
    ).toBe('r.pdf, pages 1–2 of 3');
  });

  it('cuts a text past the bound and says so; an image goes as an image block; a binary as a description; a failed read not at all', () => {
    const long = 'x'.repeat(MAX_HANDOFF_CHARS + 10);
    const cut = handoffFor({ file: file(), folderName: 'me', view: { kind: 'text', text: long, notes: [] } });
    expect(cut?.cut).toBe(true);
    expect((cut?.content[1] as { text: string }).text).toHaveLength(MAX_HANDOFF_CHARS);
    expect((cut?.content[0] as { text: string }).text).toContain(`Only the first 400,000 of ${long.length.toLocaleString('en')} characters follow`);
    const image = handoffFor({
      file: file({ name: 'a.png', path: 'a.png', mimeType: 'image/png' }),
      folderName: 'me',
      view: { kind: 'image', data: 'iVBORw0K', mimeType: 'image/png', notes: [] },
    });
    expect(image?.content[1]).toEqual({ type: 'image', data: 'iVBORw0K', mimeType: 'image/png' });
    const binary = handoffFor({
      file: file({ name: 'a.zip', path: 'a.zip' }),
      folderName: 'me',
      view: { kind: 'binary', mimeType: 'application/zip', bytes: 2048, notes: [] },
    });
    expect(binary?.content).toEqual([
      { type: 'text', text: expect.stringMatching(/a binary file \(application\/zip, 2\.0 KB\); its contents are not included/) },
    ]);
    expect(handoffFor({ file: file(), folderName: 'me', view: { kind: 'error', code: 1005, message: 'no', reason: 'denied' } })).toBeNull();
  });
});
