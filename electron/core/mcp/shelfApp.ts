import { readFile, stat } from 'node:fs/promises';

import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';

import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { AccessEntry, SearchHit } from '../../../shared/shelfApi.js';
import {
  APP_TOOLS,
  APP_URI,
  type AppChangesResult,
  type AppSearchHit,
  type AppSearchResult,
  BROWSE_TOOL,
  type BrowseResult,
} from '../../../shared/shelfApp.js';
import type { Requester } from '../access/clientReads.js';
import type { CancelHook } from '../base/requestCancel.js';
import { ShelfError } from '../base/shelfError.js';
import { MAX_PROPOSALS } from '../changes/changeGate.js';
import type { PublishedFolder } from '../library/publishedFolder.js';
import { appFile, appFolders, findFiles, folderOf, listDirectory } from './appBrowse.js';
import { APP_CHANGES_OUTPUT, APP_FIND_OUTPUT, APP_LIST_OUTPUT, APP_SEARCH_OUTPUT, BROWSE_OUTPUT } from './outputSchemas.js';
import { callShelfTool, parse, SHELF_TOOLS, type ToolContext, toolError } from './shelfTools.js';

/**
 * The in-chat app (MCP Apps, SEP-1865): `browse_shelf` links the `ui://`
 * view, and five tools only the view calls reach the shelf through the
 * host — the same library, the same rules, ask-before-read and history (a
 * read by the view is filed as `app`). Where no app is shown, browse_shelf
 * answers in text.
 */

export { EXTENSION_ID };

/** The built view is one file of a few hundred KB; anything far bigger is not it. */
const MAX_VIEW_BYTES = 8 * 1024 * 1024;

/** The built view (shelf-app.html beside the host's bundle), read once and kept. */
export class AppView {
  private html: Promise<string> | null = null;

  constructor(readonly file: string) {}

  read(): Promise<string> {
    this.html ??= (async () => {
      const { size } = await stat(this.file);
      if (size > MAX_VIEW_BYTES) throw new Error(`${size} bytes`);
      return readFile(this.file, 'utf8');
    })().catch((err: unknown) => {
      this.html = null; // built later (a developer's `npm run build`): the next read tries again
      throw new ShelfError(ErrorCodes.internalError, `The app's view is not available (${(err as Error).message}); run "npm run build"`);
    });
    return this.html;
  }
}

/**
 * The view's resource: no network at all (the CSP the host builds from
 * empty domain lists), inside a border the host draws.
 */
export const APP_RESOURCE_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
};

export function isAppUri(uri: string): boolean {
  return uri.startsWith('ui://');
}

export async function readAppResource(view: AppView, uri: string): Promise<ReadResourceResult> {
  if (uri !== APP_URI) throw ShelfError.notFound(uri);
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await view.read(), _meta: APP_RESOURCE_META }] };
}

const folderArg = z.string().min(1).max(4096);

const BrowseArgs = z
  .object({
    query: z.string().min(1).max(1000).optional().describe('Words to find in file names and file text; the app opens on these results'),
    folder: folderArg.optional().describe('Only this published folder (its path, or its name)'),
  })
  .strict();
const ListArgs = z
  .object({
    folder: folderArg.optional().describe('A published folder (its path): list one of its directories'),
    dir: z.string().max(4096).optional().describe('Directory relative to the folder ("" or absent: the folder itself)'),
    cursor: z.string().max(8192).optional().describe('nextCursor of the previous page of this directory'),
  })
  .strict();
const FindArgs = z.object({ filter: z.string().min(1).max(500), folder: folderArg.optional() }).strict();
const SearchArgs = z.object({ query: z.string().min(1).max(1000), folder: folderArg.optional(), cursor: z.string().max(100).optional() }).strict();
const ChangesArgs = z.object({}).strict();

function schema(s: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(s) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false };
const appOnly = { ui: { resourceUri: APP_URI, visibility: ['app'] } };
/** read_resource's own schema: the view's reads take exactly what it takes. */
const readSchema = (SHELF_TOOLS.find((t) => t.name === 'read_resource') as Tool).inputSchema;

export const BROWSE_SHELF_TOOL: Tool = {
  name: BROWSE_TOOL,
  title: 'Browse the shelf',
  description:
    "Shows MCP Shelf's published folders in the chat, where the person can browse, filter, search, preview files and add them to the conversation (in clients that show MCP Apps). Also answers in text: the folders, and with `query` the files whose name or text matches, each with the URI to pass to read_resource.",
  inputSchema: schema(BrowseArgs),
  outputSchema: BROWSE_OUTPUT,
  annotations: READ_ONLY,
  // Both spellings: hosts read `ui.resourceUri`; early ones the flat key.
  _meta: { ui: { resourceUri: APP_URI, visibility: ['model', 'app'] }, [RESOURCE_URI_META_KEY]: APP_URI },
};

const FOR_APP = 'Called by the MCP Shelf app shown in the chat, not by a model (use list_resources, search_resources and read_resource).';

export const APP_ONLY_TOOLS: Tool[] = [
  {
    name: APP_TOOLS.list,
    title: 'List a directory (app)',
    description: `${FOR_APP} The published folders, and one page of a directory.`,
    inputSchema: schema(ListArgs),
    outputSchema: APP_LIST_OUTPUT,
    annotations: READ_ONLY,
    _meta: appOnly,
  },
  {
    name: APP_TOOLS.find,
    title: 'Find files by name (app)',
    description: `${FOR_APP} Files whose path contains every word.`,
    inputSchema: schema(FindArgs),
    outputSchema: APP_FIND_OUTPUT,
    annotations: READ_ONLY,
    _meta: appOnly,
  },
  {
    name: APP_TOOLS.search,
    title: 'Search file text (app)',
    description: `${FOR_APP} Full-text search, as search_resources.`,
    inputSchema: schema(SearchArgs),
    outputSchema: APP_SEARCH_OUTPUT,
    annotations: READ_ONLY,
    _meta: appOnly,
  },
  {
    name: APP_TOOLS.read,
    title: 'Read a file (app)',
    description: `${FOR_APP} A file as read_resource gives it, recorded as picked by the person in the app.`,
    inputSchema: readSchema,
    annotations: READ_ONLY,
    _meta: appOnly,
  },
  {
    name: APP_TOOLS.changes,
    title: 'Changes waiting for approval (app)',
    description: `${FOR_APP} The changes this client proposed that wait for the person's decision in the MCP Shelf window; it decides none of them.`,
    inputSchema: schema(ChangesArgs),
    outputSchema: APP_CHANGES_OUTPUT,
    annotations: READ_ONLY,
    _meta: appOnly,
  },
];

/**
 * The app's tools, for a client that shows apps (its profile says so:
 * clientProfiles.ts, from the extension it declares or what it is known to
 * do — VS Code shows apps without declaring it). Hosts keep the view's own
 * tools from the model (their visibility says "app"); a client that shows
 * no app is listed browse_shelf alone. Every one stays callable.
 */
export const APP_TOOL_LIST: Tool[] = [BROWSE_SHELF_TOOL, ...APP_ONLY_TOOLS];

const APP_TOOL_NAMES = new Set<string>([BROWSE_TOOL, ...Object.values(APP_TOOLS)]);

export function isAppTool(name: string): boolean {
  return APP_TOOL_NAMES.has(name);
}

/** One of the app's tools; failures are `isError` results with the resources error, as for the other tools. */
export async function callAppTool(tools: ToolContext, who: Requester, name: string, args: unknown, cancel?: CancelHook): Promise<CallToolResult> {
  const { reads } = tools;
  try {
    switch (name) {
      case BROWSE_TOOL:
        return await browse(tools, who, parse(BrowseArgs, args, name));
      case APP_TOOLS.list: {
        const a = parse(ListArgs, args, name);
        const folders = appFolders(reads);
        if (a.folder === undefined) return structured({ folders }, `${folders.length} published folder(s)`);
        const folder = folderOf(reads.library, a.folder);
        const page = listDirectory(folder, a.dir ?? '', a.cursor);
        return structured({ folders, folder: folder.root, dir: a.dir ?? '', ...page }, `${page.entries.length} entries`);
      }
      case APP_TOOLS.find: {
        const a = parse(FindArgs, args, name);
        const found = await findFiles(reads.library, a.filter, a.folder === undefined ? undefined : folderOf(reads.library, a.folder));
        return structured(found, `${found.matches.length}${found.more ? '+' : ''} file(s)`);
      }
      case APP_TOOLS.search: {
        const a = parse(SearchArgs, args, name);
        const found = await search(tools, who, a.query, a.folder, a.cursor, 50, 'app');
        return found.ok ? structured(found.result, `${found.result.hits.length} result(s)`) : found.error;
      }
      case APP_TOOLS.read:
        return await callShelfTool(tools, who, 'read_resource', args, 'app', cancel);
      case APP_TOOLS.changes: {
        parse(ChangesArgs, args, name);
        return waitingChanges(tools, who);
      }
      default:
        throw ShelfError.invalidParams(`Unknown tool: ${name.slice(0, 100)}`);
    }
  } catch (err) {
    return toolError(err);
  }
}

/**
 * shelf_app_changes: what the calling connection proposed and waits for the
 * person, so the view can say where to decide. Only facts the client sent
 * itself (no diff, no other client's proposal); bounded as the waiting list is.
 */
function waitingChanges(tools: ToolContext, who: Requester): CallToolResult {
  const waiting = (tools.changes?.waitingFrom(who.connectionId) ?? []).slice(0, MAX_PROPOSALS);
  const result: AppChangesResult = {
    changes: waiting.map((p) => ({
      uri: p.uri,
      folder: p.folder,
      path: p.path,
      kind: p.kind,
      added: p.added,
      removed: p.removed,
      time: p.time,
      deadline: p.deadline,
    })),
  };
  return structured(result, `${result.changes.length} change(s) waiting for the person's approval in the MCP Shelf window`);
}

function structured(value: object, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: value as Record<string, unknown> };
}

/** search_resources' own answer, each hit with what the view shows (name, type, the file's URI and its text's). */
async function search(
  tools: ToolContext,
  who: Requester,
  query: string,
  folder: string | undefined,
  cursor: string | undefined,
  maxResults: number,
  via: AccessEntry['via'] = 'tool',
): Promise<{ ok: true; result: AppSearchResult } | { ok: false; error: CallToolResult }> {
  // Filed in the history as the app's when the person searched in it, as the model's (browse_shelf) otherwise.
  const { reads } = tools;
  const result = await callShelfTool(tools, who, 'search_resources', { query, ...(folder ? { folder } : {}), ...(cursor ? { cursor } : {}), maxResults }, via);
  if (result.isError) return { ok: false, error: result };
  const s = result.structuredContent as { results?: SearchHit[]; nextCursor?: string; indexing?: boolean; notSearched?: string[] } | undefined;
  const hits: AppSearchHit[] = [];
  for (const h of s?.results ?? []) {
    const found = reads.library.resolve(h.fileUri);
    const file = found ? appFile(found.folder, found.entry.rel) : null;
    if (file) hits.push({ ...file, folder: found?.folder.root as string, score: h.score, line: h.line, snippet: h.snippet });
  }
  return {
    ok: true,
    result: {
      hits,
      ...(s?.nextCursor ? { nextCursor: s.nextCursor } : {}),
      indexing: s?.indexing ?? false,
      ...(s?.notSearched?.length ? { notSearched: s.notSearched } : {}),
    },
  };
}

/** Files a model is shown in text, at most. */
const TEXT_FILES = 20;

const sizeText = (n: number | undefined) =>
  n === undefined ? '' : n < 1024 ? `, ${n} B` : n < 1024 * 1024 ? `, ${(n / 1024).toFixed(1)} KB` : `, ${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * browse_shelf: what the view opens on, and the same as text for a model —
 * the folders; with a query, files named like it and files whose text has
 * it (URIs to read); with only a folder, its first files.
 */
async function browse(tools: ToolContext, who: Requester, a: z.infer<typeof BrowseArgs>): Promise<CallToolResult> {
  const { reads } = tools;
  const library = reads.library;
  const folders = appFolders(reads);
  const only: PublishedFolder | undefined = a.folder === undefined ? undefined : folderOf(library, a.folder);
  const result: BrowseResult = { folders, ...(only ? { folder: only.root } : {}), ...(a.query ? { query: a.query } : {}), files: [], hits: [] };
  const lines: string[] = [];
  if (folders.length === 0) {
    lines.push('MCP Shelf publishes no folders yet: the person adds them in the MCP Shelf window.');
    return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { ...result } };
  }
  lines.push(`MCP Shelf publishes ${folders.length} folder(s):`);
  for (const f of folders)
    lines.push(
      `- ${f.name}: ${f.root} (${f.files.toLocaleString('en')} files${f.state === 'indexing' ? ', still being indexed' : ''}${f.asks ? ', asks the person before each read' : ''})`,
    );
  const notes: string[] = [];
  if (a.query) {
    const named = await findFiles(library, a.query, only);
    result.files = named.matches.slice(0, TEXT_FILES);
    if (named.more || named.matches.length > TEXT_FILES) result.moreFiles = true;
    const found = await search(tools, who, a.query, only?.root, undefined, TEXT_FILES);
    if (!found.ok) notes.push(`Full-text search is not available: ${(found.error.content[0] as { text?: string } | undefined)?.text ?? 'error'}`);
    else {
      result.hits = found.result.hits;
      if (found.result.indexing) {
        result.indexing = true;
        notes.push('The search index is still being built: text results may be incomplete.');
      }
      if (found.result.notSearched) notes.push(`Not searched (they ask before each read): ${found.result.notSearched.join(', ')}.`);
    }
    lines.push(
      '',
      result.files.length
        ? `Files whose path matches "${a.query}"${result.moreFiles ? ` (the first ${result.files.length})` : ''}:`
        : `No file path matches "${a.query}".`,
    );
    for (const f of result.files) lines.push(`  ${f.uri} (${f.mimeType}${sizeText(f.size)})`);
    lines.push('', result.hits.length ? `Files whose text matches "${a.query}", best first (line: snippet):` : `No file's text matches "${a.query}".`);
    for (const h of result.hits) lines.push(`  ${h.textUri ?? h.uri}\n    ${h.line}: ${h.snippet}`);
  } else if (only) {
    const page = library.listResources(undefined, TEXT_FILES, only.root, undefined, false);
    result.files = page.resources.flatMap((r) => {
      const file = appFile(only, r.name);
      return file ? [{ ...file, folder: only.root }] : [];
    });
    lines.push(
      '',
      `Files in ${folderNameOf(folders, only.root)}${page.nextCursor ? ` (the first ${result.files.length}; list_resources with this folder gives the rest)` : ''}:`,
    );
    for (const f of result.files) lines.push(`  ${f.uri} (${f.mimeType}${sizeText(f.size)})`);
  }
  lines.push(
    '',
    'Read a file with the read_resource tool and its URI (a PDF or Office document: its text at the URI with ?as=text). search_resources searches file text; list_resources lists a folder.',
    ...notes,
  );
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { ...result } };
}

const folderNameOf = (folders: BrowseResult['folders'], root: string) => folders.find((f) => f.root === root)?.name ?? root;
