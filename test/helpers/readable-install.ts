/**
 * Tests that run the tool as an unprivileged user (`nobody`, when the suite runs as root) cannot
 * run it from the checkout: a clone under /root or in a `mktemp -d` folder (mode 0700) is not
 * readable by other users. They run it from a copy every user can read instead: the built tool
 * (`dist/`, `package.json`) and the production packages of the lockfile, in a folder under
 * os.tmpdir() with directories 0755 and files 0644 (0755 when executable); a file others can
 * already read is hard-linked rather than copied when it can be. `npm test` builds `dist/` first.
 *
 * When even that cannot work (the Node.js binary or os.tmpdir() is out of the other user's reach,
 * or switching users is not allowed), `unprivilegedProblem` says why, and the caller skips with
 * that reason.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './fixtures.js';

export const NOBODY = { uid: 65534, gid: 65534 };

interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
}

function tryLink(source: string, target: string): boolean {
  try {
    linkSync(source, target);
    return true;
  } catch {
    return false; // another file system (EXDEV), or links not allowed: copy instead
  }
}

/** Copy a tree, readable by everyone; `skip` names entries (by base name) not to descend into. */
function copyReadable(from: string, to: string, skip: Set<string> = new Set()): void {
  mkdirSync(to, { recursive: true });
  chmodSync(to, 0o755);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      copyReadable(source, target);
    } else if (entry.isSymbolicLink()) {
      symlinkSync(readlinkSync(source), target);
    } else if (entry.isFile()) {
      const mode = statSync(source).mode;
      // a file others can already read is linked (no copy); only its folders were out of reach
      if ((mode & 0o004) && tryLink(source, target)) continue;
      copyFileSync(source, target);
      chmodSync(target, mode & 0o100 ? 0o755 : 0o644);
    }
  }
}

/**
 * A readable copy of the built tool and its production dependencies; returns its root (the
 * counterpart of REPO). The caller removes it (`rmSync(dir, { recursive: true, force: true })`).
 */
export function readableInstall(): string {
  const dist = path.join(REPO, 'dist');
  if (!existsSync(path.join(dist, 'bin', 'migrate-responses.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const root = mkdtempSync(path.join(os.tmpdir(), 'mr-readable-'));
  chmodSync(root, 0o755); // mkdtemp makes it 0700
  copyFileSync(path.join(REPO, 'package.json'), path.join(root, 'package.json'));
  chmodSync(path.join(root, 'package.json'), 0o644);
  copyReadable(dist, path.join(root, 'dist'));
  const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/') || entry.dev || entry.devOptional) continue;
    const source = path.join(REPO, key);
    if (!existsSync(source)) continue; // an optional package for another platform
    // nested packages are entries of their own (and may be dev-only)
    copyReadable(source, path.join(root, key), new Set(['node_modules']));
  }
  return root;
}

/**
 * Why a process cannot run as `nobody` from `dir` here, or undefined when it can (or when the
 * suite does not run as root, and the child simply runs as the current user).
 */
export function unprivilegedProblem(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const probe = spawnSync(process.execPath, ['-e', 'require(process.argv[1])', path.join(dir, 'package.json')], {
    cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: os.tmpdir() }, ...NOBODY,
  });
  if (probe.error) return `cannot run ${process.execPath} as nobody (uid 65534): ${probe.error.message}`;
  if (probe.status !== 0) {
    const lines = probe.stderr.trim().split('\n');
    const why = lines.find((l) => /^\w*Error\b|EACCES|EPERM/.test(l.trim())) ?? lines[0] ?? `exit ${probe.status}`;
    return `nobody (uid 65534) cannot run ${process.execPath} or read ${dir}: ${why.trim()}`;
  }
  return undefined;
}

export function removeInstall(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
