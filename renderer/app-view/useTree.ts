import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

import type { AppEntry, AppFile, AppFolder } from '../../shared/shelfApp';
import type { ShelfCalls } from './shelfCalls';

/** A file as the view carries it: which folder it is in, by path and name. */
export type ShelfFile = AppFile & { folder: string };

/** One row of the file list: a folder, a directory, a file, "show more", or a line of text. */
export type Row =
  | { type: 'folder'; key: string; level: number; folder: AppFolder; expanded: boolean }
  | { type: 'dir'; key: string; level: number; folder: string; path: string; name: string; expanded: boolean }
  | { type: 'file'; key: string; level: number; file: ShelfFile }
  | { type: 'more'; key: string; level: number; folder: string; dir: string }
  | { type: 'note'; key: string; level: number; text: string; error?: boolean };

interface DirState {
  entries: AppEntry[];
  nextCursor?: string;
  loading: boolean;
  error?: string;
}

const keyOf = (folder: string, dir: string) => `${folder}\u0000${dir}`;

/**
 * The published folders as a tree loaded a directory at a time through the
 * app's list tool: a directory is asked for when it is first opened (and a
 * big one a page at a time), so a folder of a million files costs what is
 * looked at.
 */
export function useTree(calls: ShelfCalls | null, fail: (err: unknown) => void) {
  const [folders, setFolders] = useState<AppFolder[] | null>(null);
  const [dirs, setDirs] = useState<ReadonlyMap<string, DirState>>(new Map());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const dirsRef = useRef(dirs);
  dirsRef.current = dirs;

  const patchDir = (key: string, patch: Partial<DirState>) =>
    setDirs((prev) => new Map(prev).set(key, { entries: [], loading: false, ...prev.get(key), ...patch }));

  const load = useCallback(
    async (folder: string, dir: string, more = false) => {
      if (!calls) return;
      const key = keyOf(folder, dir);
      const before = dirsRef.current.get(key);
      if (before?.loading) return;
      patchDir(key, { loading: true, error: undefined });
      try {
        const page = await calls.list(folder, dir, more ? before?.nextCursor : undefined);
        setFolders(page.folders);
        setDirs((prev) => {
          const entries = more ? [...(prev.get(key)?.entries ?? []), ...(page.entries ?? [])] : (page.entries ?? []);
          return new Map(prev).set(key, { entries, loading: false, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
        });
      } catch (err) {
        patchDir(key, { loading: false, error: err instanceof Error ? err.message : String(err) });
      }
    },
    [calls],
  );

  /** Folders first known from browse_shelf's result (no round trip), or asked for. */
  const setKnownFolders = useCallback((known: AppFolder[]) => setFolders(known), []);

  const refresh = useCallback(async () => {
    if (!calls) return;
    try {
      const { folders: fresh } = await calls.list();
      setFolders(fresh);
      // Open directories are read again; closed ones when next opened.
      setDirs(new Map());
      for (const key of expanded) {
        const [folder, dir] = key.split('\u0000') as [string, string];
        void load(folder, dir);
      }
    } catch (err) {
      fail(err);
    }
  }, [calls, expanded, load, fail]);

  useEffect(() => {
    if (calls && folders === null) void calls.list().then((r) => setFolders((f) => f ?? r.folders), fail);
  }, [calls, folders, fail]);

  // A folder opens by itself when it is the only one, or the first few when there are several.
  const opened = useRef(new Set<string>());
  useEffect(() => {
    if (!folders) return;
    const fresh = folders.filter((f) => !opened.current.has(f.root));
    if (fresh.length === 0) return;
    for (const f of fresh) opened.current.add(f.root);
    const open = fresh.slice(0, folders.length <= 3 ? 3 : 1);
    setExpanded((prev) => new Set([...prev, ...open.map((f) => keyOf(f.root, ''))]));
    for (const f of open) void load(f.root, '');
  }, [folders, load]);

  const toggle = useCallback(
    (folder: string, dir: string, open?: boolean) => {
      const key = keyOf(folder, dir);
      const opening = open ?? !expanded.has(key);
      setExpanded((prev) => {
        const next = new Set(prev);
        if (opening) next.add(key);
        else next.delete(key);
        return next;
      });
      if (opening && !dirsRef.current.has(key)) void load(folder, dir);
    },
    [expanded, load],
  );

  const rowsFor = useCallback(
    (scope: string | null): Row[] => {
      const rows: Row[] = [];
      const walk = (folder: string, dir: string, level: number) => {
        const key = keyOf(folder, dir);
        const d = dirs.get(key);
        if (!d || (d.loading && d.entries.length === 0)) {
          rows.push({ type: 'note', key: `${key}\u0000loading`, level, text: 'Loading…' });
          return;
        }
        for (const e of d.entries) {
          if (e.type === 'dir') {
            const k = keyOf(folder, e.path);
            const open = expanded.has(k);
            rows.push({ type: 'dir', key: k, level, folder, path: e.path, name: e.name, expanded: open });
            if (open) walk(folder, e.path, level + 1);
          } else rows.push({ type: 'file', key: `${folder}\u0000${e.path}\u0000f`, level, file: { ...e, folder } });
        }
        if (d.error) rows.push({ type: 'note', key: `${key}\u0000error`, level, text: `Could not list this folder: ${d.error}`, error: true });
        else if (d.nextCursor) rows.push({ type: 'more', key: `${key}\u0000more`, level, folder, dir });
        else if (d.entries.length === 0) rows.push({ type: 'note', key: `${key}\u0000empty`, level, text: 'No published files here.' });
      };
      for (const f of folders ?? []) {
        if (scope && f.root !== scope) continue;
        const key = keyOf(f.root, '');
        const open = expanded.has(key);
        rows.push({ type: 'folder', key, level: 1, folder: f, expanded: open });
        if (open) walk(f.root, '', 2);
      }
      return rows;
    },
    [folders, dirs, expanded],
  );

  return useMemo(() => ({ folders, setKnownFolders, rowsFor, toggle, load, refresh }), [folders, setKnownFolders, rowsFor, toggle, load, refresh]);
}
