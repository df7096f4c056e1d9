// @vitest-environment happy-dom
import { rm } from 'node:fs/promises';

import { act, cleanup, configure, renderHook, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { LIVE_BATCH_ROWS } from '../../../../../electron/core/traffic/trafficLog.js';
import { useTraffic } from '../../../../../renderer/src/traffic/useTraffic';
import { useTrafficList } from '../../../../../renderer/src/traffic/useTrafficList';
import { useTrafficPayloads } from '../../../../../renderer/src/traffic/useTrafficPayloads';
import type { ShelfApi } from '../../../../../shared/shelfApi.js';
import { makeTree, MIN_DEADLINE_MS, uriOf } from '../../../../support/fixtures.js';
import { RawClient } from '../../../../support/rawClient.js';
import { startService, type TestService } from '../../../../support/service.js';
import { inProcessApi } from '../../inProcessApi.js';

configure({ asyncUtilTimeout: MIN_DEADLINE_MS });

/** The Traffic tab's data as the panel uses it: the live list, its filter, and the opened message's JSON. */
function useTab(api: ShelfApi, opened: number[]) {
  const traffic = useTraffic(api, true, 10_000);
  const list = useTrafficList(api, traffic.entries, 10_000);
  const payloadOf = useTrafficPayloads(api, opened);
  return { traffic, list, payloadOf };
}

describe('the Traffic tab’s data hooks, on a real service', () => {
  let root: string;
  let svc: TestService;
  let api: ShelfApi;

  beforeAll(async () => {
    root = await makeTree({ 'plan.md': 'the quarterly plan, word for word' });
    svc = await startService();
    await svc.service.addFolders([root]);
    api = inProcessApi(svc.service);
  });
  afterEach(cleanup);
  afterAll(async () => {
    await svc?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('lists live rows without payloads, finds text inside the JSON through the host, and fetches an opened message’s JSON', async () => {
    const raw = await RawClient.initialized(svc.service.socketPath);
    let opened: number[] = [];
    const { result, rerender } = renderHook(() => useTab(api, opened));
    try {
      await raw.request('resources/read', { uri: uriOf(root, 'plan.md') });
      await waitFor(() => expect(result.current.traffic.entries.filter((e) => e.method === 'resources/read')).toHaveLength(2));
      for (const e of result.current.traffic.entries) expect(e).not.toHaveProperty('payload');
      const answer = result.current.traffic.entries.find((e) => e.method === 'resources/read' && e.kind === 'response');

      // Text only the reply's JSON holds: the host answers which rows match.
      act(() => result.current.list.set('text', 'QUARTERLY plan'));
      await waitFor(() => expect(result.current.list.visible.map((e) => e.seq)).toEqual([answer?.seq]));
      expect(result.current.list.filter).toEqual({ text: 'QUARTERLY plan' });
      // New rows after the search are looked at too.
      await raw.request('resources/read', { uri: uriOf(root, 'plan.md') });
      await waitFor(() => expect(result.current.list.visible).toHaveLength(2));
      act(() => result.current.list.set('text', ''));
      await waitFor(() => expect(result.current.list.visible.length).toBeGreaterThan(4));
      act(() => result.current.list.set('method', 'resources/read'));
      await waitFor(() => expect(result.current.list.rows).toHaveLength(2)); // two calls, each a request with its answer

      opened = [answer?.seq as number];
      rerender();
      await waitFor(() => expect(result.current.payloadOf(answer?.seq as number)).toBeTypeOf('string'));
      const json = JSON.parse(result.current.payloadOf(answer?.seq as number) as string) as { result: { contents: Array<{ text: string }> } };
      expect(json.result.contents[0]?.text).toBe('the quarterly plan, word for word');
    } finally {
      raw.close();
    }
  });

  it('counts what a flood left out of the live batches, and a pause shows every message the log holds', async () => {
    const { result } = renderHook(() => useTab(api, []));
    await waitFor(() => expect(result.current.traffic.entries.length).toBeGreaterThan(0));
    // Three live batches' worth of messages within one turn of the event loop (the socket's flood is
    // the core's test; here the window's side, deterministically): one batch carries the newest.
    const n = 3 * LIVE_BATCH_ROWS;
    for (let i = 0; i < n; i++) svc.service.traffic.record(999, 'in', { jsonrpc: '2.0', id: i, method: 'ping' }, 40);
    const last = svc.service.traffic.query({ limit: 1 })[0]?.seq as number;
    await waitFor(() => expect(result.current.traffic.entries.at(-1)?.seq).toBe(last));
    const live = result.current.traffic.entries.length;
    const logged = svc.service.traffic.size;
    // What the list lacks is what it says it skipped.
    expect(result.current.traffic.skipped).toBeGreaterThanOrEqual(n - LIVE_BATCH_ROWS);
    expect(result.current.traffic.skipped).toBe(logged - live);
    act(() => result.current.traffic.setPaused(true));
    await waitFor(() => expect(result.current.traffic.entries).toHaveLength(logged));
    expect(result.current.traffic.skipped).toBe(0);
    // Resumed, it goes on live from there.
    act(() => result.current.traffic.setPaused(false));
    svc.service.traffic.record(999, 'in', { jsonrpc: '2.0', id: 'after', method: 'ping' }, 40);
    await waitFor(() => expect(result.current.traffic.entries.at(-1)?.id).toBe('after'));
    expect(result.current.traffic.skipped).toBe(0);
  });
});
