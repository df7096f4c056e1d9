// The "compaction" scenario of npm run bench: the full-text index after many
// files went (security review, issue 37 item 5). 12,000 small files and 2,000
// logs of 100 distinct words each (200,000 terms) are indexed in process, the
// small ones removed, and what is left of them swept away the way SearchIndex
// does it (steps of 32,768 postings between clients' turns). Measures how long
// the removals hold the thread, how long the sweep takes in all and its
// longest step, and checks that a log's word is found in that log only.
// Runs against the build beside BENCH_CLI, so a parent commit's dist can be
// measured too (its compaction ran inside a remove, in one call).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { CLI } from './subjects.mjs';

const SMALL = 12_000;
const LOGS = 2000;
const WORDS = 100;
/** SearchIndex's SWEEP_STEP. */
const STEP_POSTINGS = 32_768;

/**
 * Processor time the process has used, in ms: on a loaded machine the clock
 * also counts the turns other processes took. (The thread's own time in
 * /proc/thread-self/schedstat moves in 4 ms ticks, too coarse for a step.)
 */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const logText = (i) => Array.from({ length: WORDS }, (_, j) => `line ${j}: event w${i}x${j} happened`).join('\n');

async function once(InvertedIndex) {
  const ix = new InvertedIndex();
  for (let k = 0; k < SMALL; k++) ix.add(`cache/c${k}.txt`, `cached note n${k}`, `cache/c${k}.txt`);
  for (let i = 0; i < LOGS; i++) ix.add(`logs/log${i}.txt`, logText(i), `logs/log${i}.txt`);
  let removeMs = 0;
  let longestRemoveMs = 0;
  let error = null;
  const removeCpu = cpuMs();
  for (let k = 0; k < SMALL; k++) {
    const t = performance.now();
    try {
      ix.remove(`cache/c${k}.txt`);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const ms = performance.now() - t;
    removeMs += ms;
    longestRemoveMs = Math.max(longestRemoveMs, ms);
  }
  const removeCpuMs = cpuMs() - removeCpu;
  const stepMs = [];
  const stepCpuMs = [];
  while (ix.compacting) {
    const cpu = cpuMs();
    const t = performance.now();
    ix.compactStep(STEP_POSTINGS);
    stepMs.push(performance.now() - t);
    stepCpuMs.push(cpuMs() - cpu);
    await new Promise((r) => setImmediate(r)); // the turn clients get between slices
  }
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  const p95 = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length * 0.95)] ?? 0;
  const sweepMs = sum(stepMs);
  const sweepCpuMs = sum(stepCpuMs);
  const p95StepMs = p95(stepMs);
  const p95StepCpuMs = p95(stepCpuMs);
  const longestStepMs = Math.max(0, ...stepMs);
  const steps = stepMs.length;
  const right = [1234, 0, 1999, 1056].every((i) => {
    const hits = ix.search([{ term: `w${i}x${i % WORDS}`, prefix: false }]);
    return hits.length === 1 && hits[0].key === `logs/log${i}.txt`;
  });
  return { removeMs, removeCpuMs, longestRemoveMs, error, sweepMs, sweepCpuMs, p95StepMs, p95StepCpuMs, longestStepMs, steps, right };
}

export async function compactionBench(reps = 5) {
  const module = path.join(path.dirname(CLI), 'core/search/invertedIndex.js');
  const { InvertedIndex } = await import(pathToFileURL(module).href);
  const runs = [];
  for (let r = 0; r < reps; r++) runs.push(await once(InvertedIndex));
  return { module, runs };
}
