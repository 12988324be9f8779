#!/usr/bin/env node
/**
 * Export one corpus repository at its pinned commit into bench/out/corpus/<name>/, from a bare git
 * directory (a mirror or a clone), without a work tree and without `git archive` (which aborts on
 * a blob missing from a partial snapshot). Only what the tool and module resolution read is
 * written: source files, .json/.jsonc, .yaml/.yml and .gitignore files. Symlinks and submodules
 * are skipped, so nothing can point out of the tree; a blob absent from the git directory is
 * skipped and listed.
 *
 *   node bench/corpus/export.mjs <name> [--git-dir <dir>] [--out <dir>] [--force]
 *
 * The git directory defaults to $CORPUS_MIRROR/<name>/repo, where CORPUS_MIRROR defaults to
 * /work/.mirror; with a normal clone pass --git-dir <clone>/.git (see DEVELOPERS.md).
 *
 * The export gets its own `git init`, as a clone has its own `.git`: the tool reads `.gitignore`
 * files up to the repository top, and without it the top would be this repository, whose
 * .gitignore ignores bench/out/. Its index lists the exported files (tracked, as in a clone). A
 * summary is written next to the tree, in bench/out/corpus/<name>.export.json; an existing export
 * of the same commit is kept unless --force.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
export const MANIFEST = path.join(HERE, 'manifest.json');
export const OUT_DIR = path.join(REPO, 'bench', 'out', 'corpus');
const MIRROR = process.env.CORPUS_MIRROR || '/work/.mirror';

/** Names exported: TypeScript/JavaScript sources (declaration files included), configuration, ignore files. */
const EXPORTED = /(\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|vue|svelte|astro|json|jsonc|yaml|yml)|(^|\/)\.gitignore)$/;
/** Lock files: large, and read by neither the tool nor module resolution. */
const SKIPPED = /(^|\/)(package-lock\.json|pnpm-lock\.yaml|npm-shrinkwrap\.json)$/;

/** @param {string} name */
export function defaultGitDir(name) {
  return path.join(MIRROR, name, 'repo');
}

/** @returns {Array<{name: string, repo: string, commit: string, kind: string, why: string, root: string}>} */
export function readManifest() {
  return JSON.parse(readFileSync(MANIFEST, 'utf8')).repos;
}

/** A git path that stays inside the export: relative, no empty, `.` or `..` segment, no `.git` segment. */
function safePath(p) {
  if (p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git');
}

/**
 * `git ls-tree -r -z <commit>`: regular files (100644, 100755) whose name is exported. Symlinks
 * (120000) and submodules (160000) are left out.
 */
function listTree(gitDir, commit) {
  const r = spawnSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', '--full-tree', commit], { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ls-tree ${commit} in ${gitDir} failed: ${r.stderr.toString().trim()}`);
  const entries = [];
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid] = rec.slice(0, tab).split(' ');
    const file = rec.slice(tab + 1);
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755')) continue;
    if (!EXPORTED.test(file) || SKIPPED.test(file) || !safePath(file)) continue;
    entries.push({ oid, file });
  }
  return entries;
}

/**
 * Stream every blob through one `git cat-file --batch`, writing each to the paths that hold it.
 * Replies are `<oid> blob <size>\n<content>\n`, or `<oid> missing\n` for an absent object.
 */
function catBlobs(gitDir, byOid, dest) {
  return new Promise((resolve, reject) => {
    const oids = [...byOid.keys()];
    const missing = [];
    let written = 0;
    let bytes = 0;
    const child = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let buf = Buffer.alloc(0);
    let next = 0; // index of the oid whose reply is expected
    /** @type {{ oid: string, size: number } | null} */
    let pending = null;
    const dirs = new Set();
    function write(oid, content) {
      for (const file of byOid.get(oid)) {
        const abs = path.join(dest, file);
        const dir = path.dirname(abs);
        if (!dirs.has(dir)) {
          mkdirSync(dir, { recursive: true });
          dirs.add(dir);
        }
        writeFileSync(abs, content);
        written++;
      }
      bytes += content.length;
    }
    child.stdout.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (;;) {
        if (pending) {
          if (buf.length < pending.size + 1) return;
          write(pending.oid, buf.subarray(0, pending.size));
          buf = buf.subarray(pending.size + 1);
          pending = null;
          next++;
          continue;
        }
        const nl = buf.indexOf(10);
        if (nl < 0) return;
        const header = buf.subarray(0, nl).toString('utf8');
        buf = buf.subarray(nl + 1);
        const parts = header.split(' ');
        if (parts[1] === 'missing') {
          missing.push(...byOid.get(parts[0]));
          next++;
        } else if (parts[1] === 'blob') {
          pending = { oid: parts[0], size: Number(parts[2]) };
        } else {
          reject(new Error(`unexpected git cat-file reply: ${header}`));
          child.kill();
          return;
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || next !== oids.length) reject(new Error(`git cat-file ended with ${code} after ${next}/${oids.length} objects: ${stderr.trim()}`));
      else resolve({ written, bytes, missing: missing.sort() });
    });
    child.stdin.on('error', () => {}); // reported by 'close'
    child.stdin.end(oids.join('\n') + '\n');
  });
}

/**
 * Export `entry` into OUT_DIR/<name>. Returns the summary written to OUT_DIR/<name>.export.json.
 * @param {{ name: string, commit: string }} entry
 * @param {{ gitDir?: string, out?: string, force?: boolean }} [opts]
 */
export async function exportRepo(entry, opts = {}) {
  const gitDir = opts.gitDir ?? defaultGitDir(entry.name);
  const outRoot = opts.out ?? OUT_DIR;
  const dest = path.join(outRoot, entry.name);
  const summaryFile = path.join(outRoot, `${entry.name}.export.json`);
  if (!opts.force && existsSync(summaryFile) && existsSync(dest)) {
    const old = JSON.parse(readFileSync(summaryFile, 'utf8'));
    if (old.commit === entry.commit && old.tracked) return { ...old, reused: true };
  }
  if (!existsSync(gitDir)) throw new Error(`no git directory for ${entry.name} at ${gitDir} (see DEVELOPERS.md)`);
  const t0 = performance.now();
  rmSync(dest, { recursive: true, force: true });
  rmSync(summaryFile, { force: true });
  mkdirSync(dest, { recursive: true });
  const entries = listTree(gitDir, entry.commit);
  /** @type {Map<string, string[]>} */
  const byOid = new Map();
  for (const { oid, file } of entries) {
    const list = byOid.get(oid);
    if (list) list.push(file);
    else byOid.set(oid, [file]);
  }
  const { written, bytes, missing } = await catBlobs(gitDir, byOid, dest);
  const init = spawnSync('git', ['init', '-q', dest]);
  if (init.status !== 0) throw new Error(`git init in ${dest} failed: ${init.stderr.toString().trim()}`);
  // Its index lists the exported files, as a clone's does: the tool scans a tracked file even
  // where a .gitignore pattern names it. The objects themselves stay in the git directory.
  const indexInfo = entries.map(({ oid, file }) => `100644 ${oid}\t${file}\n`).join('');
  const index = spawnSync('git', ['-C', dest, 'update-index', '--add', '--index-info'], { input: indexInfo, maxBuffer: 1 << 30 });
  if (index.status !== 0) throw new Error(`git update-index in ${dest} failed: ${index.stderr.toString().trim()}`);
  const summary = {
    name: entry.name,
    commit: entry.commit,
    gitDir,
    files: written,
    bytes,
    missing,
    tracked: true,
    seconds: Math.round((performance.now() - t0) / 10) / 100,
  };
  writeFileSync(summaryFile, JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

async function main(argv) {
  const args = argv.slice(2);
  const opt = (flag) => {
    const i = args.indexOf(flag);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const gitDir = opt('--git-dir');
  const out = opt('--out');
  const force = args.includes('--force');
  const names = args.filter((a) => a !== '--force');
  if (names.length === 0) {
    console.error('usage: node bench/corpus/export.mjs <name...|--all> [--git-dir <dir>] [--out <dir>] [--force]');
    process.exit(2);
  }
  const manifest = readManifest();
  const wanted = names.includes('--all') ? manifest : names.map((n) => {
    const e = manifest.find((m) => m.name === n);
    if (!e) {
      console.error(`no entry named ${n} in ${MANIFEST}`);
      process.exit(2);
    }
    return e;
  });
  if (gitDir && wanted.length > 1) {
    console.error('--git-dir takes one repository');
    process.exit(2);
  }
  for (const e of wanted) {
    const s = await exportRepo(e, { gitDir, out, force });
    const note = s.reused ? ' (already exported)' : '';
    const miss = s.missing.length ? `, ${s.missing.length} absent blob(s) skipped` : '';
    console.log(`${e.name}: ${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB${miss}${note}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
