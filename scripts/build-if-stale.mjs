#!/usr/bin/env node
// Builds only when something the build reads changed since the last build, so
// `npm run serve` reaches its address in a second, not after a 12 s rebuild.
// "Changed" is by modification time, directories included (a deleted or
// renamed file changes its folder's time); the stamp records the newest time
// seen before the build started, so an edit made during a build is built next
// time. `--stamp` only writes the stamp (the end of `npm run build`).
// The lock files go by content: `npm install` rewrites them (same bytes, new
// time) on every run, so the README's `npm install && npm run serve` built
// everything again each time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp.json');
/** What the build reads: sources, configs, and the installed packages (by their lock files' contents: see above). */
const INPUT_DIRS = ['electron', 'shared', 'renderer', 'build'];
const INPUT_FILES = ['package.json'];
const LOCK_FILES = ['package-lock.json', 'node_modules/.package-lock.json'];

/** A digest of the lock files' contents (a missing one counts as empty). */
function locksDigest() {
  const hash = createHash('sha256');
  for (const f of LOCK_FILES) {
    try {
      hash.update(readFileSync(path.join(ROOT, f)));
    } catch {
      // not there (e.g. no node_modules yet)
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}
const isConfig = (name) => /^(tsconfig.*\.json|.*\.vite\.config\.ts|electron\.vite\.config\.ts)$/.test(name);

function newestInput() {
  let newest = 0;
  const note = (p) => {
    try {
      newest = Math.max(newest, lstatSync(p).mtimeMs);
    } catch {
      // not there (e.g. no node_modules yet): nothing to compare
    }
  };
  const walk = (dir) => {
    note(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else note(p);
    }
  };
  for (const d of INPUT_DIRS) walk(path.join(ROOT, d));
  for (const f of INPUT_FILES) note(path.join(ROOT, f));
  for (const name of readdirSync(ROOT)) if (isConfig(name)) note(path.join(ROOT, name));
  return newest;
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

const writeStamp = (newest, locks) => writeFileSync(STAMP, `${JSON.stringify({ newestInput: newest, locks })}\n`);

const newest = newestInput();
const locks = locksDigest();
if (process.argv.includes('--stamp')) {
  writeStamp(newest, locks);
  process.exit(0);
}
const stamp = readStamp();
const stamped = typeof stamp?.newestInput === 'number' ? stamp.newestInput : null;
if (stamped !== null && stamped >= newest && stamp.locks === locks && existsSync(path.join(ROOT, 'dist', 'electron', 'cli.js'))) {
  process.exit(0); // built, and nothing it reads changed since
}
process.stderr.write(stamped === null ? 'mcp-shelf: building (first run)…\n' : 'mcp-shelf: sources changed since the last build; building…\n');
const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) process.exit(build.status ?? 1);
writeStamp(newest, locks); // what this build started from
