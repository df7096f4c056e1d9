import path from 'node:path';

import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import picomatch from 'picomatch';
import * as z from 'zod';

import type { AccessEntry } from '../../../shared/shelfApi.js';
import type { ClientReads, Requester } from '../access/clientReads.js';
import type { Library, ListedResource } from '../library/library.js';
import { ShelfError } from '../library/shelfError.js';

/**
 * Three read-only tools that mirror the resources, for clients that only
 * use tools. Same index, same reads, same safety rules and error codes.
 */

const MAX_SEARCH_RESULTS = 100;

const ListArgs = z
  .object({
    folder: z.string().min(1).optional().describe('Only this published folder (its path, or its name)'),
    glob: z.string().min(1).max(500).optional().describe('Only paths matching this glob, relative to the folder (e.g. "**/*.md")'),
    cursor: z.string().optional().describe('nextCursor from the previous page'),
  })
  .strict();

const ReadArgs = z.object({ uri: z.string().min(1).describe('The resource URI, as list_resources gives it') }).strict();

const SearchArgs = z
  .object({
    query: z
      .string()
      .min(1)
      .max(1000)
      .describe('Words to find (all must appear); "quoted phrases" match exactly; word* matches words starting with it. Case does not matter.'),
    folder: z.string().min(1).optional().describe('Only this published folder (its path, or its name)'),
    glob: z.string().min(1).max(500).optional().describe('Only files whose path matches this glob'),
    maxResults: z.number().int().min(1).max(MAX_SEARCH_RESULTS).optional().describe(`At most this many files (default 20, max ${MAX_SEARCH_RESULTS})`),
    cursor: z.string().max(100).optional().describe('nextCursor from the previous page of results'),
  })
  .strict();

function schema(s: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(s) as Record<string, unknown>;
  delete json.$schema;
  return json as Tool['inputSchema'];
}

export const SHELF_TOOLS: Tool[] = [
  {
    name: 'list_resources',
    title: 'List published files',
    description: 'Lists the files MCP Shelf publishes (the same as resources/list), optionally one folder and a glob, a page at a time.',
    inputSchema: schema(ListArgs),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'read_resource',
    title: 'Read a published file',
    description: 'Reads one published file by URI: text as text, anything else as an embedded resource with a base64 blob.',
    inputSchema: schema(ReadArgs),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'search_resources',
    title: 'Search published files',
    description:
      'Full-text search over the published text files and the text of documents (PDF, Word, Excel, PowerPoint), best matches first: each result has the URI to read, a score, the line and a snippet with the matched words in **bold**.',
    inputSchema: schema(SearchArgs),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** Bad arguments are the model's to fix, so they come back as a tool error it can read (SEP-1303), not a protocol error. */
function parse<T>(s: z.ZodType<T>, args: unknown, tool: string): T {
  const r = s.safeParse(args ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw ShelfError.invalidParams(`Invalid arguments for ${tool}${issue?.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'malformed'}`);
  }
  return r.data;
}

/** A tool failure carries the same code, message and data a resources/* call would. */
export function toolError(err: unknown): CallToolResult {
  const e = err as { code?: unknown; message?: string; data?: unknown };
  const error = { code: typeof e.code === 'number' ? e.code : -32603, message: e.message ?? 'Internal error', ...(e.data !== undefined ? { data: e.data } : {}) };
  return { isError: true, content: [{ type: 'text', text: `${error.message} (${error.code})${e.data ? `: ${JSON.stringify(e.data)}` : ''}` }], structuredContent: { error } };
}

const TOOL_NAMES = new Set(SHELF_TOOLS.map((t) => t.name));

/** The read_resource tool's result for a file's contents: text as text, anything else as an embedded resource. */
export function readToolResult(contents: { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string }): CallToolResult {
  if ('text' in contents) return { content: [{ type: 'text', text: contents.text }] };
  return { content: [{ type: 'resource', resource: contents }] };
}

/** The URI read_resource was called with, or null when its arguments are not right (the SDK path then answers). */
export function readToolUri(args: unknown): string | null {
  const r = ReadArgs.safeParse(args ?? {});
  return r.success ? r.data.uri : null;
}

function matcher(glob: string | undefined): (rel: string) => boolean {
  if (!glob) return () => true;
  const isMatch = picomatch(glob, { dot: true, basename: !glob.includes('/') });
  return (rel) => isMatch(rel);
}

function folderFilter(library: Library, folder: string | undefined): (root: string) => boolean {
  if (!folder) return () => true;
  const roots = library.list().filter((f) => f.root === path.resolve(folder) || f.realRoot === folder || path.basename(f.root) === folder);
  if (roots.length === 0) throw ShelfError.invalidParams(`Not a published folder: ${folder}`);
  const set = new Set(roots.map((f) => f.root));
  return (root) => set.has(root);
}

const TOOL_PAGE_SIZE = 1000;

/** The chosen folders' resources whose path matches the glob, one page after `cursor` (a position, as in resources/list). */
function matchingPage(library: Library, folder: string | undefined, glob: string | undefined, cursor: string | undefined): { resources: ListedResource[]; nextCursor?: string } {
  const inFolder = folderFilter(library, folder);
  const matches = matcher(glob);
  return library.listResources(cursor, TOOL_PAGE_SIZE, undefined, (f, rel) => inFolder(f.root) && matches(rel));
}

/**
 * Runs one tool. An unknown tool is a protocol error (-32602); anything that
 * goes wrong inside a known tool, bad arguments included, is an `isError`
 * result the model can read and act on. `via` is how a read is filed in
 * the access history (the in-chat app reads through here as `app`).
 */
export async function callShelfTool(reads: ClientReads, who: Requester, name: string, args: unknown, via: AccessEntry['via'] = 'tool'): Promise<CallToolResult> {
  if (!TOOL_NAMES.has(name)) throw ShelfError.invalidParams(`Unknown tool: ${name.slice(0, 100)}`);
  try {
    return await runTool(reads, who, name, args, via);
  } catch (err) {
    return toolError(err);
  }
}

async function runTool(reads: ClientReads, who: Requester, name: string, args: unknown, via: AccessEntry['via']): Promise<CallToolResult> {
  const library = reads.library;
  switch (name) {
    case 'list_resources': {
      const a = parse(ListArgs, args, name);
      const { resources, nextCursor } = matchingPage(library, a.folder, a.glob, a.cursor);
      const lines = resources.map((r) => `${r.uri}\t${r.mimeType}\t${r.size ?? '?'}`);
      const more = nextCursor ? `\nMore files follow: call list_resources again with cursor "${nextCursor}" (and the same folder and glob).` : '';
      return {
        content: [{ type: 'text', text: `${resources.length} file(s) (URI, MIME type, bytes):\n${lines.join('\n')}${more}` }],
        structuredContent: { resources, ...(nextCursor ? { nextCursor } : {}) },
      };
    }
    case 'read_resource': {
      const a = parse(ReadArgs, args, name);
      {
        const { contents } = await reads.read(a.uri, who, via);
        return readToolResult(contents);
      }
    }
    case 'search_resources': {
      const a = parse(SearchArgs, args, name);
      const index = reads.search;
      if (!index) throw ShelfError.invalidParams('Full-text search is off on this shelf (the search index setting)');
      const inFolder = a.folder ? folderFilter(library, a.folder) : undefined;
      const page = await index.search(a.query, {
        ...(inFolder ? { folder: inFolder } : {}),
        ...(a.glob ? { glob: a.glob } : {}),
        ...(a.cursor ? { cursor: a.cursor } : {}),
        limit: a.maxResults ?? 20,
        // Ask-before-read folders are not searched: their text reaches a client only through a read the person allowed.
        skipFolder: (root) => reads.asks(root),
      });
      const lines = page.hits.map((h) => `${h.uri} (score ${h.score})\n  ${h.line}: ${h.snippet}`);
      const notes = [
        page.nextCursor ? `More results: call search_resources again with cursor "${page.nextCursor}" (and the same query).` : '',
        page.pending > 0 ? `The index is still being built (${page.indexed.toLocaleString('en')} files indexed, ${page.pending.toLocaleString('en')} to go): results may be incomplete.` : '',
        page.notSearched.length > 0 ? `Not searched (these folders ask before each read; read their files one by one): ${page.notSearched.join(', ')}` : '',
        page.full ? `The search index is full (it holds at most ${index.maxFiles.toLocaleString('en')} files): some files are not searched; list_resources and read_resource still reach them.` : '',
      ].filter(Boolean);
      const text =
        page.hits.length === 0
          ? `No file matches "${a.query}".${notes.length ? `\n${notes.join('\n')}` : ''}`
          : `${page.hits.length} result(s) for "${a.query}", best first (URI to read, score; line: snippet):\n${lines.join('\n')}${notes.length ? `\n${notes.join('\n')}` : ''}`;
      return {
        content: [{ type: 'text', text }],
        structuredContent: {
          results: page.hits,
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
          indexing: page.pending > 0,
          ...(page.notSearched.length > 0 ? { notSearched: page.notSearched } : {}),
          ...(page.full ? { indexFull: true } : {}),
        },
      };
    }
    default:
      throw ShelfError.invalidParams(`Unknown tool: ${name}`);
  }
}
