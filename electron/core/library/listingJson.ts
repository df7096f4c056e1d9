import { documentKind } from '../documents/documentKinds.js';
import type { DocumentText } from '../documents/documentText.js';
import { MAX_LOGGED_MEMBERS, MAX_LOGGED_STRING, moreItems, truncateForLog } from '../traffic/truncate.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { FileEntry } from './folderScan.js';
import type { PublishedFolder } from './publishedFolder.js';
import { describe, describeText, documentKey } from './resourceListing.js';

/**
 * A page of resources/list as JSON, for a reply the transport writes as it
 * is: `json` is the result's members up to its closing brace (left open, so
 * a protocol revision's fields can follow), `cut` the same as the traffic
 * log keeps it (truncateForLog's form), `entries` how many it lists.
 */
export interface PageJson {
  json: string;
  cut: string;
  entries: number;
}

/** One file's listed entries as JSON (and their cut form), made once per version of the file and of its document text. */
interface Fragment {
  size: number;
  mtimeMs: number;
  mimeType: string;
  json: string;
  cut: string;
  /** The document text's entry: for which text size (null: not extracted), and its JSON. */
  textSize: number | null;
  textJson: string;
  textCut: string;
}

/** An entry's cut form: its JSON itself when it is too short to hold a string the log would cut (nearly always), else truncateForLog's. */
const cutOf = (value: unknown, json: string): string => {
  if (json.length <= MAX_LOGGED_STRING) return json;
  const cut = truncateForLog(value);
  return cut.truncated ? JSON.stringify(cut.value) : json;
};

/** `entry`'s fragment: `kept`'s while the file (and its text) is the same version, else made anew. */
function fragmentOf(folder: PublishedFolder, entry: FileEntry, documents: DocumentText | null, kept: Fragment | undefined): Fragment {
  let f = kept;
  let file: ReturnType<typeof describe> | null = null;
  if (!f || f.size !== entry.size || f.mtimeMs !== entry.mtimeMs || f.mimeType !== entry.mimeType) {
    file = describe(folder, entry);
    const json = JSON.stringify(file);
    f = { size: entry.size, mtimeMs: entry.mtimeMs, mimeType: entry.mimeType, json, cut: cutOf(file, json), textSize: null, textJson: '', textCut: '' };
  }
  if (documents && documentKind(entry.rel)) {
    const text = documents.peek(documentKey(folder, entry))?.text;
    const size = text === undefined ? null : Buffer.byteLength(text);
    if (f.textJson === '' || size !== f.textSize) {
      const companion = describeText(file ?? describe(folder, entry), text);
      // A new fragment, not an edit: the kept page still holds the old one, and tells the change by identity.
      f = { ...f, textSize: size, textJson: JSON.stringify(companion), textCut: '' };
      f.textCut = cutOf(companion, f.textJson);
    }
  }
  return f;
}

/**
 * The last pages made, by cursor, with their files' fragments: a page whose
 * fragments are all the same as last time is the same page. Only these are
 * kept (at most KEPT_PAGES pages of LIST_PAGE_SIZE files), so what a listing
 * holds is bounded whatever the shelf holds; a page not kept is made as
 * listPage would.
 */
interface KeptPage {
  fragments: Fragment[];
  byEntry: Map<FileEntry, Fragment>;
  nextCursor: string | undefined;
  page: PageJson;
}
const KEPT_PAGES = 8;

/**
 * resources/list's pages as JSON, in listPage's order and shape (no filter:
 * the tools' listings keep listPage). On a kept page a file's entry is made
 * once per version, and a page whose entries did not change is handed out
 * again as the same string, so many clients listing an unchanged shelf cost
 * a walk of the page's paths, not a description and serialisation of every
 * file.
 */
export class ListingJson {
  private readonly kept = new Map<string, KeptPage>();

  page(folders: readonly PublishedFolder[], documents: DocumentText | null, cursor: string | undefined, pageSize: number): PageJson {
    const from = cursor === undefined ? null : decodeCursor(cursor);
    const key = cursor ?? '';
    const kept = this.kept.get(key);
    const made: Fragment[] = [];
    const byEntry = new Map<FileEntry, Fragment>();
    let last: { folder: PublishedFolder; rel: string } | null = null;
    let more = false;
    let same = kept !== undefined;
    outer: for (const folder of folders) {
      if (from && folder.id < from.folderId) continue;
      const paths = from && folder.id === from.folderId ? folder.paths().after(from.rel) : folder.paths();
      for (const rel of paths) {
        if (made.length === pageSize) {
          more = true;
          break outer;
        }
        const entry = folder.get(rel) as FileEntry;
        const f = fragmentOf(folder, entry, documents, kept?.byEntry.get(entry));
        if (same && kept?.fragments[made.length] !== f) same = false;
        made.push(f);
        byEntry.set(entry, f);
        last = { folder, rel };
      }
    }
    const nextCursor = more && last ? encodeCursor({ folderId: last.folder.id, rel: last.rel }) : undefined;
    if (same && kept && kept.fragments.length === made.length && kept.nextCursor === nextCursor) return kept.page;
    const parts: string[] = [];
    const cuts: string[] = [];
    for (const f of made) {
      parts.push(f.json);
      if (cuts.length < MAX_LOGGED_MEMBERS) cuts.push(f.cut);
      if (f.textJson === '') continue;
      parts.push(f.textJson);
      if (cuts.length < MAX_LOGGED_MEMBERS) cuts.push(f.textCut);
    }
    const next = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`;
    const nextCut = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(truncateForLog(nextCursor).value)}`;
    const left = parts.length - cuts.length;
    const page: PageJson = {
      json: `{"resources":[${parts.join(',')}]${next}`,
      cut: `{"resources":[${cuts.join(',')}${left > 0 ? `${cuts.length > 0 ? ',' : ''}${JSON.stringify(moreItems(left))}` : ''}]${nextCut}`,
      entries: parts.length,
    };
    this.kept.delete(key);
    this.kept.set(key, { fragments: made, byEntry, nextCursor, page });
    if (this.kept.size > KEPT_PAGES) this.kept.delete(this.kept.keys().next().value as string);
    return page;
  }
}
