// .gitignore matching: the ignore package (backtracking RegExps, what rules.ts
// used) against GitignoreMatcher (RE2 via re2js, what it uses now).
//
//   node bench/gitignore.mjs            (after npm run build)
//
// 1. A Node project's .gitignore (most of GitHub's Node template and a few more: 69 rules, one `!`) × 100,000 paths
//    of a plausible tree, each answered as a walk asks (parents first, cached).
// 2. A 64 KiB .gitignore (3,000 generated rules): the time to compile it.
// 3. The pathological line `**/a/**/a/**/a/**/a/**/a/**/a/**/b` against a chain
//    of nested `a/` folders: one path at depths 20–80 (ignore is stopped by
//    the depth at which one answer passes 2 s, so the run stays short).
// 4. The worst line the bounds allow (1,024 characters of `**/a/`) against a
//    4,096-character path.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ignore = require('ignore');
const { GitignoreMatcher } = await import(pathToFileURL(path.join(ROOT, 'dist/electron/core/library/gitignoreMatcher.js')).href);

const NODE_GITIGNORE = `# Logs
logs
*.log
npm-debug.log*
yarn-debug.log*
yarn-error.log*
lerna-debug.log*
.pnpm-debug.log*
report.[0-9]*.[0-9]*.[0-9]*.[0-9]*.json
pids
*.pid
*.seed
*.pid.lock
lib-cov
coverage
*.lcov
.nyc_output
.grunt
bower_components
.lock-wscript
build/Release
node_modules/
jspm_packages/
web_modules/
*.tsbuildinfo
.npm
.eslintcache
.stylelintcache
.rpt2_cache/
.rts2_cache_cjs/
.rts2_cache_es/
.rts2_cache_umd/
.node_repl_history
*.tgz
.yarn-integrity
.env
.env.development.local
.env.test.local
.env.production.local
.env.local
.cache
.parcel-cache
.next
out
.nuxt
dist
.cache/
.vuepress/dist
.temp
.docusaurus
.serverless/
.fusebox/
.dynamodb/
.tern-port
.vscode-test
.yarn/cache
.yarn/unplugged
.yarn/build-state.yml
.yarn/install-state.gz
.pnp.*
/build
/tmp
**/generated/**
!dist/keep.txt
*.swp
*~
.DS_Store
Thumbs.db
.idea/
*.iml
`;

function paths(n) {
  const out = [];
  const tops = ['src', 'lib', 'test', 'docs', 'packages', 'scripts', 'node_modules', 'coverage', 'dist'];
  const mids = ['components', 'utils', 'core', 'api', 'generated', 'views', 'models', '.cache', 'fixtures'];
  const files = ['index.ts', 'main.js', 'README.md', 'styles.css', 'data.json', 'debug.log', 'app.tsx', 'x.swp', 'notes~'];
  for (let i = 0; i < n; i++) {
    const depth = 1 + (i % 5);
    const parts = [tops[i % tops.length]];
    for (let d = 1; d < depth; d++) parts.push(`${mids[(i * 7 + d) % mids.length]}${d > 2 ? i % 50 : ''}`);
    parts.push(`${i}-${files[(i * 13) % files.length]}`);
    out.push(parts.join('/'));
  }
  return out;
}

function time(fn) {
  const start = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

// 1. Realistic: the answers must agree, then best of three.
const list = paths(100_000);
const countWith = (make) => {
  const m = make();
  let n = 0;
  for (const p of list) if (m.ignores(p)) n++;
  return n;
};
const makers = { ignore: () => ignore().add(NODE_GITIGNORE), re2: () => new GitignoreMatcher(NODE_GITIGNORE) };
const realistic = {};
for (const [name, make] of Object.entries(makers)) {
  const runs = [0, 1, 2].map(() => time(() => countWith(make)));
  realistic[name] = { ms: Math.min(...runs.map((r) => r.ms)), ignored: runs[0].result };
}
console.log(
  `Node .gitignore × ${list.length.toLocaleString()} paths: ignore ${fmt(realistic.ignore.ms)} ms, re2 ${fmt(realistic.re2.ms)} ms (ignored ${realistic.ignore.ignored} / ${realistic.re2.ignored})`,
);
if (realistic.ignore.ignored !== realistic.re2.ignored) process.exitCode = 1;

// 2. Compiling 64 KiB.
const big = [];
for (let i = 0; big.join('\n').length < 64 * 1024; i++) big.push(i % 17 === 0 ? `!keep${i}/*.txt` : i % 3 ? `dir${i}/**/*.tmp${i}` : `*.ext${i}`);
const bigText = big.join('\n');
const compileIgnore = time(() => ignore().add(bigText).ignores('a/b/c.txt'));
const compileRe2 = time(() => new GitignoreMatcher(bigText).ignores('a/b/c.txt'));
const bigRe2 = new GitignoreMatcher(bigText);
const bigIgnore = ignore().add(bigText);
const sample = list.slice(0, 10_000);
const bigIgnoreMs = time(() => sample.forEach((p) => bigIgnore.ignores(p))).ms;
const bigRe2Ms = time(() => sample.forEach((p) => bigRe2.ignores(p))).ms;
console.log(
  `64 KiB .gitignore (${big.length} rules): first answer ignore ${fmt(compileIgnore.ms)} ms, re2 ${fmt(compileRe2.ms)} ms; 10,000 paths ignore ${fmt(bigIgnoreMs)} ms, re2 ${fmt(bigRe2Ms)} ms`,
);

// 3. Pathological.
const LINE = '**/a/**/a/**/a/**/a/**/a/**/a/**/b';
let ignoreStopped = false;
for (const depth of [20, 30, 40, 52, 60, 80]) {
  const probe = `${'a/'.repeat(depth)}x`;
  const ours = time(() => new GitignoreMatcher(LINE).ignores(probe));
  let theirs = 'not run';
  if (!ignoreStopped) {
    const t = time(() => ignore().add(LINE).ignores(probe));
    theirs = `${fmt(t.ms)} ms`;
    if (t.ms > 2000) ignoreStopped = true;
  }
  console.log(`pathological, depth ${depth}: ignore ${theirs}, re2 ${fmt(ours.ms)} ms`);
}

// 4. The worst the bounds allow.
const worstLine = '**/a/'.repeat(204) + 'b';
const worstPath = `${'a/'.repeat(2047)}x`;
const worst = time(() => new GitignoreMatcher(worstLine).ignores(worstPath));
console.log(`worst allowed: a ${worstLine.length}-character line, a ${worstPath.length}-character path (2,047 parents asked): re2 ${fmt(worst.ms)} ms`);
