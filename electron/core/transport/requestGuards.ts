import { timingSafeEqual } from 'node:crypto';

/**
 * Checks both HTTP hosts (the MCP endpoint and the window's web host) make
 * before anything else: Host and Origin against DNS rebinding, and secrets
 * compared in constant time.
 */

/** Names a loopback server answers to, as they appear in Host headers. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase();
  return h === '::1' || LOOPBACK_NAMES.includes(h);
}

/** The Host header must be one of `names` with our port. */
export function hostAllowed(hostHeader: string | undefined, port: number, names: Iterable<string> = LOOPBACK_NAMES): boolean {
  if (!hostHeader) return false;
  const h = hostHeader.toLowerCase();
  for (const n of names) if (h === `${n}:${port}`) return true;
  return false;
}

/** A missing Origin is fine (not a browser, or a same-origin GET); a present one must be ours. */
export function originAllowed(origin: string | undefined, port: number, names: Iterable<string> = LOOPBACK_NAMES): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  for (const n of names) if (o === `http://${n}:${port}`) return true;
  return false;
}

/** Constant-time comparison of a presented secret with ours. */
export function sameSecret(given: string | null | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** "8080", "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:8080" → host and port. */
export function parseHostPort(spec: string): { host: string; port: number } | null {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(spec.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port > 65535) return null;
  const host = m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1';
  return { host, port };
}
