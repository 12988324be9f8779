/**
 * `--changed-since <git-ref>`: which files a pull request touches. The whole project is still
 * scanned (clients and imports resolve across files); this module says which files count: those
 * changed between the merge base of the ref and HEAD, plus uncommitted changes (staged, unstaged
 * and untracked files that .gitignore does not exclude). git runs with argument arrays, no shell.
 *
 * Sites that must migrate together (G-UNIT) stay together: a unit with one site in a changed file
 * is kept whole, so a site is never migrated without its siblings. Notices and errors of files
 * outside the scope are dropped with the sites.
 */
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../files.js';
import type { FilePlan } from '../plan.js';

export interface ChangedScope {
  ref: string;
  /** The commit the comparison starts from (`git merge-base <ref> HEAD`). */
  mergeBase: string;
  /** Changed files, relative to the current directory with forward slashes (as the report's). */
  files: Set<string>;
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
}

export function changedScope(cwd: string, ref: string): ChangedScope {
  if (!ref || ref.startsWith('-')) throw new UsageError(`--changed-since: "${ref}" is not a git ref`);
  let top: string;
  try {
    top = git(cwd, ['rev-parse', '--show-toplevel']).trim();
  } catch {
    throw new UsageError(`--changed-since needs a git work tree, and ${cwd} is not inside one`);
  }
  try {
    git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`--changed-since: unknown git ref "${ref}" (a branch, tag or commit; in CI fetch it first, e.g. actions/checkout with fetch-depth: 0)`);
  }
  let mergeBase: string;
  try {
    mergeBase = git(top, ['merge-base', `${ref}^{commit}`, 'HEAD']).trim();
  } catch {
    throw new UsageError(`--changed-since: "${ref}" and HEAD have no merge base (no commit yet, unrelated histories or a shallow clone: fetch with fetch-depth: 0)`);
  }
  // the merge base against the work tree: committed since, staged and unstaged; then untracked
  const tracked = git(top, ['diff', '--name-only', '-z', '--no-renames', mergeBase, '--']).split('\0');
  const untracked = git(top, ['ls-files', '--others', '--exclude-standard', '-z']).split('\0');
  const base = realpathSync(cwd);
  const files = new Set<string>();
  for (const name of [...tracked, ...untracked]) {
    if (name) files.add(path.relative(base, path.join(top, name)).split(path.sep).join('/'));
  }
  return { ref, mergeBase, files };
}

/** Keep the sites of changed files, and every site of a unit that has one (G-UNIT). */
export function scopePlans(plans: FilePlan[], scope: ChangedScope): FilePlan[] {
  const units = new Set<number>();
  for (const plan of plans) for (const site of plan.sites) if (scope.files.has(site.record.file)) units.add(site.unit);
  return plans
    .map((plan) => ({ ...plan, sites: plan.sites.filter((site) => units.has(site.unit)) }))
    .filter((plan) => plan.sites.length > 0);
}
