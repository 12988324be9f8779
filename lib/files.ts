/**
 * File discovery (README "Using it"): roots → source files (extensions, default ignores,
 * `.gitignore`, symlinks kept inside the roots) → candidates (read once, cheap text prefilter).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFile as readFileCallback, readFileSync, readSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { COMPONENT_EXTENSIONS, DEFAULT_IGNORED_DIRS, SOURCE_EXTENSIONS } from './options.js';
import { UsageError } from './errors.js';

export { UsageError };

export interface DiscoveryError {
  /** Relative to cwd, forward slashes. */
  file: string;
  message: string;
}

export interface Discovery {
  /** every source file under the roots after ignores, absolute paths, sorted, each once */
  files: string[];
  /** the component files (.vue, .svelte, .astro) under the roots after ignores, the same way */
  components: string[];
  /** the project's own declaration files (.d.ts, .d.mts, .d.cts) under the roots after ignores */
  declarations: string[];
  /** unreadable directories etc.; discovery continues past them */
  errors: DiscoveryError[];
}

export interface SourceText {
  path: string;
  text: string;
  bom: boolean;
}

export interface ReadResult {
  candidates: SourceText[];
  errors: DiscoveryError[];
  read: number;
}

/** How much of a file is looked at for a NUL byte to call it binary. */
const BINARY_SNIFF_BYTES = 8192;

const SOURCE_EXTENSION_SET: ReadonlySet<string> = new Set(SOURCE_EXTENSIONS);
const COMPONENT_EXTENSION_SET: ReadonlySet<string> = new Set(COMPONENT_EXTENSIONS);
const IGNORED_DIR_SET: ReadonlySet<string> = new Set(DEFAULT_IGNORED_DIRS);

/**
 * git's `core.ignorecase` defaults to true on the case-insensitive file systems of macOS and
 * Windows and to false elsewhere; the `ignore` package defaults to true everywhere.
 */
const IGNORE_OPTIONS = { ignorecase: process.platform === 'darwin' || process.platform === 'win32' };

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Path relative to `cwd`, forward slashes, no leading `./` (`.` for cwd itself). */
export function relativePath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === '') return '.';
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/**
 * A call site needs `completions` (the SDK chain or the URL) or `createChatCompletion` (v3); a
 * client needs the `openai` module specifier (always lower case) or a class name spelled `OpenAI`.
 * Plain substring searches (ASCII words), in one pass: this runs on every file.
 */
const PREFILTER_WORDS = ['completions', 'openai', 'OpenAI', 'OPENAI', 'createChatCompletion'];
const PREFILTER_PATTERN = new RegExp(PREFILTER_WORDS.join('|'));

/**
 * Among the candidates, the files that can hold a call site themselves (the SDK chain, the URL,
 * v3's method and a batch's `batches.create` all contain one of these words); the others can only define clients, helpers or
 * base classes, and are read when a site's file imports them.
 */
const SITE_PATTERN = /completions|createChatCompletion|batches/;

export function mayHoldCallSite(text: string): boolean {
  return SITE_PATTERN.test(text);
}

/**
 * The text calls something a site can be: `completions.create(` (also split over lines, optional,
 * element access), `createChatCompletion(`, `batches.create(`, or names the endpoint (raw HTTP; the SDK's module path
 * `openai/resources/chat/completions` is not the endpoint); or it holds a completions resource
 * (`const completions0 = client.chat.completions`, `const { completions } = client.chat`), whose
 * calls (`completions0.create(`) do not spell `completions.create`.
 */
export function callsSomething(text: string): boolean {
  return /completions[\s'"\][?.]{0,40}(create|parse|stream|runTools|runFunctions)[\s'"\]?.]{0,8}\(|createChatCompletion\s*\(|batches[\s'"\]?.]{0,8}create[\s'"\]?.]{0,8}\(|(?<!resources\/)chat\/completions|=\s*[\w$.?!]+\.completions\s*(?:;|\r?\n|$)|\{[^{}]*\bcompletions\b[^{}]*\}\s*=/.test(text);
}

/** The cheap text prefilter: false means the file cannot contain an OpenAI chat call site or client. */
export function mayContainCallSite(text: string): boolean {
  return PREFILTER_PATTERN.test(text);
}

/**
 * The same test on the bytes, before any decoding. Read as latin1 (one character per byte, a plain
 * copy) the ASCII words match exactly where they are in the bytes; one regular expression over
 * that costs less than half of five Buffer.includes passes (17 against 40 ms on the 10k bench tree).
 */
export function mayContainCallSiteBytes(bytes: Buffer): boolean {
  return PREFILTER_PATTERN.test(bytes.toString('latin1'));
}

/** A source file by name: one of SOURCE_EXTENSIONS and not a declaration file, as TypeScript sees it. */
function isSourceName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || !SOURCE_EXTENSION_SET.has(name.slice(dot))) return false;
  // TypeScript's isDeclarationFileName: `.d.ts`, `.d.mts`, `.d.cts`, and `x.d.<ext>.ts`
  // (declarations for arbitrary extensions, e.g. `styles.d.css.ts`).
  return !(name.includes('.d.') && (name.endsWith('.ts') || /\.d\.[mc]ts$/.test(name)));
}

/** A single-file component by name (COMPONENT_EXTENSIONS). */
function isComponentName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && COMPONENT_EXTENSION_SET.has(name.slice(dot));
}

/** The spellings of a call site in a component's text (the SDK chain, the endpoint, v3's method). */
const COMPONENT_SITE_PATTERN = /chat\s*\??\.\s*completions|chat\/completions|createChatCompletion/;

/** A component that mentions Chat Completions: the tool cannot scan it, so it is listed, never dropped. */
export function componentMentionsChat(text: string): boolean {
  return COMPONENT_SITE_PATTERN.test(text);
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** Whether a path is `rootReal` or lies below it. */
export function isInside(real: string, rootReal: string): boolean {
  if (real === rootReal) return true;
  const prefix = rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep;
  return real.startsWith(prefix);
}

const ERROR_TEXT: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string') {
    const text = ERROR_TEXT[e.code];
    return text ? `${text} (${e.code})` : e.code;
  }
  return e instanceof Error ? e.message : String(err);
}

function errorCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

// ---------------------------------------------------------------------------------------------
// .gitignore, the way git applies it
//
// While walking, every directory we are in is known not to be excluded, so only the entry itself
// has to be decided. git checks the `.gitignore` files from the deepest to the shallowest; within
// one file the last matching pattern wins; the first file with a matching pattern decides.
//
// The `ignore` package also answers "ignored" when one of the path's parent directories is ignored
// by the same file. That is right within one file, but wrong when a deeper `.gitignore` re-included
// that directory (`generated/` at the top, `!generated/` in `pkg/`): git then matches the children
// against the top file's patterns directly. For that rare case the level gets a copy of its rules
// with anchored negations of the re-included directories appended, which restores direct matching.

interface IgnoreLevel {
  /** The `.gitignore` text. */
  patterns: string;
  ig: Ignore;
  /** From the `.gitignore`'s directory to the current directory: `''` or `a/b/`. */
  prefix: string;
  /** Anchored negations of re-included directories (see above), when there are any. */
  rescued: string[] | null;
}

/** Deepest level first. */
type IgnoreContext = readonly IgnoreLevel[];

const NO_MATCH = { ignored: false, unignored: false } as const;

function testPath(ig: Ignore, rel: string): { ignored: boolean; unignored: boolean } {
  try {
    return ig.test(rel);
  } catch {
    // A name `ignore` refuses as a path cannot be matched by a pattern either.
    return NO_MATCH;
  }
}

function withIgnoreFile(ctx: IgnoreContext, text: string): IgnoreContext {
  if (text.trim() === '') return ctx;
  return [{ patterns: text, ig: ignore(IGNORE_OPTIONS).add(text), prefix: '', rescued: null }, ...ctx];
}

function isIgnored(ctx: IgnoreContext, name: string, isDir: boolean): boolean {
  for (const level of ctx) {
    const result = testPath(level.ig, level.prefix + name + (isDir ? '/' : ''));
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/** Escape a path so that a gitignore pattern matches it literally. */
function escapePattern(rel: string): string {
  return rel.replace(/[\\*?[\]!# ]/g, '\\$&');
}

/** The context inside the child directory `name` (which the walk decided to enter). */
function descend(ctx: IgnoreContext, name: string): IgnoreContext {
  if (ctx.length === 0) return ctx;
  return ctx.map((level) => {
    const prefix = level.prefix + name + '/';
    if (!testPath(level.ig, prefix).ignored) return { ...level, prefix };
    const rescued = [...(level.rescued ?? []), '!/' + escapePattern(prefix)];
    return { patterns: level.patterns, ig: ignore(IGNORE_OPTIONS).add(level.patterns).add(rescued), prefix, rescued };
  });
}

// ---------------------------------------------------------------------------------------------
// Discovery

interface PendingLink {
  abs: string;
  name: string;
  /** The ignore context of the directory the link is in. */
  ctx: IgnoreContext;
}

interface WalkState {
  cwd: string;
  errors: DiscoveryError[];
  /** real path → first path found */
  files: Map<string, string>;
  /** the same, for component files */
  components: Map<string, string>;
  /** the same, for declaration files */
  declarations: Map<string, string>;
  /** real paths of directories entered (or claimed to be entered) */
  visited: Set<string>;
  /** symlinks (and entries of unknown type) to resolve once the plain walk is done */
  pending: PendingLink[];
  /** real paths of the roots: a symlink is followed only to inside one of these */
  rootReals: string[];
  /** git work-tree top → the entries a `.gitignore` excluded there (paths relative to the top) */
  gitIgnored: Map<string, string[]>;
}

function addFile(state: WalkState, abs: string, real: string): void {
  if (!state.files.has(real)) state.files.set(real, abs);
}

/** A source file goes to the files, a component file to the components; anything else is left. */
function addNamed(state: WalkState, name: string, abs: string, real: string): void {
  if (isSourceName(name)) addFile(state, abs, real);
  else if (isComponentName(name) && !state.components.has(real)) state.components.set(real, abs);
  else if (isDeclarationName(name) && !state.declarations.has(real)) state.declarations.set(real, abs);
}

/** A TypeScript declaration file by name (`.d.ts`, `.d.mts`, `.d.cts`). */
function isDeclarationName(name: string): boolean {
  return /\.d\.(ts|mts|cts)$/.test(name);
}

/** A file discovery lists: a source, a component or a declaration file (addNamed sorts them). */
function isListedName(name: string): boolean {
  return isSourceName(name) || isComponentName(name) || isDeclarationName(name);
}

function addError(state: WalkState, abs: string, message: string): void {
  state.errors.push({ file: relativePath(state.cwd, abs), message });
}

function readIgnoreFile(state: WalkState, file: string, missingIsFine: boolean): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = errorCode(err);
    if (missingIsFine && (code === 'ENOENT' || code === 'ENOTDIR')) return undefined;
    if (code === 'EISDIR') return undefined;
    addError(state, file, `cannot read ignore file: ${describeError(err)}`);
    return undefined;
  }
}

function exists(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The `.gitignore` rules of the root's ancestors, from the git work-tree top (the nearest
 * ancestor, or the root itself, containing `.git`) down to the root's parent. None without `.git`.
 */
function ancestorContext(state: WalkState, rootAbs: string): { ctx: IgnoreContext; gitTop?: string } {
  const chain: string[] = []; // rootAbs, parent, grandparent, … up to the top
  let dir = rootAbs;
  for (;;) {
    chain.push(dir);
    if (exists(joinPath(dir, '.git'))) break;
    const parent = path.dirname(dir);
    if (parent === dir) return { ctx: [] };
    dir = parent;
  }
  let ctx: IgnoreContext = [];
  // From the top down to the root's parent; the root's own .gitignore is read by the walk.
  for (let i = chain.length - 1; i >= 1; i--) {
    const text = readIgnoreFile(state, joinPath(chain[i], '.gitignore'), true);
    if (text !== undefined) ctx = withIgnoreFile(ctx, text);
    ctx = descend(ctx, path.basename(chain[i - 1]));
  }
  return { ctx, gitTop: dir };
}

function hasKnownType(entry: Dirent): boolean {
  return (
    entry.isFile() || entry.isDirectory() || entry.isSymbolicLink() || entry.isFIFO() ||
    entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()
  );
}

/**
 * `gitTop` is the git work tree `abs` is in (undefined outside one, or below a followed symlink):
 * what a `.gitignore` excludes there is kept aside, because git ignores only untracked files.
 */
function walkDir(state: WalkState, abs: string, real: string, inherited: IgnoreContext, gitTop: string | undefined): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(abs, { withFileTypes: true });
  } catch (err) {
    addError(state, abs, `cannot read directory: ${describeError(err)}`);
    return;
  }

  let ctx = inherited;
  let hasGitignore = false;
  for (const entry of entries) {
    // A nested work tree (submodule, vendored repo): git does not apply outer .gitignore files to it.
    if (entry.name === '.git') {
      ctx = [];
      gitTop = abs;
    }
    else if (entry.name === '.gitignore' && !entry.isDirectory()) hasGitignore = true;
  }
  if (hasGitignore) {
    const text = readIgnoreFile(state, joinPath(abs, '.gitignore'), true);
    if (text !== undefined) ctx = withIgnoreFile(ctx, text);
  }

  const subdirs: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (entry.isFile()) {
      if (!isListedName(name)) continue;
      if (!isIgnored(ctx, name, false)) addNamed(state, name, joinPath(abs, name), joinPath(real, name));
      else if (gitTop) keepGitIgnored(state, gitTop, joinPath(abs, name));
    } else if (entry.isDirectory()) {
      if (IGNORED_DIR_SET.has(name)) continue;
      if (!isIgnored(ctx, name, true)) subdirs.push(name);
      else if (gitTop) keepGitIgnored(state, gitTop, joinPath(abs, name));
    } else if (entry.isSymbolicLink() || !hasKnownType(entry)) {
      if (!IGNORED_DIR_SET.has(name)) state.pending.push({ abs: joinPath(abs, name), name, ctx });
    }
  }

  for (const name of subdirs) {
    const childReal = joinPath(real, name);
    if (state.visited.has(childReal)) continue;
    state.visited.add(childReal);
    walkDir(state, joinPath(abs, name), childReal, descend(ctx, name), gitTop);
  }
}

function keepGitIgnored(state: WalkState, gitTop: string, abs: string): void {
  const entries = state.gitIgnored.get(gitTop) ?? [];
  entries.push(path.relative(gitTop, abs).split(path.sep).join('/'));
  state.gitIgnored.set(gitTop, entries);
}

/**
 * git applies `.gitignore` to untracked files only: a file committed before a pattern named it
 * (a `/backend` folder, a hand-written `.js` file in a TypeScript project that ignores `*.js`) is
 * still the project's source. Among the entries the walk excluded, the tracked files are added
 * back (`git ls-files`), except below a default ignore (a committed `node_modules`). Without git,
 * or when git cannot answer, the `.gitignore` rules stand as they are.
 */
function addTrackedIgnored(state: WalkState): void {
  for (const [gitTop, entries] of state.gitIgnored) {
    let out: string;
    try {
      // the tracked files that the ignore rules match
      out = execFileSync('git', ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], {
        cwd: gitTop, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024,
      });
    } catch {
      continue;
    }
    const excluded = new Set(entries);
    for (const file of out.split('\0')) {
      if (!file || !belowExcludedOnly(file, excluded)) continue;
      const abs = path.join(gitTop, ...file.split('/'));
      let real: string;
      try {
        if (!statSync(abs).isFile()) continue;
        real = realpathSync.native(abs);
      } catch {
        continue; // deleted from the work tree, or unreadable: nothing to scan
      }
      if (state.rootReals.some((rootReal) => isInside(real, rootReal))) addNamed(state, path.basename(abs), abs, real);
    }
  }
}

/** `file` is an excluded entry, or lies below one through directories that are no default ignore. */
function belowExcludedOnly(file: string, excluded: ReadonlySet<string>): boolean {
  const segments = file.split('/');
  for (let i = segments.length; i >= 1; i--) {
    if (excluded.has(segments.slice(0, i).join('/'))) return true;
    if (i < segments.length && IGNORED_DIR_SET.has(segments[i - 1])) return false;
  }
  return false;
}

type Resolved = { stats: Stats; real: string } | { error: unknown };

/**
 * Resolve the symlinks found so far, in rounds. Claims are made in path order before any walking,
 * so the outcome (which path reports a file reachable twice) does not depend on timing.
 */
function followLinks(state: WalkState): void {
  while (state.pending.length > 0) {
    const batch = state.pending.sort((a, b) => (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
    state.pending = [];
    const resolved = batch.map((link): Resolved => {
      try {
        return { stats: statSync(link.abs), real: realpathSync.native(link.abs) };
      } catch (error) {
        return { error };
      }
    });
    const walks: Array<() => void> = [];
    batch.forEach((link, i) => {
      const r = resolved[i];
      if ('error' in r) {
        const code = errorCode(r.error);
        // Dangling links and link cycles are not source files; nothing to report.
        if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP') {
          addError(state, link.abs, `cannot follow symbolic link: ${describeError(r.error)}`);
        }
        return;
      }
      if (!state.rootReals.some((rootReal) => isInside(r.real, rootReal))) return;
      if (r.stats.isDirectory()) {
        if (isIgnored(link.ctx, link.name, true) || state.visited.has(r.real)) return;
        state.visited.add(r.real);
        walks.push(() => walkDir(state, link.abs, r.real, descend(link.ctx, link.name), undefined));
      } else if (r.stats.isFile()) {
        if (isListedName(link.name) && !isIgnored(link.ctx, link.name, false)) addNamed(state, link.name, link.abs, r.real);
      }
    });
    for (const walk of walks) walk();
  }
}

/**
 * Every source file under `roots` (relative to `cwd`, or absolute), after default ignores and
 * `.gitignore` rules; absolute paths, sorted, each file once. A missing root is a UsageError.
 *
 * Synchronous: it runs in the helper thread, where nothing else waits on the event loop, and a
 * plain recursive walk costs about a fifth of the same walk through promises (12 against 60 ms
 * on the 10k bench tree, warm). Directories are few next to files, so from a cold cache the walk
 * loses little by reading them one at a time (~110 against ~130 ms).
 */
export function discoverFiles(roots: string[], cwd: string): Discovery {
  const state: WalkState = {
    cwd,
    errors: [],
    files: new Map(),
    components: new Map(),
    declarations: new Map(),
    visited: new Set(),
    pending: [],
    rootReals: [],
    gitIgnored: new Map(),
  };

  const fileRoots: Array<{ abs: string; real: string }> = [];
  const dirRoots: Array<{ abs: string; real: string }> = [];
  for (const given of roots) {
    const abs = path.resolve(cwd, given);
    let stats: Stats;
    let real: string;
    try {
      stats = statSync(abs);
      real = realpathSync.native(abs);
    } catch (err) {
      const code = errorCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`path not found: ${given}`);
      addError(state, abs, `cannot read path: ${describeError(err)}`);
      continue;
    }
    state.rootReals.push(real);
    if (stats.isDirectory()) dirRoots.push({ abs, real });
    else if (stats.isFile()) fileRoots.push({ abs, real });
  }

  // A file named as a root is wanted even if a .gitignore excludes it.
  for (const root of fileRoots) {
    addNamed(state, path.basename(root.abs), root.abs, root.real);
  }

  // Outer roots first (stable), so that a nested root is walked with its outer root's context.
  const ordered = dirRoots
    .map((root, index) => ({ ...root, index }))
    .sort((a, b) => a.real.length - b.real.length || a.index - b.index);
  for (const root of ordered) {
    if (state.visited.has(root.real)) continue;
    state.visited.add(root.real);
    // A directory named as a root is walked even if its name is a default ignore or a
    // .gitignore excludes it; what is below it follows the usual rules.
    const { ctx, gitTop } = ancestorContext(state, root.abs);
    walkDir(state, root.abs, root.real, ctx, gitTop);
  }

  followLinks(state);
  addTrackedIgnored(state);

  const files = [...state.files.values()].sort();
  const errors = state.errors.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0,
  );
  return { files, components: [...state.components.values()].sort(), declarations: [...state.declarations.values()].sort(), errors };
}

// ---------------------------------------------------------------------------------------------
// Reading


/**
 * Read a whole file into `scratch` (grown when the file is larger) and return the bytes read, a
 * view of the scratch buffer that the next read overwrites.
 */
function readInto(file: string, scratch: { buf: Buffer }): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (scratch.buf.length < size + 1) scratch.buf = Buffer.allocUnsafe(Math.max(size + 1, scratch.buf.length * 2));
    let length = 0;
    for (;;) {
      // the file may have grown since fstat: keep reading until end of file
      if (length === scratch.buf.length) {
        const bigger = Buffer.allocUnsafe(scratch.buf.length * 2);
        scratch.buf.copy(bigger, 0, 0, length);
        scratch.buf = bigger;
      }
      const n = readSync(fd, scratch.buf, length, scratch.buf.length - length, null);
      if (n === 0) return scratch.buf.subarray(0, length);
      length += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The text of a file that opens with a UTF-16 byte order mark (LE or BE), or undefined. */
function utf16Text(buf: Buffer): string | undefined {
  if (buf.length < 2) return undefined;
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  return undefined;
}

function hasUtf8Bom(buf: Buffer): boolean {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

/** What reading one file gave: its bytes, or why there are none. */
type ReadOutcome = Buffer | { error: unknown };

/** Look at one file's bytes: a candidate, an error, or nothing (not a candidate). */
function take(result: ReadResult, file: string, outcome: ReadOutcome, cwd: string): void {
  if (!Buffer.isBuffer(outcome)) {
    result.errors.push({ file: relativePath(cwd, file), message: `cannot read file: ${describeError(outcome.error)}` });
    return;
  }
  result.read++;
  const utf16 = utf16Text(outcome);
  if (utf16 !== undefined) {
    // TypeScript reads UTF-16 with a byte order mark; this tool writes UTF-8 only, so such a file
    // is listed when it may hold a call site, and passed over quietly when it cannot
    if (mayContainCallSiteBytes(Buffer.from(utf16, 'utf8'))) {
      result.errors.push({ file: relativePath(cwd, file), message: 'UTF-16 file that may hold a call site, not scanned: convert it to UTF-8 first' });
    }
    return;
  }
  const bom = hasUtf8Bom(outcome);
  const body = bom ? outcome.subarray(3) : outcome;
  if (body.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    // Binary with a source extension (an MPEG transport stream named .ts, say): said once, skipped.
    result.errors.push({ file: relativePath(cwd, file), message: 'binary file (NUL bytes), skipped' });
    return;
  }
  if (!isUtf8(body)) {
    result.errors.push({ file: relativePath(cwd, file), message: 'not valid UTF-8' });
    return;
  }
  // only candidates are decoded (which also copies them out of a reused buffer)
  if (mayContainCallSiteBytes(body)) result.candidates.push({ path: file, text: body.toString('utf8'), bom });
}

/** The callback readFile is 2-3x faster than fs.promises.readFile on many small files (Node 20). */
const readFileAsync = promisify(readFileCallback) as (file: string) => Promise<Buffer>;

/** Files read one way before the choice of way is made again. */
const READ_BATCH = 1024;
/** Files read to measure the way not chosen: few, as that way is the slower one so far. */
const PROBE_BATCH = 64;
/** Reads in flight when reading concurrently. */
const IN_FLIGHT = 64;
/** Every this many batches, the way not chosen is measured again (the cache may have warmed or gone). */
const PROBE_EVERY = 16;

type ReadWay = 'in-turn' | 'concurrent';

/**
 * Each way reads a batch and hands every file's outcome to `use`, in batch order. A buffer handed
 * over may be reused once `use` returns.
 */
type ReadBatch = (batch: string[], scratch: { buf: Buffer }, use: (file: string, outcome: ReadOutcome) => void) => Promise<void>;

const readWays: Record<ReadWay, ReadBatch> = {
  // one file after another into one reused buffer: cheapest when the files are in the page cache
  'in-turn': async (batch, scratch, use) => {
    for (const file of batch) {
      let outcome: ReadOutcome;
      try {
        outcome = readInto(file, scratch);
      } catch (error) {
        outcome = { error };
      }
      use(file, outcome);
    }
  },
  // many reads in flight: pays when each read waits on the device (a cold cache)
  concurrent: async (batch, _scratch, use) => {
    const outcomes: ReadOutcome[] = new Array(batch.length);
    let next = 0;
    const reader = async (): Promise<void> => {
      while (next < batch.length) {
        const index = next++;
        try {
          outcomes[index] = await readFileAsync(batch[index]);
        } catch (error) {
          outcomes[index] = { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, batch.length) }, reader));
    batch.forEach((file, i) => use(file, outcomes[i]));
  },
};

export interface ReadOptions {
  /** Read every batch this way (tests); by default each batch goes the way measured faster. */
  way?: ReadWay;
}

/**
 * Read every file once and keep those passing the prefilter, in the order given. `read` counts
 * the files actually read.
 *
 * Two ways to read, chosen batch by batch from what each cost per file so far (bench tree of
 * 10,000 files, 2 cores). From the page cache, a plain loop of open/fstat/read/close into one
 * reused buffer takes ~140 ms, against ~200 ms for 64 concurrent readFile calls (each is four
 * round trips to libuv's thread pool, and a fresh buffer), and it leaves the other core to the
 * compiler loading in the main thread. From a cold cache it is the other way round, ~900 ms
 * against ~480 ms: the device wants many requests in flight.
 */
export async function readCandidates(files: string[], cwd: string, options: ReadOptions = {}): Promise<ReadResult> {
  const result: ReadResult = { candidates: [], errors: [], read: 0 };
  const scratch = { buf: Buffer.allocUnsafe(1 << 16) };
  // microseconds per file, once measured
  const cost: Record<ReadWay, number | undefined> = { 'in-turn': undefined, concurrent: undefined };
  for (let start = 0, batchNo = 0; start < files.length; batchNo++) {
    const { way, size } = options.way ? { way: options.way, size: READ_BATCH } : chooseWay(cost, batchNo);
    const batch = files.slice(start, start + size);
    start += batch.length;
    const began = performance.now();
    await readWays[way](batch, scratch, (file, outcome) => take(result, file, outcome, cwd));
    cost[way] = ((performance.now() - began) * 1000) / batch.length;
  }
  return result;
}

/** A probe of each way, then the cheaper one, probing the other now and then. */
function chooseWay(cost: Record<ReadWay, number | undefined>, batchNo: number): { way: ReadWay; size: number } {
  if (cost['in-turn'] === undefined) return { way: 'in-turn', size: PROBE_BATCH };
  if (cost.concurrent === undefined) return { way: 'concurrent', size: PROBE_BATCH };
  const cheaper: ReadWay = cost['in-turn'] <= cost.concurrent ? 'in-turn' : 'concurrent';
  const other: ReadWay = cheaper === 'in-turn' ? 'concurrent' : 'in-turn';
  return batchNo % PROBE_EVERY === 0 ? { way: other, size: PROBE_BATCH } : { way: cheaper, size: READ_BATCH };
}
