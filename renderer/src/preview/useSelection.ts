import { useCallback, useEffect, useRef, useState } from 'react';

import type { FolderInfo, ReadPreview, ResourceInfo, ShelfApi } from '../../../shared/shelfApi';

export interface SelectionState {
  selected: ResourceInfo | null;
  preview: ReadPreview | null;
  reading: boolean;
  /** When the shown file last changed on disk and was read again (null: as selected). */
  updatedAt: number | null;
  select: (r: ResourceInfo) => void;
  clear: () => void;
}

/**
 * The file shown in the preview and what a client receives for it. When a
 * new listing arrives, a selected file that changed on disk is read again,
 * and one that is gone is read once more so the preview shows the client's
 * error. Only a new listing does this, not a new selection: the selection
 * and folders are read through refs.
 */
export function useSelection(
  api: ShelfApi,
  resources: Map<string, ResourceInfo[]>,
  folders: FolderInfo[] | null,
  fail: (err: unknown) => void,
): SelectionState {
  const [selected, setSelected] = useState<ResourceInfo | null>(null);
  const [preview, setPreview] = useState<ReadPreview | null>(null);
  const [reading, setReading] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const foldersRef = useRef(folders);
  foldersRef.current = folders;

  const read = useCallback(
    (r: ResourceInfo) => {
      setReading(true);
      api
        .readResource(r.uri)
        .then(setPreview, fail)
        .finally(() => setReading(false));
    },
    [api, fail],
  );

  const select = useCallback(
    (r: ResourceInfo) => {
      setSelected(r);
      setPreview(null);
      setUpdatedAt(null);
      read(r);
    },
    [read],
  );

  const clear = useCallback(() => {
    setSelected(null);
    setPreview(null);
    setUpdatedAt(null);
  }, []);

  useEffect(() => {
    const current = selectedRef.current;
    if (!current) return;
    for (const list of resources.values()) {
      const found = list.find((r) => r.uri === current.uri);
      if (found) {
        if (found.size !== current.size || found.annotations.lastModified !== current.annotations.lastModified) {
          setSelected(found);
          setUpdatedAt(Date.now());
          read(found);
        }
        return;
      }
    }
    if (resources.size > 0 || (foldersRef.current?.length ?? 0) === 0) read(current); // gone: the read shows the client's error
  }, [resources, read]);

  return { selected, preview, reading, updatedAt, select, clear };
}
