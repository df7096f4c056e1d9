import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

/**
 * The line between test/unit and test/integration (vitest.config.ts): a
 * unit test starts no process and needs no build; an integration test does
 * one or the other. Told from each test file's text: what starts a process
 * (child_process, the CLI helpers of test/support/shelfProcess.ts, an
 * official client over stdio, Node 22) or runs the build's output (its
 * workers, paths into dist/). mkfifo is the one exception: it makes a
 * fixture (a FIFO) and runs nothing of ours.
 */

const HERE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(HERE), '../../..');

const OUT_OF_PROCESS: Array<[string, RegExp]> = [
  [
    'a child process',
    /\b(spawn|spawnSync|exec|execSync|fork|execFile)\b[^;\n]*['"]node:child_process['"]|\b(spawn|spawnSync|exec|execSync|fork|execFile)\s*\(/,
  ],
  ['a child process (other than mkfifo)', /\bexecFileSync\(\s*(?!'mkfifo')/],
  ['the CLI, started', /\b(startShelf|runCli|connectSdkClient)\s*\(/],
  ['the CLI helpers (support/shelfProcess.ts wants the build)', /support\/shelfProcess/],
  ['an official client over stdio', /\bStdioClientTransport\b|client\/stdio/],
  ['Node 22', /support\/node22/],
  ['the built workers', /\b(EXTRACT_WORKER|WORKERS|builtWorkers)\b|electron\/cli\/headless/],
  ['a path into dist/', /['"`/]dist\//],
];

/** The reasons a test file's text gives for running out of process (empty: it runs in this one). */
export function outOfProcess(source: string): string[] {
  return OUT_OF_PROCESS.filter(([, pattern]) => pattern.test(source)).map(([why]) => why);
}

function testFiles(dir: string): string[] {
  return (readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => path.join(dir, f))
    .filter((f) => path.join(ROOT, f) !== HERE) // its own examples
    .sort();
}

describe('the split of test/', () => {
  it('tells a file that starts a process or needs the build from one that does not', () => {
    expect(outOfProcess('const shelf = await startShelf([root]);')).toEqual(['the CLI, started']);
    expect(outOfProcess("execFileSync('mkfifo', [file]);")).toEqual([]);
    expect(outOfProcess("import { CLI } from '../support/shelfProcess.js';")).toEqual(['the CLI helpers (support/shelfProcess.ts wants the build)']);
    expect(outOfProcess("execFileSync('node', [script]);")).toEqual(['a child process (other than mkfifo)']);
    expect(outOfProcess("import { execFile } from 'node:child_process';\nconst run = promisify(execFile);")).toEqual(['a child process']);
    expect(outOfProcess('new DocumentText({ workerFile: EXTRACT_WORKER })')).toEqual(['the built workers']);
    expect(outOfProcess('const svc = await startService(); const c = await RawClient.initialized(svc.service.socketPath);')).toEqual([]);
  });

  it('test/unit starts no process and needs no build', () => {
    const offenders = testFiles('test/unit')
      .map((f) => [f, outOfProcess(readFileSync(path.join(ROOT, f), 'utf8'))] as const)
      .filter(([, why]) => why.length > 0);
    expect(offenders).toEqual([]);
  });

  it('every file in test/integration starts a process or runs the build', () => {
    const inProcess = testFiles('test/integration').filter((f) => outOfProcess(readFileSync(path.join(ROOT, f), 'utf8')).length === 0);
    expect(inProcess).toEqual([]);
  });
});
