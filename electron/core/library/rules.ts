import path from 'node:path';

import picomatch from 'picomatch';

import { readRegularText } from '../base/regularFile.js';
import { GitignoreMatcher } from './gitignoreMatcher.js';

/**
 * A .gitignore larger than this is not read (real ones are a few KB). Its
 * lines are matched in linear time (GitignoreMatcher), and past
 * MAX_GITIGNORE_LINES or MAX_PATTERN_CHARS skipped.
 */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/**
 * Which files a folder publishes. Three layers, in gitignore syntax:
 * secrets (never published, whatever the options), dotfiles (hidden unless
 * showHidden), and ignore rules (.gitignore files when honoured, plus the
 * folder's extra patterns).
 */

/**
 * Folders that hold credentials (keys, tokens, cloud and cluster logins):
 * hidden inside any published folder, and never published themselves, nor
 * anything inside them (`credentialsRootProblem`).
 */
export const CREDENTIAL_DIRS = ['.ssh', '.aws', '.gnupg', '.docker', '.kube', '.password-store', '.config/gcloud'];

/** Never published, not even with showHidden. */
export const SECRET_PATTERNS = [
  '.git',
  'node_modules',
  ...CREDENTIAL_DIRS,
  '.env*',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.ppk',
  '*.asc',
  '*.jks',
  '*.keystore',
  '*.kdbx',
  '*.keychain',
  '*.keychain-db',
  'wallet.dat',
  'credentials.json',
  'service-account*.json',
  '*.tfstate',
  '*.tfstate.*',
  '.npmrc',
  '.netrc',
  '.pgpass',
  '.pypirc',
  '.git-credentials',
  '.vault-token',
  '.htpasswd',
  '*_history',
];

/** CREDENTIAL_DIRS as lists of path parts, lower-cased (macOS and Windows file names ignore case). */
const CREDENTIAL_PARTS = CREDENTIAL_DIRS.map((d) => d.toLowerCase().split('/'));

/**
 * Why a folder cannot be published because it is, or lies inside, a
 * credentials folder (`~/.ssh`, `~/.aws/sso`, `~/.config/gcloud`…), or null.
 * Give it the path as given and its real path: a link to `~/.ssh` is `~/.ssh`.
 * The secret rules hide these folders inside a published one; published as
 * the folder itself, they would hide nothing.
 */
export function credentialsRootProblem(folderPath: string): string | null {
  const parts = path
    .resolve(folderPath)
    .split(/[\\/]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  for (let i = 0; i < parts.length; i++) {
    const hit = CREDENTIAL_PARTS.find((dir) => dir.every((d, j) => parts[i + j] === d));
    if (hit) {
      const name = hit.join('/');
      return `Holds credentials (${name}): MCP Shelf never publishes ${CREDENTIAL_DIRS.join(', ')} or anything inside them`;
    }
  }
  return null;
}

/** Why an entry is not published: a secret (always), a dotfile, an extra pattern, or a .gitignore. */
export type HiddenRule = 'secret' | 'dotfile' | 'extra' | 'gitignore';

export interface RuleOptions {
  showHidden: boolean;
  gitignore: boolean;
  extraIgnore: readonly string[];
}

/**
 * Whether a name could be a secret or a dotfile, tested on the name alone:
 * each pattern's last part (`.config/gcloud` → `gcloud`), plus `.*`. For a
 * file in a folder already found published, the full rules can only hide it
 * if its name matches one of those, so most files skip the forty patterns.
 */
const mayBeSecretOrDotfile = picomatch([...new Set([...SECRET_PATTERNS.map((p) => p.split('/').pop() as string), '.*'])], { dot: true });

const secrets = new GitignoreMatcher(SECRET_PATTERNS);
// One matcher for the common case (hidden files not shown): each matcher walks
// a path's parents, so two walks per file became one.
const secretsAndDotfiles = new GitignoreMatcher([...SECRET_PATTERNS, '.*']);

export class FolderRules {
  /** Loaded .gitignore files by the folder-relative directory that holds them ('' = root). */
  private readonly gitignores = new Map<string, GitignoreMatcher>();
  private readonly extra: GitignoreMatcher | null;
  /** The root itself is a credentials folder (a folder published before this check, or one that came back as a link to one): everything in it is a secret. */
  private readonly rootIsSecret: boolean;

  constructor(
    readonly root: string,
    readonly options: RuleOptions,
  ) {
    this.extra = options.extraIgnore.length > 0 ? new GitignoreMatcher([...options.extraIgnore]) : null;
    this.rootIsSecret = credentialsRootProblem(root) !== null;
  }

  /**
   * Reads `dirRel/.gitignore` if rules honour it; call before judging that
   * directory's entries. `present: false` (the listing has none) skips the read.
   */
  async loadGitignore(dirRel: string, present = true): Promise<void> {
    if (!this.options.gitignore) return;
    if (!present) {
      this.gitignores.delete(dirRel);
      return;
    }
    try {
      // A .gitignore that is a FIFO, a device or a link (which could lead anywhere) is not read.
      const text = await readRegularText(path.join(this.root, dirRel, '.gitignore'), { noFollow: true, maxBytes: MAX_GITIGNORE_BYTES });
      this.gitignores.set(dirRel, new GitignoreMatcher(text));
    } catch {
      this.gitignores.delete(dirRel);
    }
  }

  /** Forget every loaded .gitignore (before a full rescan). */
  resetGitignores(): void {
    this.gitignores.clear();
  }

  /**
   * True when the entry at folder-relative `rel` is not published. Ancestor
   * directories count too, so a path under an ignored directory is excluded.
   */
  excludes(rel: string, isDir: boolean): boolean {
    return this.excludedBy(rel, isDir) !== null;
  }

  /**
   * Which rule hides the entry at `rel`, or null when it is published (the
   * window explains what is hidden, by rule). `parentPublished`: the
   * caller (a scan walking down) knows the folders above it are published.
   */
  excludedBy(rel: string, isDir: boolean, parentPublished = false): HiddenRule | null {
    if (rel === '' || rel.startsWith('/')) return rel !== '' ? 'secret' : null;
    if (this.rootIsSecret) return 'secret';
    const probe = isDir ? `${rel}/` : rel;
    // One matcher first (the common case); which of the two it was is asked only for what it hid.
    const mayBe = !parentPublished || mayBeSecretOrDotfile(rel.slice(rel.lastIndexOf('/') + 1));
    if (mayBe && (this.options.showHidden ? secrets : secretsAndDotfiles).ignores(probe))
      return this.options.showHidden || secrets.ignores(probe) ? 'secret' : 'dotfile';
    if (this.extra?.ignores(probe)) return 'extra';
    for (const [dir, ig] of this.gitignores) {
      if (dir === '') {
        if (ig.ignores(probe)) return 'gitignore';
      } else if (rel.startsWith(`${dir}/`)) {
        if (ig.ignores(probe.slice(dir.length + 1))) return 'gitignore';
      }
    }
    return null;
  }
}
