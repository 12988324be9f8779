/**
 * The project-wide view W-FOLLOW needs (lib/scan/callers.ts): which files of the run name a
 * function, and whether a module's importers can all be in view (W-EDGE). Files are read only
 * when a site's value first leaves through an exported function, and once.
 */
import path from 'node:path';
import { discoverFiles, isInside } from '../files.js';
import type { ProjectLayout } from '../project/layout.js';
import type { ProjectBoundary } from '../options.js';
import type { FollowSearch } from './callers.js';
import type { TextReader } from './endpoint-importers.js';
import { escapeRegExp, wordPattern } from '../regexp.js';
import { moduleNames, moduleSpecifierPattern } from './injected.js';
import { computedLoads, loadReaches, type ComputedLoad } from './computed-imports.js';
import { importsModule, mirrors, skippedFolders, type SkippedFolder } from './skipped-folders.js';

export interface CallerSearchInput {
  /** Every source file of the run (absolute paths). */
  files: readonly string[];
  /** The run's component files (.vue, .svelte, .astro), which the tool does not parse. */
  components: readonly string[];
  /** The run's texts, shared with the other searches (runTextReader). */
  read: TextReader;
  layout: ProjectLayout;
  /** The paths given, absolute and real. */
  roots: readonly string[];
  cwd: string;
  /** Where the project ends (Options.boundary); undefined: at the repository top. */
  boundary?: ProjectBoundary;
  /** Files outside the paths given read at most, per package (MAX_OUTSIDE_FILES; smaller in tests). */
  maxOutsideFiles?: number;
}

/** Files outside the paths given that are read to look for callers, at most (W-EDGE past it). */
const MAX_OUTSIDE_FILES = 20000;

export function createCallerSearch(input: CallerSearchInput): FollowSearch {
  const named = new Map<string, string[]>();
  const run = new Set(input.files.map((f) => path.normalize(f)));
  const absent = new Set(input.boundary?.absent.map((f) => path.normalize(f)));
  const top = input.boundary?.top;
  const { read } = input;
  // the package's files the run does not cover, per package folder
  const outside = new Map<string, string[] | undefined>();
  const outsideOf = (root: string): string[] | undefined => {
    if (!outside.has(root)) {
      let files: string[] | undefined;
      try {
        files = discoverFiles([root], input.cwd).files.map((f) => path.normalize(f)).filter((f) => !run.has(f) && !absent.has(f));
      } catch {
        files = undefined;
      }
      outside.set(root, files && files.length <= (input.maxOutsideFiles ?? MAX_OUTSIDE_FILES) ? files : undefined);
    }
    return outside.get(root);
  };
  // the source files in folders every run skips (build/, out/), per package folder: read for callers
  const skippedIn = new Map<string, SkippedFolder[]>();
  const skippedOf = (root: string): SkippedFolder[] => {
    let folders = skippedIn.get(root);
    if (!folders) {
      folders = skippedFolders(root).map((s) => ({ ...s, files: s.files.filter((f) => !run.has(path.normalize(f))) }));
      skippedIn.set(root, folders);
    }
    return folders;
  };
  const covered = (dir: string) => input.roots.some((r) => isInside(dir, r));
  /** Whether the file's text names `name` as a whole identifier. */
  const naming = (name: string) => {
    const word = wordPattern(name);
    return (file: string) => {
      const text = read(file);
      return text !== undefined && text.includes(name) && word.test(text);
    };
  };
  const importing = (file: string) => {
    const specifier = new RegExp(moduleSpecifierPattern(file));
    return (other: string) => {
      const text = read(other);
      return text !== undefined && specifier.test(text);
    };
  };
  const importers = new Map<string, string[]>();
  let asked = 0;
  let index: Map<string, string[]> | undefined;
  /** The files that may hold every word of `words` (each to be tested), in run order. */
  const candidates = (words: readonly string[]): string[] => {
    if (!index && ++asked > NAMES_BEFORE_INDEX) index = wordIndex(run, read);
    if (!index || !words.every((w) => WORD.test(w))) return [...run];
    const hits = new Set(words.flatMap((w) => index!.get(w) ?? []));
    return [...run].filter((f) => hits.has(f));
  };
  // the files that load a module by a computed path, with their loads: found once per set of files
  const loadersIn = new Map<readonly string[], Array<[string, ComputedLoad[]]>>();
  const loaders = (files: readonly string[]) => {
    let found = loadersIn.get(files);
    if (!found) loadersIn.set(files, (found = files.map((f): [string, ComputedLoad[]] => [f, computedLoads(f, read(f) ?? '')]).filter(([, l]) => l.length > 0)));
    return found;
  };
  const runFiles = [...run];
  /** A package folder as the report shows it. */
  const shown = (folder: string) => path.relative(input.cwd, folder) || '.';
  const rootOf = (file: string) => input.layout.importersRootOf(file) ?? path.dirname(file);
  /**
   * The folders whose files the run does not scan may use `file`: its package (its workspace), and
   * the outermost package around it (a server/ package inside an application's), at or below the
   * top. None when no package holds it below the top (a fixture in this repository). The layout
   * stops at the top (ProjectLayout's boundary), so every package it finds is below it.
   */
  const packageFolders = (file: string): { near: string; outer: string } | undefined => {
    const chain = input.layout.packageChain(file);
    if (!chain.length) return top === undefined ? { near: path.dirname(file), outer: path.dirname(file) } : undefined;
    const near = rootOf(file);
    const outer = chain[chain.length - 1].dir;
    return { near, outer: isInside(near, outer) ? outer : near };
  };
  /**
   * The first file the run does not scan that `test` accepts: a component (its script may do
   * anything the tool does not parse), or, when the paths given are part of a package, a file of
   * the package outside them (read, never rewritten).
   */
  const unscanned = (file: string, test: (other: string) => boolean): Unscanned | undefined => {
    const component = input.components.find(test);
    if (component) return { where: `${path.relative(input.cwd, component)}, a component file the tool does not scan` };
    const outsideFiles = outsideFor(file);
    if (!outsideFiles) return undefined;
    if ('tooLarge' in outsideFiles) return { why: tooLarge(outsideFiles.tooLarge) };
    const other = outsideFiles.others.find((o) => around(o, outsideFiles.near) && test(o));
    return other ? { where: `${path.relative(input.cwd, other)}, outside the paths given` } : undefined;
  };
  /**
   * The files outside the paths given in the packages that may use `file`, with its own package
   * folder (`near`); none when the run covers them; the package folder with too many to read.
   */
  const outsideFor = (file: string): { others: readonly string[]; near: string } | { tooLarge: string } | undefined => {
    const folders = packageFolders(file);
    if (!folders || covered(folders.outer)) return undefined;
    const others = outsideOf(folders.outer);
    return others ? { others, near: folders.near } : { tooLarge: folders.outer };
  };
  const tooLarge = (folder: string) => `its package (${shown(folder)}) has too many files outside the paths given to check`;
  /**
   * Whether a file outside the paths given may use `near`'s package: it is in it, or, in a package
   * around it (an application holding a server/ package), it imports into it.
   */
  const around = (other: string, near: string) =>
    isInside(other, near) || importsInto(other, read(other) ?? '', near, input.layout.packageFor(other)?.dir ?? path.dirname(other));
  return {
    wanted: new Set(),
    loadedByComputedPath(file) {
      const target = path.normalize(file);
      const root = rootOf(target);
      // the run's files, and those outside the paths given in its package and in a package around
      // it (an application holding a server/ package): a load whose path says nothing reaches
      // the files of its own package only, `` import(`./server/plugins/${name}.js`) `` any below its folder
      const outsideFiles = outsideFor(target);
      const found = (files: readonly string[]) => {
        for (const [other, loads] of loaders(files)) {
          if (other === target) continue;
          const load = loads.find((l) => loadReaches(l, target, rootOf(other) === root));
          if (load) return `${path.relative(input.cwd, other)}:${load.line}`;
        }
        return undefined;
      };
      const inRun = found(runFiles);
      if (inRun || !outsideFiles) return inRun;
      // a package too large to read may load it anywhere: as the caller search, it stops
      if ('tooLarge' in outsideFiles) return `a file of its package (${shown(outsideFiles.tooLarge)}), which has too many files outside the paths given to check`;
      return found(outsideFiles.others);
    },
    filesNaming(name) {
      let files = named.get(name);
      if (!files) {
        files = candidates([name]).filter(naming(name));
        named.set(name, files);
      }
      return files;
    },
    filesImporting(file) {
      const key = path.normalize(file);
      let files = importers.get(key);
      if (!files) {
        const imports = importing(key);
        files = candidates(moduleNames(key)).filter((f) => f !== key && imports(f));
        importers.set(key, files);
      }
      return files;
    },
    textOf: read,
    edgeOf(file, name) {
      if (input.layout.isPublished(file)) return 'exported from a published package (its callers live elsewhere)';
      return this.namedOutside(file, name);
    },
    namedOutside(file, name) {
      const unscannable = this.namedUnscannable(file, name);
      if (unscannable) return unscannable;
      const other = unscanned(file, name === 'default' ? importing(file) : naming(name));
      return other && ('where' in other ? `named in ${other.where}` : other.why);
    },
    namedUnscannable(file, name) {
      const root = rootOf(file);
      const skipped = skippedOf(root).filter((s) => !mirrors(s, file, root)).flatMap((s) => s.files).find((other) => {
        const text = read(other);
        return text !== undefined && (name === 'default' || naming(name)(other)) && importsModule(other, text, file);
      });
      if (skipped) return `named in ${path.relative(input.cwd, skipped)}, in a folder the tool skips (build, out, dist and coverage hold generated code elsewhere)`;
      const component = input.components.find(name === 'default' ? importing(file) : naming(name));
      return component && `named in ${path.relative(input.cwd, component)}, a component file the tool does not scan`;
    },
    filesOutside(file, test) {
      const outsideFiles = outsideFor(file);
      if (!outsideFiles) return [];
      if ('tooLarge' in outsideFiles) return { why: tooLarge(outsideFiles.tooLarge) };
      return outsideFiles.others.filter((o) => around(o, outsideFiles.near) && test(read(o) ?? '', o));
    },
    textOutside(file, test) {
      const other = unscanned(file, (f) => test(read(f) ?? '', f));
      return other && ('where' in other ? other.where : other.why);
    },
  };
}

/** A file the run does not scan, where it is, or why they could not all be read. */
type Unscanned = { where: string } | { why: string };

/**
 * Searches run over every file before the run's words are indexed: most runs make a few, and the
 * index costs memory; a run with hundreds of same-named helpers asks for each caller's name in
 * turn (bench/run.ts --profile helpers).
 */
const NAMES_BEFORE_INDEX = 16;

/** A word the index holds (a maximal run of `\w`): a whole identifier, or a module's name in a specifier, is one. */
const WORD = /^\w+$/;

/**
 * Each maximal run of `\w` in the run's texts, with the files it occurs in: the files a search
 * then tests with its own pattern. `ask` as a whole identifier, or `ai` in `'./ai.js'`, is such a
 * run (what stands either side is no `\w`), so no file is missed; `$ask` is one too, and the
 * pattern turns that file down.
 */
function wordIndex(files: Iterable<string>, read: TextReader): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const file of files) {
    const text = read(file);
    if (text === undefined) continue;
    for (const word of new Set(text.match(/\w+/g))) {
      const list = index.get(word);
      if (list) list.push(file);
      else index.set(word, [file]);
    }
  }
  return index;
}

/** A module specifier in an import, export, `require` or `import()`. */
const SPECIFIER = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*['"`]([^'"`\n]+)['"`]/g;

/**
 * Whether `text` (of `file`) may import a module below `dir`: a relative path that resolves there,
 * or a specifier that names `dir`'s path from `file`'s package (`base`), bare or after an
 * alias's prefix (`server/lib/ai` through a `baseUrl`, `@/server/lib/ai`, `~/server/lib/ai`: the
 * aliases are not resolved, so any such spelling counts; `next/server` names a package).
 */
function importsInto(file: string, text: string, dir: string, base: string): boolean {
  const rel = path.relative(base, dir).split(path.sep).join('/');
  // `server/lib/ai` (a baseUrl), `@/server/…`, `~/server/…`, `#/server/…`; not `next/server`
  const named = rel && !rel.startsWith('..') ? new RegExp(`^(?:[@~#$]{1,2}/(?:[^'"\`]*/)?)?${escapeRegExp(rel)}(?:/|$)`) : undefined;
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1];
    if (spec.startsWith('.') ? isInside(path.resolve(path.dirname(file), spec), dir) : named?.test(spec)) return true;
  }
  return false;
}
