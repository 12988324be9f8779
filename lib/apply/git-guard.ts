/** Write mode refuses a dirty git tree for the files it would change, unless --force (exit 2). */
import { execFileSync } from 'node:child_process';
import { UsageError } from '../errors.js';

export function guardGit(cwd: string, files: string[], force: boolean): void {
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
