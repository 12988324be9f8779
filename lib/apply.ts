/**
 * Executes the plan: per file, run the planned transforms once, re-parse, diff; in write mode
 * check the git guard and write atomically. A file whose transform throws or does not parse is
 * left exactly as it was and its sites are reported (per-file rollback).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, promises as fsp, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { relativePath, UsageError } from './files.js';
import type { CreatedFile, Edit, FilePlan, SitePlan } from './plan.js';
import type { FileError } from './report/model.js';
import type { MarkerRequest, TransformContext } from '../transforms/index.js';

/** One file to transform: what the transforms need, nothing else (it may cross to a worker). */
export interface TransformJob {
  file: string;
  text: string;
  edits: Edit[];
  markers: MarkerRequest[];
}

export type TransformResult = { ok: true; output: string; changed: boolean } | { ok: false; error: string };

/** Runs transform jobs: in this thread by default, or in a worker (lib/worker.ts). */
export type TransformRunner = (jobs: TransformJob[]) => Promise<TransformResult[]>;

/** In this thread; the transforms (jscodeshift, Babel) are loaded on first use. */
export const runTransformsHere: TransformRunner = (jobs) => runTransformsWith(jobs, () => undefined);

/** Runs the jobs, using a context parsed ahead of time when `prepared` has one for the file. */
export async function runTransformsWith(jobs: TransformJob[], prepared: (file: string) => TransformContext | undefined): Promise<TransformResult[]> {
  const { transformFile } = await import('../transforms/index.js');
  return jobs.map((job) => {
    try {
      return { ok: true as const, ...transformFile(job.file, job.text, job.edits, job.markers, prepared(job.file)) };
    } catch (err) {
      return { ok: false as const, error: (err as Error).message.split('\n')[0] };
    }
  });
}

export interface SourceState {
  text: string;
  bom: boolean;
}

export interface ApplyInput {
  plans: FilePlan[];
  /** The text each candidate file had when it was scanned (BOM stripped). */
  texts: Map<string, SourceState>;
  /** Absolute real paths of the roots: nothing outside them is ever written. */
  roots: string[];
  cwd: string;
  dryRun: boolean;
  markers: boolean;
  force: boolean;
  /** New files the scan planned (converter modules, M-CONTENT-UNTYPED): created when a kept site imports one. */
  createdFiles?: CreatedFile[];
}

export interface FileChange {
  file: string;
  rel: string;
  before: string;
  after: string;
  bom: boolean;
  /** A new file: `before` is '' and nothing was on disk. */
  created?: boolean;
}

export interface ApplyOutcome {
  changes: FileChange[];
  errors: FileError[];
  /** Sites whose rewrite failed, with the error. */
  failed: Map<SitePlan, string>;
  /** Files actually written (write mode). */
  written: string[];
  /** The signal that stopped the write phase early, if one did. */
  interrupted?: NodeJS.Signals;
}

export async function applyPlans(input: ApplyInput, runTransforms: TransformRunner = runTransformsHere): Promise<ApplyOutcome> {
  const work = collect(input);
  const changes: FileChange[] = [];
  const errors: FileError[] = [];
  const failed = new Map<SitePlan, string>();
  const jobs: (TransformJob & { bom: boolean; sites: SitePlan[] })[] = [];
  for (const [file, job] of work) {
    if (!insideRoots(file, input.roots)) {
      errors.push({ file: relativePath(input.cwd, file), message: 'rewrite refused: the file is outside the paths given' });
      for (const site of job.sites) failed.set(site, 'an edit falls outside the paths given');
      continue;
    }
    const state = input.texts.get(file) ?? (await readState(file));
    jobs.push({ file, text: state.text, edits: job.edits, markers: job.markers, bom: state.bom, sites: job.sites });
  }
  const results = jobs.length ? await runTransforms(jobs.map(({ file, text, edits, markers }) => ({ file, text, edits, markers }))) : [];
  jobs.forEach((job, i) => {
    const result = results[i];
    const rel = relativePath(input.cwd, job.file);
    if (result.ok) {
      if (result.changed) changes.push({ file: job.file, rel, before: job.text, after: result.output, bom: job.bom });
      return;
    }
    errors.push({ file: rel, message: `rewrite failed, file left unchanged: ${result.error}` });
    for (const site of job.sites) failed.set(site, result.error);
  });
  // a site is only as good as every file it touches: drop files that hold part of a failed site
  let kept = changes;
  const dropFailed = () => {
    for (let again = true; again;) {
      again = false;
      const failedFiles = new Set([...failed.keys()].flatMap(filesOf));
      kept = kept.filter((c) => {
        if (!failedFiles.has(c.file)) return true;
        for (const s of work.get(c.file)!.sites) if (!failed.has(s)) failed.set(s, `another file of its unit failed: ${c.rel}`);
        again = true;
        return false;
      });
    }
  };
  dropFailed();
  let created = createdChanges(input, failed);
  if (input.dryRun) return { changes: [...kept, ...created], errors, failed, written: [] };
  guardGit(input.cwd, kept.map((c) => c.file), input.force);
  const written: string[] = [];
  // a converter module first: the files that import it are written only once it exists
  created = created.filter((change) => {
    const problem = createNewFile(change);
    if (!problem) {
      written.push(change.rel);
      return true;
    }
    errors.push({ file: change.rel, message: problem });
    for (const site of sitesImporting(input.plans, change.file)) if (!failed.has(site)) failed.set(site, `its run-time converter module was not created: ${change.rel}`);
    dropFailed();
    return false;
  });
  // SIGINT / SIGTERM: finish the file being written (old or new, never partial), write no more
  let interrupted: NodeJS.Signals | undefined;
  const stop = (signal: NodeJS.Signals) => {
    interrupted = signal;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    for (const change of kept) {
      if (interrupted) {
        errors.push({ file: change.rel, message: `not written: the run was interrupted (${interrupted})` });
        continue;
      }
      const problem = writeIfUnchanged(change);
      if (problem) errors.push({ file: change.rel, message: problem });
      else written.push(change.rel);
      await nextTurn(); // lets a pending SIGINT / SIGTERM reach `stop` before the next file
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return { changes: [...kept, ...created], errors, failed, written, interrupted };
}

function insideRoots(file: string, roots: string[]): boolean {
  return roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}

interface Job {
  edits: Edit[];
  markers: MarkerRequest[];
  /** Sites with edits or markers in this file. */
  sites: SitePlan[];
}

function collect(input: ApplyInput): Map<string, Job> {
  const work = new Map<string, Job>();
  const job = (file: string): Job => {
    let j = work.get(file);
    if (!j) work.set(file, (j = { edits: [], markers: [], sites: [] }));
    return j;
  };
  for (const plan of input.plans) {
    for (const site of plan.sites) {
      if (site.record.status === 'migrated') {
        for (const edit of site.edits) {
          const j = job(edit.file);
          j.edits.push(edit);
          if (!j.sites.includes(site)) j.sites.push(site);
        }
      } else if (site.record.status === 'manual' && input.markers) {
        const j = job(site.file);
        j.markers.push({ statementStart: site.statementStart, reasons: site.record.reasons });
        j.sites.push(site);
      }
    }
  }
  return work;
}

function filesOf(site: SitePlan): string[] {
  return [...new Set([site.file, ...site.edits.map((e) => e.file)])];
}

async function readState(file: string): Promise<SourceState> {
  return decodeState(await fsp.readFile(file, 'utf8'));
}

function decodeState(raw: string): SourceState {
  const bom = raw.charCodeAt(0) === 0xfeff;
  return { text: bom ? raw.slice(1) : raw, bom };
}

export function unifiedDiff(change: FileChange): string {
  return createTwoFilesPatch(change.created ? '/dev/null' : `a/${change.rel}`, `b/${change.rel}`, change.before, change.after, '', '', { context: 3 });
}

/** Write mode refuses a dirty tree for the files it would change, unless --force (exit 2). */
function guardGit(cwd: string, files: string[], force: boolean): void {
  if (force || files.length === 0) return;
  let top: string;
  try {
    top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return; // not a git work tree: nothing to protect against
  }
  const dirty: string[] = [];
  const CHUNK = 200;
  for (let i = 0; i < files.length; i += CHUNK) {
    const out = execFileSync('git', ['status', '--porcelain', '-z', '--', ...files.slice(i, i + CHUNK)], { cwd: top, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    for (const entry of out.split('\0')) if (entry.trim()) dirty.push(entry.slice(3));
  }
  if (dirty.length) {
    throw new UsageError(`uncommitted changes in files this run would rewrite: ${dirty.slice(0, 10).join(', ')}${dirty.length > 10 ? ', …' : ''}. Commit or stash them, or pass --force.`);
  }
}

/**
 * Atomic write (temporary file + rename, permissions kept), only if the file is still as scanned.
 * Synchronous on purpose: five thread-pool round trips per file made writing 200 files cost
 * twice what the writes themselves cost (bench/run.ts, write over dry run plus writes).
 */
function writeIfUnchanged(change: FileChange): string | undefined {
  let current: SourceState;
  let mode: number;
  try {
    current = decodeState(readFileSync(change.file, 'utf8'));
    mode = statSync(change.file).mode & 0o7777;
  } catch (err) {
    return `not written: ${(err as Error).message}`;
  }
  if (current.text !== change.before || current.bom !== change.bom) return 'not written: the file changed on disk after it was scanned';
  if ((mode & 0o222) === 0) return 'not written: the file is read-only';
  const tmp = path.join(path.dirname(change.file), `.${path.basename(change.file)}.${process.pid}.${randomBytes(4).toString('hex')}.migrate-responses.tmp`);
  try {
    writeFileSync(tmp, (change.bom ? '\uFEFF' : '') + change.after, { mode });
    chmodSync(tmp, mode); // the umask may have narrowed the mode given to writeFileSync
    renameSync(tmp, change.file);
  } catch (err) {
    rmSync(tmp, { force: true });
    return `not written: ${(err as Error).message}`;
  }
  return undefined;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// ---- new files: the run-time converter modules (M-CONTENT-UNTYPED) -----------------------------

/** Migrated sites whose edits import this module. */
function sitesImporting(plans: FilePlan[], module: string): SitePlan[] {
  return plans.flatMap((p) => p.sites).filter((s) => s.record.status === 'migrated' && s.edits.some((e) => e.op === 'convert-messages' && e.moduleFile === module));
}

/** The planned new files that a site still being migrated imports. */
function createdChanges(input: ApplyInput, failed: Map<SitePlan, string>): FileChange[] {
  return (input.createdFiles ?? [])
    .filter((f) => sitesImporting(input.plans, f.file).some((s) => !failed.has(s)))
    .map((f) => ({ file: f.file, rel: relativePath(input.cwd, f.file), before: '', after: f.text, bom: false, created: true }));
}

/** Creates the file atomically, and only if nothing is there (a hard link fails on an existing name). */
function createNewFile(change: FileChange): string | undefined {
  const tmp = path.join(path.dirname(change.file), `.${path.basename(change.file)}.${process.pid}.${randomBytes(4).toString('hex')}.migrate-responses.tmp`);
  try {
    writeFileSync(tmp, change.after, { flag: 'wx' });
    linkSync(tmp, change.file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EEXIST' ? 'not created: a file of that name appeared after the scan' : `not created: ${(err as Error).message}`;
  } finally {
    rmSync(tmp, { force: true });
  }
  return undefined;
}
