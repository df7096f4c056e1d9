import type { Readable, Writable } from 'node:stream';

import { ErrorCodes } from '../../../shared/errorCodes.js';

/**
 * What the stdio bridge speaks when no shelf is running: a minimal MCP
 * server whose every answer says so, in a way a model can relay ("MCP Shelf
 * is not running: start it"), instead of a bare failed launch the person
 * never sees explained. Both revisions: `initialize` (2025) and
 * `server/discover` (2026-07-28). Lists hold one entry that says it (a
 * resource a person sees in the attach menu, a template, the tools'
 * descriptions); reads, tool calls and everything else answer with it as an
 * error or an error result. Node built-ins only: it ships inside the
 * dependency-free bridge.
 */

// The tools a model is given (test/integration/bridgeNotRunning.test.ts compares them with the server's definitions;
// importing those would bring the SDK and zod into the bridge).
const TOOLS = ['list_resources', 'read_resource', 'list_directory', 'search_resources', 'grep_resources', 'write_resource', 'edit_resource', 'browse_shelf'];
const MODERN = '2026-07-28';
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
/** The one resource the stand-in lists: reading it gives the instruction. */
export const NOT_RUNNING_URI = 'mcp-shelf://not-running';

export function notRunningMessage(socketPath: string): string {
  return `MCP Shelf is not running (nothing listens at ${socketPath}). Start the MCP Shelf app, or run "mcp-shelf serve FOLDER…", then reconnect this server in your client.`;
}

type Request = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: Record<string, unknown> };

/** The answer to one message, or null for notifications and stray lines. */
export function notRunningReply(message: Request, text: string): unknown {
  if (message.id === undefined || typeof message.method !== 'string') return null;
  const { id, method } = message;
  const meta = message.params?._meta as Record<string, unknown> | undefined;
  const modern = meta?.['io.modelcontextprotocol/protocolVersion'] === MODERN;
  const serverInfo = { name: 'mcp-shelf', title: 'MCP Shelf (not running)', version: '0.0.0' };
  const fields = modern ? { resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } : {};
  const result = (r: Record<string, unknown>) => ({ jsonrpc: '2.0', id, result: { ...r, ...fields } });
  const capabilities = { resources: {}, tools: {} };
  switch (method) {
    case 'initialize': {
      const asked = message.params?.protocolVersion;
      return result({ protocolVersion: typeof asked === 'string' && LEGACY.includes(asked) ? asked : LEGACY[0], capabilities, serverInfo, instructions: text });
    }
    case 'server/discover':
      return result({ supportedVersions: [MODERN], capabilities, instructions: text });
    case 'ping':
      return result({});
    case 'logging/setLevel':
      return result({});
    case 'resources/list':
      return result({
        resources: [
          { uri: NOT_RUNNING_URI, name: 'MCP Shelf is not running', title: 'MCP Shelf is not running: start it', description: text, mimeType: 'text/plain' },
        ],
      });
    case 'resources/templates/list':
      return result({
        resourceTemplates: [{ uriTemplate: `${NOT_RUNNING_URI}/{path}`, name: 'MCP Shelf is not running', description: text, mimeType: 'text/plain' }],
      });
    case 'tools/list':
      // The same tools the shelf offers, so a model that calls one learns why there is nothing.
      return result({ tools: TOOLS.map((name) => ({ name, description: `MCP Shelf's ${name.replace('_', ' ')}. ${text}`, inputSchema: { type: 'object' } })) });
    case 'tools/call':
      return result({ content: [{ type: 'text', text }], isError: true });
    case 'resources/read':
      if (message.params?.uri === NOT_RUNNING_URI) return result({ contents: [{ uri: NOT_RUNNING_URI, mimeType: 'text/plain', text }] });
      return { jsonrpc: '2.0', id, error: { code: ErrorCodes.internalError, message: text } };
    case 'completion/complete':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
    case 'subscriptions/listen':
      return { jsonrpc: '2.0', id, error: { code: ErrorCodes.internalError, message: text } };
    default:
      return { jsonrpc: '2.0', id, error: { code: ErrorCodes.methodNotFound, message: `Method not found (${text})` } };
  }
}

/** Serves the stand-in on the client's stdio until it closes stdin; `text` says why there is no shelf (default: none is running). */
export function serveNotRunning(socketPath: string, io: { stdin: Readable; stdout: Writable }, text = notRunningMessage(socketPath)): Promise<void> {
  return new Promise((resolve) => {
    let buffer = '';
    io.stdin.setEncoding('utf8');
    io.stdin.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > 4 * 1024 * 1024) buffer = ''; // a runaway line is dropped, not kept
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line === '') continue;
        let message: Request;
        try {
          message = JSON.parse(line) as Request;
        } catch {
          io.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.parseError, message: 'Parse error' } })}\n`);
          continue;
        }
        const reply = message && typeof message === 'object' ? notRunningReply(message, text) : null;
        if (reply) io.stdout.write(`${JSON.stringify(reply)}\n`);
      }
    });
    io.stdin.once('end', () => resolve());
    io.stdin.once('close', () => resolve());
    io.stdin.resume();
  });
}
