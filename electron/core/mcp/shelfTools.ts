import path from 'node:path';

import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';

import type { AccessEntry } from '../../../shared/shelfApi.js';
import type { ClientReads, Requester } from '../access/clientReads.js';
import type { CancelHook } from '../base/requestCancel.js';
import { toRpcError } from '../base/rpcError.js';
import { ShelfError } from '../base/shelfError.js';
import type { ClientChanges } from '../changes/clientChanges.js';
import type { DeliveryProfile } from '../delivery/clientProfiles.js';
import { changeRefused } from '../library/safeWrite.js';
import { MAX_GLOB_CHARS } from '../search/globMatcher.js';
import { DEFAULT_MATCHES, type Grep, MAX_CONTEXT, MAX_MATCHES, MAX_PATTERN_CHARS } from '../search/grep.js';
import type { SearchIndex } from '../search/searchIndex.js';
import { CHANGE_TOOL_NAMES, EditArgs, runChangeTool, WriteArgs } from './changeTools.js';
import { listDirectoryResult, MAX_DEPTH } from './directoryTool.js';
import { grepPlace, grepText } from './grepTool.js';
import { folderFilter, listFilter, listResourcesResult, sameArgs } from './listTool.js';
import { DIRECTORY_OUTPUT, GREP_OUTPUT, LIST_OUTPUT, SEARCH_OUTPUT } from './outputSchemas.js';
import { readUriOf } from './personPaths.js';

/**
 * The read-only tools, for clients whose model reaches files only through
 * tools (most of them: ../shared/CLIENTS.md). Same files, same safety rules
 * and error codes as the resources; what they return is sized for a model
 * (delivery/modelRead.ts).
 */

const MAX_SEARCH_RESULTS = 100;

const folderArg = z.string().min(1).max(4096).optional().describe('Only this published folder (its path, or its name)');
/** A glob argument: the same bound for every tool, described as the tool uses it. */
const globArg = (description: string) => z.string().min(1).max(MAX_GLOB_CHARS).optional().describe(description);

const ListArgs = z
  .object({
    folder: folderArg,
    glob: globArg('Only paths matching this glob, relative to the folder (e.g. "**/*.md"; without a "/" it matches file names)'),
    modified_since: z.iso.datetime({ offset: true }).optional().describe('Only files changed at or after this time (ISO 8601, e.g. "2026-11-30T00:00:00Z")'),
    cursor: z.string().max(4096).optional().describe('nextCursor from the previous page'),
  })
  .strict();

const ReadArgs = z
  .object({
    uri: z
      .string()
      .min(1)
      .max(8192)
      .describe(
        'The file\'s URI, as list_resources, list_directory, search_resources or grep_resources give it; or its path: absolute (inside a published folder), a folder\'s name then the path in it ("notes/a.md"), or a file name only one file has',
      ),
    offset: z
      .number()
      .int()
      .min(-1e9)
      .max(1e9)
      .optional()
      .describe('Line to start at: 1 is the first line; a negative number counts from the end (-20: the last 20 lines)'),
    limit: z.number().int().min(1).max(1e9).optional().describe('Lines to read at most (default: as many as fit the budget)'),
    column: z
      .number()
      .int()
      .min(1)
      .max(1e12)
      .optional()
      .describe('Character of the first line to start at, for a line longer than the budget (the note after a cut line gives it)'),
    pages: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe(
        'For a PDF, which pages: "3" or "2-5" (slides of a presentation, sheets of a workbook, chapters of a book, cells of a notebook, messages of a mailbox likewise)',
      ),
  })
  .strict();

const DirectoryArgs = z
  .object({
    path: z
      .string()
      .max(8192)
      .optional()
      .describe(
        'The directory: a published folder\'s name ("notes"), a path in it ("notes/2026/march"), an absolute path or a file:// URI. Absent: the published folders.',
      ),
    depth: z
      .number()
      .int()
      .min(1)
      .max(MAX_DEPTH)
      .optional()
      .describe(
        `Levels to show: 1 (default) is the directory's own entries; more gives the tree below it, each directory followed by its entries (at most ${MAX_DEPTH})`,
      ),
    cursor: z.string().max(16_384).optional().describe('nextCursor from the previous call (with the same path and depth)'),
  })
  .strict();

const SearchArgs = z
  .object({
    query: z
      .string()
      .min(1)
      .max(1000)
      .describe('Words to find (all must appear); "quoted phrases" match exactly; word* matches words starting with it. Case does not matter.'),
    folder: folderArg,
    glob: globArg('Only files whose path matches this glob'),
    maxResults: z.number().int().min(1).max(MAX_SEARCH_RESULTS).optional().describe(`At most this many files (default 20, max ${MAX_SEARCH_RESULTS})`),
    cursor: z.string().max(100).optional().describe('nextCursor from the previous page of results'),
  })
  .strict();

const GrepArgs = z
  .object({
    pattern: z
      .string()
      .min(1)
      .max(MAX_PATTERN_CHARS)
      .describe('A regular expression (RE2 syntax, as in ripgrep and Go: no look-around or backreferences), matched line by line'),
    ignoreCase: z.boolean().optional().describe('Match letters in any case'),
    context: z.number().int().min(0).max(MAX_CONTEXT).optional().describe(`Lines to show before and after each match (0–${MAX_CONTEXT}, default 0)`),
    folder: folderArg,
    path: z
      .string()
      .min(1)
      .max(8192)
      .optional()
      .describe(
        'Only this file or directory: a folder\'s name then the path in it ("notes/2026"), an absolute path inside a published folder, or a file:// URI (a glob then applies below it)',
      ),
    glob: globArg('Only files whose path matches this glob (e.g. "**/*.log"; without a "/" it matches file names)'),
    maxResults: z
      .number()
      .int()
      .min(1)
      .max(MAX_MATCHES)
      .optional()
      .describe(`At most this many matching lines (default ${DEFAULT_MATCHES}, max ${MAX_MATCHES})`),
    cursor: z.string().max(8192).optional().describe('nextCursor from the previous call (with the same pattern, ignoreCase and glob)'),
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
    description:
      "Lists the files in the published folders, a page at a time: each file's URI, type, size and modified time. Narrow it to one folder, a glob, or the files changed since a time (modified_since). To see a folder's directories, use list_directory.",
    inputSchema: schema(ListArgs),
    outputSchema: LIST_OUTPUT,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'read_resource',
    title: 'Read a published file',
    description: [
      'Reads one published file by URI, as you can use it.',
      'Text comes as its lines, at most about 100,000 characters a call: a longer file is cut at a line and a note after it says which lines you got, how many there are, and the offset to read on from. offset is the line to start at (a negative one counts from the end: -20 gives the last 20 lines); limit, how many lines.',
      'A PDF, Word, Excel, PowerPoint, OpenDocument, EPUB, RTF, Jupyter notebook or mail (.eml, .mbox) file comes as its extracted text (pages: "3" or "2-5" for PDF pages, slides, chapters, cells or messages); an HTML page comes as its markup, and its visible text is its URI with ?as=text. An image comes as an image you can see, scaled to fit. Other binary files are described in a line, not dumped.',
    ].join(' '),
    inputSchema: schema(ReadArgs),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'list_directory',
    title: 'List a directory',
    description:
      'Lists one directory of a published folder: its directories first, then its files, each with kind, size, modified time and (a directory) how many entries it holds; with depth, the tree below it. Without a path: the published folders. Paths it gives go to read_resource and list_directory as they are. Hidden, ignored and secret files are never shown.',
    inputSchema: schema(DirectoryArgs),
    outputSchema: DIRECTORY_OUTPUT,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'search_resources',
    title: 'Search published files',
    description:
      'Full-text search over the published text files and the text of documents (PDF, Word, Excel, PowerPoint), best matches first: each result has the URI to read, a score, the line and a snippet with the matched words in **bold**.',
    inputSchema: schema(SearchArgs),
    outputSchema: SEARCH_OUTPUT,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'grep_resources',
    title: 'Find lines by pattern',
    description:
      "Finds the lines that match a regular expression in the published text files and documents' text, with line numbers and optional context lines, grouped by file (like ripgrep). Then read_resource with an offset near a line reads around it.",
    inputSchema: schema(GrepArgs),
    outputSchema: GREP_OUTPUT,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** read_resource's description with the real budget of this client's profile (what a call gives it at most). */
function readDescription(budget: number): string {
  return (SHELF_TOOLS.find((t) => t.name === 'read_resource') as Tool).description?.replace(
    'at most about 100,000 characters a call',
    `at most about ${budget.toLocaleString('en')} characters (about ${Math.round(budget / CHARS_PER_TOKEN).toLocaleString('en')} tokens) a call`,
  ) as string;
}

/**
 * Characters a token is estimated at, for code and prose alike (Claude
 * Code's 25,000-token cut is kept to 75,000 characters: clientProfiles.ts).
 */
export const CHARS_PER_TOKEN = 3;

/** The read-only tools as this client is told about them: descriptions that state its own budget. */
export function shelfToolsFor(profile: DeliveryProfile): Tool[] {
  return SHELF_TOOLS.map((t) => (t.name === 'read_resource' ? { ...t, description: readDescription(profile.textBudget) } : t));
}

/** Bad arguments are the model's to fix, so they come back as a tool error it can read (SEP-1303), not a protocol error. */
export function parse<T>(s: z.ZodType<T>, args: unknown, tool: string): T {
  const r = s.safeParse(args ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw ShelfError.invalidParams(`Invalid arguments for ${tool}${issue?.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'malformed'}`);
  }
  return r.data;
}

/** A tool failure carries the same code, message and data a resources/* call would. */
export function toolError(err: unknown): CallToolResult {
  const error = toRpcError(err);
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.message} (${error.code})${error.data ? `: ${JSON.stringify(error.data)}` : ''}` }],
    structuredContent: { error },
  };
}

const TOOL_NAMES = new Set(SHELF_TOOLS.map((t) => t.name));

/** What the tools work with: client reads (asked about, recorded) and the searchers the search tools answer from (null: that tool is off). */
export interface ToolContext {
  reads: ClientReads;
  search?: SearchIndex | null;
  grep?: Grep | null;
  changes?: ClientChanges | null;
}

/**
 * Runs one tool. An unknown tool is a protocol error (-32602); anything that
 * goes wrong inside a known tool, bad arguments included, is an `isError`
 * result the model can read and act on. `via` files a read in the history
 * (the in-chat app reads through the same tools).
 */
export async function callShelfTool(
  tools: ToolContext,
  who: Requester,
  name: string,
  args: unknown,
  via: AccessEntry['via'] = 'tool',
  cancel?: CancelHook,
): Promise<CallToolResult> {
  if (!TOOL_NAMES.has(name) && !CHANGE_TOOL_NAMES.has(name)) throw ShelfError.invalidParams(`Unknown tool: ${name.slice(0, 100)}`);
  try {
    return await runTool(tools, who, name, args, via, cancel);
  } catch (err) {
    return toolError(err);
  }
}

/** A `resource_link` for each file named, when the client takes them (clients before 2025-06-18 would reject the result). */
function links(profile: DeliveryProfile, files: Array<{ uri: string; path: string; mimeType?: string }>): CallToolResult['content'] {
  if (!profile.links) return [];
  const seen = new Set<string>();
  return files
    .filter((f) => !seen.has(f.uri) && seen.add(f.uri))
    .map((f) => ({
      type: 'resource_link' as const,
      uri: f.uri,
      name: f.path,
      title: path.posix.basename(f.path),
      ...(f.mimeType ? { mimeType: f.mimeType } : {}),
    }));
}

async function runTool(
  tools: ToolContext,
  who: Requester,
  name: string,
  args: unknown,
  via: AccessEntry['via'],
  cancel: CancelHook | undefined,
): Promise<CallToolResult> {
  const { reads } = tools;
  const library = reads.library;
  switch (name) {
    case 'list_resources': {
      const a = parse(ListArgs, args, name);
      return listResourcesResult(library, {
        accept: listFilter(library, a),
        cursor: a.cursor,
        budget: reads.profile(who).textBudget,
        same: sameArgs(a, ['folder', 'glob', 'modified_since']),
      });
    }
    case 'read_resource': {
      const a = parse(ReadArgs, args, name);
      // A path becomes the URI of the file it names first; then the read takes the same checks as any URI.
      return reads.readForModel({ ...a, uri: readUriOf(library, a.uri) }, who, via, cancel);
    }
    case 'list_directory': {
      const a = parse(DirectoryArgs, args, name);
      return listDirectoryResult(reads, a, reads.profile(who).textBudget);
    }
    case 'search_resources': {
      const a = parse(SearchArgs, args, name);
      const index = tools.search ?? null;
      if (!index) throw ShelfError.invalidParams('Full-text search is off on this shelf (the search index setting)');
      const inFolder = a.folder ? folderFilter(library, a.folder) : undefined;
      // A search gives the client snippets of files: it goes in the access history like a read.
      const page = await index
        .search(a.query, {
          ...(inFolder ? { folder: inFolder } : {}),
          ...(a.glob ? { glob: a.glob } : {}),
          ...(a.cursor ? { cursor: a.cursor } : {}),
          limit: a.maxResults ?? 20,
          // Ask-before-read folders are not searched: their text reaches a client only through a read the person allowed.
          skipFolder: (root) => reads.asks(root),
        })
        .then(
          (p) => (reads.recordSearch(who, via, 'search_resources', a.query, { hits: p.hits.length }), p),
          (error: unknown) => {
            reads.recordSearch(who, via, 'search_resources', a.query, { error });
            throw error;
          },
        );
      const lines = page.hits.map((h) => `${h.uri} (score ${h.score})\n  ${h.line}: ${h.snippet}`);
      const notes = [
        page.nextCursor ? `More results: call search_resources again with cursor "${page.nextCursor}" (and the same query).` : '',
        page.pending > 0
          ? `The index is still being built (${page.indexed.toLocaleString('en')} files indexed, ${page.pending.toLocaleString('en')} to go): results may be incomplete.`
          : '',
        page.notSearched.length > 0 ? `Not searched (these folders ask before each read; read their files one by one): ${page.notSearched.join(', ')}` : '',
        page.partial ? 'Partial results: the query matches too much to rank in full; add words, a folder or a glob to narrow it.' : '',
        page.full
          ? `The search index is full (it holds at most ${index.maxFiles.toLocaleString('en')} files): some files are not searched; list_resources and read_resource still reach them.`
          : '',
      ].filter(Boolean);
      const text =
        page.hits.length === 0
          ? `No file matches "${a.query}".${notes.length ? `\n${notes.join('\n')}` : ''}`
          : `${page.hits.length} result(s) for "${a.query}", best first (URI to read, score; line: snippet):\n${lines.join('\n')}${notes.length ? `\n${notes.join('\n')}` : ''}`;
      return {
        content: [
          { type: 'text', text },
          ...links(
            reads.profile(who),
            page.hits.map((h) => ({ uri: h.fileUri, path: h.path })),
          ),
        ],
        structuredContent: {
          results: page.hits,
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
          indexing: page.pending > 0,
          ...(page.notSearched.length > 0 ? { notSearched: page.notSearched } : {}),
          ...(page.full ? { indexFull: true } : {}),
          ...(page.partial ? { partial: true } : {}),
        },
      };
    }
    case 'grep_resources': {
      const a = parse(GrepArgs, args, name);
      const grep = tools.grep ?? null;
      if (!grep) throw ShelfError.invalidParams('grep is not available on this shelf');
      const profile = reads.profile(who);
      const within = a.path === undefined ? null : grepPlace(library, a.path, a.glob);
      const inFolder = within ? within.folder : a.folder ? folderFilter(library, a.folder) : undefined;
      const glob = within ? within.glob : a.glob;
      const page = await grep
        .search({
          pattern: a.pattern,
          ignoreCase: a.ignoreCase ?? false,
          context: a.context ?? 0,
          ...(inFolder ? { folder: inFolder } : {}),
          ...(glob ? { glob } : {}),
          maxMatches: a.maxResults ?? DEFAULT_MATCHES,
          budget: profile.textBudget,
          ...(a.cursor ? { cursor: a.cursor } : {}),
          skipFolder: (root) => reads.asks(root),
        })
        .then(
          (p) => (reads.recordSearch(who, via, 'grep_resources', a.pattern, { hits: p.matches }), p),
          (error: unknown) => {
            reads.recordSearch(who, via, 'grep_resources', a.pattern, { error });
            throw error;
          },
        );
      return {
        content: [{ type: 'text', text: grepText(a.pattern, a.ignoreCase ?? false, page) }, ...links(profile, page.files)],
        structuredContent: {
          files: page.files,
          matches: page.matches,
          scannedFiles: page.scannedFiles,
          scannedBytes: page.scannedBytes,
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
          ...(page.notSearched.length > 0 ? { notSearched: page.notSearched } : {}),
        },
      };
    }
    case 'write_resource':
    case 'edit_resource': {
      const a = name === 'write_resource' ? parse(WriteArgs, args, name) : parse(EditArgs, args, name);
      const changes = tools.changes ?? null;
      // A forced call while no folder allows changes is refused like one for a folder that does not.
      if (!changes || !changes.anyAllowed())
        throw changeRefused(
          a.uri,
          'off',
          'No published folder lets a model change files: the person can turn on “Changes by AI: ask me” in a folder’s Options in MCP Shelf',
        );
      return runChangeTool(changes, who, name, a, via, reads.profile(who).textBudget, cancel);
    }
    default:
      throw ShelfError.invalidParams(`Unknown tool: ${name}`);
  }
}
