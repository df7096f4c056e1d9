import { useCallback, useState } from 'react';

import type { ResourceInfo, SearchHit, ShelfApi } from '../../../shared/shelfApi';
import { snippetParts } from '../../../shared/snippetMarks';

/** A search result being shown: the preview goes to its line, with its word in the find box. */
export interface PreviewFocus {
  uri: string;
  line: number;
  inText: boolean;
  term?: string;
}

export interface OpenFile {
  /** Shows a listed file (from the tree): no search focus. */
  select: (r: ResourceInfo) => void;
  /** Shows the file a link or a History row names, or says it is no longer published. */
  openUri: (uri: string) => void;
  /** Shows a search hit at its line. */
  openHit: (hit: SearchHit) => void;
  focus: PreviewFocus | null;
}

/**
 * Opening a file in the preview from anywhere: the tree, a link, a search
 * hit, a History row. Each ends on the Preview tab (`showPreview`).
 */
export function useOpenFile(
  api: ShelfApi,
  resources: Map<string, ResourceInfo[]>,
  selectFile: (r: ResourceInfo) => void,
  showPreview: () => void,
  warn: (text: string) => void,
): OpenFile {
  const [focus, setFocus] = useState<PreviewFocus | null>(null);

  const select = useCallback(
    (r: ResourceInfo) => {
      selectFile(r);
      setFocus(null);
      showPreview();
    },
    [selectFile, showPreview],
  );
  /**
   * The listed resource for a URI; while a folder's listing is still loading
   * (a big folder, the first seconds) the server is asked about the file
   * itself, so a search hit or a link opens at once rather than saying the
   * file is gone. Null: it is not published.
   */
  const resourceFor = useCallback(
    async (uri: string, hasText?: boolean): Promise<ResourceInfo | null> => {
      for (const list of resources.values()) {
        const found = list.find((r) => r.uri === uri);
        if (found) return found;
      }
      const read = await api.readResource(uri).catch(() => null);
      if (!read?.ok) return null;
      const name = decodeURIComponent(uri.replace(/^file:\/\//, ''));
      const title = name.split('/').pop() ?? name;
      const mimeType = read.result.contents[0]?.mimeType ?? 'application/octet-stream';
      return { uri, name: title, title, mimeType, size: read.size, annotations: { lastModified: '' }, ...(hasText ? { hasText: true as const } : {}) };
    },
    [api, resources],
  );
  const openUri = useCallback(
    (uri: string) => {
      void resourceFor(uri).then((found) => (found ? select(found) : warn('That file is no longer published.')));
    },
    [resourceFor, select, warn],
  );
  const openHit = useCallback(
    (hit: SearchHit) => {
      void resourceFor(hit.fileUri, hit.uri !== hit.fileUri).then((found) => {
        if (!found) return warn('That file is no longer published.');
        selectFile(found);
        // The snippet's first marked word goes into the preview's find box, at its place on the line.
        const term = snippetParts(hit.snippet).find((p) => p.marked)?.text;
        setFocus({ uri: hit.fileUri, line: hit.line, inText: hit.uri !== hit.fileUri, ...(term ? { term } : {}) });
        showPreview();
      });
    },
    [resourceFor, selectFile, showPreview, warn],
  );
  return { select, openUri, openHit, focus };
}
