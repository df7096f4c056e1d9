import { type DragEvent, useCallback, useRef, useState } from 'react';

import type { HostExtras } from '../api/hostApi';
import type { Toast } from '../ui/Toasts';
import { classifyDrop, dragHasFiles, readDrop } from './dropHandler';

export interface FolderDrop {
  /** A drag with files is over the window (the overlay shows). */
  dragging: boolean;
  /** Spread on the window's root element. */
  handlers: {
    onDragEnter: (e: DragEvent) => void;
    onDragOver: (e: DragEvent) => void;
    onDragLeave: () => void;
    onDrop: (e: DragEvent) => void;
  };
}

/**
 * Folders dropped anywhere on the window are published; dropped files are
 * refused with a reason, and a browser that hides paths says so.
 */
export function useFolderDrop(
  pathForFile: HostExtras['pathForFile'],
  addPaths: (paths: string[]) => Promise<boolean>,
  notify: (tone: Toast['tone'], text: string) => void,
): FolderDrop {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0); // enter/leave fire for every child crossed

  const drop = useCallback(
    (dt: DataTransfer) => {
      const outcome = classifyDrop(readDrop(dt), pathForFile);
      if (outcome.noPaths) {
        notify('warning', 'This browser cannot see where dropped folders live. Type the folder’s path instead, or use the desktop app.');
        return;
      }
      if (outcome.refusedFiles.length > 0) {
        notify(
          'warning',
          `Only folders can be published; ${outcome.refusedFiles.length === 1 ? `“${outcome.refusedFiles[0]}” is a file` : `${outcome.refusedFiles.length} files were skipped`}.`,
        );
      }
      void addPaths(outcome.folders);
    },
    [pathForFile, addPaths, notify],
  );

  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (!dragHasFiles(e.dataTransfer)) return;
      depth.current++;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!dragHasFiles(e.dataTransfer)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      drop(e.dataTransfer);
    },
  };
  return { dragging, handlers };
}
