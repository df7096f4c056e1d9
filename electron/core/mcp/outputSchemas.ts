import type { Tool } from '@modelcontextprotocol/server';

/**
 * The outputSchema of each tool that returns structuredContent. Clients
 * validate the structure against it (the SDKs do), so each says what every
 * result of that tool holds — and, since a failure's structure is
 * `{ error }` (shelfTools.ts, toolError), that it may be that instead.
 * Objects stay open (more keys may come): a schema a client enforces must
 * never make a newer shelf's answer fail.
 */

type Json = Record<string, unknown>;

const str = { type: 'string' };
const int = { type: 'integer', minimum: 0 };
const bool = { type: 'boolean' };
const strings = { type: 'array', items: str };
const objects = (properties: Json = {}, required: string[] = []): Json => ({ type: 'array', items: { type: 'object', properties, required } });

const ERROR = {
  type: 'object',
  description: 'The failure, as a JSON-RPC error (the same code, message and data a resources/* call gives)',
  properties: { code: { type: 'integer' }, message: str, data: {} },
  required: ['code', 'message'],
};

/** A result's structure: these properties, with `required` (or one of the `shapes`), or `{ error }`. */
function output(properties: Json, ...shapes: string[][]): NonNullable<Tool['outputSchema']> {
  return {
    type: 'object',
    properties: { ...properties, error: ERROR },
    anyOf: [...shapes.map((required) => ({ required })), { required: ['error'] }],
  } as NonNullable<Tool['outputSchema']>;
}

const cursor = { ...str, description: 'Give it back as `cursor` for the next page' };

export const LIST_OUTPUT = output(
  {
    resources: objects({ uri: str, name: str, mimeType: str, size: int, modified: { ...str, format: 'date-time' } }, ['uri', 'name', 'mimeType']),
    nextCursor: cursor,
  },
  ['resources'],
);

const FOLDERS = objects({ name: str, path: str, uri: str, files: int, indexing: bool, asksBeforeRead: bool }, ['name', 'path', 'uri', 'files']);

export const DIRECTORY_OUTPUT = output(
  {
    folders: FOLDERS,
    folder: str,
    name: str,
    uri: str,
    dir: str,
    depth: int,
    entries: objects(
      { path: str, kind: { enum: ['dir', 'file'] }, mimeType: str, size: int, modified: { ...str, format: 'date-time' }, entries: int, moreEntries: bool },
      ['path', 'kind'],
    ),
    nextCursor: cursor,
  },
  ['folders'],
  ['folder', 'entries'],
);

export const SEARCH_OUTPUT = output(
  {
    results: objects({ uri: str, fileUri: str, path: str, score: { type: 'number' }, line: int, snippet: str }, ['uri']),
    nextCursor: cursor,
    indexing: bool,
    notSearched: strings,
    indexFull: bool,
  },
  ['results'],
);

export const GREP_OUTPUT = output(
  {
    files: objects({ uri: str, path: str, matches: objects({ line: int, text: str }, ['line', 'text']) }, ['uri']),
    matches: int,
    scannedFiles: int,
    scannedBytes: int,
    nextCursor: cursor,
    notSearched: strings,
  },
  ['files', 'matches'],
);

/** The in-chat app's tools: what the view reads from their structure. */
export const BROWSE_OUTPUT = output({ folders: objects(), files: objects(), hits: objects(), folder: str, query: str }, ['folders']);
export const APP_LIST_OUTPUT = output({ folders: objects(), folder: str, dir: str, entries: objects(), nextCursor: str }, ['folders']);
export const APP_FIND_OUTPUT = output({ matches: objects(), more: bool }, ['matches']);
export const APP_SEARCH_OUTPUT = output({ hits: objects(), nextCursor: str, indexing: bool, notSearched: strings }, ['hits']);
export const APP_CHANGES_OUTPUT = output({ changes: objects() }, ['changes']);
