import { ErrorCodes } from '../../../shared/errorCodes.js';
import type { Connection } from './connection.js';
import { claimOf } from './protocolEra.js';
import type { RequestProblem } from './requestParams.js';
import { listenSpellings, type Spelling, UriSpellings } from './uriSpellings.js';

/** Listens one socket connection may hold open at once (the SDK's default is 1024). */
export const MAX_LISTENS_PER_CONNECTION = 8;

/**
 * The listens of one socket connection, as the SDK's router keeps them (by
 * request id; the same id again replaces; a cancel ends one): their URIs
 * count in the connection's budget, and only files they name have their
 * updates handed to the router. A listen is admitted here, by the screen,
 * only when the SDK will take it (a valid modern request on a connection
 * that is not 2025-era, with room left), so the two agree.
 */
export class SocketListens {
  private readonly byId = new Map<string, { spellings: Spelling[]; cost: number }>();
  /** The URIs the listens name, by the resource each names. */
  readonly spellings = new UriSpellings();

  constructor(private readonly connection: Connection) {}

  /** Called by the screen after the params check: null to let the listen through, else why it is refused. */
  admit(request: { method: string; params?: unknown; id?: unknown }): RequestProblem | null {
    if (request.method !== 'subscriptions/listen' || this.connection.era === 'legacy' || claimOf(request) !== 'modern') return null;
    const key = JSON.stringify(request.id);
    const old = this.byId.get(key);
    // The SDK refuses a listen past its limit (a replacement too): nothing changes, nothing to count.
    if (this.byId.size >= MAX_LISTENS_PER_CONNECTION) return null;
    const { spellings, cost } = listenSpellings(request.params);
    const delta = cost - (old?.cost ?? 0);
    if (delta > 0) {
      const refused = this.connection.held.holdUris(delta);
      if (refused) return { code: ErrorCodes.invalidParams, message: `Listen refused: ${refused}` };
    } else this.connection.held.releaseUris(-delta);
    if (old) this.forget(old.spellings);
    this.byId.set(key, { spellings, cost });
    for (const spelling of spellings) this.spellings.add(spelling);
    return null;
  }

  /** A `notifications/cancelled`: the SDK ends the listen with that id, if there is one. */
  cancelled(requestId: string | number): void {
    const key = JSON.stringify(requestId);
    const listen = this.byId.get(key);
    if (!listen) return;
    this.byId.delete(key);
    this.forget(listen.spellings);
    this.connection.held.releaseUris(listen.cost);
  }

  clear(): void {
    this.byId.clear();
    this.spellings.clear();
  }

  private forget(spellings: Spelling[]): void {
    for (const spelling of spellings) this.spellings.delete(spelling);
  }
}
