import { chmod, lstat, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';

/** What lives in the settings folder, by name: none of them may be a link. */
const OWN_ENTRIES = ['settings.json', 'window.json', 'history', 'text-cache'];

/**
 * Moves a link found where one of our files or folders should be out of
 * the way (renamed beside it, never followed nor deleted): writing through
 * it would write wherever it leads. Returns what was done, or null.
 */
export async function moveLinkAside(file: string): Promise<string | null> {
  const st = await lstat(file).catch(() => null);
  if (!st?.isSymbolicLink()) return null;
  const aside = `${file}.link-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, aside);
  return `${file} was a link (not made by MCP Shelf); moved it to ${aside} and did not follow it`;
}

/**
 * Makes the settings folder ready and safe before anything is read or
 * written there: created closed to others (0700) when missing; an existing
 * one that is ours but open to others is closed (chmod 700); one owned by
 * another user is refused, since they could change what we read. Links
 * planted where settings.json, window.json, history/ or text-cache/ go are
 * moved aside. The folder itself may be a link (a dotfiles setup): where it
 * leads is what is checked. Returns warnings for the log.
 */
export async function prepareConfigDir(dir: string): Promise<string[]> {
  const warnings: string[] = [];
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await stat(dir);
  if (!st.isDirectory()) throw new Error(`Settings folder ${dir} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined) {
    if (st.uid !== uid)
      throw new Error(`Refusing to use the settings folder ${dir}: it belongs to another user (uid ${st.uid}), who could change what MCP Shelf reads there`);
    if ((st.mode & 0o077) !== 0) {
      await chmod(dir, 0o700);
      warnings.push(`Closed the settings folder ${dir} to other users (it was mode ${(st.mode & 0o777).toString(8)}; now 700)`);
    }
  }
  for (const name of OWN_ENTRIES) {
    const moved = await moveLinkAside(path.join(dir, name));
    if (moved) warnings.push(moved);
  }
  return warnings;
}
