// @vitest-environment happy-dom
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { act, cleanup, configure, fireEvent, render, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { App } from '../../../../../renderer/src/App';
import { classifyDrop, type DroppedItem } from '../../../../../renderer/src/drop/dropHandler';
import { makeTree, MIN_DEADLINE_MS } from '../../../../support/fixtures.js';
import { startService, type TestService } from '../../../../support/service.js';
import { inProcessApi } from '../../inProcessApi.js';

// waitFor's deadline is for a failure (its default is 1 s): a busy machine gets as long as eventually gives.
configure({ asyncUtilTimeout: MIN_DEADLINE_MS });

const file = (name: string) => new File(['x'], name);

describe('classifyDrop', () => {
  const paths = new Map<string, string>([
    ['docs', '/home/me/docs'],
    ['notes', '/home/me/notes'],
    ['a.txt', '/home/me/a.txt'],
  ]);
  const pathForFile = (f: File) => paths.get(f.name) ?? '';

  it('keeps folders and refuses files', () => {
    const items: DroppedItem[] = [
      { file: file('docs'), isDirectory: true },
      { file: file('a.txt'), isDirectory: false },
      { file: file('notes'), isDirectory: true },
    ];
    expect(classifyDrop(items, pathForFile)).toEqual({ folders: ['/home/me/docs', '/home/me/notes'], refusedFiles: ['a.txt'], noPaths: false });
  });

  it('passes items of unknown kind on for the host to check, and refuses what has no path', () => {
    expect(
      classifyDrop(
        [
          { file: file('docs'), isDirectory: null },
          { file: file('mystery'), isDirectory: null },
        ],
        pathForFile,
      ),
    ).toEqual({
      folders: ['/home/me/docs'],
      refusedFiles: ['mystery'],
      noPaths: false,
    });
  });

  it('says so when the host cannot see paths (a browser)', () => {
    expect(classifyDrop([{ file: file('docs'), isDirectory: true }])).toEqual({ folders: [], refusedFiles: [], noPaths: true });
  });
});

describe('dropping on the window', () => {
  let a: string;
  let b: string;
  let svc: TestService;

  beforeAll(async () => {
    a = await makeTree({ 'one.txt': '1' });
    b = await makeTree({ 'two.txt': '2' });
    svc = await startService();
  });
  afterEach(cleanup);
  afterAll(async () => {
    await svc.stop();
    await rm(a, { recursive: true, force: true });
    await rm(b, { recursive: true, force: true });
  });

  it('shows the overlay while dragging files, publishes dropped folders, refuses a file with a message', async () => {
    const api = { ...inProcessApi(svc.service), pathForFile: (f: File) => (f.name === 'a' ? a : f.name === 'b' ? b : path.join(a, 'one.txt')) };
    const view = render(<App api={api} connection="open" />);
    await waitFor(() => view.getByTestId('empty-state'));
    const items = [
      { kind: 'file', getAsFile: () => file('a'), webkitGetAsEntry: () => ({ isDirectory: true }) },
      { kind: 'file', getAsFile: () => file('b'), webkitGetAsEntry: () => ({ isDirectory: true }) },
      { kind: 'file', getAsFile: () => file('one.txt'), webkitGetAsEntry: () => ({ isDirectory: false }) },
    ];
    const dataTransfer = { types: ['Files'], items, files: [], dropEffect: 'none' };
    const app = view.container.querySelector('.app') as HTMLElement;
    fireEvent.dragEnter(app, { dataTransfer });
    expect(view.getByTestId('drop-overlay')).toBeTruthy();
    await act(async () => {
      fireEvent.drop(app, { dataTransfer });
    });
    expect(view.queryByTestId('drop-overlay')).toBeNull();
    await waitFor(() => expect(view.getAllByTestId('folder-card')).toHaveLength(2));
    expect((await svc.service.listFolders()).map((f) => f.path)).toEqual([a, b]);
    expect(view.getByText(/Only folders can be published; “one.txt” is a file/)).toBeTruthy();
  });
});
