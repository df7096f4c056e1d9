/**
 * Marks places in a rendered text with the CSS Custom Highlight API: the
 * highlighted code's DOM stays as highlight.js made it (no spans inserted
 * or removed), so marking every match of a find costs one walk of its text
 * nodes, and clearing it nothing. Styled by `::highlight(NAME)` in the
 * stylesheet. A browser without the API shows the line marks only.
 */

/** At most this many places are marked (a find of "e" in a large file is still counted in full). */
export const MAX_MARKS = 2000;

/**
 * Ranges for `[start, end)` character spans (sorted, not overlapping) of the
 * text the `parts` show one after another, each part followed by one
 * character the DOM does not hold (a wrapped view's line break), or none
 * when `joined` is false.
 */
export function rangesOf(parts: readonly Node[], spans: ReadonlyArray<readonly [number, number]>, joined = false): Range[] {
  const ranges: Range[] = [];
  let at = 0; // text offset where the current node starts
  let i = 0;
  let open: Range | null = null;
  for (const part of parts) {
    const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && i < spans.length; node = walker.nextNode()) {
      const length = node.nodeValue?.length ?? 0;
      const end = at + length;
      // A span may start in one text node and end in a later one (a match across highlighted tokens).
      while (i < spans.length) {
        const [from, to] = spans[i] as readonly [number, number];
        if (!open) {
          if (from >= end) break;
          open = document.createRange();
          open.setStart(node, Math.max(0, from - at));
        }
        if (to > end) break;
        open.setEnd(node, to - at);
        ranges.push(open);
        open = null;
        i++;
      }
      at = end;
    }
    if (joined) at++;
  }
  return ranges;
}

/** Shows `ranges` under the highlight NAME (replacing what it showed); returns what clears it. */
export function showMarks(name: string, ranges: Range[]): () => void {
  const registry = typeof CSS !== 'undefined' ? CSS.highlights : undefined;
  if (!registry) return () => undefined;
  registry.set(name, new Highlight(...ranges));
  return () => registry.delete(name);
}
