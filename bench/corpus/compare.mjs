#!/usr/bin/env node
/**
 * Site-by-site comparison of two corpus runs (the `*.report.json` files bench/corpus/run.ts keeps
 * in bench/out/corpus): every site keyed by repository, file, line and column, with its status,
 * provider and reasons. Copy bench/out/corpus aside before a change, run the corpus again after,
 * then:
 *
 *   node bench/corpus/compare.mjs <reports before> [<reports after, default bench/out/corpus>]
 *
 * Prints each difference and a count; exits 1 when there is any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [before, after = 'bench/out/corpus'] = process.argv.slice(2);
if (!before) {
  console.error('usage: node bench/corpus/compare.mjs <reports before> [<reports after>]');
  process.exit(2);
}

/** `repo file:line:column` → `status provider reasons` for every site of every report in `dir`. */
function sitesIn(dir) {
  const sites = new Map();
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.report.json'))) {
    const repo = name.slice(0, -'.report.json'.length);
    const { report } = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    for (const s of report?.sites ?? []) {
      const reasons = s.reasons.map((r) => (r.detail === undefined ? r.code : `${r.code}:${r.detail}`)).join(', ');
      sites.set(`${repo} ${s.file}:${s.line}:${s.column}`, `${s.status} ${s.client.provider} [${reasons}]`);
    }
  }
  return sites;
}

const was = sitesIn(before);
const now = sitesIn(after);
let differences = 0;
for (const key of [...new Set([...was.keys(), ...now.keys()])].sort()) {
  const a = was.get(key);
  const b = now.get(key);
  if (a === b) continue;
  differences++;
  console.log(`${key}\n  before: ${a ?? '(no site)'}\n  after:  ${b ?? '(no site)'}`);
}
console.log(`${differences} difference(s) in ${now.size} sites (${was.size} before)`);
process.exit(differences ? 1 : 0);
