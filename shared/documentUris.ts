/**
 * A document's text is a resource of its own: the file's URI with
 * `?as=text` (a `?` in a file name is `%3F` in its URI, so the two never
 * collide). The server lists and serves it; the window reads it for the
 * Text view and counts reads of it as reads of the file.
 */

export const TEXT_SUFFIX = '?as=text';

/** The companion URI of a document's text. */
export const textUriOf = (fileUri: string): string => `${fileUri}${TEXT_SUFFIX}`;

/** The file URI a text URI names, or null when `uri` is not a text URI. */
export function fileUriOfText(uri: string): string | null {
  return uri.endsWith(TEXT_SUFFIX) ? uri.slice(0, -TEXT_SUFFIX.length) : null;
}
