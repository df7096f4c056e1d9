import type { Requester } from '../access/clientReads.js';
import type { MemoryAccount } from '../clientMemory/memoryBudget.js';
import type { ClientIdentity, Era } from './protocolEra.js';

/** One MCP client as the hub serves it: a socket connection, a 2025 HTTP session, or a modern HTTP client (by name and version). */
export interface Connection {
  id: number;
  transport: 'socket' | 'http';
  connectedAt: number;
  lastSeen: number;
  requests: number;
  /** Set by the SDK's first exchange (socket, 2025 session) or by the first request (modern HTTP client). */
  era: Era | null;
  identity: ClientIdentity | null;
  /** Its share of the budget for what clients make the server keep (input, replies, output, subscribed and listened URIs). */
  held: MemoryAccount;
  close(): Promise<void>;
}

/**
 * The requester a connection stands for. A grant ("Allow this client") can
 * be tied to a socket connection or a 2025 HTTP session, which no other
 * program can use; a modern HTTP client is only a name any request can give.
 */
export function requesterOf(c: Connection): Requester {
  return {
    connectionId: c.id,
    memory: c.held,
    name: c.identity?.name ?? null,
    version: c.identity?.version ?? null,
    protocolVersion: c.identity?.protocolVersion ?? null,
    transport: c.transport,
    connectedAt: c.connectedAt,
    grantable: c.transport === 'socket' || c.era === 'legacy',
  };
}
