/**
 * Whether a typed path is the home folder or a folder above it (`~`, `/`,
 * `/home`): publishing it makes everything of the account readable, so the
 * window asks first. `~` is the home folder, as the server reads it.
 */
export function coversHome(typed: string, home: string): 'home' | 'above' | null {
  if (!home) return null;
  const clean = (p: string) => {
    const slashed = p.replace(/\\/g, '/').replace(/\/(\.?\/)+/g, '/');
    const trimmed = slashed.replace(/\/+$/, '');
    return trimmed === '' || /^[A-Za-z]:$/.test(trimmed) ? `${trimmed}/` : trimmed;
  };
  const expanded = typed === '~' || typed.startsWith('~/') || typed.startsWith('~\\') ? home + typed.slice(1) : typed;
  // Windows paths compare without case.
  const windows = /^[A-Za-z]:/.test(home);
  const fold = (p: string) => (windows ? p.toLowerCase() : p);
  const p = fold(clean(expanded));
  const h = fold(clean(home));
  if (p === h) return 'home';
  return h.startsWith(p.endsWith('/') ? p : `${p}/`) ? 'above' : null;
}
