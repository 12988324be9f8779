/**
 * W-EDGE at callers in folders the tool skips. A folder named `build`, `out`, `dist` or `coverage`
 * is left out of every run (DEFAULT_IGNORED_DIRS: it is usually generated), but in some projects it
 * is source: a Next.js route `app/build/route.ts`, a `src/out/` module. A caller there is never
 * rewritten, so a function it calls must keep its Chat result (probe of module structure,
 * 2026-12-05: the caller in src/build/ kept reading choices[0] of a Response; tsc 0 → 2 errors).
 * Such folders are looked through for files that import the function's module; a folder that
 * .gitignore excludes is output and passed over, and a relative import that resolves elsewhere
 * (a compiled copy importing its own copy) is none.
 */
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { SOURCE_EXTENSIONS } from '../options.js';

/** The default-ignored folder names that may hold source; the others are always tools' output. */
const MAYBE_SOURCE = new Set(['build', 'out', 'dist', 'coverage']);
/** Folders never looked into. */
const NEVER = new Set(['node_modules', '.git', 'bower_components', 'jspm_packages', '.pnpm-store', '.yarn']);
/** Files looked at, at most, per package: past it the search says nothing (the run goes on as before). */
const MAX_FILES = 5000;
const SOURCE = new Set<string>(SOURCE_EXTENSIONS);

/** A skipped folder that .gitignore does not exclude, with its source files. */
export interface SkippedFolder {
  folder: string;
  files: string[];
}

/** The skipped folders below `root` that .gitignore does not exclude, with their source files. */
export function skippedFolders(root: string): SkippedFolder[] {
  const folders: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 12) return;
    for (const e of entriesOf(dir)) {
      if (!e.isDirectory() || NEVER.has(e.name) || e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (MAYBE_SOURCE.has(e.name)) folders.push(full);
      else walk(full, depth + 1);
    }
  };
  walk(root, 0);
  const found: SkippedFolder[] = [];
  let count = 0;
  for (const folder of folders.filter((f) => !gitIgnored(f, root))) {
    const files: string[] = [];
    listSources(folder, files, 0);
    found.push({ folder, files });
    count += files.length;
    if (count > MAX_FILES) break;
  }
  return found;
}

/**
 * Whether a skipped folder holds a copy of `target` at its place in the source tree (dist/lib/ai.js
 * for src/lib/ai.ts, out/src/lib/ai.ts): the folder is then the tree's output, whose files import
 * their own copies, and no caller of the module.
 */
export function mirrors(skipped: SkippedFolder, target: string, root: string): boolean {
  const rel = stripExtension(path.relative(root, target)).split(path.sep);
  const copies = new Set(skipped.files.map((f) => stripExtension(path.relative(skipped.folder, f))));
  for (let i = 0; i < rel.length; i++) if (copies.has(rel.slice(i).join(path.sep)) && i < rel.length - 1) return true;
  return false;
}

function listSources(dir: string, out: string[], depth: number): void {
  if (depth > 12 || out.length > MAX_FILES) return;
  for (const e of entriesOf(dir)) {
    const full = path.join(dir, e.name);
    if (e.isDirectory() && !NEVER.has(e.name)) listSources(full, out, depth + 1);
    else if (e.isFile() && SOURCE.has(path.extname(e.name)) && !/\.d\.[cm]?ts$/.test(e.name)) out.push(full);
  }
}

/** A folder's entries; none when it cannot be read. */
function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Whether the .gitignore files from the package folder down exclude the folder. Those above it are
 * not read: a run on a folder walks it whatever they say (lib/files.ts), and so does this search.
 */
function gitIgnored(folder: string, root: string): boolean {
  let dir = root;
  const steps = path.relative(root, folder).split(path.sep);
  for (let i = 0; i < steps.length; i++) {
    const text = readText(path.join(dir, '.gitignore'));
    if (text !== undefined && ignore().add(text).ignores(`${steps.slice(i).join('/')}/`)) return true;
    dir = path.join(dir, steps[i]!);
  }
  return false;
}

/** The module specifiers a file's text spells in imports, exports and requires. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/g;

/**
 * Whether `text` (of `file`) imports `target`'s module: a relative specifier that resolves to it
 * (extension or `/index` aside), or one that is not relative and ends with its folder and name
 * (an alias, `@/lib/ai`, which may be it; `openai/resources/chat` is not `lib/chat`).
 */
export function importsModule(file: string, text: string, target: string): boolean {
  const bare = stripExtension(target);
  const names = [bare, ...(path.basename(bare) === 'index' ? [path.dirname(bare)] : [])];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[2]!;
    if (spec.startsWith('.')) {
      if (names.includes(stripExtension(path.resolve(path.dirname(file), spec)))) return true;
    } else if (names.some((n) => endsWithPath(stripExtension(spec), lastTwo(n)))) {
      return true;
    }
  }
  return false;
}

/** A module's folder and name (`lib/ai` for src/lib/ai.ts): what an alias's specifier ends with. */
function lastTwo(p: string): string {
  return `${path.basename(path.dirname(p))}/${path.basename(p)}`;
}

function endsWithPath(spec: string, tail: string): boolean {
  return spec === tail || spec.endsWith(`/${tail}`);
}

function stripExtension(p: string): string {
  return p.replace(/\.(?:[cm]?[jt]sx?)$/, '');
}

/** A file's text, or undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
