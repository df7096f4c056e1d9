import { toRpcError } from '../base/rpcError.js';
import type { Library } from '../library/library.js';
import type { Interceptor } from '../transport/socketTransport.js';
import { eraParts, fastPathEra } from './fastPaths.js';
import type { Era } from './protocolEra.js';

/**
 * `resources/list` on a socket, answered without the SDK's Server: the same
 * page (Library.listResourcesJson is listResources as JSON) with the same
 * fields per era, written as the JSON the listing keeps — a client listing an
 * unchanged shelf costs a walk of the page's paths, not a description,
 * serialisation and log copy of every file. It takes what readFastPath
 * takes (a claim matching the pinned era); while folders are still being
 * indexed the SDK's handler answers (its result says so in `_meta`).
 */
export function listFastPath(library: Library, eraOf: () => Era | null): Interceptor {
  return (message) => {
    if (message.method !== 'resources/list' || library.indexing) return null;
    const era = fastPathEra(message, eraOf());
    if (era === null) return null;
    const cursor = (message.params as { cursor?: string } | undefined)?.cursor;
    try {
      const page = library.listResourcesJson(cursor);
      const { suffix } = eraParts(era);
      const cut = page.cut !== page.json;
      return Promise.resolve({
        // What the traffic log records the reply as (its kind and id): the text it keeps is loggedJson's.
        result: { listed: page.entries },
        resultJson: `${page.json}${suffix}}`,
        loggedJson: () => ({ text: `${page.cut}${suffix}}`, form: cut ? ('cut' as const) : ('verbatim' as const) }),
      });
    } catch (err) {
      return Promise.resolve({ error: toRpcError(err) });
    }
  };
}
