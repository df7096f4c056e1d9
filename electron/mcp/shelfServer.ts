import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ListToolsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { Library } from '../library/library.js';
import { ShelfError } from '../library/shelfError.js';
import { VERSION } from '../version.js';
import { callShelfTool, SHELF_TOOLS } from './shelfTools.js';

/** Quiet period before one list_changed goes out for a burst of file changes. */
const LIST_CHANGED_DEBOUNCE_MS = 100;

type StrictSchema<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false; error: z.ZodError } };

/** The -32602 error for params the SDK's schema refused, naming where. */
export function invalidParams(method: string, error: z.ZodError): ShelfError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return ShelfError.invalidParams(`Invalid params for ${method}${where}: ${issue?.message ?? 'malformed'}`);
}

/**
 * Registers a handler that receives any params, then validates them with the
 * SDK's own schema so malformed params get -32602 (the SDK's own parsing
 * would answer -32603 Internal error).
 */
function handle<T extends { method: string }, R>(
  server: Server,
  schema: StrictSchema<T> & { shape: { method: { value: T['method'] } } },
  handler: (request: T) => R | Promise<R>,
): void {
  const method = schema.shape.method.value;
  const loose = z.looseObject({ method: z.literal(method), params: z.unknown().optional() });
  server.setRequestHandler(loose as never, async (request: unknown) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) throw invalidParams(method, parsed.error);
    return (await handler(parsed.data)) as never;
  });
}

export interface ShelfServerOptions {
  /** Offer the read-only tools that mirror the resources (on by default). */
  tools?: boolean;
}

/** Subscriptions one connection may hold; a client asking for more gets an error, not our memory. */
const MAX_SUBSCRIPTIONS = 10_000;

export interface ShelfServer {
  server: Server;
  /** Stops listening to the library; call when the connection closes. */
  dispose(): void;
}

/**
 * One SDK Server for one connection, over the shared library. Subscriptions
 * belong to the connection and end with it.
 */
export function createShelfServer(library: Library, options: ShelfServerOptions = {}): ShelfServer {
  const tools = options.tools ?? true;
  const server = new Server(
    { name: 'mcp-shelf', title: 'MCP Shelf', version: VERSION },
    {
      capabilities: {
        resources: { subscribe: true, listChanged: true },
        completions: {},
        logging: {},
        ...(tools ? { tools: {} } : {}),
      },
      instructions:
        'MCP Shelf publishes local folders as read-only resources. List them with resources/list, read them with resources/read, and subscribe to be told when a file changes.',
    },
  );
  const subscriptions = new Set<string>();

  handle(server, ListResourcesRequestSchema, (req) => library.listResources(req.params?.cursor));
  handle(server, ReadResourceRequestSchema, async (req) => {
    const { contents } = await library.read(req.params.uri);
    return { contents: [contents] };
  });
  handle(server, ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: library.templates() }));
  // Any URI may be subscribed: updates only ever come for published files, and
  // answering alike for every URI tells nothing about what exists.
  handle(server, SubscribeRequestSchema, (req) => {
    if (!subscriptions.has(req.params.uri) && subscriptions.size >= MAX_SUBSCRIPTIONS) {
      throw ShelfError.invalidParams(`At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`);
    }
    subscriptions.add(req.params.uri);
    return {};
  });
  handle(server, UnsubscribeRequestSchema, (req) => {
    subscriptions.delete(req.params.uri);
    return {};
  });
  handle(server, CompleteRequestSchema, (req) => {
    const { ref, argument } = req.params;
    // This server has no prompts, so there is nothing to suggest for one.
    if (ref.type !== 'ref/resource') return { completion: { values: [], total: 0, hasMore: false } };
    if (argument.name !== 'path') throw ShelfError.invalidParams(`Unknown template argument: ${argument.name}`);
    return { completion: library.complete(ref.uri, argument.value) };
  });

  if (tools) {
    handle(server, ListToolsRequestSchema, () => ({ tools: SHELF_TOOLS }));
    handle(server, CallToolRequestSchema, (req) => callShelfTool(library, req.params.name, req.params.arguments));
  }

  const initialized = () => server.getClientCapabilities() !== undefined;
  const ignoreClosed = () => undefined; // the connection may be gone; its close path cleans up
  let listTimer: NodeJS.Timeout | null = null;
  const unsubscribe = library.subscribe({
    listChanged() {
      if (listTimer) return;
      listTimer = setTimeout(() => {
        listTimer = null;
        if (initialized()) server.sendResourceListChanged().catch(ignoreClosed);
      }, LIST_CHANGED_DEBOUNCE_MS);
    },
    updated(uris) {
      for (const uri of uris) {
        if (subscriptions.has(uri)) server.sendResourceUpdated({ uri }).catch(ignoreClosed);
      }
    },
    folderState(_folder, message) {
      if (initialized()) server.sendLoggingMessage({ level: 'warning', logger: 'mcp-shelf', data: message }).catch(ignoreClosed);
    },
  });

  return {
    server,
    dispose() {
      unsubscribe();
      if (listTimer) clearTimeout(listTimer);
      subscriptions.clear();
    },
  };
}
