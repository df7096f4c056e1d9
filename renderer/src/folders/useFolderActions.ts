import { useCallback } from 'react';

import type { FolderOptions, ShelfApi } from '../../../shared/shelfApi';
import type { Toast } from '../ui/Toasts';

export interface FolderActions {
  /** Publishes folders by path (a drop, the picker); true when at least one was added. Refusals are notices. */
  addPaths: (paths: string[]) => Promise<boolean>;
  /** Publishes the folder typed in the path field: null when added, else why not (shown at the field). */
  addPath: (path: string) => Promise<string | null>;
  /** The host's folder dialog (Electron), then addPaths. */
  pick: () => void;
  remove: (path: string) => Promise<void>;
  toggle: (path: string, enabled: boolean) => void;
  setOptions: (path: string, options: Partial<Omit<FolderOptions, 'enabled'>>) => Promise<void>;
}

/** What the window can do to the published folders, each telling the person how it went. */
export function useFolderActions(api: ShelfApi, notify: (tone: Toast['tone'], text: string) => void, fail: (err: unknown) => void): FolderActions {
  const addPaths = useCallback(
    async (paths: string[]): Promise<boolean> => {
      if (paths.length === 0) return false;
      try {
        const result = await api.addFolders(paths);
        for (const r of result.refused) notify('warning', `${r.path}: ${r.reason}`);
        // No "Publishing…" notice: the folder's row appears at once and says how far it got.
        return result.added.length > 0;
      } catch (err) {
        fail(err);
        return false;
      }
    },
    [api, notify, fail],
  );

  const addPath = useCallback(
    async (path: string): Promise<string | null> => {
      try {
        const result = await api.addFolders([path]);
        const refused = result.refused[0];
        if (!refused) return null;
        // Where the path led, when it is not what was typed (~ is the home folder).
        return refused.path !== path ? `${refused.reason}: ${refused.path}` : refused.reason;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    },
    [api],
  );

  const pick = useCallback(() => {
    void api.pickFolders().then((paths) => (paths ? addPaths(paths) : undefined), fail);
  }, [api, addPaths, fail]);

  const remove = useCallback(
    (path: string) =>
      api.removeFolder(path).then(() => {
        notify('info', `Stopped publishing ${path}`);
      }, fail),
    [api, notify, fail],
  );

  const toggle = useCallback((path: string, enabled: boolean) => void api.setFolderEnabled(path, enabled).catch(fail), [api, fail]);

  const setOptions = useCallback(
    async (path: string, options: Partial<Omit<FolderOptions, 'enabled'>>) => {
      await api.setFolderOptions(path, options).then(() => undefined, fail);
    },
    [api, fail],
  );

  return { addPaths, addPath, pick, remove, toggle, setOptions };
}
