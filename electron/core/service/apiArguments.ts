import * as z from 'zod';

import { MAX_URI_CHARS } from '../../../shared/limits.js';
import { READ_FAILURE_NAMES } from '../../../shared/readFailure.js';
import type { HistoryQuery, ShelfMethodName, TrafficQuery } from '../../../shared/shelfApi.js';

/**
 * The arguments of every ShelfApi method, one schema per method, keyed by
 * name: a method missing here does not compile. Both hosts (Electron IPC and
 * the web host's WebSocket) call through `dispatch`, which checks the
 * arguments here before the service sees them, so the service's methods
 * receive well-formed values. Over the WebSocket an absent argument arrives
 * as null: `nullish` takes both.
 */

const path = z
  .string()
  .min(1, 'a path is required')
  .max(4096)
  .refine((p) => !p.includes('\0'), 'a path cannot hold a NUL byte');

/** What the window may change on a folder; anything else is refused. */
const FolderOptionsPatch = z
  .object({
    showHidden: z.boolean(),
    gitignore: z.boolean(),
    extraIgnore: z.array(z.string().min(1).max(1000)).max(500),
    askBeforeRead: z.boolean(),
    changes: z.enum(['off', 'ask']),
  })
  .partial()
  .strict();

/** A traffic query as the window sends it; nulls count as absent. */
const TrafficQueryArg = z
  .object({
    connectionId: z.number().int().nullish(),
    method: z.string().max(200).nullish(),
    errorsOnly: z.boolean().nullish(),
    failure: z.enum(READ_FAILURE_NAMES).nullish(),
    text: z.string().max(1000).nullish(),
    afterSeq: z.number().int().nullish(),
    limit: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullish(),
  })
  .strict()
  .nullish()
  .transform((q) => Object.fromEntries(Object.entries(q ?? {}).filter(([, v]) => v !== null && v !== undefined)) as TrafficQuery);

/** A history query as the window sends it; nulls count as absent. */
const HistoryQueryArg = z
  .object({
    client: z.string().max(2048).nullish(),
    folder: z.string().max(4096).nullish(),
    uri: z.string().max(16384).nullish(),
    outcome: z.enum(['ok', 'denied', 'error']).nullish(),
    failure: z.enum(READ_FAILURE_NAMES).nullish(),
    kind: z.enum(['read', 'search', 'change']).nullish(),
    since: z.number().nullish(),
    until: z.number().nullish(),
    beforeSeq: z.number().int().nullish(),
    limit: z.number().int().min(1).max(100_000).nullish(),
  })
  .strict()
  .nullish()
  .transform((q) => Object.fromEntries(Object.entries(q ?? {}).filter(([, v]) => v !== null && v !== undefined)) as HistoryQuery);

/** Settings the window may change; the service checks the merged result against the settings schema. */
const SettingsPatchArg = z
  .object({
    maxReadBytes: z.number().int().positive(),
    socketPath: z.string().min(1).max(4096).nullable(),
    tools: z.boolean(),
    log: z.object({ maxEntries: z.number().int().positive(), maxBytes: z.number().int().positive() }).partial().strict(),
    history: z.object({ maxAgeDays: z.number().int().positive(), maxBytes: z.number().int().positive() }).partial().strict(),
    askTimeoutSeconds: z.number().int().positive(),
    delivery: z
      .object({
        textBudget: z.number().int().min(1000).max(10_000_000),
        imageMaxSide: z.number().int().min(64).max(8000),
        imageMaxBytes: z
          .number()
          .int()
          .min(16 * 1024)
          .max(20 * 1024 * 1024),
      })
      .partial()
      .strict(),
    http: z
      .object({
        enabled: z.boolean(),
        host: z.string().min(1).max(255),
        port: z.number().int().min(0).max(65535),
        token: z.string().min(16).max(512).nullable(),
      })
      .partial()
      .strict(),
    ocr: z
      .object({ enabled: z.boolean(), languages: z.array(z.string().max(32)).max(8) })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

const none = z.tuple([]);

export const API_ARGUMENTS = {
  hostInfo: none,
  listFolders: none,
  // Entries that are not paths are refused one by one in the result, so one bad entry does not sink the rest.
  addFolders: z.tuple([z.array(z.unknown()).max(1000, 'at most 1000 folders at once')]),
  removeFolder: z.tuple([path]),
  setFolderEnabled: z.tuple([path, z.boolean()]),
  setFolderOptions: z.tuple([path, FolderOptionsPatch]),
  pickFolders: none,
  listResources: z.tuple([path, z.string().max(16384).nullish()]),
  readResource: z.tuple([z.string().max(16384)]),
  fileLink: z.tuple([z.string().max(16384)]),
  getStatus: none,
  listClients: none,
  getSettings: none,
  updateSettings: z.tuple([SettingsPatchArg]),
  queryTraffic: z.tuple([TrafficQueryArg]),
  clearTraffic: none,
  exportTraffic: z.tuple([TrafficQueryArg]),
  trafficRows: z.tuple([TrafficQueryArg]),
  trafficPayload: z.tuple([z.number().int().positive()]),
  clientConfigs: none,
  // The window has no project folder: its one click edits user configs only.
  installClientConfig: z.tuple([z.enum(['claude-desktop', 'cursor', 'vscode', 'windsurf', 'gemini-cli'])]),
  runDoctor: none,
  queryHistory: z.tuple([HistoryQueryArg]),
  fileAccess: none,
  exportHistory: z.tuple([HistoryQueryArg, z.enum(['csv', 'jsonl'])]),
  clearHistory: none,
  pendingAsks: none,
  answerAsk: z.tuple([z.number().int().positive(), z.enum(['once', 'client', 'deny'])]),
  pendingChanges: none,
  changeDiff: z.tuple([z.number().int().positive(), z.number().int().min(0), z.number().int().min(1).max(500), z.boolean()]),
  answerChange: z.tuple([
    z.number().int().positive(),
    z.union([
      z
        .object({
          approve: z.literal(true),
          text: z
            .string()
            .max(256 * 1024 * 1024)
            .optional(),
        })
        .strict(),
      z.object({ approve: z.literal(false) }).strict(),
    ]),
  ]),
  undoChange: z.tuple([z.string().regex(/^[a-z0-9-]{1,64}$/)]),
  undoStates: z.tuple([z.array(z.string().regex(/^[a-z0-9-]{1,64}$/)).max(1000)]),
  completeFolderPath: z.tuple([z.string().max(4096)]),
  searchContent: z.tuple([
    z.string().min(1, 'a query is required').max(1000),
    z
      .object({ folder: z.string().min(1).max(4096).nullish(), cursor: z.string().max(100).nullish(), limit: z.number().int().min(1).max(100).nullish() })
      .strict()
      .nullish(),
  ]),
  notIndexed: z.tuple([
    z
      .object({ folder: z.string().min(1).max(4096).nullish(), limit: z.number().int().min(1).max(1000).nullish() })
      .strict()
      .nullish(),
  ]),
  grepNotIndexed: z.tuple([
    z.string().min(1, 'a pattern is required').max(1000),
    z
      .object({ folder: z.string().min(1).max(4096).nullish(), ignoreCase: z.boolean().nullish(), cursor: z.string().max(2000).nullish() })
      .strict()
      .nullish(),
  ]),
  readForModel: z.tuple([
    z.string().min(1).max(MAX_URI_CHARS),
    z
      .object({
        offset: z
          .number()
          .int()
          .min(-1e9)
          .max(1e9)
          .refine((n) => n !== 0, 'offset 0 is not a line'),
        limit: z.number().int().min(1).max(1e9),
        column: z.number().int().min(1).max(1e12),
        pages: z.string().min(1).max(40),
        client: z.string().min(1).max(200),
      })
      .partial()
      .strict(),
  ]),
} satisfies Record<ShelfMethodName, z.ZodType<unknown[]>>;

/** What a method's arguments are called in error messages. */
const ARGUMENT_NAMES: Partial<Record<ShelfMethodName, string>> = {
  setFolderOptions: 'folder options',
  queryTraffic: 'traffic query',
  exportTraffic: 'traffic query',
  trafficRows: 'traffic query',
  trafficPayload: 'traffic message',
  queryHistory: 'history query',
  updateSettings: 'settings',
};

/** The method's arguments, checked; throws "Invalid <what>: <where> <problem>". */
export function checkArguments(method: ShelfMethodName, args: unknown[]): unknown[] {
  const schema = API_ARGUMENTS[method] as z.ZodType<unknown[]>;
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // Paths start with the argument's position; an argument with a name of its own drops it.
  const named = ARGUMENT_NAMES[method] !== undefined;
  const at = issue ? (named ? issue.path.slice(1) : issue.path) : [];
  const where = at.length > 0 ? `${at.join('.')}: ` : '';
  throw new Error(`Invalid ${ARGUMENT_NAMES[method] ?? `arguments for ${method}`}: ${where}${issue?.message ?? 'malformed'}`);
}
