/** What a drop on the window holds, reduced to what the shelf can publish. */

export interface DroppedItem {
  file: File;
  /** From webkitGetAsEntry(); null when the browser cannot tell. */
  isDirectory: boolean | null;
}

export interface DropOutcome {
  /** Folder paths to publish. */
  folders: string[];
  /** Names of plain files, which cannot be published alone. */
  refusedFiles: string[];
  /** True when this host cannot see dropped paths (a browser): ask for a path instead. */
  noPaths: boolean;
}

/** Reads a DataTransfer into items (call it during the drop event: the data goes away after). */
export function readDrop(dt: DataTransfer): DroppedItem[] {
  const out: DroppedItem[] = [];
  const items = Array.from(dt.items ?? []);
  if (items.length > 0) {
    for (const item of items) {
      if (item.kind !== 'file') continue;
      const file = item.getAsFile();
      if (!file) continue;
      const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
      out.push({ file, isDirectory: entry ? entry.isDirectory : null });
    }
    return out;
  }
  return Array.from(dt.files ?? []).map((file) => ({ file, isDirectory: null }));
}

/** True when a drag carries files (so the overlay shows only for those). */
export function dragHasFiles(dt: DataTransfer | null): boolean {
  return !!dt && Array.from(dt.types ?? []).includes('Files');
}

export function classifyDrop(items: readonly DroppedItem[], pathForFile?: (file: File) => string): DropOutcome {
  if (!pathForFile) return { folders: [], refusedFiles: [], noPaths: items.length > 0 };
  const folders: string[] = [];
  const refusedFiles: string[] = [];
  for (const { file, isDirectory } of items) {
    if (isDirectory === false) {
      refusedFiles.push(file.name);
      continue;
    }
    let p = '';
    try {
      p = pathForFile(file);
    } catch {
      p = '';
    }
    if (!p) refusedFiles.push(file.name);
    else if (!folders.includes(p)) folders.push(p);
  }
  return { folders, refusedFiles, noPaths: false };
}
