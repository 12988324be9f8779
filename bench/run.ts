/**
 * The benchmark: on the same trees, in the same run, it times
 *   1. the I/O floor (by default the shared ../shared/bench/floor.mjs: a synchronous list-and-read
 *      of every source file; else bench/floor.mjs; `--floor <file>` to choose),
 *   2. the parse floor (../shared/bench/parse-floor.mjs: the same, plus a TypeScript parse of each
 *      file that mentions `openai` or `completions`; `--parse-floor <file>` to choose),
 *   3. migrate-responses --dry-run --format json,
 * in turns (floor, parse floor, dry run, floor, ...), so that a slow spell of a shared machine hits
 * all three, and reports medians, `dry ÷ floor`, `dry ÷ parse floor` and peak RSS (GNU time).
 *
 * Profiles:
 *   default  synthetic trees with 1% call-site files (import tracking; no tsconfig), plus, as
 *            before, jscodeshift with a no-op transform, write mode against the dry run plus the
 *            writes, type-aware mode on a generated project against `tsc --noEmit`, and --cold.
 *   dense    an SDK-heavy monorepo (bench/dense.ts: half the files mention openai, 0.3% have a
 *            call) in both modes: import tracking (the tree generated without its root
 *            tsconfig.json) and type-aware (the same tree, byte for byte, with it).
 *   helpers  every module exports a helper of the same name (`ask()`) with one call, half have a
 *            caller in another file (bench/helpers.ts): the worst case for the searches by name
 *            that follow results and errors to callers; both modes, like dense.
 * `--repo <dir>` (repeatable) runs the same comparison on an existing folder instead: import
 * tracking, and type-aware when it has a root tsconfig.json. For import tracking on a folder that
 * has one, the tool is pointed at the folder's entries instead of the folder (a folder that holds
 * a tsconfig.json is opened up in turn), so that no tsconfig.json sits at one of its roots; the
 * floors still get the folder. The files each mode saw are recorded and compared.
 *
 * Results are merged into bench/out/results.json, keyed by profile/size/mode (repo/<name>/mode),
 * after each measurement; a table is printed at the end.
 *
 *   npm run build && node --import tsx bench/run.ts [--profile default|dense|helpers] [--sizes 10000,20000]
 *     [--runs 5] [--modes imports,typed] [--repo <dir>]... [--floor <file>] [--parse-floor <file>]
 *     [--seed 42] [--timeout 900] [--typed 2000] [--jscodeshift-runs 1] [--cold]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_IGNORED_DIRS } from '../lib/options.js';
import { generateProfile, PROFILES, type Profile } from './generate.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'bench', 'out');
const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const TIME_FILE = path.join(OUT, '.time');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
function args(name: string): string[] {
  return process.argv.flatMap((a, i) => (a === `--${name}` && i + 1 < process.argv.length ? [process.argv[i + 1]] : []));
}

type Mode = 'imports' | 'typed';
const PROFILE = arg('profile', 'default') as Profile;
if (!PROFILES.includes(PROFILE)) throw new Error(`--profile: one of ${PROFILES.join(', ')}`);
const RUNS = Number(arg('runs', '5'));
const SIZES = arg('sizes', PROFILE === 'dense' ? '1000,3000' : '10000,20000').split(',').map(Number);
const MODES = arg('modes', 'imports,typed').split(',') as Mode[];
if (MODES.some((m) => m !== 'imports' && m !== 'typed')) throw new Error('--modes: imports, typed or both');
const REPOS = args('repo').map((d) => path.resolve(d));
const SEED = Number(arg('seed', '42'));
const TIMEOUT = Number(arg('timeout', '900'));
const TYPED = Number(arg('typed', '2000'));
const JSCS_RUNS = Number(arg('jscodeshift-runs', '1'));
const COLD = process.argv.includes('--cold');

/** The main work tree of this repository (a linked work tree's ../shared is elsewhere). */
function mainWorktree(): string | undefined {
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return path.dirname(common);
  } catch {
    return undefined;
  }
}

/** `--<option> <file>`, else ../shared/bench/<name> next to this repository (or its main work tree), else the fallback. */
function chooseFloor(option: string, name: string, fallback: string | undefined): { file: string | undefined; how: string } {
  const given = arg(option, '');
  if (given) {
    const file = path.resolve(given);
    if (!existsSync(file)) throw new Error(`--${option}: no such file: ${given}`);
    return { file, how: `--${option}` };
  }
  const roots = [REPO, mainWorktree()].filter((d): d is string => Boolean(d));
  for (const root of roots) {
    const file = path.resolve(root, '..', 'shared', 'bench', name);
    if (existsSync(file)) return { file, how: `shared, ../shared/bench/${name} of ${root}` };
  }
  return { file: fallback, how: fallback ? 'no shared floor found: the bench\'s own' : 'none found: pass --parse-floor <file>' };
}

const FLOOR = chooseFloor('floor', 'floor.mjs', path.join(REPO, 'bench', 'floor.mjs'));
const PARSE_FLOOR = chooseFloor('parse-floor', 'parse-floor.mjs', undefined);

interface Sample {
  seconds: number;
  rssMB: number;
  status: number;
  stdout: string;
}

interface Command {
  label: string;
  cmd: string;
  args: string[];
  cwd: string;
  okCodes: number[];
}

/** Run a command, return wall time (measured here), peak RSS (GNU time) and stdout; fail loudly on a crash. */
function measure(c: Command): Sample {
  rmSync(TIME_FILE, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-o', TIME_FILE, '-f', '%M', 'timeout', String(TIMEOUT), c.cmd, ...c.args], {
    cwd: c.cwd, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: '1' },
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const kb = existsSync(TIME_FILE) ? Number(readFileSync(TIME_FILE, 'utf8').trim().split('\n').pop()) : Number.NaN;
  const status = r.status ?? -1;
  if (status === 124) throw new Error(`${c.label}: timed out after ${TIMEOUT} s (--timeout)`);
  if (!c.okCodes.includes(status) || Number.isNaN(kb)) {
    throw new Error(`${c.label}: ${c.cmd} ${c.args.join(' ')} failed (${status}): ${(r.stderr ?? '').slice(-2000)}`);
  }
  return { seconds: Math.round(seconds * 1000) / 1000, rssMB: Math.round(kb / 1024), status, stdout: r.stdout };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

interface Summary {
  median: number;
  rssMB: number;
  samples: number[];
}

function summarize(samples: Sample[]): Summary {
  return { median: median(samples.map((s) => s.seconds)), rssMB: Math.max(...samples.map((s) => s.rssMB)), samples: samples.map((s) => s.seconds) };
}

/** Run the commands in turns, n rounds, so that a slow spell of the machine hits them alike. */
function rounds(n: number, commands: (() => Sample)[]): { summaries: Summary[]; last: Sample[] } {
  const all: Sample[][] = commands.map(() => []);
  for (let i = 0; i < n; i++) commands.forEach((c, j) => all[j].push(c()));
  return { summaries: all.map(summarize), last: all.map((s) => s[s.length - 1]) };
}

function repeat(n: number, f: () => Sample): Summary {
  return rounds(n, [f]).summaries[0];
}

/** Empty the page cache (root on Linux only); false when that is not possible here. */
function dropCaches(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const load = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

function parseJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------------------------
// Results: merged into bench/out/results.json after each measurement.

const RESULTS = path.join(OUT, 'results.json');
type Entry = Record<string, unknown> & { key: string };
const entries: Entry[] = [];

function save(entry: Entry, top: Record<string, unknown> = {}): void {
  entries.push(entry);
  let doc: Record<string, unknown> = {};
  if (existsSync(RESULTS)) {
    const old = parseJson(readFileSync(RESULTS, 'utf8'));
    if (old && typeof old === 'object' && !Array.isArray(old)) doc = old;
  }
  const old = (doc.entries && typeof doc.entries === 'object' ? doc.entries : {}) as Record<string, unknown>;
  doc = { ...doc, ...top, node: process.version, cpus: os.cpus().length, updated: new Date().toISOString(), entries: { ...old, [entry.key]: entry } };
  writeFileSync(RESULTS, `${JSON.stringify(doc, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// The comparison: floor, parse floor and dry run in turns, on one tree in one mode.

interface Target {
  /** Folder the floors walk. */
  root: string;
  /** Where the tool runs and what it is given. */
  cwd: string;
  paths: string[];
  okCodes: number[];
}

const floorCmd = (root: string): Command => ({ label: 'floor', cmd: process.execPath, args: [FLOOR.file as string, root], cwd: REPO, okCodes: [0] });
const parseFloorCmd = (root: string): Command => ({ label: 'parse floor', cmd: process.execPath, args: [PARSE_FLOOR.file as string, root, REPO], cwd: REPO, okCodes: [0] });
const dryCmd = (t: Target): Command => ({ label: 'dry run', cmd: process.execPath, args: [BIN, ...t.paths, '--dry-run', '--format', 'json'], cwd: t.cwd, okCodes: t.okCodes });

interface Compared {
  entry: Entry;
  floor: Summary;
  dry: Summary;
  report: Record<string, unknown>;
}

function compare(key: string, meta: Record<string, unknown>, t: Target, extra: Command[] = []): Compared {
  const before = load();
  const commands = [floorCmd(t.root), ...(PARSE_FLOOR.file ? [parseFloorCmd(t.root)] : []), dryCmd(t), ...extra].map((c) => () => measure(c));
  console.error(`${key}: ${RUNS} rounds of floor${PARSE_FLOOR.file ? ', parse floor' : ''}, dry run${extra.map((e) => `, ${e.label}`).join('')}…`);
  const { summaries, last } = rounds(RUNS, commands);
  const floor = summaries[0];
  const parseFloor = PARSE_FLOOR.file ? summaries[1] : undefined;
  const dryIndex = PARSE_FLOOR.file ? 2 : 1;
  const dry = summaries[dryIndex];
  const report = parseJson(last[dryIndex].stdout);
  const summary = (report.summary ?? {}) as Record<string, number>;
  const floorOut = parseJson(last[0].stdout);
  const parseOut = PARSE_FLOOR.file ? parseJson(last[1].stdout) : {};
  const extras: Record<string, Summary> = {};
  extra.forEach((e, i) => (extras[e.label] = summaries[dryIndex + 1 + i]));
  const entry: Entry = {
    key, ...meta,
    toolPaths: t.paths,
    invocation: `(cd ${t.cwd.startsWith(`${REPO}${path.sep}`) ? path.relative(REPO, t.cwd) : t.cwd} && migrate-responses ${t.paths.length > 6 ? `${t.paths.slice(0, 6).join(' ')} … (${t.paths.length} paths)` : t.paths.join(' ')} --dry-run --format json)`,
    runs: RUNS, date: new Date().toISOString(), load: { before, after: load() },
    floorFile: FLOOR.file, parseFloorFile: PARSE_FLOOR.file ?? null,
    files: { floor: floorOut.files ?? null, parseFloor: parseOut.files ?? null, tool: summary.files ?? null },
    parsedByParseFloor: parseOut.parsed ?? null,
    sites: summary.sites ?? null, filesWithSites: summary.filesWithSites ?? null, toolErrors: summary.errors ?? null, dryExit: last[dryIndex].status,
    floor, parseFloor: parseFloor ?? null, dry, ...extras,
    ratios: { dryOverFloor: ratio(dry.median, floor.median), dryOverParseFloor: parseFloor ? ratio(dry.median, parseFloor.median) : null },
  };
  console.error(`${key}: dry ${dry.median} s, floor ${floor.median} s (${ratio(dry.median, floor.median)}×)${parseFloor ? `, parse floor ${parseFloor.median} s (${ratio(dry.median, parseFloor.median)}×)` : ''}, dry peak RSS ${dry.rssMB} MB, load ${before.join(' ')}`);
  return { entry, floor, dry, report };
}

// ---------------------------------------------------------------------------------------------

function tree(name: string, profile: Profile, files: number, tsconfig: boolean): { dir: string; stats: unknown } {
  const dir = path.join(OUT, name);
  const stamp = path.join(dir, '.generated');
  const want = JSON.stringify({ profile, files, tsconfig, seed: SEED, generator: generatorVersion() });
  if (existsSync(stamp)) {
    const got = parseJson(readFileSync(stamp, 'utf8'));
    if (JSON.stringify({ profile: got.profile, files: got.files, tsconfig: got.tsconfig, seed: got.seed, generator: got.generator }) === want) return { dir, stats: got.stats };
  }
  console.error(`generating ${profile} tree of ${files} files${tsconfig ? ' with a root tsconfig.json' : ''}: ${path.relative(REPO, dir)}`);
  const stats = generateProfile(profile, { dir, files, tsconfig, seed: SEED });
  writeFileSync(stamp, JSON.stringify({ ...JSON.parse(want), stats }));
  return { dir, stats };
}

/** Changes to the generators regenerate the trees. */
function generatorVersion(): string {
  const here = path.join(REPO, 'bench');
  let h = 0;
  for (const f of ['generate.ts', 'dense.ts', 'helpers.ts', 'rng.ts']) {
    const text = existsSync(path.join(here, f)) ? readFileSync(path.join(here, f), 'utf8') : '';
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  }
  return (h >>> 0).toString(16);
}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const DECLARATION = /\.d\.[^.]+$|\.d\.[^.]+\.ts$/;
const IGNORED = new Set<string>(DEFAULT_IGNORED_DIRS);

/**
 * The roots to give the tool so that no tsconfig.json sits at one of them: the folder itself when
 * it has none, else its entries (source files and folders, the tool's default-ignored folders
 * left out), each folder opened up in turn when it has a tsconfig.json of its own.
 */
function importTrackingRoots(dir: string, rel = ''): string[] {
  const abs = path.join(dir, rel);
  if (!existsSync(path.join(abs, 'tsconfig.json'))) return [rel || '.'];
  const out: string[] = [];
  for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (IGNORED.has(e.name)) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...importTrackingRoots(dir, r));
    else if (e.isFile() && SOURCE.test(e.name) && !DECLARATION.test(e.name)) out.push(r);
  }
  return out;
}

if (!existsSync(BIN)) throw new Error('build first: npm run build');
mkdirSync(OUT, { recursive: true });
console.error(`I/O floor: ${FLOOR.file} (${FLOOR.how})`);
console.error(`parse floor: ${PARSE_FLOOR.file ?? 'skipped'} (${PARSE_FLOOR.how})`);
console.error(`machine: ${os.cpus().length} cpus, load ${load().join(' ')}, node ${process.version}`);

if (REPOS.length) {
  for (const repo of REPOS) {
    if (!existsSync(repo)) throw new Error(`--repo: no such folder: ${repo}`);
    const name = path.basename(repo);
    const hasTsconfig = existsSync(path.join(repo, 'tsconfig.json'));
    const seen: Record<string, number | null> = {};
    for (const mode of MODES) {
      if (mode === 'typed' && !hasTsconfig) {
        console.error(`repo/${name}: no root tsconfig.json, type-aware mode skipped`);
        continue;
      }
      const paths = mode === 'imports' ? importTrackingRoots(repo) : ['.'];
      const { entry, report } = compare(`repo/${name}/${mode}`, { profile: 'repo', repo, mode, rootTsconfig: hasTsconfig }, { root: repo, cwd: repo, paths, okCodes: [0, 1] });
      seen[mode] = ((report.summary ?? {}) as Record<string, number>).files ?? null;
      save(entry);
    }
    if (seen.imports !== undefined && seen.typed !== undefined && seen.imports !== seen.typed) {
      console.error(`repo/${name}: WARNING the tool saw ${seen.imports} files in import tracking and ${seen.typed} type-aware: the roots given differ in what they cover`);
    }
  }
} else if (PROFILE === 'dense' || PROFILE === 'helpers') {
  for (const size of SIZES) {
    for (const mode of MODES) {
      const { dir, stats } = tree(`${PROFILE}${size}-${mode}`, PROFILE, size, mode === 'typed');
      const { entry } = compare(`${PROFILE}/${size}/${mode}`, { profile: PROFILE, size, mode, tree: stats }, { root: dir, cwd: dir, paths: ['.'], okCodes: [0] });
      save(entry);
    }
  }
} else {
  const dryBySize: Record<number, number> = {};
  for (const size of SIZES) {
    const { dir, stats } = tree(`t${size}`, 'default', size, false);
    const target: Target = { root: dir, cwd: dir, paths: ['.'], okCodes: [0] };
    const { entry, dry, report } = compare(`default/${size}/imports`, { profile: 'default', size, mode: 'imports', tree: stats }, target);
    dryBySize[size] = dry.median;
    // the same from a cold page cache (everything, node and node_modules included, is read from disk)
    if (COLD && dropCaches()) {
      const cold = [floorCmd(dir), ...(PARSE_FLOOR.file ? [parseFloorCmd(dir)] : []), dryCmd(target)].map((c) => () => (dropCaches(), measure(c)));
      const { summaries } = rounds(RUNS, cold);
      const coldDry = summaries[summaries.length - 1];
      entry.cold = { floor: summaries[0], parseFloor: PARSE_FLOOR.file ? summaries[1] : null, dry: coldDry, dryOverFloor: ratio(coldDry.median, summaries[0].median) };
    } else if (COLD) console.error('--cold: cannot drop the page cache here (needs root on Linux); skipped');
    // write mode on a fresh copy each time; the write floor writes the same bytes to the same files
    const changed = (report.changedFiles ?? []) as string[];
    const copy = path.join(OUT, `w${size}`);
    const write = repeat(RUNS, () => {
      rmSync(copy, { recursive: true, force: true });
      cpSync(dir, copy, { recursive: true });
      execFileSync('sync'); // the copy's writeback is set-up, not part of the measured run
      return measure({ label: 'write', cmd: process.execPath, args: [BIN, '.', '--force', '--format', 'json'], cwd: copy, okCodes: [0] });
    });
    const writeList = path.join(OUT, 'write-list.json');
    writeFileSync(writeList, JSON.stringify(changed.map((f) => path.join(copy, f))));
    const writeFloor = repeat(RUNS, () => measure({
      label: 'write floor', cmd: process.execPath, cwd: REPO, okCodes: [0],
      args: ['-e', `const fs=require('fs');for(const f of JSON.parse(fs.readFileSync(${JSON.stringify(writeList)},'utf8'))){const t=fs.readFileSync(f);fs.writeFileSync(f+'.w',t);fs.renameSync(f+'.w',f)}`],
    }));
    let jscodeshift: Summary | undefined;
    if (JSCS_RUNS > 0) {
      jscodeshift = repeat(JSCS_RUNS, () => measure({
        label: 'jscodeshift', cmd: process.execPath, cwd: REPO, okCodes: [0],
        args: [path.join(REPO, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js'), '-t', path.join(REPO, 'bench', 'noop-transform.cjs'),
          '--dry', '--silent', '--parser=tsx', '--extensions=ts,tsx,mts,cts,js,jsx,mjs,cjs', '--ignore-pattern=**/node_modules/**', dir],
      }));
    }
    Object.assign(entry, { changedFiles: changed.length, write, writeFloor, jscodeshift: jscodeshift ?? null });
    Object.assign(entry.ratios as object, { jscodeshiftOverDry: jscodeshift ? ratio(jscodeshift.median, dry.median) : null, writeOverDryPlusWrites: ratio(write.median, dry.median + writeFloor.median) });
    const [a, b] = SIZES;
    const scaling = SIZES.length >= 2 && dryBySize[a] !== undefined && dryBySize[b] !== undefined ? { scaling: { from: a, to: b, sizeRatio: b / a, timeRatio: ratio(dryBySize[b], dryBySize[a]) } } : {};
    save(entry, scaling);
  }
  if (TYPED > 0) {
    const { dir, stats } = tree(`typed${TYPED}`, 'default', TYPED, true);
    const tsc: Command = { label: 'tsc', cmd: process.execPath, args: [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', dir], cwd: REPO, okCodes: [0, 1, 2] };
    const { entry, dry } = compare(`default/${TYPED}/typed`, { profile: 'default', size: TYPED, mode: 'typed', tree: stats }, { root: dir, cwd: dir, paths: ['.'], okCodes: [0] }, [tsc]);
    const tscSummary = entry.tsc as Summary;
    Object.assign(entry.ratios as object, { dryOverTsc: ratio(dry.median, tscSummary.median) });
    save(entry);
  }
}

// ---------------------------------------------------------------------------------------------
// The table (this run's entries).

const s = (x: number) => `${x.toFixed(2)} s`;
const lines = [
  `I/O floor: ${FLOOR.file ? path.relative(process.cwd(), FLOOR.file) || FLOOR.file : '-'} · parse floor: ${PARSE_FLOOR.file ? path.relative(process.cwd(), PARSE_FLOOR.file) : 'none'} · medians of ${RUNS} runs · node ${process.version}, ${os.cpus().length} cpus`,
  '',
  '| tree | mode | files | parsed | sites | I/O floor | parse floor | dry run | dry ÷ floor | dry ÷ parse floor | peak RSS dry | peak RSS parse floor | load |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const e of entries) {
  const f = e.floor as Summary;
  const p = e.parseFloor as Summary | null;
  const d = e.dry as Summary;
  const r = e.ratios as { dryOverFloor: number; dryOverParseFloor: number | null };
  const files = e.files as { floor: number | null; tool: number | null };
  const treeName = e.profile === 'repo' ? path.basename(String(e.repo)) : `${e.profile} ${e.size}`;
  const l = e.load as { before: number[] };
  lines.push(`| ${treeName} | ${e.mode === 'typed' ? 'type-aware' : 'import tracking'} | ${files.tool ?? files.floor}${files.tool !== files.floor ? ` (floor ${files.floor})` : ''} | ${e.parsedByParseFloor ?? '-'} | ${e.sites ?? '-'} | ${s(f.median)} | ${p ? s(p.median) : '-'} | ${s(d.median)} | ${r.dryOverFloor}× | ${r.dryOverParseFloor ?? '-'}${r.dryOverParseFloor === null ? '' : '×'} | ${d.rssMB} MB | ${p ? `${p.rssMB} MB` : '-'} | ${l.before[0]} |`);
}
console.log(lines.join('\n'));
console.error(`results merged into ${path.relative(process.cwd(), RESULTS)}`);
