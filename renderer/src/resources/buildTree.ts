import type { ResourceInfo } from '../../../shared/shelfApi';

/** A folder's files as a tree, flattened on demand into the rows the list shows. */
export interface DirNode {
  name: string;
  path: string;
  dirs: Map<string, DirNode>;
  files: ResourceInfo[];
  fileCount: number;
}

export type Row =
  | { type: 'folder-root'; key: string; folder: string; depth: 0; label: string; count: number; expanded: boolean }
  | { type: 'dir'; key: string; folder: string; depth: number; label: string; path: string; count: number; expanded: boolean }
  | { type: 'file'; key: string; folder: string; depth: number; label: string; resource: ResourceInfo };

export function buildTree(resources: readonly ResourceInfo[]): DirNode {
  const root: DirNode = { name: '', path: '', dirs: new Map(), files: [], fileCount: 0 };
  for (const r of resources) {
    const parts = r.name.split('/');
    let node = root;
    node.fileCount++;
    for (let i = 0; i < parts.length - 1; i++) {
      const seg = parts[i] as string;
      let next = node.dirs.get(seg);
      if (!next) {
        next = { name: seg, path: node.path ? `${node.path}/${seg}` : seg, dirs: new Map(), files: [], fileCount: 0 };
        node.dirs.set(seg, next);
      }
      next.fileCount++;
      node = next;
    }
    node.files.push(r);
  }
  return root;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });

/** Rows for the expanded parts only: a collapsed folder of 100,000 files costs one row. */
export function flattenTree(folder: string, label: string, root: DirNode, expanded: ReadonlySet<string>): Row[] {
  const rootKey = `${folder}\u0000`;
  const rows: Row[] = [{ type: 'folder-root', key: rootKey, folder, depth: 0, label, count: root.fileCount, expanded: expanded.has(rootKey) }];
  if (!expanded.has(rootKey)) return rows;
  const walk = (node: DirNode, depth: number) => {
    for (const dir of [...node.dirs.values()].sort(byName)) {
      const key = `${folder}\u0000${dir.path}/`;
      const open = expanded.has(key);
      rows.push({ type: 'dir', key, folder, depth, label: dir.name, path: dir.path, count: dir.fileCount, expanded: open });
      if (open) walk(dir, depth + 1);
    }
    for (const file of [...node.files].sort((a, b) => byName({ name: a.title }, { name: b.title }))) {
      rows.push({ type: 'file', key: file.uri, folder, depth, label: file.title, resource: file });
    }
  };
  walk(root, 1);
  return rows;
}

/** Files whose path contains every word of the filter, as flat rows. */
export function filterRows(folder: string, resources: readonly ResourceInfo[], filter: string, limit = 50_000): Row[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: Row[] = [];
  for (const r of resources) {
    const name = r.name.toLowerCase();
    if (words.every((w) => name.includes(w))) {
      rows.push({ type: 'file', key: r.uri, folder, depth: 1, label: r.name, resource: r });
      if (rows.length >= limit) break;
    }
  }
  return rows;
}
