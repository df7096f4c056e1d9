// @vitest-environment happy-dom
import { rm } from 'node:fs/promises';

import { cleanup, configure, fireEvent, render, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { App } from '../../../../renderer/src/App';
import { makeTree, MIN_DEADLINE_MS } from '../../../support/fixtures.js';
import { startService, type TestService } from '../../../support/service.js';
import { inProcessApi } from '../inProcessApi.js';

// waitFor's deadline is for a failure (its default is 1 s): a busy machine gets as long as eventually gives.
configure({ asyncUtilTimeout: MIN_DEADLINE_MS });

// Not inside act(): act would hold every update of the wait and commit them once at its end.
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('the window at rest', () => {
  let root: string;
  let svc: TestService;

  beforeAll(async () => {
    root = await makeTree({ 'a.txt': 'a', 'b/c.md': '# c' });
    svc = await startService();
    await svc.service.addFolders([root]);
  });
  afterEach(cleanup);
  afterAll(async () => {
    await svc.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('does not re-render while nothing changes (no clock ticking for the whole window)', async () => {
    let commits = 0;
    const view = render(
      <Profiler id="window" onRender={() => commits++}>
        <App api={inProcessApi(svc.service)} connection="open" />
      </Profiler>,
    );
    await waitFor(() => expect(view.getAllByTestId('folder-card')).toHaveLength(1));
    // Let the first loads settle (counts, status), then watch a quiet window for 3.5 s: a once-a-second clock would commit 3 times or more.
    await wait(1500);
    commits = 0;
    await wait(3500);
    expect(commits).toBeLessThan(2);
  });

  it('still counts the time where it is shown (the Clients tab)', async () => {
    const view = render(<App api={inProcessApi(svc.service)} connection="open" />);
    await waitFor(() => expect(view.getAllByTestId('folder-card')).toHaveLength(1));
    fireEvent.click(view.getByRole('tab', { name: /Clients/ }));
    const uptime = () => view.getByText('Uptime').nextElementSibling?.textContent ?? '';
    await waitFor(() => expect(uptime()).toMatch(/^\d+s$/));
    const first = uptime();
    await waitFor(() => expect(uptime()).not.toBe(first));
  });

  it('opens each tab by its shortcut and moves along the tab list with the arrows', async () => {
    const view = render(<App api={inProcessApi(svc.service)} connection="open" />);
    await waitFor(() => expect(view.getAllByTestId('folder-card')).toHaveLength(1));
    const selected = () => view.getByRole('tab', { selected: true }).textContent;
    fireEvent.keyDown(window, { key: '6', ctrlKey: true });
    expect(selected()).toBe('Connect a client');
    fireEvent.keyDown(window, { key: '4', metaKey: true });
    expect(selected()).toMatch(/^History/);
    expect(view.getByRole('tab', { name: /Traffic/ }).getAttribute('title')).toBe('Traffic (Ctrl+3)');
    fireEvent.keyDown(view.getByRole('tablist'), { key: 'ArrowRight' });
    expect(selected()).toMatch(/^Clients/);
    fireEvent.keyDown(view.getByRole('tablist'), { key: 'ArrowRight' });
    fireEvent.keyDown(view.getByRole('tablist'), { key: 'ArrowRight' });
    expect(selected()).toBe('Preview');
    // A digit without Ctrl/Cmd is typing, not a shortcut; 7 names no tab.
    fireEvent.keyDown(window, { key: '2' });
    fireEvent.keyDown(window, { key: '7', ctrlKey: true });
    expect(selected()).toBe('Preview');
  });
});
