import type { ClientReads, Requester } from '../access/clientReads.js';
import type { CancelHook } from '../base/requestCancel.js';
import { toRpcError } from '../base/rpcError.js';
import type { FileStream } from '../library/fileStream.js';
import { DECODED_FROM_META_KEY, type ReadOutcome } from '../library/safeRead.js';
import { truncateForLog } from '../traffic/truncate.js';
import type { InterceptedReply, Interceptor } from '../transport/socketTransport.js';
import { eraParts, fastPathEra } from './fastPaths.js';
import type { Era } from './protocolEra.js';
import { isAppUri } from './shelfApp.js';

/** The error response the SDK would build from a thrown error (same code, message and data). */
function errorReply(err: unknown): InterceptedReply {
  return { error: toRpcError(err) };
}

/**
 * A result whose one long string (the file's text or base64) is streamed:
 * `head` runs up to the string's opening quote, `closing` from its closing
 * quote to the end of the content; the era's fields follow.
 */
function streamed(file: FileStream, era: Era, head: string, closing: string, logged: (preview: string) => Record<string, unknown>): InterceptedReply {
  const { suffix, fields } = eraParts(era);
  return {
    stream: {
      head,
      body: file.pieces(),
      tail: `${closing}${suffix}}`,
      logged: () => ({ ...logged(file.preview()), ...fields }),
      close: () => file.close(),
    },
  };
}

/**
 * A reply's contents as the traffic log keeps them, when a long string (the
 * text or base64) is cut; null when nothing is. The reply cache hands out the
 * same outcome while a file is unchanged, so this is made once per version.
 * Held weakly: it goes with the outcome, so what it holds is bounded by the
 * reply cache's budget (a cut form is never longer than the reply it cuts).
 */
const loggedContents = new WeakMap<ReadOutcome, string | null>();

function loggedContentsJson(outcome: ReadOutcome): string | null {
  let json = loggedContents.get(outcome);
  if (json === undefined) {
    const cut = truncateForLog(outcome.contents);
    json = cut.truncated ? JSON.stringify(cut.value) : null;
    loggedContents.set(outcome, json);
  }
  return json;
}

/** resources/read (params were screened before the fast path saw them). */
async function readResource(reads: ClientReads, who: Requester, uri: string, era: Era, cancel: CancelHook): Promise<InterceptedReply> {
  const { suffix, fields } = eraParts(era);
  try {
    const opened = await reads.openRead(uri, who, 'resource', cancel);
    if ('whole' in opened) {
      const result = { contents: [opened.whole.contents], ...fields };
      const loggedJson = () => {
        const contents = loggedContentsJson(opened.whole);
        return contents === null ? undefined : { text: `{"contents":[${contents}]${suffix}}`, form: 'cut' as const };
      };
      const reply: InterceptedReply =
        opened.contentsJson === undefined ? { result, loggedJson } : { result, resultJson: `{"contents":[${opened.contentsJson}]${suffix}}`, loggedJson };
      // The memory reserved for the reply is given back once the transport has written it.
      if (opened.lease) reply.lease = opened.lease;
      return reply;
    }
    const file = opened.stream;
    const field = file.kind === 'text' ? 'text' : 'blob';
    // As a whole read says it (safeRead): decoded text names its legacy encoding.
    const meta = file.decodedFrom ? { _meta: { [DECODED_FROM_META_KEY]: file.decodedFrom } } : {};
    const metaJson = file.decodedFrom ? `"_meta":${JSON.stringify(meta._meta)},` : '';
    const head = `{"contents":[{"uri":${JSON.stringify(file.uri)},"mimeType":${JSON.stringify(file.mimeType)},${metaJson}"${field}":"`;
    const reply = streamed(file, era, head, '"}]', (preview) => ({ contents: [{ uri: file.uri, mimeType: file.mimeType, ...meta, [field]: preview }] }));
    if (opened.lease) reply.lease = opened.lease;
    return reply;
  } catch (err) {
    return errorReply(err);
  }
}

/**
 * `resources/read` on a socket, answered without the SDK's Server: the same
 * result shape (per era) and errors as the registered handler (params were
 * screened by the transport first, as for every request), but a large file
 * is streamed in pieces, and a small read skips the SDK's per-request
 * promise chain and schema passes — the hot path of every client. (The
 * read_resource tool goes through the SDK: what it returns is a page within
 * a budget, built whole.)
 *
 * It takes a read whose claim matches the era the SDK pinned for the
 * connection (`eraOf`), or any well-claimed read before the SDK pinned one
 * (a raw client may read first). Anything else — a malformed envelope, an
 * unknown revision, a 2025 request on a modern connection — goes to the
 * SDK, which owns those answers.
 */
export function readFastPath(reads: ClientReads, who: () => Requester, eraOf: () => Era | null): Interceptor {
  return (message, cancel) => {
    if (message.method !== 'resources/read') return null;
    // The in-chat app's view is no file: the SDK's handler serves it.
    if (isAppUri((message.params as { uri: string }).uri)) return null;
    const era = fastPathEra(message, eraOf());
    if (era === null) return null;
    return readResource(reads, who(), (message.params as { uri: string }).uri, era, cancel);
  };
}
