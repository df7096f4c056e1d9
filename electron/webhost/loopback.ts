/**
 * Host and Origin checks against DNS rebinding: only loopback names with our
 * own port are accepted.
 */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return LOOPBACK_HOSTS.some((h) => hostHeader.toLowerCase() === `${h}:${port}`);
}

/** A missing Origin is fine (not a browser, or same-origin GET); a present one must be ours. */
export function isLoopbackOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_HOSTS.some((h) => origin.toLowerCase() === `http://${h}:${port}`);
}
