/**
 * The window's content security policy, one for both hosts: the web host
 * sends it as a header, Electron's main process sets it on its session, and
 * the built page carries it in a <meta>. Plain data, so it is tested on Node.
 */

/** Strict CSP for the app window: our own code only; data/blob only for previews. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "object-src 'self' blob:",
  "frame-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The same policy as a `<meta>` in the page, for where no header carries it
 * (a file:// load whose response headers no hook sees). A meta cannot say
 * frame-ancestors (browsers ignore it there and warn), so it is left out.
 */
export const META_CSP = APP_CSP.split('; ')
  .filter((d) => !d.startsWith('frame-ancestors'))
  .join('; ');
