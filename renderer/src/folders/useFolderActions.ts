import { useCallback } from 'react';

import type { FolderOptions, ShelfApi } from '../../../shared/shelfApi';
import type { Toast } from '../ui/Toasts';

export interface FolderActions {
  /** Publishes folders by path; true when at least one was added. */
  addPaths: (paths: string[]) => Promise<boolean>;
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
        if (result.added.length > 0) notify('info', result.added.length === 1 ? `Publishing ${result.added[0]}` : `Publishing ${result.added.length} folders`);
        return result.added.length > 0;
      } catch (err) {
        fail(err);
        return false;
      }
    },
    [api, notify, fail],
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

  return { addPaths, pick, remove, toggle, setOptions };
}
