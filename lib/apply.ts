/**
 * Executes the plan. Sites that must go together (a G-UNIT unit, a common file) form write sets
 * (lib/apply/write-sets.ts); each file is transformed once and its output parsed again; in write
 * mode the git guard is checked and every set is committed all-or-nothing (lib/apply/commit.ts).
 * A set with a transform that throws, an output that does not parse, or a file that cannot be
 * written leaves every one of its files exactly as it was, and all its sites are reported.
 */
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { relativePath } from './files.js';
import { isFile } from './project/layout.js';
import type { CreatedFile, Edit, FilePlan, SitePlan } from './plan.js';
import type { FileError } from './report/model.js';
import type { MarkerRequest, TransformContext } from '../transforms/index.js';
import { APPEARED, commitWriteSet, type FileChange } from './apply/commit.js';
import { guardGit } from './apply/git-guard.js';
import { seamsFromEnv, type ApplySeams } from './apply/seams.js';
import { trapSignals } from './apply/signals.js';
import { splitAfterFailure, writeSets, type WriteSet } from './apply/write-sets.js';

export type { FileChange };
/** One file to transform: what the transforms need, nothing else (it may cross to a worker). */
export interface TransformJob {
  file: string;
  text: string;
  edits: Edit[];
  markers: MarkerRequest[];
  /** The name the file's package installs the SDK under, when it is not `openai`. */
  sdkName?: string;
}

export type TransformResult = { ok: true; output: string; changed: boolean } | { ok: false; error: string };

/** Runs transform jobs: in this thread by default, or in a worker (lib/worker.ts). */
export type TransformRunner = (jobs: TransformJob[]) => Promise<TransformResult[]>;

/** In this thread; the transforms (jscodeshift, Babel) are loaded on first use. */
export const runTransformsHere: TransformRunner = (jobs) => runTransformsWith(jobs, () => undefined);

/** Runs the jobs, using a context parsed ahead of time when `prepared` has one for the file. */
export async function runTransformsWith(jobs: TransformJob[], prepared: (file: string) => TransformContext | undefined): Promise<TransformResult[]> {
  const [{ transformFile }, { assertParses }] = await Promise.all([import('../transforms/index.js'), import('../transforms/parser.js')]);
  return jobs.map((job) => {
    try {
      return { ok: true as const, ...transformFile(job.file, job.text, job.edits, job.markers, prepared(job.file), job.sdkName) };
    } catch (err) {
      const message = (err as Error).message.split('\n')[0];
      // the rewrite is checked by the parser that printed it; a file that parser rejects as it is
      // (a name declared twice, which TypeScript's parser lets through) says so, not "the rewrite broke it"
      try {
        assertParses(job.file, job.text);
      } catch (before) {
        return { ok: false as const, error: `the file does not parse as it is (${(before as Error).message.split('\n')[0]})` };
      }
      return { ok: false as const, error: message };
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
  /**
   * New files the scan planned (converter modules, M-CONTENT-UNTYPED): each is created in the
   * write set of the sites that import it, and only with them.
   */
  createdFiles?: CreatedFile[];
  /** Files whose package installs the SDK under another name (an npm alias), and that name. */
  sdkNames?: Map<string, string>;
}

/** Why a planned site was not carried out after all (lib/run.ts makes it the site's reason). */
export interface SiteFailure {
  code: 'transform-failed' | 'write-failed';
  /** The file that failed and why: `src/a.ts: the file is read-only`. */
  detail: string;
}

export interface ApplyOutcome {
  /** The files changed (write mode) or that would change (dry run), before and after. */
  changes: FileChange[];
  errors: FileError[];
  /** Sites whose write set failed, and why. */
  failed: Map<SitePlan, SiteFailure>;
  /** Files actually written (write mode), relative. */
  written: string[];
  /** The signal that stopped the write phase early, if one did. */
  interrupted?: NodeJS.Signals;
}

/**
 * `seams`: test seams (lib/apply/seams.ts); a normal run has none, unless the environment sets
 * the test variables.
 */
export async function applyPlans(input: ApplyInput, runTransforms: TransformRunner = runTransformsHere, seams: ApplySeams = seamsFromEnv(process.env)): Promise<ApplyOutcome> {
  const ledger = new Ledger(input.cwd);
  const options = { markers: input.markers, created: new Map((input.createdFiles ?? []).map((f) => [f.file, f.text])) };
  const ready: Ready[] = [];
  // a set a file of which fails to transform is tried again without the sites tied to that file
  for (let sets = writeSets(input.plans, options); sets.length;) {
    const { jobs, pending } = await prepare(sets, input, ledger);
    const results = jobs.length ? await runTransforms(jobs) : [];
    const retry: WriteSet[] = [];
    ready.push(...transformed(pending, jobs, results, ledger, (set, file) => {
      const split = splitAfterFailure(set, file, options);
      retry.push(...split.rest);
      return split.dropped;
    }));
    sets = retry;
  }
  if (input.dryRun) return { changes: ready.flatMap((r) => r.changes), errors: ledger.errors, failed: ledger.failed, written: [] };
  const { written, interrupted } = await commit(ready, input, seams, ledger);
  return { changes: written, errors: ledger.errors, failed: ledger.failed, written: written.map((c) => c.rel), interrupted };
}

/** The errors and failed sites of a run, as the sets fail. */
class Ledger {
  readonly errors: FileError[] = [];
  readonly failed = new Map<SitePlan, SiteFailure>();
  constructor(private readonly cwd: string) {}

  rel(file: string): string {
    return relativePath(this.cwd, file);
  }

  /**
   * Drops a whole write set: `culprit` gets the error, the set's other `files` (those it would
   * change) a pointer to it, and every site of the set the failure.
   */
  drop(set: WriteSet, files: string[], culprit: string, message: string, code: SiteFailure['code'], cause: string): void {
    this.errors.push({ file: this.rel(culprit), message });
    for (const f of files) if (f !== culprit) this.errors.push({ file: this.rel(f), message: `left unchanged with its write set: ${this.rel(culprit)} failed` });
    for (const site of set.sites) this.failed.set(site, { code, detail: `${this.rel(culprit)}: ${cause}` });
  }
}

/** A set on its way: its transform jobs (indexes into the run's jobs) and the files it creates. */
interface Pending {
  set: WriteSet;
  jobs: { index: number; bom: boolean }[];
  created: FileChange[];
}

/** A write set whose files all transformed and parsed: the files it changes. */
interface Ready {
  set: WriteSet;
  changes: FileChange[];
}

/** The transform jobs of every set that can be attempted: inside the roots, readable, consistent. */
async function prepare(sets: WriteSet[], input: ApplyInput, ledger: Ledger): Promise<{ jobs: TransformJob[]; pending: Pending[] }> {
  const jobs: TransformJob[] = [];
  const pending: Pending[] = [];
  for (const set of sets) {
    const files = set.files.map((f) => f.file);
    const outside = set.files.find((f) => !(insideRoots(f.file, input.roots) || (f.create !== undefined && besideRootFile(f.file, input.roots))))?.file;
    if (outside) {
      ledger.drop(set, files, outside, 'rewrite refused: the file is outside the paths given', 'write-failed', 'outside the paths given');
      continue;
    }
    if (set.conflict) {
      const { file, message } = set.conflict;
      ledger.drop(set, files, file, `rewrite failed, file left unchanged: ${message}`, 'transform-failed', message);
      continue;
    }
    const entry: Pending = { set, jobs: [], created: [] };
    let blocked: { file: string; cause: string } | undefined;
    for (const work of set.files) {
      if (work.create !== undefined) {
        const existing = readIfExists(work.file);
        if (existing === work.create) continue; // made by an earlier run
        if (existing !== undefined) {
          blocked = { file: work.file, cause: APPEARED };
          break;
        }
        entry.created.push({ file: work.file, rel: ledger.rel(work.file), before: '', after: work.create, bom: false, created: true });
        continue;
      }
      try {
        const state = input.texts.get(work.file) ?? (await readState(work.file));
        const index = jobs.push({ file: work.file, text: state.text, edits: work.edits, markers: work.markers, sdkName: input.sdkNames?.get(work.file) }) - 1;
        entry.jobs.push({ index, bom: state.bom });
      } catch (err) {
        blocked = { file: work.file, cause: (err as Error).message.split('\n')[0] };
        break;
      }
    }
    if (blocked) ledger.drop(set, files, blocked.file, `${notDone(set, blocked.file)}: ${blocked.cause}`, 'write-failed', blocked.cause);
    else pending.push(entry);
  }
  return { jobs, pending };
}

/**
 * Keeps the sets whose every file transformed and parsed. Of a set with a file that did not,
 * `split` says which sites go with that file: those are dropped, the set's other files untouched.
 */
function transformed(pending: Pending[], jobs: TransformJob[], results: TransformResult[], ledger: Ledger, split: (set: WriteSet, file: string) => SitePlan[]): Ready[] {
  const ready: Ready[] = [];
  for (const { set, jobs: own, created } of pending) {
    const changes: FileChange[] = [];
    let broken: { file: string; error: string } | undefined;
    for (const { index, bom } of own) {
      const result = results[index];
      const { file, text } = jobs[index];
      if (!result.ok) broken ??= { file, error: result.error };
      else if (result.changed) changes.push({ file, rel: ledger.rel(file), before: text, after: result.output, bom });
    }
    changes.unshift(...created); // a module first, then the files that import it
    if (broken) {
      const sites = split(set, broken.file);
      // the files only dropped sites change: a module other importers still need is created with them
      const files = set.files.filter((f) => f.sites.every((s) => sites.includes(s))).map((f) => f.file).filter((f) => changes.some((c) => c.file === f));
      ledger.drop({ ...set, sites }, files, broken.file, `rewrite failed, file left unchanged: ${broken.error}`, 'transform-failed', broken.error);
    } else if (changes.length) ready.push({ set, changes });
  }
  return ready;
}

/**
 * Write mode: the git guard, then every set committed all-or-nothing, in order. SIGINT / SIGTERM
 * are trapped for the whole phase: the set being written finishes (or rolls back) completely, and
 * no later set starts.
 */
async function commit(ready: Ready[], input: ApplyInput, seams: ApplySeams, ledger: Ledger): Promise<{ written: FileChange[]; interrupted?: NodeJS.Signals }> {
  const signals = trapSignals();
  const written: FileChange[] = [];
  try {
    guardGit(input.cwd, ready.flatMap((r) => r.changes.map((c) => c.file)), input.force);
    for (const { set, changes } of ready) {
      await signals.settle();
      const signal = signals.received();
      if (signal) {
        for (const c of changes) ledger.errors.push({ file: c.rel, message: `not written: the run was interrupted (${signal})` });
        for (const site of set.sites) ledger.failed.set(site, { code: 'write-failed', detail: `interrupted by ${signal} before its files were written` });
        continue;
      }
      const outcome = commitWriteSet(changes, seams.commit);
      if (outcome.ok) written.push(...changes);
      else {
        const { file, cause } = outcome.failure;
        ledger.drop(set, changes.map((c) => c.file), file, `${notDone(set, file)}: ${cause}`, 'write-failed', cause);
      }
    }
    await signals.settle();
    return { written, interrupted: signals.received() };
  } finally {
    signals.release();
  }
}

/** How a file that failed was left: a file to create was not created, another not written. */
function notDone(set: WriteSet, file: string): string {
  return set.files.some((f) => f.file === file && f.create !== undefined) ? 'not created' : 'not written';
}

function insideRoots(file: string, roots: string[]): boolean {
  return roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}

/** A file to create may also go in the folder of a file given (lib/runtime/placement.ts places it so). */
function besideRootFile(file: string, roots: string[]): boolean {
  return roots.some((root) => path.dirname(root) === path.dirname(file) && isFile(root));
}

async function readState(file: string): Promise<SourceState> {
  return decodeState(await fsp.readFile(file, 'utf8'));
}

function decodeState(raw: string): SourceState {
  const bom = raw.charCodeAt(0) === 0xfeff;
  return { text: bom ? raw.slice(1) : raw, bom };
}

/** The text of a file the plan creates, when it is already there. */
function readIfExists(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A unified diff of one change (a created file is diffed against /dev/null). */
export function unifiedDiff(change: FileChange): string {
  return createTwoFilesPatch(change.created ? '/dev/null' : `a/${change.rel}`, `b/${change.rel}`, change.before, change.after, '', '', { context: 3 });
}
