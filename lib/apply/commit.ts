/**
 * The two-phase commit of one write set (W-ALL-OR-NOTHING): every file of the set is written, or
 * none is.
 *  1. stage: a temporary file next to every target, with the target's mode;
 *  2. verify: every original still has the text that was scanned and is writable, and every file
 *     to create still does not exist;
 *  3. rename every temporary file over its target. If one rename fails, the targets already
 *     renamed get back the text they had (a created file is deleted), and the failure says so.
 * Temporary files never outlive the call.
 *
 * Synchronous on purpose: a SIGINT/SIGTERM handler can only run once the set is done, so a signal
 * never cuts a set in two; and five thread-pool round trips per file made writing 200 files cost
 * twice what the writes themselves cost (bench/run.ts, write over dry run plus writes).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One file a run changes (or, in a dry run, would change). */
export interface FileChange {
  /** Absolute path. */
  file: string;
  /** Relative to the current directory, as reported. */
  rel: string;
  /** The text that was scanned (BOM stripped); '' for a file the run creates. */
  before: string;
  after: string;
  bom: boolean;
  /** A new file (M-CONTENT-UNTYPED's converter module): nothing may be at its path when it is written. */
  created?: boolean;
}

export interface CommitFailure {
  /** The file that could not be written (absolute). */
  file: string;
  /** Why: `the file is read-only`, an I/O error, and what the rollback did. */
  cause: string;
}

export type CommitOutcome = { ok: true } | { ok: false; failure: CommitFailure };

/**
 * Test seams, never set in a normal run (DEVELOPERS.md, "Test seams"): each is called at one point
 * of the commit, and a throw there is an I/O failure at that point.
 */
export interface CommitSeams {
  /** Before the temporary file of `changes[index]` is written. */
  staging?(change: FileChange, index: number): void;
  /** Every temporary file is written; the originals are not verified yet. */
  staged?(changes: readonly FileChange[]): void;
  /** Before `changes[index]` is renamed over its target (`index` targets are already written). */
  renaming?(change: FileChange, index: number): void;
}

/** Why a file to create is not created. */
export const APPEARED = 'a file of that name appeared after the scan';

interface Staged {
  change: FileChange;
  tmp: string;
  /** The target's mode (a created file keeps the default mode). */
  mode?: number;
}

/** Writes every change of one write set, or none of them. */
export function commitWriteSet(changes: readonly FileChange[], seams: CommitSeams = {}): CommitOutcome {
  const staged: Staged[] = [];
  try {
    for (const [i, change] of changes.entries()) {
      try {
        seams.staging?.(change, i);
        staged.push(stage(change));
      } catch (err) {
        return fail(change, describe(err));
      }
    }
    seams.staged?.(changes);
    for (const { change } of staged) {
      const problem = verify(change);
      if (problem) return fail(change, problem);
    }
    const written: Staged[] = [];
    for (const [i, s] of staged.entries()) {
      try {
        seams.renaming?.(s.change, i);
        put(s);
      } catch (err) {
        return fail(s.change, `${describe(err)}${rollBack(written)}`);
      }
      written.push(s);
    }
    return { ok: true };
  } finally {
    for (const s of staged) rmSync(s.tmp, { force: true });
  }
}

function fail(change: FileChange, cause: string): CommitOutcome {
  return { ok: false, failure: { file: change.file, cause } };
}

function describe(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

function tempPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.migrate-responses.tmp`);
}

function contentOf(text: string, bom: boolean): string {
  return (bom ? '\uFEFF' : '') + text;
}

function stage(change: FileChange): Staged {
  const mode = change.created ? undefined : statSync(change.file).mode & 0o7777;
  const staged: Staged = { change, tmp: tempPath(change.file), mode };
  writeTemp(staged.tmp, contentOf(change.after, change.bom), mode);
  return staged;
}

function writeTemp(tmp: string, content: string, mode: number | undefined): void {
  writeFileSync(tmp, content, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
  if (mode !== undefined) chmodSync(tmp, mode); // the umask may have narrowed the mode given to writeFileSync
}

/** Is the target still as it was scanned, and writable (or, to create, still absent)? */
function verify(change: FileChange): string | undefined {
  if (change.created) {
    try {
      statSync(change.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return describe(err);
    }
    return APPEARED;
  }
  let raw: string;
  let mode: number;
  try {
    raw = readFileSync(change.file, 'utf8');
    mode = statSync(change.file).mode;
  } catch (err) {
    return describe(err);
  }
  const bom = raw.charCodeAt(0) === 0xfeff;
  if ((bom ? raw.slice(1) : raw) !== change.before || bom !== change.bom) return 'the file changed on disk after it was scanned';
  if ((mode & 0o222) === 0) return 'the file is read-only';
  return undefined;
}

/** The staged file takes the target's place; a created file never replaces one that appeared meanwhile. */
function put(s: Staged): void {
  if (!s.change.created) {
    renameSync(s.tmp, s.change.file);
    return;
  }
  try {
    linkSync(s.tmp, s.change.file); // fails if the file exists, where rename would replace it
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(APPEARED);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    renameSync(s.tmp, s.change.file); // a file system without hard links
    return;
  }
  unlinkSync(s.tmp);
}

/** Gives back every written target its old text (or deletes it, when created); says how it went. */
function rollBack(written: Staged[]): string {
  if (!written.length) return '';
  const restored: string[] = [];
  const lost: string[] = [];
  for (const s of [...written].reverse()) {
    try {
      if (s.change.created) unlinkSync(s.change.file);
      else {
        const tmp = tempPath(s.change.file);
        try {
          writeTemp(tmp, contentOf(s.change.before, s.change.bom), s.mode);
          renameSync(tmp, s.change.file);
        } finally {
          rmSync(tmp, { force: true });
        }
      }
      restored.unshift(`${s.change.rel} ${s.change.created ? 'deleted' : 'restored'}`);
    } catch (err) {
      lost.unshift(`${s.change.rel} (${describe(err)})`);
    }
  }
  const parts: string[] = [];
  if (restored.length) parts.push(`rolled back: ${restored.join(', ')}`);
  if (lost.length) parts.push(`could not restore ${lost.join(', ')}: these files hold the new text while the rest of their write set does not`);
  return `; ${parts.join('; ')}`;
}
