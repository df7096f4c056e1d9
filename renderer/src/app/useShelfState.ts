import { useCallback, useEffect, useRef, useState } from 'react';

import type { ClientConfigSnippet, ClientInfo, FolderInfo, HostInfo, ResourceInfo, ServerStatus, ShelfApi } from '../../../shared/shelfApi';

/** Every page of one folder's resources. */
async function loadAll(api: ShelfApi, folder: string): Promise<ResourceInfo[]> {
  const out: ResourceInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listResources(folder, cursor);
    out.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export interface ShelfState {
  host: HostInfo | null;
  /** null until the first answer. */
  folders: FolderInfo[] | null;
  /** Each enabled folder's files, by folder path. */
  resources: Map<string, ResourceInfo[]>;
  status: ServerStatus | null;
  clients: ClientInfo[];
  snippets: ClientConfigSnippet[];
  httpToken: string | null;
}

/**
 * What the window shows of the server: loaded whenever the connection opens
 * (again, after a drop: events sent while it was down are lost), then kept
 * current from the host's events (folder events come in bursts while files
 * change, so the listing is reloaded once things settle).
 */
export function useShelfState(api: ShelfApi, live: boolean, fail: (err: unknown) => void): ShelfState {
  const [host, setHost] = useState<HostInfo | null>(null);
  const [folders, setFolders] = useState<FolderInfo[] | null>(null);
  const [resources, setResources] = useState<Map<string, ResourceInfo[]>>(() => new Map());
  const [status, setStatus] = useState<ServerStatus | null>(null);
  const [clients, setClients] = useState<ClientInfo[]>([]);
  const [snippets, setSnippets] = useState<ClientConfigSnippet[]>([]);
  const [httpToken, setHttpToken] = useState<string | null>(null);

  const reloadResources = useCallback(
    async (list: FolderInfo[]) => {
      const next = new Map<string, ResourceInfo[]>();
      for (const f of list) if (f.state !== 'disabled') next.set(f.path, await loadAll(api, f.path));
      setResources(next);
    },
    [api],
  );

  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const scheduleReload = useCallback(
    (list: FolderInfo[]) => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => void reloadResources(list).catch(fail), 200);
    },
    [reloadResources, fail],
  );

  useEffect(() => {
    if (!live) return;
    // The token in force for HTTP clients (shown to copy), when HTTP is on.
    const loadToken = (s: ServerStatus, onError: (err: unknown) => void) => {
      if (s.httpUrl) void api.getSettings().then((st) => setHttpToken(st.http.token), onError);
    };
    void api.hostInfo().then(setHost, fail);
    void api
      .listFolders()
      .then((f) => {
        setFolders(f);
        return reloadResources(f);
      })
      .catch(fail);
    void api.getStatus().then((s) => {
      setStatus(s);
      loadToken(s, fail);
    }, fail);
    void api.listClients().then(setClients, fail);
    void api.clientConfigs().then(setSnippets, fail);
    const offs = [
      api.on('folders', (f) => {
        setFolders(f);
        scheduleReload(f);
      }),
      api.on('status', (s) => {
        setStatus(s);
        void api.clientConfigs().then(setSnippets, () => undefined);
        loadToken(s, () => undefined);
      }),
      api.on('clients', setClients),
    ];
    return () => {
      offs.forEach((off) => off());
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
    };
  }, [api, live, fail, reloadResources, scheduleReload]);

  return { host, folders, resources, status, clients, snippets, httpToken };
}
