import path from 'node:path';

import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import picomatch from 'picomatch';
import * as z from 'zod';

import type { ClientReads, Requester } from '../access/clientReads.js';
import type { Library, ListedResource } from '../library/library.js';
import { ShelfError } from '../library/shelfError.js';

/**
 * Three read-only tools that mirror the resources, for clients that only
 * use tools. Same index, same reads, same safety rules and error codes.
 */

const MAX_SEARCH_RESULTS = 200;
/** A search reads at most this much text before it stops and says so. */
const SEARCH_BYTE_BUDGET = 64 * 1024 * 1024;
const SNIPPET_CHARS = 200;

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
    query: z.string().min(1).max(1000).describe('Text to find (plain text, not a pattern)'),
    folder: z.string().min(1).optional().describe('Only this published folder (its path, or its name)'),
    glob: z.string().min(1).max(500).optional().describe('Only files whose path matches this glob'),
    caseSensitive: z.boolean().optional(),
    maxResults: z.number().int().min(1).max(MAX_SEARCH_RESULTS).optional().describe(`At most this many matches (default 50, max ${MAX_SEARCH_RESULTS})`),
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
    title: 'Search published text files',
    description: 'Finds a text in the published text files; returns each match with its file, line number and a snippet.',
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

/** Every matching resource, page by page. */
function* matchingResources(library: Library, folder: string | undefined, glob: string | undefined): Generator<ListedResource> {
  let cursor: string | undefined;
  do {
    const page = matchingPage(library, folder, glob, cursor);
    yield* page.resources;
    cursor = page.nextCursor;
  } while (cursor);
}

/**
 * Runs one tool. An unknown tool is a protocol error (-32602); anything that
 * goes wrong inside a known tool, bad arguments included, is an `isError`
 * result the model can read and act on.
 */
export async function callShelfTool(reads: ClientReads, who: Requester, name: string, args: unknown): Promise<CallToolResult> {
  if (!TOOL_NAMES.has(name)) throw ShelfError.invalidParams(`Unknown tool: ${name.slice(0, 100)}`);
  try {
    return await runTool(reads, who, name, args);
  } catch (err) {
    return toolError(err);
  }
}

async function runTool(reads: ClientReads, who: Requester, name: string, args: unknown): Promise<CallToolResult> {
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
        const { contents } = await reads.read(a.uri, who, 'tool');
        return readToolResult(contents);
      }
    }
    case 'search_resources': {
      const a = parse(SearchArgs, args, name);
      const max = a.maxResults ?? 50;
      const needle = a.caseSensitive ? a.query : a.query.toLowerCase();
      const matches: Array<{ uri: string; name: string; line: number; snippet: string }> = [];
      let budget = SEARCH_BYTE_BUDGET;
      let truncated = false;
      let files = 0;
      // Files in ask-before-read folders are not searched: their text reaches a client only through a read the person allowed.
      const asked = new Set<string>();
      const anyAsks = reads.anyAsks();
      {
        outer: for (const r of matchingResources(library, a.folder, a.glob)) {
          if (r.size !== undefined && r.size > library.options.maxReadBytes) continue;
          const root = anyAsks ? library.resolve(r.uri)?.folder.root : undefined;
          if (root !== undefined && reads.asks(root)) {
            asked.add(root);
            continue;
          }
          if ((r.size ?? 0) > budget) {
            truncated = true;
            break;
          }
          let read;
          try {
            read = await library.read(r.uri, { cache: false });
          } catch {
            continue; // gone or unreadable since listing: not a match
          }
          if (!('text' in read.contents)) continue;
          budget -= read.size;
          files++;
          const lines = read.contents.text.split(/\r?\n/);
          for (let n = 0; n < lines.length; n++) {
            const line = lines[n] as string;
            const hay = a.caseSensitive ? line : line.toLowerCase();
            const at = hay.indexOf(needle);
            if (at < 0) continue;
            const from = Math.max(0, at - Math.floor((SNIPPET_CHARS - a.query.length) / 2));
            matches.push({ uri: r.uri, name: r.name, line: n + 1, snippet: line.slice(from, from + SNIPPET_CHARS).trim() });
            if (matches.length >= max) {
              truncated = true;
              break outer;
            }
          }
        }
      }
      const skipped = asked.size > 0 ? `\nNot searched (these folders ask before each read; read their files one by one): ${[...asked].join(', ')}` : '';
      const text =
        matches.length === 0
          ? `No match for "${a.query}" in ${files} file(s).${skipped}`
          : `${matches.length} match(es)${truncated ? ' (stopped early; narrow the search)' : ''}, as URI:line: snippet:\n${matches.map((m) => `${m.uri}:${m.line}: ${m.snippet}`).join('\n')}${skipped}`;
      return { content: [{ type: 'text', text }], structuredContent: { matches, truncated, filesSearched: files, ...(asked.size > 0 ? { notSearched: [...asked] } : {}) } };
    }
    default:
      throw ShelfError.invalidParams(`Unknown tool: ${name}`);
  }
}
