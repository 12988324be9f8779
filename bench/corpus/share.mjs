#!/usr/bin/env node
/**
 * Issue 12's corpus figure: per repository, the share of proven-OpenAI sites that are migrated,
 * read from the reports bench/corpus/run.ts keeps (bench/out/corpus/<name>.report.json).
 * "Proven OpenAI": the client is proven to reach OpenAI (provider `openai` or `azure-v1`) and is
 * the SDK client itself, not a wrapper around it (`wrapper-client`: a third-party library owns
 * the call). With --before <dir>, a second set of reports (kept from another build) is shown
 * side by side. Prints a Markdown table, the reasons of the proven sites left manual, and the
 * shares of the manifest's groups (the recall corpus, the app sample, the large codebases).
 *
 *   node bench/corpus/share.mjs [--reports <dir>] [--before <dir>]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const afterDir = path.resolve(option('--reports') ?? path.join(REPO, 'bench', 'out', 'corpus'));
const beforeDir = option('--before') && path.resolve(option('--before'));

const PROVEN = new Set(['openai', 'azure-v1']);

function shares(dir) {
  const out = new Map();
  if (!existsSync(dir)) throw new Error(`no reports in ${dir}: run bench/corpus/run.ts first`);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.report.json')).sort()) {
    const { report } = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    if (!report) continue;
    const proven = report.sites.filter((s) => PROVEN.has(s.client.provider) && !s.reasons.some((r) => r.code === 'wrapper-client'));
    out.set(file.replace(/\.report\.json$/, ''), {
      proven,
      migrated: proven.filter((s) => s.status === 'migrated').length,
    });
  }
  return out;
}

const pct = (m, n) => (n ? `${Math.round((100 * m) / n)}%` : '–');
const after = shares(afterDir);
const before = beforeDir ? shares(beforeDir) : undefined;
const rows = [...after].filter(([name, a]) => a.proven.length || before?.get(name)?.proven.length);
const head = before
  ? ['| repository | proven (before) | migrated (before) | share (before) | proven | migrated | share |', '|---|---|---|---|---|---|---|']
  : ['| repository | proven | migrated | share |', '|---|---|---|---|'];
console.log(head.join('\n'));
let total = { p: 0, m: 0, bp: 0, bm: 0 };
for (const [name, a] of rows) {
  const b = before?.get(name) ?? { proven: [], migrated: 0 };
  total = { p: total.p + a.proven.length, m: total.m + a.migrated, bp: total.bp + b.proven.length, bm: total.bm + b.migrated };
  const cells = before
    ? [name, b.proven.length, b.migrated, pct(b.migrated, b.proven.length), a.proven.length, a.migrated, pct(a.migrated, a.proven.length)]
    : [name, a.proven.length, a.migrated, pct(a.migrated, a.proven.length)];
  console.log(`| ${cells.join(' | ')} |`);
}
const totals = before
  ? ['**total**', total.bp, total.bm, pct(total.bm, total.bp), total.p, total.m, pct(total.m, total.p)]
  : ['**total**', total.p, total.m, pct(total.m, total.p)];
console.log(`| ${totals.join(' | ')} |`);

// why the others stay: reason codes of the proven sites left manual (a site counts once per code)
const reasons = new Map();
for (const [, a] of after) {
  for (const s of a.proven) {
    if (s.status === 'migrated') continue;
    for (const code of new Set(s.reasons.map((r) => r.code))) reasons.set(code, (reasons.get(code) ?? 0) + 1);
  }
}
console.log('\nproven sites left manual, by reason code:');
for (const [code, n] of [...reasons].sort((x, y) => y[1] - x[1])) console.log(`  ${String(n).padStart(3)}  ${code}`);

// the manifest's groups (DEVELOPERS.md, "Which repositories, and why"), reported apart
const manifest = JSON.parse(readFileSync(path.join(REPO, 'bench', 'corpus', 'manifest.json'), 'utf8')).repos;
const isApp = (r) => /app sample|third round|fourth round|fifth round|sixth round|seventh round|eighth round|ninth round|tenth round|eleventh round|twelfth round|thirteenth round|fourteenth round|fifteenth round|sixteenth round|seventeenth round|eighteenth round|nineteenth round|twentieth round|twenty-first round|twenty-second round|twenty-third round|twenty-fourth round|twenty-fifth round|twenty-sixth round/.test(r.why);
const groups = [
  ['recall corpus', manifest.slice(0, 33)],
  ['app sample', manifest.slice(33).filter(isApp)],
  ['large multi-provider', manifest.slice(33).filter((r) => !isApp(r))],
];
console.log('\n| group | repositories | proven | migrated | share |\n|---|---|---|---|---|');
for (const [label, repos] of groups) {
  const measured = repos.map((r) => after.get(r.name)).filter(Boolean);
  const p = measured.reduce((n, a) => n + a.proven.length, 0);
  const m = measured.reduce((n, a) => n + a.migrated, 0);
  console.log(`| ${label} | ${repos.length} | ${p} | ${m} | ${pct(m, p)} |`);
}
