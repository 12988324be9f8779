/**
 * The real-world corpus (issue 11): for each repository of bench/corpus/manifest.json, export it
 * at its pinned commit (bench/corpus/export.mjs), run the built tool on it as a user would
 * (`--dry-run --format json`, one repository after another), and reconcile every textual
 * occurrence of a Chat Completions spelling in the files the tool scans with the report
 * (bench/corpus/classify.ts). A benchmark run by hand, not a test: it always exits 0.
 *
 *   npm run build && node --import tsx bench/corpus/run.ts [--only <name,...>] [--json] [--reuse-reports]
 *
 * Each report is kept in bench/out/corpus/<name>.report.json with its timing; --reuse-reports
 * reconciles those again without running the tool (for work on the classifier).
 * Prints a Markdown table, then the category counts, the unexplained occurrences, the file errors
 * and the sites to look at; writes everything to bench/out/corpus/results.json. With --json,
 * stdout is that JSON document only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ANY_SPELLING, CATEGORIES, classifyComponent, classifyFile, type Category, type Occurrence, type ReportSite, type SiteCheck } from './classify.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const OUT = path.join(REPO, 'bench', 'out', 'corpus');
const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const EXPORT = path.join(HERE, 'export.mjs');
/** Per repository; a run that takes longer is recorded as failed. */
const TIMEOUT_MS = 300_000;

interface Entry {
  name: string;
  repo: string;
  commit: string;
  kind: string;
  why: string;
  root: string;
}

interface Report {
  summary: { files: number; sites: number; byStatus: Record<string, number>; errors: number };
  sites: ReportSite[];
  errors: Array<{ file: string; message: string }>;
  notices?: Array<{ file: string; code: string; message: string }>;
  warnings?: string[];
}

interface RepoResult {
  name: string;
  repo: string;
  commit: string;
  kind: string;
  root: string;
  /** why the repository could not be measured, when it could not */
  failure?: string;
  exitCode?: number | null;
  seconds?: number;
  rssMB?: number;
  files: number;
  candidates: number;
  filesWithOccurrences: number;
  occurrences: number;
  categories: Record<Category, number>;
  sites: { total: number; byStatus: Record<string, number>; byApi: Record<string, number>; byReason: Record<string, number> };
  errors: Array<{ file: string; message: string }>;
  unexplained: Occurrence[];
  /** sites whose call holds none of the spellings (a renamed resource, a URL from another file) */
  sitesWithoutOccurrence: ReportSite[];
  /** sites whose position is not at a call's callee */
  unlocatedSites: ReportSite[];
  /** sites whose receiver is built, in the same file, only from another vendor's package (N05) */
  otherSdkSites: Array<ReportSite & { package: string }>;
  all: Occurrence[];
}

/** The classifier's one hop into a relative (or `$lib`) module: its text, read from the export (the extensions a bundler tries). */
function relativeReader(cwd: string): (fromFile: string, specifier: string) => { file: string; text: string } | undefined {
  return (fromFile, specifier) => {
    // SvelteKit's `$lib` is src/lib unless svelte.config.js says otherwise
    const base = specifier.startsWith('$lib/') ? path.join('src', 'lib', specifier.slice(5)) : path.join(path.dirname(fromFile), specifier);
    for (const candidate of [base, ...['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'].map((x) => base + x), ...['ts', 'js'].map((x) => path.join(base, `index.${x}`))]) {
      const abs = path.join(cwd, candidate);
      if (!abs.startsWith(cwd + path.sep) || !existsSync(abs)) continue;
      try {
        if (statSync(abs).isFile()) return { file: candidate, text: readFileSync(abs, 'utf8') };
      } catch {
        // unreadable: not followed
      }
    }
    return undefined;
  };
}
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const JSON_OUT = process.argv.includes('--json');
const REUSE = process.argv.includes('--reuse-reports');
const ONLY = arg('only')?.split(',').map((s) => s.trim()).filter(Boolean);
const say = (s = ''): void => {
  if (!JSON_OUT) process.stdout.write(s + '\n');
};
const progress = (s: string): void => {
  process.stderr.write(s + '\n');
};

function emptyCategories(): Record<Category, number> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
}

function count<T>(items: T[], key: (t: T) => string | string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) {
    const k = key(it);
    for (const x of Array.isArray(k) ? k : [k]) out[x] = (out[x] ?? 0) + 1;
  }
  return out;
}

function ensureExport(e: Entry): string | undefined {
  const summary = path.join(OUT, `${e.name}.export.json`);
  const dir = path.join(OUT, e.name);
  if (existsSync(summary) && existsSync(dir)) {
    try {
      const old = JSON.parse(readFileSync(summary, 'utf8'));
      // an export from before its index listed the tracked files is made again
      if (old.commit === e.commit && old.tracked) return undefined;
    } catch {
      // export again
    }
  }
  progress(`${e.name}: exporting ${e.commit.slice(0, 12)}…`);
  const r = spawnSync(process.execPath, [EXPORT, e.name], { encoding: 'utf8' });
  if (r.status !== 0) return `export failed: ${(r.stderr || r.stdout).trim().slice(-500)}`;
  return undefined;
}

async function main(): Promise<void> {
  if (!existsSync(BIN)) {
    console.error(`${path.relative(process.cwd(), BIN)} is missing: run npm run build first`);
    process.exit(0);
  }
  // The tool's own discovery, from the build that is measured: the same file set.
  const files = (await import(pathToFileURL(path.join(REPO, 'dist', 'lib', 'files.js')).href)) as typeof import('../../lib/files.js');
  const manifest = (JSON.parse(readFileSync(path.join(HERE, 'manifest.json'), 'utf8')) as { repos: Entry[] }).repos;
  const entries = ONLY ? manifest.filter((e) => ONLY.includes(e.name)) : manifest;
  if (ONLY && entries.length !== ONLY.length) {
    const missing = ONLY.filter((n) => !manifest.some((e) => e.name === n));
    console.error(`not in the manifest: ${missing.join(', ')}`);
    if (entries.length === 0) return;
  }
  mkdirSync(OUT, { recursive: true });
  const results: RepoResult[] = [];
  const t0 = Date.now();

  for (const e of entries) {
    const result: RepoResult = {
      name: e.name, repo: e.repo, commit: e.commit, kind: e.kind, root: e.root,
      files: 0, candidates: 0, filesWithOccurrences: 0, occurrences: 0, categories: emptyCategories(),
      sites: { total: 0, byStatus: {}, byApi: {}, byReason: {} }, errors: [], unexplained: [],
      sitesWithoutOccurrence: [], unlocatedSites: [], otherSdkSites: [], all: [],
    };
    results.push(result);
    const failure = ensureExport(e);
    if (failure) {
      result.failure = failure;
      progress(`${e.name}: ${failure}`);
      continue;
    }
    const cwd = path.join(OUT, e.name);

    // 1. the tool, as a child process, timed with GNU time (wall seconds, peak RSS in KB)
    const saved = path.join(OUT, `${e.name}.report.json`);
    let report: Report | undefined;
    if (REUSE && existsSync(saved)) {
      const old = JSON.parse(readFileSync(saved, 'utf8')) as { commit: string; root: string; seconds?: number; rssMB?: number; exitCode: number | null; report: Report };
      if (old.commit === e.commit && old.root === e.root) {
        report = old.report;
        result.seconds = old.seconds;
        result.rssMB = old.rssMB;
        result.exitCode = old.exitCode;
      }
    }
    if (!report) {
      progress(`${e.name}: running migrate-responses…`);
      const run = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, BIN, e.root, '--dry-run', '--format', 'json'], {
        cwd, encoding: 'utf8', maxBuffer: 1 << 30, timeout: TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' },
      });
      result.exitCode = run.status;
      const timing = (run.stderr ?? '').trim().split('\n').pop() ?? '';
      const [secs, kb] = timing.split(' ').map(Number);
      if (!Number.isNaN(secs) && !Number.isNaN(kb)) {
        result.seconds = secs;
        result.rssMB = Math.round(kb / 1024);
      }
      try {
        report = JSON.parse(run.stdout) as Report;
      } catch {
        result.failure = `no JSON report (exit ${run.status}${run.signal ? `, ${run.signal}` : ''}): ${(run.stderr ?? '').trim().slice(-800)}`;
        progress(`${e.name}: ${result.failure}`);
        continue;
      }
      const keep = { commit: e.commit, root: e.root, seconds: result.seconds, rssMB: result.rssMB, exitCode: run.status, report };
      writeFileSync(saved, JSON.stringify(keep) + '\n');
    }
    result.errors = report.errors;
    result.sites.total = report.sites.length;
    result.sites.byStatus = count(report.sites, (s) => s.status);
    result.sites.byApi = count(report.sites, (s) => s.api);
    result.sites.byReason = count(report.sites, (s) => (s.reasons ?? []).map((r) => r.code));

    // 2. the same files the tool scanned
    const discovery = files.discoverFiles([e.root], cwd);
    result.files = discovery.files.length;
    if (report.summary.files !== discovery.files.length) {
      progress(`${e.name}: the report counts ${report.summary.files} files, discovery ${discovery.files.length}`);
    }
    const texts: Array<{ rel: string; text: string }> = [];
    let repoHasV3Client = false;
    for (const abs of discovery.files) {
      let buf: Buffer;
      try {
        buf = readFileSync(abs);
      } catch {
        continue;
      }
      const text = buf.toString('utf8');
      if (files.mayContainCallSite(text)) result.candidates++;
      if (!repoHasV3Client && /\bOpenAIApi\b/.test(text)) repoHasV3Client = true;
      if (ANY_SPELLING.test(text)) texts.push({ rel: files.relativePath(cwd, abs), text });
    }
    // component files the tool does not parse: explained only by its not-scanned notice
    const components: Array<{ rel: string; text: string }> = [];
    for (const abs of discovery.components) {
      let text: string;
      try {
        text = readFileSync(abs, 'utf8');
      } catch {
        continue;
      }
      if (ANY_SPELLING.test(text)) components.push({ rel: files.relativePath(cwd, abs), text });
    }
    const notScanned = new Set((report.notices ?? []).filter((n) => n.code === 'not-scanned').map((n) => n.file));
    const ownPackages = packageNamesUnder(path.join(cwd, e.root));
    const sitesByFile = new Map<string, ReportSite[]>();
    for (const s of report.sites) sitesByFile.set(s.file, [...(sitesByFile.get(s.file) ?? []), s]);
    const errorByFile = new Map(report.errors.map((x) => [x.file, x.message]));
    const checks: SiteCheck[] = [];
    const scanned = new Set<string>();

    // 3. reconcile
    for (const { rel, text } of texts) {
      scanned.add(rel);
      let res;
      try {
        res = classifyFile({ file: rel, text, sites: sitesByFile.get(rel) ?? [], fileError: errorByFile.get(rel), repoHasV3Client, ownPackages, readRelative: relativeReader(cwd) });
      } catch (err) {
        // the classifier's own failure is a failure of the measure, shown as unexplained
        const o: Occurrence = { file: rel, line: 1, column: 1, spelling: 'member', category: 'unexplained', detail: `classifier failed: ${(err as Error).message}`, text: '' };
        res = { occurrences: [o], siteChecks: [] };
      }
      if (res.occurrences.length) result.filesWithOccurrences++;
      result.all.push(...res.occurrences);
      checks.push(...res.siteChecks);
    }
    for (const { rel, text } of components) {
      const res = classifyComponent({ file: rel, text, listed: notScanned.has(rel) });
      if (res.occurrences.length) result.filesWithOccurrences++;
      result.all.push(...res.occurrences);
    }
    for (const [file, sites] of sitesByFile) {
      if (!scanned.has(file)) for (const site of sites) checks.push({ site, noOccurrence: true });
    }
    result.occurrences = result.all.length;
    for (const o of result.all) result.categories[o.category]++;
    result.unexplained = result.all.filter((o) => o.category === 'unexplained');
    result.sitesWithoutOccurrence = checks.filter((c) => c.noOccurrence).map((c) => c.site);
    result.unlocatedSites = checks.filter((c) => c.unlocated).map((c) => c.site);
    result.otherSdkSites = checks.filter((c) => c.otherSdk).map((c) => ({ ...c.site, package: c.otherSdk! }));
    progress(`${e.name}: ${result.files} files, ${result.occurrences} occurrences, ${result.sites.total} sites, ${result.categories.unexplained} unexplained, ${result.errors.length} errors, ${result.seconds ?? '?'} s`);
  }

  const totalSeconds = Math.round((Date.now() - t0) / 100) / 10;
  const sum = (f: (r: RepoResult) => number): number => results.reduce((a, r) => a + f(r), 0);
  const totals = {
    repos: results.length,
    failed: results.filter((r) => r.failure).length,
    files: sum((r) => r.files),
    candidates: sum((r) => r.candidates),
    occurrences: sum((r) => r.occurrences),
    sites: sum((r) => r.sites.total),
    migrated: sum((r) => r.sites.byStatus.migrated ?? 0),
    manual: sum((r) => r.sites.byStatus.manual ?? 0),
    unexplained: sum((r) => r.categories.unexplained),
    fileErrors: sum((r) => r.errors.length),
    categories: Object.fromEntries(CATEGORIES.map((c) => [c, sum((r) => r.categories[c])])) as Record<Category, number>,
    toolSeconds: Math.round(sum((r) => r.seconds ?? 0) * 10) / 10,
    maxRssMB: Math.max(0, ...results.map((r) => r.rssMB ?? 0)),
    wallSeconds: totalSeconds,
  };
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).stdout.trim();
  const doc = { generated: new Date().toISOString(), tool: { commit: head, node: process.version }, totals, repos: results };
  writeFileSync(path.join(OUT, 'results.json'), JSON.stringify(doc, null, 2) + '\n');
  if (JSON_OUT) {
    process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
    return;
  }

  // Markdown
  say('| repo | files scanned | candidate files | occurrences | sites | migrated | manual | unexplained | file errors | time s | peak RSS MB |');
  say('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of results) {
    if (r.failure) {
      say(`| ${r.repo} | — | — | — | — | — | — | — | — | ${r.seconds ?? '—'} | ${r.rssMB ?? '—'} |`);
      continue;
    }
    say(`| ${r.repo} | ${r.files} | ${r.candidates} | ${r.occurrences} | ${r.sites.total} | ${r.sites.byStatus.migrated ?? 0} | ${r.sites.byStatus.manual ?? 0} | ${r.categories.unexplained} | ${r.errors.length} | ${r.seconds ?? '—'} | ${r.rssMB ?? '—'} |`);
  }
  say(`| **total (${totals.repos} repos)** | ${totals.files} | ${totals.candidates} | ${totals.occurrences} | ${totals.sites} | ${totals.migrated} | ${totals.manual} | ${totals.unexplained} | ${totals.fileErrors} | ${totals.toolSeconds} | max ${totals.maxRssMB} |`);
  say();
  say('Occurrences by category:');
  say();
  say(`| repo | ${CATEGORIES.join(' | ')} |`);
  say(`|---|${CATEGORIES.map(() => '--:').join('|')}|`);
  for (const r of results) if (!r.failure) say(`| ${r.repo} | ${CATEGORIES.map((c) => r.categories[c]).join(' | ')} |`);
  say(`| **total** | ${CATEGORIES.map((c) => totals.categories[c]).join(' | ')} |`);
  say();

  const failed = results.filter((r) => r.failure);
  if (failed.length) {
    say('## Repositories not measured');
    say();
    for (const r of failed) say(`- ${r.repo}: ${r.failure}`);
    say();
  }
  say(`## Unexplained occurrences (${totals.unexplained})`);
  say();
  for (const r of results) {
    if (!r.unexplained.length) continue;
    say(`### ${r.repo} (${r.unexplained.length})`);
    say();
    for (const o of r.unexplained) say(`- \`${o.file}:${o.line}:${o.column}\` ${o.detail}\n  \`${o.text.replace(/`/g, "'")}\``);
    say();
  }
  say(`## File errors (${totals.fileErrors})`);
  say();
  for (const r of results) {
    if (!r.errors.length) continue;
    say(`### ${r.repo} (${r.errors.length})`);
    say();
    for (const x of r.errors) say(`- \`${x.file}\`: ${x.message.split('\n')[0].slice(0, 300)}`);
    say();
  }
  const look = results.filter((r) => r.otherSdkSites.length || r.unlocatedSites.length);
  if (look.length) {
    say('## Sites to look at');
    say();
    for (const r of look) {
      for (const s of r.otherSdkSites) say(`- ${r.repo} \`${s.file}:${s.line}:${s.column}\` ${s.api} reported (${s.status}, ${s.client?.provider ?? '?'}) on a receiver built from ${s.package} only (N05?)`);
      for (const s of r.unlocatedSites) say(`- ${r.repo} \`${s.file}:${s.line}:${s.column}\` ${s.api}: the position is not at a call's callee`);
    }
    say();
  }
  const leaving = results.filter((r) => r.all.some((o) => o.leavesFile));
  if (leaving.length) {
    say('## Endpoint strings that leave their file');
    say();
    say('Explained as `string`, but their value is exported, returned or held by a binding this file does not use, and the');
    say('reconciliation does not follow values across files: where such a repository has no raw-HTTP site, look there first.');
    say();
    say('| repo | strings | raw-HTTP sites | examples |');
    say('|---|--:|--:|---|');
    for (const r of leaving) {
      const os = r.all.filter((o) => o.leavesFile);
      const ex = os.slice(0, 2).map((o) => `\`${o.file}:${o.line}\``).join(', ');
      say(`| ${r.repo} | ${os.length} | ${r.sites.byApi.http ?? 0} | ${ex} |`);
    }
    say();
  }
  const without = sum((r) => r.sitesWithoutOccurrence.length);
  say(`Sites whose call holds no spelling (listed in results.json): ${without}.`);
  say();
  say(`Totals: ${totals.repos} repositories (${totals.failed} not measured), ${totals.files} files scanned, ${totals.occurrences} occurrences, ` +
    `${totals.sites} sites (${totals.migrated} migrated, ${totals.manual} manual), ${totals.unexplained} unexplained, ${totals.fileErrors} file errors; ` +
    `tool time ${totals.toolSeconds} s, peak RSS max ${totals.maxRssMB} MB; whole run ${totals.wallSeconds} s.`);
  say(`Full results: ${path.relative(process.cwd(), path.join(OUT, 'results.json'))}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 0;
});

/** The names of the repository's own packages (every package.json under the root, node_modules aside), openai excluded. */
function packageNamesUnder(root: string): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') visit(path.join(dir, entry.name));
      else if (entry.isFile() && entry.name === 'package.json') {
        try {
          const name = (JSON.parse(readFileSync(path.join(dir, entry.name), 'utf8')) as { name?: unknown }).name;
          if (typeof name === 'string' && name !== 'openai') names.add(name);
        } catch {
          // a package.json that does not parse names nothing
        }
      }
    }
  };
  visit(root);
  return names;
}
