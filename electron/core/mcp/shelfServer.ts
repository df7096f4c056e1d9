import { CLIENT_CAPABILITIES_META_KEY, type Implementation, Server } from '@modelcontextprotocol/server';

import type { ClientReads, Requester } from '../access/clientReads.js';
import { cancelOfSignal } from '../base/requestCancel.js';
import { ShelfError } from '../base/shelfError.js';
import type { ClientChanges } from '../changes/clientChanges.js';
import { heldCost, type MemoryAccount } from '../clientMemory/memoryBudget.js';
import { declaresApps } from '../delivery/clientProfiles.js';
import type { Library } from '../library/library.js';
import type { Grep } from '../search/grep.js';
import type { SearchIndex } from '../search/searchIndex.js';
import { VERSION } from '../version.js';
import { CHANGE_TOOLS } from './changeTools.js';
import type { Era } from './protocolEra.js';
import { APP_TOOL_LIST, type AppView, BROWSE_SHELF_TOOL, callAppTool, EXTENSION_ID, isAppTool, isAppUri, readAppResource } from './shelfApp.js';
import { callShelfTool, shelfToolsFor } from './shelfTools.js';
import { type Spelling, spellingOf, UriSpellings } from './uriSpellings.js';

/** Quiet period before one list_changed goes out for a burst of file changes. */
const LIST_CHANGED_DEBOUNCE_MS = 100;

/**
 * One `send` per LIST_CHANGED_DEBOUNCE_MS while the library keeps reporting
 * that files came or went (a steady cadence, and one after they stop).
 */
export function listChangedThrottle(send: () => void): { changed(): void; stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  return {
    changed() {
      timer ??= setTimeout(() => {
        timer = null;
        send();
      }, LIST_CHANGED_DEBOUNCE_MS);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** Marks a resources/list result given while folders are still being indexed. */
export const INDEXING_META_KEY = 'dev.mcpshelf/indexing';

/** Who we are, in every `initialize` result and every modern result's `_meta`. */
export const SERVER_INFO: Implementation = { name: 'mcp-shelf', title: 'MCP Shelf', version: VERSION };

export interface ShelfServerOptions {
  /** Offer the read-only tools that mirror the resources (on by default). */
  tools?: boolean;
  /** The in-chat app's view: with the tools on, browse_shelf, its `ui://` resource and the view's own tools. */
  app?: AppView | null;
  /** What search_resources and grep_resources answer from (absent: that tool is off). */
  search?: SearchIndex | null;
  grep?: Grep | null;
  /** Changes a model proposes (write_resource, edit_resource: listed only while a folder allows them); absent: none. */
  changes?: ClientChanges | null;
}

export interface ShelfServerSetup extends ShelfServerOptions {
  era: Era;
  /**
   * `connection`: this instance serves one connection and sends it change
   * notifications itself. `none`: it answers one HTTP request; listens on
   * HTTP are fed by the handler's event bus instead.
   */
  notifications: 'connection' | 'none';
  /**
   * For a modern connection: the spellings its listens used for the library
   * URI `uri` (the SDK routes each to the listens that named it exactly).
   */
  listenedSpellings?: (uri: string) => readonly string[];
  /** Client reads: asked about where a folder says so, and recorded in the access history. */
  reads: ClientReads;
  /**
   * Who sent a request: the connection, or for modern HTTP the client its
   * `_meta` envelope names (the SDK lifts the envelope out of params; it is
   * given here as `_meta` again).
   */
  requester: (request: { method: string; params: { _meta?: unknown } }) => Requester;
  /** The connection's share of the budget for what clients make the server keep: its subscribed URIs count there. */
  held?: MemoryAccount;
  /** Told when the tools a client is listed change (a folder began or stopped allowing changes); returns the unsubscriber. */
  toolsChanged?: (listener: () => void) => () => void;
}

/** The capabilities a modern request's envelope declares. */
const clientCapabilitiesOf = (envelope: unknown): unknown => (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];

/** Subscriptions one 2025 connection may hold; a client asking for more gets an error, not our memory. */
const MAX_SUBSCRIPTIONS = 10_000;

export interface ShelfServer {
  server: Server;
  /** Stops listening to the library; runs when the instance closes. */
  dispose(): void;
}

/** What a model is told first, naming the tools it can call (a tools-only model cannot call protocol methods). */
export const TOOL_INSTRUCTIONS = [
  "MCP Shelf gives you the person's local folders that they chose to publish.",
  'list_directory shows the published folders and walks their directories (with depth, a tree); list_resources lists files, by folder, glob or modified_since (what changed since a time).',
  'read_resource reads one file: text by lines with offset and limit, documents (PDF, Word, Excel…) as their text, images as images.',
  'search_resources finds files by the words in them; grep_resources finds lines by regular expression.',
  'Name a file by its file:// URI as the tools give it, by an absolute path inside a published folder, or by a folder\'s name then the path in it ("notes/2026/plan.md").',
  'Some folders ask the person before each read; where a folder allows it, write_resource and edit_resource propose a change that the person approves in MCP Shelf.',
].join(' ');

/** Without the tools (turned off): the resources are all a client has. */
const RESOURCE_INSTRUCTIONS =
  'MCP Shelf publishes local folders as read-only resources. List them with resources/list, read them with resources/read, and subscribe (or listen) to be told when a file changes.';

/**
 * One SDK Server for one connection (socket, 2025 HTTP session) or one modern
 * HTTP request, over the shared library. Params were checked before the SDK
 * saw them (requestParams.ts), so handlers receive well-formed requests.
 */
export function createShelfServer(library: Library, setup: ShelfServerSetup): ShelfServer {
  const tools = setup.tools ?? true;
  const app = tools ? (setup.app ?? null) : null;
  const server = new Server(SERVER_INFO, {
    capabilities: {
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
      ...(tools ? { tools: { listChanged: true } } : {}),
      ...(app ? { extensions: { [EXTENSION_ID]: {} } } : {}),
    },
    instructions: tools ? TOOL_INSTRUCTIONS : RESOURCE_INSTRUCTIONS,
  });

  // While folders are still being indexed (right after start) a list holds what is indexed so
  // far and says so; list_changed follows when each folder's files come in.
  server.setRequestHandler('resources/list', (req) => {
    const page = library.listResources(req.params?.cursor);
    return library.indexing ? { ...page, _meta: { [INDEXING_META_KEY]: true } } : page;
  });
  const who = (method: string, ctx: { mcpReq: { envelope?: unknown } }) => setup.requester({ method, params: { _meta: ctx.mcpReq.envelope } });
  server.setRequestHandler('resources/read', async (req, ctx) => {
    if (app && isAppUri(req.params.uri)) return readAppResource(app, req.params.uri);
    const { contents } = await setup.reads.read(req.params.uri, who(req.method, ctx), 'resource', cancelOfSignal(ctx.mcpReq.signal));
    return { contents: [contents] };
  });
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: library.templates() }));
  server.setRequestHandler('completion/complete', (req) => {
    const { ref, argument } = req.params;
    // This server has no prompts, so there is nothing to suggest for one.
    if (ref.type !== 'ref/resource') return { completion: { values: [], total: 0, hasMore: false } };
    if (argument.name !== 'path') throw ShelfError.invalidParams(`Unknown template argument: ${argument.name}`);
    return { completion: library.complete(ref.uri, argument.value) };
  });
  if (tools) {
    // The change tools only while a folder lets a model propose changes: a client never sees a door that is shut.
    // The app's own tools only to a client that shows apps (its profile decides); browse_shelf answers in text too.
    server.setRequestHandler('tools/list', (req, ctx) => {
      const changing = setup.changes?.anyAllowed() ? CHANGE_TOOLS : [];
      const declared = declaresApps(setup.era === 'legacy' ? server.getClientCapabilities() : clientCapabilitiesOf(ctx.mcpReq.envelope));
      const profile = setup.reads.profile(who(req.method, ctx), declared);
      const appTools = app ? (profile.apps ? APP_TOOL_LIST : [BROWSE_SHELF_TOOL]) : [];
      return { tools: [...shelfToolsFor(profile), ...changing, ...appTools] };
    });
    server.setRequestHandler('tools/call', (req, ctx) =>
      app && isAppTool(req.params.name)
        ? callAppTool(setup, who(req.method, ctx), req.params.name, req.params.arguments, cancelOfSignal(ctx.mcpReq.signal))
        : callShelfTool(setup, who(req.method, ctx), req.params.name, req.params.arguments, 'tool', cancelOfSignal(ctx.mcpReq.signal)),
    );
  }

  // 2025 subscriptions belong to the connection; any URI may be subscribed:
  // updates only ever come for published files, and answering alike for
  // every URI tells nothing about what exists. An update goes out in each
  // spelling the client subscribed with (Python's Path.as_uri() writes `%26`).
  const subscriptions = new Map<string, Spelling>();
  const subscribed = new UriSpellings();
  if (setup.era === 'legacy') {
    server.setRequestHandler('resources/subscribe', (req) => {
      const { uri } = req.params;
      if (subscriptions.has(uri)) return {};
      if (subscriptions.size >= MAX_SUBSCRIPTIONS) throw ShelfError.invalidParams(`At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`);
      // The URI itself is counted before its key is worked out (a parse as long as the URI): a connection out
      // of budget is refused at the cost of a length.
      const plain = heldCost(uri);
      let refused = setup.held?.holdUris(plain) ?? null;
      if (refused) throw ShelfError.invalidParams(`Subscription refused: ${refused}`);
      const spelling = spellingOf(uri);
      refused = spelling.cost > plain ? (setup.held?.holdUris(spelling.cost - plain) ?? null) : null;
      if (refused) {
        setup.held?.releaseUris(plain);
        throw ShelfError.invalidParams(`Subscription refused: ${refused}`);
      }
      subscriptions.set(uri, spelling);
      subscribed.add(spelling);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (req) => {
      const spelling = subscriptions.get(req.params.uri);
      if (spelling) {
        subscriptions.delete(spelling.uri);
        subscribed.delete(spelling);
        setup.held?.releaseUris(spelling.cost);
      }
      return {};
    });
  }

  let disposed = false;
  let stopListening = () => undefined as void;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    stopListening();
    for (const spelling of subscriptions.values()) setup.held?.releaseUris(spelling.cost);
    subscriptions.clear();
    subscribed.clear();
  };
  server.onclose = dispose;

  if (setup.notifications === 'connection') {
    const ignoreClosed = () => undefined; // the connection may be gone; its close path cleans up
    // A 2025 client hears nothing before its handshake ends; a modern one has no handshake.
    const ready = () => setup.era === 'modern' || server.getClientCapabilities() !== undefined;
    const spellings = setup.era === 'legacy' ? (uri: string) => subscribed.of(uri) : (setup.listenedSpellings ?? ((uri: string) => [uri]));
    const listChanged = listChangedThrottle(() => {
      if (ready()) server.sendResourceListChanged().catch(ignoreClosed);
    });
    const unsubscribe = library.subscribe({
      listChanged: () => listChanged.changed(),
      updated(uris) {
        for (const uri of uris) for (const spelling of spellings(uri)) server.sendResourceUpdated({ uri: spelling }).catch(ignoreClosed);
      },
      folderState(_folder, message) {
        // Log messages are unsolicited in 2025 and forbidden so in 2026-07-28
        // (they may only travel on the response stream of a request that asked).
        if (setup.era === 'legacy' && ready()) {
          server.sendLoggingMessage({ level: 'warning', logger: 'mcp-shelf', data: message }).catch(ignoreClosed);
        }
      },
    });
    const stopTools = setup.toolsChanged?.(() => {
      if (ready()) server.sendToolListChanged().catch(ignoreClosed);
    });
    stopListening = () => {
      unsubscribe();
      stopTools?.();
      listChanged.stop();
    };
  }

  return { server, dispose };
}
