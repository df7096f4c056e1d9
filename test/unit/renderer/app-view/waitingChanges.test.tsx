// @vitest-environment happy-dom
import { rm } from 'node:fs/promises';
import path from 'node:path';

import { act, cleanup, configure, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { useWaitingChanges, WaitingChanges } from '../../../../renderer/app-view/WaitingChanges';
import { APP_TOOLS, type AppChangesResult } from '../../../../shared/shelfApp';
import { eventually, makeTree, MIN_DEADLINE_MS, uriOf } from '../../../support/fixtures.js';
import { RawClient } from '../../../support/rawClient.js';
import { startService, type TestService } from '../../../support/service.js';

configure({ asyncUtilTimeout: MIN_DEADLINE_MS });

/** The view's calls as ShelfCalls makes them, over a real connection to a real service (here a socket client, as the host's would be). */
function callsOver(client: RawClient) {
  let asked = 0;
  let answered = 0;
  return {
    get asked() {
      return asked;
    },
    /** Answers the view was given. */
    get answered() {
      return answered;
    },
    async changes(): Promise<AppChangesResult> {
      asked++;
      const r = await client.request('tools/call', { name: APP_TOOLS.changes, arguments: {} });
      const result = r.result as { isError?: boolean; structuredContent: AppChangesResult };
      if (r.error || result.isError) throw new Error('the app tool failed');
      answered++;
      return result.structuredContent;
    },
  };
}

function Strip({ calls }: { calls: ReturnType<typeof callsOver> }) {
  const changes = useWaitingChanges(calls);
  return <WaitingChanges changes={changes} folderName={() => 'pub'} />;
}

const setVisibility = (state: 'visible' | 'hidden') => {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
};

describe('the in-chat app’s strip of changes waiting for approval, on a real service', () => {
  let root: string;
  let view: string;
  let svc: TestService;
  let writer: RawClient;
  let other: RawClient;
  let detach: () => void;

  beforeAll(async () => {
    root = await makeTree({ 'notes.md': 'first line\nsecond line\n' });
    // The app's tools are served with a view only; these calls never read it.
    view = await makeTree({ 'shelf-app.html': '<!doctype html><title>MCP Shelf</title>' });
    svc = await startService({ appView: path.join(view, 'shelf-app.html') });
    await svc.service.addFolders([root]);
    await svc.service.setFolderOptions(root, { changes: 'ask' });
    // A window that can decide: without one a change is refused at once.
    detach = svc.service.attachWindow();
    writer = await RawClient.initialized(svc.service.socketPath);
    other = await RawClient.initialized(svc.service.socketPath);
  });
  afterEach(() => {
    cleanup();
    setVisibility('visible');
  });
  afterAll(async () => {
    writer?.close();
    other?.close();
    detach?.();
    await svc?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(view, { recursive: true, force: true });
  });

  it('names the proposing client’s change and where to decide it, with nothing to click; another client’s view shows nothing; it goes once answered', async () => {
    const id = 77;
    writer.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'edit_resource', arguments: { uri: uriOf(root, 'notes.md'), edits: [{ oldText: 'second line', newText: 'second\nthird' }] } },
    });
    const proposal = await eventually(async () => (await svc.service.pendingChanges())[0], MIN_DEADLINE_MS, 'the proposal');

    const mine = render(<Strip calls={callsOver(writer)} />);
    const strip = await screen.findByTestId('app-changes');
    expect(strip.textContent).toContain('Waiting for your approval in MCP Shelf:');
    expect(strip.textContent).toContain('pub/notes.md (+2 −1)');
    expect(strip.textContent).toContain('Decide in the MCP Shelf window');
    expect(strip.querySelectorAll('button, a, input').length).toBe(0);
    mine.unmount();

    // Another connection's view asks too, and is told nothing.
    const theirs = callsOver(other);
    const view = render(<Strip calls={theirs} />);
    await waitFor(() => expect(theirs.answered).toBeGreaterThan(0));
    expect(view.queryByTestId('app-changes')).toBeNull();
    expect((await theirs.changes()).changes).toEqual([]);
    view.unmount();

    render(<Strip calls={callsOver(writer)} />);
    await screen.findByTestId('app-changes');
    await svc.service.answerChange(proposal.id, { approve: false });
    await writer.waitFor((m) => m.id === id, MIN_DEADLINE_MS);
    await waitFor(() => expect(screen.queryByTestId('app-changes')).toBeNull());
  });

  it('asks nothing while the view is hidden, and asks again as soon as it is shown', async () => {
    setVisibility('hidden');
    const calls = callsOver(other);
    render(<Strip calls={calls} />);
    expect(calls.asked).toBe(0);
    act(() => setVisibility('visible'));
    expect(calls.asked).toBe(1);
  });
});
