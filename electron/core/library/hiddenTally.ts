import type { HiddenRule } from './rules.js';

/** Entries a full index left out under one rule: how many (an excluded folder counts once), and the first few. */
export interface HiddenSummary {
  rule: HiddenRule;
  count: number;
  examples: string[];
}

/** Examples kept per rule. */
const HIDDEN_EXAMPLES = 12;

/** Counts what a scan excludes, by rule, and keeps the excluded folders (they are then left unwatched). */
export function hiddenTally() {
  const byRule = new Map<HiddenRule, HiddenSummary>();
  const dirs: string[] = [];
  return {
    dirs,
    note: (rel: string, isDir: boolean, rule: HiddenRule) => {
      if (isDir) dirs.push(rel);
      let s = byRule.get(rule);
      if (!s) byRule.set(rule, (s = { rule, count: 0, examples: [] }));
      s.count++;
      if (s.examples.length < HIDDEN_EXAMPLES) s.examples.push(isDir ? `${rel}/` : rel);
    },
    summary: () => [...byRule.values()].sort((a, b) => b.count - a.count),
  };
}
