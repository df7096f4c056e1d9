import { identityOf } from './protocolEra.js';
import { type Spelling, UriSpellings } from './uriSpellings.js';

interface OpenListen {
  client: string;
  spellings: Spelling[];
  end(): void;
}

/** Who sent a modern HTTP message: the name and version its envelope gives (empty when none). */
function clientKey(message: { method?: unknown; params?: unknown }): string {
  const identity = identityOf(message);
  return `${identity?.name ?? ''}\u0000${identity?.version ?? ''}`;
}

/**
 * The open `subscriptions/listen` responses over modern HTTP. Their URIs are
 * kept by the resource each names, so an update goes out in the spelling a
 * listen used; and a `notifications/cancelled` naming a listen's request id
 * (mcp-remote cancels this way and never closes the stream) ends that
 * stream. Request ids are the client's own, so a cancel ends only listens of
 * the client it names. One entry per open response: the SDK's listen limit
 * and the held-bytes budget bound them.
 */
export class HttpListens {
  readonly spellings = new UriSpellings();
  private readonly byId = new Map<string, Set<OpenListen>>();

  /** Keeps a listen while its response is open; `end` closes that response. Returns what to call when it closes. */
  open(message: { id?: unknown; method?: unknown; params?: unknown }, spellings: Spelling[], end: () => void): () => void {
    const id = JSON.stringify(message.id);
    const listen: OpenListen = { client: clientKey(message), spellings, end };
    let same = this.byId.get(id);
    if (!same) this.byId.set(id, (same = new Set()));
    same.add(listen);
    for (const spelling of spellings) this.spellings.add(spelling);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      for (const spelling of spellings) this.spellings.delete(spelling);
      const set = this.byId.get(id);
      set?.delete(listen);
      if (set?.size === 0) this.byId.delete(id);
    };
  }

  /** A `notifications/cancelled` (see cancelledRequestId): ends the open listens of its client with the request id it names; how many. */
  cancelled(message: { method?: unknown; params?: unknown }, requestId: string | number): number {
    const client = clientKey(message);
    const matching = [...(this.byId.get(JSON.stringify(requestId)) ?? [])].filter((l) => l.client === client);
    for (const listen of matching) listen.end();
    return matching.length;
  }

  get size(): number {
    let n = 0;
    for (const set of this.byId.values()) n += set.size;
    return n;
  }
}
