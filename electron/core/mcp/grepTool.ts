import type { Library } from '../library/library.js';
import type { GrepPage } from '../search/grep.js';
import { placeOf } from './personPaths.js';

/** What grep_resources adds around the grep engine: where a `path` points, and the result as a model reads it. */

/** A glob's special characters escaped: a path matched as it is. */
const literalGlob = (rel: string) => rel.replace(/[\\*?[\]{}()!@+]/g, '\\$&');

/** grep_resources' `path`: its folder, and a glob for the file or for the directory's files (the model's glob applying below it). */
export function grepPlace(library: Library, said: string, glob: string | undefined): { folder: (root: string) => boolean; glob: string | undefined } {
  const place = placeOf(library, said, 'any');
  const root = place.folder.root;
  const folder = (r: string) => r === root;
  if (place.kind === 'file') return { folder, glob: literalGlob(place.rel) };
  const below = place.rel === '' ? '' : `${literalGlob(place.rel)}/`;
  if (!glob) return { folder, glob: below === '' ? undefined : `${below}**` };
  return { folder, glob: glob.includes('/') ? `${below}${glob}` : `${below}**/${glob}` };
}

/** grep's result as a model reads it: per file its URI, then `line: text` for matches and `line- text` for context (as ripgrep prints). */
export function grepText(pattern: string, ignoreCase: boolean, page: GrepPage): string {
  const out: string[] = [];
  const what = `/${pattern}/${ignoreCase ? 'i' : ''}`;
  const searched = `${page.scannedFiles.toLocaleString('en')} file(s) searched`;
  out.push(
    page.matches === 0
      ? `No line matches ${what} (${searched}).`
      : `${page.matches} matching line(s) in ${page.files.length} file(s) for ${what} (${searched}):`,
  );
  for (const f of page.files) {
    out.push('', `${f.uri}${f.document ? ' (document text; read_resource gives it)' : ''}`);
    let last = 0;
    for (const m of f.matches) {
      const before = m.before ?? [];
      const first = m.line - before.length;
      if (last > 0 && first > last + 1) out.push('  --');
      before.forEach((l, i) => {
        if (first + i > last) out.push(`  ${first + i}- ${l}`);
      });
      out.push(`  ${m.line}: ${m.text}`);
      (m.after ?? []).forEach((l, i) => out.push(`  ${m.line + 1 + i}- ${l}`));
      last = m.line + (m.after?.length ?? 0);
    }
  }
  const why = {
    matches: 'it found as many lines as asked for',
    budget: 'its text reached the budget',
    bytes: 'it read as many bytes as a call may',
    time: 'it took as long as a call may',
  };
  if (page.nextCursor)
    out.push(
      '',
      `The search stopped because ${why[page.stoppedBy ?? 'matches']}: call grep_resources again with cursor "${page.nextCursor}" (and the same pattern, ignoreCase and glob) for more.`,
    );
  if (page.notSearched.length > 0) out.push(`Not searched (these folders ask before each read; read their files one by one): ${page.notSearched.join(', ')}`);
  return out.join('\n');
}
