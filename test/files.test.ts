import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { constants as fsConstants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  UsageError,
  discoverFiles,
  mayContainCallSite,
  readCandidates,
  relativePath,
  type Discovery,
} from '../lib/files.js';

import { readableInstall, removeInstall, unprivilegedProblem, NOBODY } from './helpers/readable-install.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A fresh directory under os.tmpdir(), removed when the test ends. Note: the "no .git ancestor"
 * cases assume os.tmpdir() is not inside a git work tree. */
async function tempDir(t: TestContext): Promise<string> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'mr-files-'));
  t.after(async () => {
    await restorePermissions(base);
    await fs.rm(base, { recursive: true, force: true });
  });
  return base;
}

/** chmod 000 directories would stop a non-root cleanup. */
async function restorePermissions(dir: string): Promise<void> {
  await fs.chmod(dir, 0o755).catch(() => {});
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await restorePermissions(full);
    else if (entry.isFile()) await fs.chmod(full, 0o644).catch(() => {});
  }
}

/** Create files (`'a/b.ts': 'text'`) and empty directories (`'a/c/': null`) under `base`. */
async function writeTree(base: string, tree: Record<string, string | Buffer | null>): Promise<void> {
  for (const [rel, content] of Object.entries(tree)) {
    const full = path.join(base, rel);
    if (content === null) {
      await fs.mkdir(full, { recursive: true });
    } else {
      await fs.mkdir(path.dirname(full), { recursive: true });
      await fs.writeFile(full, content);
    }
  }
}

/** Discovered files relative to `base`, in the order returned (which must already be sorted). */
function rel(discovery: Discovery, base: string): string[] {
  for (const file of discovery.files) assert.ok(path.isAbsolute(file), `not absolute: ${file}`);
  return discovery.files.map((file) => relativePath(base, file));
}

function sorted(list: string[]): string[] {
  return [...list].sort();
}

// ---------------------------------------------------------------------------------------------

test('extensions: exactly SOURCE_EXTENSIONS, never declaration files', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    'a.ts': '', 'b.tsx': '', 'c.mts': '', 'd.cts': '', 'e.js': '', 'f.jsx': '', 'g.mjs': '', 'h.cjs': '',
    'types.d.ts': '', 'm.d.mts': '', 'c.d.cts': '', 'styles.d.css.ts': '',
    'readme.md': '', 'data.json': '', 'UPPER.TS': '', 'a.ts.bak': '', 'noext': '', 'x.d.tsx.txt': '',
    'lib/deep/i.ts': '', 'lib/deep/i.d.ts': '',
  });
  const result = discoverFiles(['.'], base);
  assert.deepEqual(rel(result, base), [
    'a.ts', 'b.tsx', 'c.mts', 'd.cts', 'e.js', 'f.jsx', 'g.mjs', 'h.cjs', 'lib/deep/i.ts',
  ]);
  assert.deepEqual(result.errors, []);
});

test('default ignored directories are never entered, at any depth', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    'src/index.ts': '',
    'src/pkg/node_modules/dep/index.js': '',
    'src/pkg/deep/er/node_modules/x.ts': '',
    'node_modules/top.js': '',
    'dist/out.js': '',
    'src/dist/inner.js': '',
    'build/b.js': '',
    'coverage/c.js': '',
    '.next/n.js': '',
    'src/distance/d.ts': '',
    'src/dist.ts': '',
    'src/node_modules.ts': '',
  });
  const result = discoverFiles(['.'], base);
  assert.deepEqual(rel(result, base), ['src/dist.ts', 'src/distance/d.ts', 'src/index.ts', 'src/node_modules.ts']);
});

test('a directory named as a root is walked even if its name is a default ignore', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, { 'dist/a.js': '', 'dist/node_modules/b.js': '', 'src/c.ts': '' });
  const result = discoverFiles(['dist'], base);
  assert.deepEqual(rel(result, base), ['dist/a.js']);
});

test('.gitignore: nested files, anchoring, negations, deeper files override', async (t) => {
  // Expected list cross-checked with `git ls-files --others --exclude-standard` on the same tree.
  const base = await tempDir(t);
  await writeTree(base, {
    '.gitignore': '*.gen.ts\n!keep.gen.ts\n/secret.ts\ngenerated/\nlogs\n# comment.ts\n',
    'a.ts': '', 'x.gen.ts': '', 'keep.gen.ts': '', 'secret.ts': '', '# comment.ts': '',
    'sub/.gitignore': 'local/\n!other.gen.ts\n*.tmp.js\n',
    'sub/secret.ts': '', 'sub/y.gen.ts': '', 'sub/other.gen.ts': '', 'sub/local/l.ts': '', 'sub/z.tmp.js': '',
    'local/l.ts': '', 'z.tmp.js': '',
    'generated/g.ts': '',
    'logs/l.ts': '',
    // a deeper .gitignore re-includes a directory the top one excludes
    'pkg/.gitignore': '!generated/\n',
    'pkg/generated/g.ts': '', 'pkg/generated/h.gen.ts': '',
  });
  const result = discoverFiles(['.'], base);
  assert.deepEqual(rel(result, base), [
    '# comment.ts',
    'a.ts',
    'keep.gen.ts',
    'local/l.ts',
    'pkg/generated/g.ts',
    'sub/other.gen.ts',
    'sub/secret.ts',
    'z.tmp.js',
  ]);
  assert.deepEqual(result.errors, []);
});

test('.gitignore in ancestors applies up to the git work-tree top, not above it', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    '.gitignore': '*.ts\n', // above the work tree: must not apply
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/.gitignore': '*.gen.ts\n/packages/app/src/legacy/\ndrafts/\n',
    'repo/packages/.gitignore': 'draft.ts\n',
    'repo/packages/app/src/.gitignore': '!keep.gen.ts\n',
    'repo/packages/app/src/index.ts': '',
    'repo/packages/app/src/x.gen.ts': '',
    'repo/packages/app/src/keep.gen.ts': '',
    'repo/packages/app/src/draft.ts': '',
    'repo/packages/app/src/legacy/old.ts': '',
    'repo/packages/app/src/drafts/d.ts': '',
    'repo/packages/app/src/sub/ok.ts': '',
    // a nested work tree starts afresh: the outer .gitignore files do not apply inside it
    'repo/packages/app/src/embedded/.git/HEAD': '',
    'repo/packages/app/src/embedded/y.gen.ts': '',
  });
  const cwd = path.join(base, 'repo');
  const result = discoverFiles(['packages/app/src'], cwd);
  assert.deepEqual(rel(result, cwd), [
    'packages/app/src/embedded/y.gen.ts',
    'packages/app/src/index.ts',
    'packages/app/src/keep.gen.ts',
    'packages/app/src/sub/ok.ts',
  ]);

  // A directory the ancestors exclude is still walked when named as a root; the rules below it still apply.
  await writeTree(base, { 'repo/packages/app/src/legacy/old.gen.ts': '' });
  const legacy = discoverFiles(['packages/app/src/legacy'], cwd);
  assert.deepEqual(rel(legacy, cwd), ['packages/app/src/legacy/old.ts']);
});

test('.gitignore: without a .git ancestor only the root and nested files apply', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    'norepo/.gitignore': '*.ts\n',
    'norepo/sub/.gitignore': 'b.ts\n',
    'norepo/sub/a.ts': '',
    'norepo/sub/b.ts': '',
    'norepo/c.js': '',
  });
  assert.deepEqual(rel(discoverFiles(['norepo/sub'], base), base), ['norepo/sub/a.ts']);
  assert.deepEqual(rel(discoverFiles(['norepo'], base), base), ['norepo/c.js']);
});
test('.gitignore leaves tracked files in, as git does (a committed /backend, a hand-written .js), but not below a default ignore', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    '.gitignore': '/backend\n*.js\nscratch/\n',
    'src/app.ts': '',
    'src/legacy.js': '', // tracked although *.js is ignored
    'src/app.js': '', // untracked build output: stays ignored
    'backend/services/openai.js': '',
    'backend/services/note.vue': '',
    'backend/node_modules/openai/index.js': '', // committed dependencies: still a default ignore
    'backend/untracked.ts': '',
    'scratch/tracked.ts': '',
    'scratch/deleted.ts': '',
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: base, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-f', 'src/app.ts', 'src/legacy.js', 'backend/services', 'backend/node_modules', 'scratch/tracked.ts', 'scratch/deleted.ts');
  await fs.rm(path.join(base, 'scratch/deleted.ts'));
  const result = discoverFiles(['.'], base);
  assert.deepEqual(rel(result, base), ['backend/services/openai.js', 'scratch/tracked.ts', 'src/app.ts', 'src/legacy.js']);
  assert.deepEqual(result.components.map((f) => relativePath(base, f)), ['backend/services/note.vue']);
  // a root below the work tree's top: the tracked files under it only
  assert.deepEqual(rel(discoverFiles(['src'], base), base), ['src/app.ts', 'src/legacy.js']);
});


test('a file root is included when it has a source extension, even if .gitignore excludes it', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    'src/.gitignore': 'one.ts\n',
    'src/one.ts': '', 'src/two.ts': '', 'src/types.d.ts': '', 'README.md': '',
  });
  assert.deepEqual(rel(discoverFiles(['src/one.ts'], base), base), ['src/one.ts']);
  assert.deepEqual(rel(discoverFiles([path.join(base, 'src', 'one.ts')], '/'), base), ['src/one.ts']);
  assert.deepEqual(rel(discoverFiles(['src/types.d.ts', 'README.md'], base), base), []);
  assert.deepEqual(rel(discoverFiles(['src'], base), base), ['src/two.ts']);
});

test('a missing root is a UsageError naming the path as given', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, { 'src/a.ts': '' });
  assert.throws(() => discoverFiles(['src', './nope'], base), (err: unknown) => {
    assert.ok(err instanceof UsageError, `expected UsageError, got ${String(err)}`);
    assert.equal(err.message, 'path not found: ./nope');
    return true;
  });
  assert.throws(() => discoverFiles(['src/a.ts/x'], base), { name: 'UsageError', message: 'path not found: src/a.ts/x' });
});

test('overlapping roots yield each file once', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, { 'src/a/x.ts': '', 'src/a/y.ts': '', 'src/b.ts': '' });
  const expected = ['src/a/x.ts', 'src/a/y.ts', 'src/b.ts'];
  assert.deepEqual(rel(discoverFiles(['src', 'src/a'], base), base), expected);
  assert.deepEqual(rel(discoverFiles(['src/a', 'src', 'src/b.ts', './src/'], base), base), expected);
  assert.deepEqual(rel(discoverFiles(['src/a/x.ts', 'src/a'], base), base), ['src/a/x.ts', 'src/a/y.ts']);
});

test('symlinks: followed inside the roots only; loops terminate; each file once', { timeout: 10_000 }, async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    'src/real/a.ts': '',
    'src/store/impl.txt': '',
    'outside/o.ts': '',
    'outside/dir/p.ts': '',
  });
  const link = (target: string, at: string) => fs.symlink(target, path.join(base, at));
  await link('store/impl.txt', 'src/linked.ts'); // file inside the root: followed, named by the link
  await link('real', 'src/alias'); // dir inside the root: same real files, reported once, by the real path
  await link('real/a.ts', 'src/dup.ts'); // file inside: same real file as src/real/a.ts
  await link('../outside', 'src/out'); // dir outside: not followed
  await link('../outside/o.ts', 'src/o.ts'); // file outside: not followed
  await link('..', 'src/real/up'); // loop back to the root
  await link('.', 'src/real/here'); // loop to itself
  await link('self.ts', 'src/self.ts'); // a link to itself (ELOOP)
  await link('missing.ts', 'src/dangling.ts'); // dangling
  const result = discoverFiles(['src'], base);
  assert.deepEqual(rel(result, base), ['src/linked.ts', 'src/real/a.ts']);
  assert.deepEqual(result.errors, []);

  // With the outside directory as a second root, the link into it is inside a root and is followed,
  // but its files were already found through that root.
  const both = discoverFiles(['src', 'outside'], base);
  assert.deepEqual(rel(both, base), ['outside/dir/p.ts', 'outside/o.ts', 'src/linked.ts', 'src/real/a.ts']);
});

test('symlinks: a linked directory is walked under the link path; two links to one directory, once', async (t) => {
  // Only a directory the walk skips (here a .gitignore'd one) can be reached through a link alone.
  const base = await tempDir(t);
  await writeTree(base, { 'src/.gitignore': 'cache/\n', 'src/cache/shared/s.ts': '', 'src/cache/shared/t.d.ts': '', 'src/main.ts': '' });
  await fs.symlink('cache/shared', path.join(base, 'src/zz'));
  await fs.symlink('cache/shared', path.join(base, 'src/s2'));
  await fs.symlink('zz', path.join(base, 'src/s1')); // a link to a link
  const result = discoverFiles(['src'], base);
  // The links are claimed in path order, so the first in order reports the directory.
  assert.deepEqual(rel(result, base), ['src/main.ts', 'src/s1/s.ts']);
});

test('a symlinked root is walked; files are reported under the path given', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, { 'pkgs/real/a.ts': '', 'pkgs/real/inner/b.ts': '' });
  await fs.symlink('pkgs/real', path.join(base, 'current'));
  assert.deepEqual(rel(discoverFiles(['current'], base), base), ['current/a.ts', 'current/inner/b.ts']);
  assert.deepEqual(rel(discoverFiles(['current', 'pkgs/real'], base), base), [
    'current/a.ts',
    'current/inner/b.ts',
  ]);
});

test('paths with spaces and non-ASCII characters', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, {
    'dossier été/ä b.ts': 'import OpenAI from "openai";\n',
    'dossier été/brouillon é.ts': '',
    'dossier été/.gitignore': 'brouillon é.ts\n',
    'dossier été/sous dossier/日本語.mjs': '',
  });
  const result = discoverFiles(['dossier été'], base);
  assert.deepEqual(rel(result, base), ['dossier été/sous dossier/日本語.mjs', 'dossier été/ä b.ts']);
  const read = await readCandidates(result.files, base);
  assert.deepEqual(read.candidates.map((c) => relativePath(base, c.path)), ['dossier été/ä b.ts']);
  assert.equal(read.read, 2);
});

// ---------------------------------------------------------------------------------------------
// Unreadable directories and files

const UNREADABLE_TREE = {
  'src/ok.ts': 'const openai = 1;\n',
  'src/locked/hidden.ts': '',
  'src/after/z.ts': '',
  'src/secret.ts': 'const openai = 2;\n',
};

test('an unreadable directory is reported and the walk goes on (chmod 000, in process)', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, UNREADABLE_TREE);
  await fs.chmod(path.join(base, 'src/locked'), 0o000);
  const readable = await fs.access(path.join(base, 'src/locked'), fsConstants.R_OK).then(() => true, () => false);
  if (readable) {
    t.skip('running as root: chmod 000 does not stop root from reading (the next test runs as nobody)');
    return;
  }
  const result = discoverFiles(['src'], base);
  assert.deepEqual(rel(result, base), ['src/after/z.ts', 'src/ok.ts', 'src/secret.ts']);
  assert.deepEqual(result.errors, [
    { file: 'src/locked', message: 'cannot read directory: permission denied (EACCES)' },
  ]);
});

/**
 * Root reads everything, so as root the unreadable cases run in a child process that drops to the
 * `nobody` user (uid 65534); otherwise the child runs as the current user, who cannot read 000 either.
 * The child loads the built module (dist/lib/files.js): as `nobody`, from a copy of the built tool
 * that every user can read (the checkout itself may not be, helpers/readable-install.ts).
 */
function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy.NODE_TEST_CONTEXT; // set by the test runner for its own children
  return copy;
}

async function runUnprivileged(
  t: TestContext,
  base: string,
  roots: string[],
): Promise<{ discovery: Discovery; read: { candidates: string[]; errors: unknown[]; read: number } } | undefined> {
  const asRoot = process.getuid?.() === 0;
  const install = asRoot ? readableInstall() : REPO_ROOT;
  if (asRoot) t.after(() => removeInstall(install));
  const problem = unprivilegedProblem(install);
  if (problem) {
    t.skip(problem);
    return undefined;
  }
  const filesModule = path.join(install, 'dist', 'lib', 'files.js');
  const script = `
    const { discoverFiles, readCandidates } = await import(${JSON.stringify(pathToFileURL(filesModule).href)});
    const { base, roots } = JSON.parse(process.env.MR_FILES_TEST);
    const discovery = discoverFiles(roots, base);
    const read = await readCandidates(discovery.files, base);
    process.stdout.write(JSON.stringify({ discovery, read: { ...read, candidates: read.candidates.map((c) => c.path) } }));
  `;
  if (asRoot) await fs.chmod(base, 0o755); // mkdtemp makes it 0700
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: install,
    env: { ...withoutTestContext(process.env), MR_FILES_TEST: JSON.stringify({ base, roots }) },
    ...(asRoot ? NOBODY : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const outcome = await new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  });
  assert.equal(outcome.code, 0, `child failed: ${outcome.error?.message ?? ''}\n${stderr}`);
  return JSON.parse(stdout);
}

test('an unreadable directory and an unreadable file, as an unprivileged user', async (t) => {
  const base = await tempDir(t);
  await writeTree(base, UNREADABLE_TREE);
  await fs.chmod(path.join(base, 'src/locked'), 0o000);
  await fs.chmod(path.join(base, 'src/secret.ts'), 0o000);
  const out = await runUnprivileged(t, base, ['src']);
  if (!out) return;
  assert.deepEqual(rel(out.discovery, base), ['src/after/z.ts', 'src/ok.ts', 'src/secret.ts']);
  assert.deepEqual(out.discovery.errors, [
    { file: 'src/locked', message: 'cannot read directory: permission denied (EACCES)' },
  ]);
  assert.deepEqual(out.read.candidates.map((p) => relativePath(base, p)), ['src/ok.ts']);
  assert.deepEqual(out.read.errors, [{ file: 'src/secret.ts', message: 'cannot read file: permission denied (EACCES)' }]);
  assert.equal(out.read.read, 2);
});

// ---------------------------------------------------------------------------------------------
// Prefilter and reading

const READ_WAYS = [undefined, 'in-turn', 'concurrent'] as const;

test('mayContainCallSite: openai (any case), completions, createChatCompletion', () => {
  const yes = [
    'import OpenAI from "openai";',
    'const { OpenAI } = require("openai")',
    'OPENAI_API_KEY',
    'client.chat.completions.create({})',
    'await api.createChatCompletion({ model })',
    'new AzureOpenAI()',
  ];
  const no = [
    '',
    'import Anthropic from "@anthropic-ai/sdk";',
    'const completion = await llm.create()',
    'open ai',
    'chat.Completions.create', // only `openai` is case-insensitive
    'createchatcompletion',
    'open\nai',
  ];
  assert.deepEqual(yes.filter((s) => !mayContainCallSite(s)), []);
  assert.deepEqual(no.filter((s) => mayContainCallSite(s)), []);
});

for (const way of READ_WAYS) {
test(`readCandidates (${way ?? 'adaptive'}): prefilter, BOM, invalid UTF-8, binary files, read count`, async (t) => {
  const base = await tempDir(t);
  const nulBinary = Buffer.concat([Buffer.from([0x47, 0x00, 0x11, 0x10, 0xff]), Buffer.alloc(300, 0x00)]);
  const binaryMentioningOpenAI = Buffer.concat([Buffer.from('\u0000\u0001 openai '), Buffer.from([0xff, 0xfe])]);
  await writeTree(base, {
    'plain.ts': 'import OpenAI from "openai";\nconst c = new OpenAI();\n',
    'bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('client.chat.completions.create({});\n')]),
    'double-bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('openai')]),
    'unrelated.ts': 'export const x = 1;\n',
    'bom-unrelated.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export {};\n')]),
    'latin1.ts': Buffer.concat([Buffer.from('// caf'), Buffer.from([0xe9]), Buffer.from('\nexport {};\n')]),
    'video.ts': nulBinary,
    'bin-openai.ts': binaryMentioningOpenAI,
    'utf8.ts': '// été — 日本語\nopenai.chat.completions.create();\n',
    // UTF-16 with a byte order mark (TypeScript reads it): listed when it may hold a call site, else passed over
    'utf16-types.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export type Json = string;\n', 'utf16le')]),
    'utf16-openai.ts': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('openai.chat.completions.create();\n', 'utf16le').swap16()]),
  });
  const names = ['plain.ts', 'bom.ts', 'double-bom.ts', 'unrelated.ts', 'bom-unrelated.ts', 'latin1.ts', 'video.ts', 'bin-openai.ts', 'utf8.ts', 'utf16-types.ts', 'utf16-openai.ts'];
  const result = await readCandidates(names.map((n) => path.join(base, n)), base, { way });
  assert.deepEqual(
    result.candidates.map((c) => ({ file: relativePath(base, c.path), bom: c.bom, text: c.text })),
    [
      { file: 'plain.ts', bom: false, text: 'import OpenAI from "openai";\nconst c = new OpenAI();\n' },
      { file: 'bom.ts', bom: true, text: 'client.chat.completions.create({});\n' },
      { file: 'double-bom.ts', bom: true, text: '\ufeffopenai' },
      { file: 'utf8.ts', bom: false, text: '// été — 日本語\nopenai.chat.completions.create();\n' },
    ],
  );
  assert.deepEqual(result.errors, [
    { file: 'latin1.ts', message: 'not valid UTF-8' },
    { file: 'video.ts', message: 'binary file (NUL bytes), skipped' },
    { file: 'bin-openai.ts', message: 'binary file (NUL bytes), skipped' },
    { file: 'utf16-openai.ts', message: 'UTF-16 file that may hold a call site, not scanned: convert it to UTF-8 first' },
  ]);
  assert.equal(result.read, names.length);
});

test(`readCandidates (${way ?? 'adaptive'}): a missing file is an error, not a crash; many files keep their order`, async (t) => {
  const base = await tempDir(t);
  const tree: Record<string, string> = {};
  for (let i = 0; i < 700; i++) tree[`f${String(i).padStart(3, '0')}.ts`] = i % 3 === 0 ? `openai ${i}` : `x ${i}`;
  await writeTree(base, tree);
  const files = Object.keys(tree).map((n) => path.join(base, n));
  files.splice(10, 0, path.join(base, 'gone.ts'));
  const result = await readCandidates(files, base, { way });
  const expected = Object.keys(tree).filter((_, i) => i % 3 === 0);
  assert.deepEqual(result.candidates.map((c) => relativePath(base, c.path)), expected);
  assert.deepEqual(result.candidates.map((c) => c.text), expected.map((n) => `openai ${Number(n.slice(1, 4))}`));
  assert.deepEqual(result.errors, [{ file: 'gone.ts', message: 'cannot read file: no such file or directory (ENOENT)' }]);
  assert.equal(result.read, 700);
});

test(`readCandidates (${way ?? 'adaptive'}): large files, then small ones, read whole and nothing left over`, async (t) => {
  const base = await tempDir(t);
  const large = `// openai\n${'x'.repeat(300_000)}\n`;
  await writeTree(base, { 'a-large.ts': large, 'b-small.ts': 'openai small', 'c-larger.ts': `openai ${'y'.repeat(700_000)}`, 'd-tiny.ts': 'openai', 'dir.ts/x.ts': '' });
  const names = ['a-large.ts', 'b-small.ts', 'c-larger.ts', 'd-tiny.ts', 'dir.ts'];
  const result = await readCandidates(names.map((n) => path.join(base, n)), base, { way });
  assert.deepEqual(result.candidates.map((c) => c.text), [large, 'openai small', `openai ${'y'.repeat(700_000)}`, 'openai']);
  assert.deepEqual(result.errors, [{ file: 'dir.ts', message: 'cannot read file: is a directory (EISDIR)' }]);
});
}

test('relativePath: forward slashes, no leading ./', () => {
  assert.equal(relativePath('/a/b', '/a/b/c/d.ts'), 'c/d.ts');
  assert.equal(relativePath('/a/b', '/a/x.ts'), '../x.ts');
  assert.equal(relativePath('/a/b', '/a/b'), '.');
  assert.equal(relativePath('/a/b/', '/a/b/é z.ts'), 'é z.ts');
});

test('discovery of a larger tree is sorted and complete', async (t) => {
  const base = await tempDir(t);
  const tree: Record<string, string> = {};
  const expected: string[] = [];
  for (let d = 0; d < 20; d++) {
    for (let f = 0; f < 25; f++) {
      const name = `pkg${d}/src/m${f}.${f % 2 ? 'ts' : 'js'}`;
      tree[name] = '';
      expected.push(name);
      tree[`pkg${d}/node_modules/dep${f}/index.js`] = '';
    }
  }
  await writeTree(base, tree);
  const result = discoverFiles(['.'], base);
  assert.deepEqual(rel(result, base), sorted(expected));
  assert.deepEqual(result.files, sorted(result.files));
});
