// The named bulkLoad makes the tree: the package's class is a CommonJS
// `exports.default`, which Node's ESM loader and bundlers hand over differently.
import { bulkLoad } from 'sorted-btree/extended/bulkLoad.js';

type Tree = ReturnType<typeof bulkLoad<string, undefined>>;

/** Branching factor: wide nodes keep the tree shallow and its overhead to a few bytes a path. */
const NODE_SIZE = 128;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A folder's paths in code-unit order, as a B+ tree (sorted-btree): adding
 * or removing one costs log n. The sorted array it replaces shifted every
 * path after the one that changed: at a million files, 1,000 creates and
 * deletes a second spent most of a core moving memory.
 */
export class SortedPaths {
  private constructor(private readonly tree: Tree) {}

  /** From paths in any order (sorted here, once). */
  static of(paths: Iterable<string>): SortedPaths {
    const keys = [...paths].sort(); // the default order is code-unit order, and native (no comparator calls)
    return new SortedPaths(bulkLoad<string, undefined>(keys, new Array<undefined>(keys.length), NODE_SIZE, compare));
  }

  get size(): number {
    return this.tree.size;
  }

  add(path: string): void {
    this.tree.set(path, undefined);
  }

  delete(path: string): void {
    this.tree.delete(path);
  }

  /** Every path, in order. */
  [Symbol.iterator](): IterableIterator<string> {
    return this.tree.keys();
  }

  /** The paths after `path` (not including it), in order: where a page that ended at `path` goes on. */
  *after(path: string): Generator<string> {
    for (const key of this.tree.keys(path)) if (key !== path) yield key;
  }

  /** The paths starting with `prefix`, in order (they are next to each other). */
  *startingWith(prefix: string): Generator<string> {
    for (const key of this.tree.keys(prefix)) {
      if (!key.startsWith(prefix)) return;
      yield key;
    }
  }
}
