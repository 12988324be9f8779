/**
 * The benchmark: on the same generated trees, in the same run, it times
 *   1. the I/O floor (bench/floor.mjs: list the files, read each one),
 *   2. migrate-responses --dry-run --format json,
 *   3. jscodeshift running a transform that does nothing, over the same files,
 *   4. type-aware mode on a generated project with a tsconfig, against `tsc --noEmit`,
 *   5. write mode, against the dry run plus the time to write the changed files,
 * and reports medians and ratios (never absolute thresholds), plus peak RSS. Results go to
 * bench/out/results.json.
 *
 * Pairs that are compared run in turns (floor, dry run, floor, ...), so that a slow spell of a
 * shared machine hits both. With --cold (root on Linux), the floor and the dry run are also
 * measured from an empty page cache.
 *
 *   npm run build && node --import tsx bench/run.ts [--runs 5] [--sizes 10000,20000] [--typed 2000] [--jscodeshift-runs 1] [--cold]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './generate.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'bench', 'out');
const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const RUNS = Number(arg('runs', '5'));
const SIZES = arg('sizes', '10000,20000').split(',').map(Number);
const TYPED = Number(arg('typed', '2000'));
const JSCS_RUNS = Number(arg('jscodeshift-runs', '1'));
const COLD = process.argv.includes('--cold');

interface Sample {
  seconds: number;
  rssMB: number;
}

/** Run a command, return wall time and peak RSS (GNU time), fail loudly on a crash. */
function measure(cmd: string, args: string[], cwd = REPO, okCodes = [0]): Sample {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const last = r.stderr.trim().split('\n').pop() ?? '';
  const [seconds, kb] = last.split(' ').map(Number);
  if (!okCodes.includes(r.status ?? -1) || Number.isNaN(seconds)) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  }
  return { seconds, rssMB: Math.round(kb / 1024) };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

type Summary = { median: number; rssMB: number; samples: number[] };

function summarize(samples: Sample[]): Summary {
  return { median: median(samples.map((s) => s.seconds)), rssMB: Math.max(...samples.map((s) => s.rssMB)), samples: samples.map((s) => s.seconds) };
}

function repeat(n: number, f: () => Sample): Summary {
  const samples: Sample[] = [];
  for (let i = 0; i < n; i++) samples.push(f());
  return summarize(samples);
}

/** Run a and b in turns, n times each, so that a slow spell of the machine hits both alike. */
function alternate(n: number, a: () => Sample, b: () => Sample): [Summary, Summary] {
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let i = 0; i < n; i++) {
    as.push(a());
    bs.push(b());
  }
  return [summarize(as), summarize(bs)];
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

function tree(name: string, files: number, tsconfig = false): string {
  const dir = path.join(OUT, name);
  if (!existsSync(path.join(dir, '.generated')) || readFileSync(path.join(dir, '.generated'), 'utf8') !== `${files}:${tsconfig}`) {
    generateTree({ dir, files, tsconfig });
    writeFileSync(path.join(dir, '.generated'), `${files}:${tsconfig}`);
  }
  return dir;
}

const results: Record<string, unknown> = { runs: RUNS, node: process.version, cpus: (await import('node:os')).cpus().length };
if (!existsSync(BIN)) throw new Error('build first: npm run build');
mkdirSync(OUT, { recursive: true });

const perSize: Record<string, Record<string, unknown>> = {};
for (const size of SIZES) {
  const dir = tree(`t${size}`, size);
  console.error(`tree of ${size} files: ${dir}`);
  const floorRun = () => measure(process.execPath, [path.join(REPO, 'bench', 'floor.mjs'), dir]);
  const dryRun = () => measure(process.execPath, [BIN, dir, '--dry-run', '--format', 'json']);
  const [floor, dry] = alternate(RUNS, floorRun, dryRun);
  // the same two from a cold page cache (everything, node and node_modules included, is read from disk)
  let cold: { floor: Summary; dry: Summary; dryOverFloor: number } | undefined;
  if (COLD && dropCaches()) {
    const [coldFloor, coldDry] = alternate(RUNS, () => (dropCaches(), floorRun()), () => (dropCaches(), dryRun()));
    cold = { floor: coldFloor, dry: coldDry, dryOverFloor: ratio(coldDry.median, coldFloor.median) };
  } else if (COLD) console.error('--cold: cannot drop the page cache here (needs root on Linux); skipped');
  const report = JSON.parse(execFileSync(process.execPath, [BIN, dir, '--dry-run', '--format', 'json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
  // write mode on a fresh copy each time; the write floor writes the same bytes to the same files
  const changed: string[] = report.changedFiles;
  const write = repeat(RUNS, () => {
    const copy = path.join(OUT, `w${size}`);
    rmSync(copy, { recursive: true, force: true });
    cpSync(dir, copy, { recursive: true });
    execFileSync('sync'); // the copy's writeback is set-up, not part of the measured run
    return measure(process.execPath, [BIN, copy, '--force', '--format', 'json'], REPO);
  });
  const writeFloor = repeat(RUNS, () => {
    const copy = path.join(OUT, `w${size}`);
    const files = changed.map((f) => path.join(copy, path.relative(path.relative(REPO, dir), f)));
    writeFileSync(path.join(OUT, 'write-list.json'), JSON.stringify(files));
    return measure(process.execPath, ['-e', `const fs=require('fs');for(const f of JSON.parse(fs.readFileSync(${JSON.stringify(path.join(OUT, 'write-list.json'))},'utf8'))){const t=fs.readFileSync(f);fs.writeFileSync(f+'.w',t);fs.renameSync(f+'.w',f)}`]);
  });
  let jscodeshift: ReturnType<typeof repeat> | undefined;
  if (JSCS_RUNS > 0) {
    jscodeshift = repeat(JSCS_RUNS, () => measure(process.execPath, [
      path.join(REPO, 'node_modules', 'jscodeshift', 'bin', 'jscodeshift.js'), '-t', path.join(REPO, 'bench', 'noop-transform.cjs'),
      '--dry', '--silent', '--parser=tsx', '--extensions=ts,tsx,mts,cts,js,jsx,mjs,cjs', '--ignore-pattern=**/node_modules/**', dir,
    ]));
  }
  perSize[size] = {
    files: report.summary.files,
    sites: report.summary.sites,
    changedFiles: changed.length,
    floor, dry, write, writeFloor, jscodeshift, cold,
    ratios: {
      dryOverFloor: ratio(dry.median, floor.median),
      jscodeshiftOverDry: jscodeshift ? ratio(jscodeshift.median, dry.median) : null,
      writeOverDryPlusWrites: ratio(write.median, dry.median + writeFloor.median),
    },
  };
  console.error(JSON.stringify({ size, ...(perSize[size].ratios as object), dry: dry.median, floor: floor.median, rssMB: dry.rssMB, ...(cold ? { coldDryOverFloor: cold.dryOverFloor, coldDry: cold.dry.median, coldFloor: cold.floor.median } : {}) }));
}
results.trees = perSize;
if (SIZES.length >= 2) {
  const [a, b] = SIZES;
  const da = (perSize[a].dry as { median: number }).median;
  const db = (perSize[b].dry as { median: number }).median;
  results.scaling = { from: a, to: b, sizeRatio: b / a, timeRatio: ratio(db, da) };
}

if (TYPED > 0) {
  const dir = tree(`typed${TYPED}`, TYPED, true);
  const [tsc, typed] = alternate(
    RUNS,
    () => measure(process.execPath, [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', dir], REPO, [0, 1, 2]),
    () => measure(process.execPath, [BIN, dir, '--dry-run', '--format', 'json']),
  );
  results.typeAware = { files: TYPED, tsc, scan: typed, ratio: ratio(typed.median, tsc.median) };
  console.error(JSON.stringify({ typeAware: TYPED, scan: typed.median, tsc: tsc.median, ratio: ratio(typed.median, tsc.median) }));
}

writeFileSync(path.join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
