/**
 * The project around the scanned files, read the way its own toolchain reads it and without an
 * install (docs/migration-spec.md §7, "Module resolution"): for each file its nearest tsconfig.json or
 * jsconfig.json (with its `extends` chain, `baseUrl`, `paths` and project references) and its
 * nearest package.json (name, `imports`, `exports`, dependencies), and the packages of the
 * workspace by name (npm and yarn `workspaces`, pnpm-workspace.yaml, lerna.json). Everything is
 * read lazily, once per directory, and only for the files whose imports are asked about.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from '../scan/typescript.cjs';
import { escapeRegExp } from '../regexp.js';

export interface PackageJson {
  name?: string;
  /** npm publishes nothing without one. */
  version?: string;
  private?: boolean;
  /** `module`: `.js` files are ES modules. */
  type?: string;
  main?: string;
  module?: string;
  types?: string;
  typings?: string;
  exports?: unknown;
  imports?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  workspaces?: string[] | { packages?: string[] };
  scripts?: Record<string, string>;
  engines?: Record<string, string>;
  bin?: unknown;
  files?: unknown;
}

/** The scripts that start an app. */
const PROGRAM_SCRIPTS = ['start', 'serve', 'dev'];
/** A `start` script that runs a program: a file under node and its kin, or a framework's server. */
const PROGRAM_START = /(?:^|[\s;&|(])(?:node|nodemon|ts-node|ts-node-dev|tsx|bun|deno|pm2|forever|next|nuxt|vite|react-scripts|remix-serve|astro|expo|electron|nest)\b/;

/**
 * An application, not a library: a plugin its host loads (isHostPlugin), or a package whose `npm
 * start` (or `serve`, `dev`) script runs a program (`node src/index.js`, `nodemon ./bin/www`, `next start`) and that declares
 * nothing a consumer would import (no `exports`, `module`, `types`, `typings`, `bin`, `files`).
 * `npm init` leaves an app unprivate with a `main`; its modules have no consumers elsewhere
 * (probes of JavaScript apps: W-EDGE stopped at them). With no such script, a `main` that starts
 * a server when it is loaded (a top-level `server.listen(4000)`) says the same: no consumer
 * imports a module that takes a port (corpus: an Express backend's `npm init` package.json).
 */
export function isApplicationPackage(pkg: PackageInfo): boolean {
  const { json } = pkg;
  if (isHostPlugin(json)) return true;
  if (json.exports || json.module || json.types || json.typings || json.bin || json.files) return false;
  // `start`, or what apps name it otherwise (probe of generators: a server whose script is `serve`)
  const runs = PROGRAM_SCRIPTS.some((name) => {
    const script = json.scripts?.[name];
    return typeof script === 'string' && PROGRAM_START.test(script);
  });
  return runs || mainListens(pkg);
}

/** A statement at the top of a module (no indentation) that makes a server listen: `app.listen(3000)`. */
const TOP_LEVEL_LISTEN = /^(?:await\s+)?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.listen\s*\(/m;

/** mainListens' answers: asked for each file of a package (isPublished), read once per package. */
const LISTENS = new WeakMap<PackageInfo, boolean>();

/** Whether the package's `main` (a source file beside the package.json) starts a server when it is loaded. */
function mainListens(pkg: PackageInfo): boolean {
  let listens = LISTENS.get(pkg);
  if (listens === undefined) LISTENS.set(pkg, (listens = readMainListens(pkg)));
  return listens;
}

function readMainListens(pkg: PackageInfo): boolean {
  if (typeof pkg.json.main !== 'string') return false;
  const main = path.resolve(pkg.dir, pkg.json.main);
  if (!main.startsWith(pkg.dir + path.sep)) return false;
  for (const file of [main, `${main}.js`, `${main}.cjs`, `${main}.mjs`, `${main}.ts`, path.join(main, 'index.js')]) {
    if (!isFile(file)) continue;
    try {
      return TOP_LEVEL_LISTEN.test(readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  }
  return false;
}

/** Packages an application loads as its plugin (its `main` is for the host, no code imports it). */
const HOST_APIS = ['obsidian', '@raycast/api'];

/** An Obsidian plugin, a Raycast extension, a VS Code extension (`engines.vscode`). */
function isHostPlugin(json: PackageJson): boolean {
  if (json.engines && typeof json.engines === 'object' && 'vscode' in json.engines) return true;
  return HOST_APIS.some((name) => Boolean(json.dependencies?.[name] ?? json.devDependencies?.[name] ?? json.peerDependencies?.[name]));
}

export interface PackageInfo {
  /** The folder holding the package.json. */
  dir: string;
  json: PackageJson;
}

export interface ResolutionConfig {
  /** The tsconfig.json / jsconfig.json, when one applies. */
  file?: string;
  /** Its compiler options (paths, baseUrl, customConditions…), `extends` applied. */
  options: ts.CompilerOptions;
  /** The projects it references (a solution-style tsconfig keeps its `paths` there). */
  references: ResolutionConfig[];
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
/** Folders never searched for workspace packages. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'coverage', '.next', '.turbo', 'out']);
/** How deep a `**` in a workspace pattern is followed. */
const MAX_GLOB_DEPTH = 5;
/** How many folders up a file's configuration is looked for, at most. */
const MAX_UP = 32;

export class ProjectLayout {
  private readonly configByFile = new Map<string, ResolutionConfig>();
  private readonly configByDir = new Map<string, ResolutionConfig | null>();
  private readonly packageByDir = new Map<string, PackageInfo | null>();
  private readonly tops = new Map<string, string>();
  private readonly workspaces = new Map<string, Map<string, PackageInfo> | null>();

  /**
   * `boundary`: where the project ends when it is not at a `.git` (Options.boundary: a fixture
   * is a project of its own, and this repository's package.json around it is none of its own).
   */
  constructor(private readonly boundary?: string) {}

  /** The configuration that decides how `file` resolves its imports. */
  configFor(file: string): ResolutionConfig | undefined {
    return this.configOfDir(path.dirname(file)) ?? undefined;
  }

  /** The package.json nearest to `file` (the package it belongs to). */
  packageFor(file: string): PackageInfo | undefined {
    return this.packageOfDir(path.dirname(file)) ?? undefined;
  }

  /** The packages that own `file`, from the nearest package.json up to the repository top. */
  packageChain(file: string): PackageInfo[] {
    const out: PackageInfo[] = [];
    const top = this.topOf(path.dirname(file));
    let dir = path.dirname(file);
    for (let i = 0; i < MAX_UP; i++) {
      const pkg = this.readPackage(dir);
      if (pkg) out.push(pkg);
      if (dir === top) break;
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    return out;
  }

  /** A package of the workspace that `from` belongs to, by its package.json name. */
  workspacePackage(name: string, from: string): PackageInfo | undefined {
    const root = this.workspaceRootOf(path.dirname(from));
    if (!root) return undefined;
    return this.workspacePackages(root)?.get(name);
  }

  /**
   * The repository top above `dir`: the nearest folder holding `.git` (or the boundary given),
   * or else the filesystem root. Configuration is never looked for above it.
   */
  topOf(dir: string): string {
    const cached = this.tops.get(dir);
    if (cached) return cached;
    let current = dir;
    for (let i = 0; i < MAX_UP && !this.isTop(current); i++) {
      const up = path.dirname(current);
      if (up === current) break;
      current = up;
    }
    this.tops.set(dir, current);
    return current;
  }

  /** The repository top above `dir` when there is one (a `.git`, or the boundary given), not the filesystem root. */
  repositoryTopOf(dir: string): string | undefined {
    const top = this.topOf(dir);
    return this.isTop(top) ? top : undefined;
  }

  private isTop(dir: string): boolean {
    return dir === this.boundary || existsSync(path.join(dir, '.git'));
  }

  // ---- configuration ---------------------------------------------------------------------------

  private configOfDir(dir: string): ResolutionConfig | null {
    const cached = this.configByDir.get(dir);
    if (cached !== undefined) return cached;
    let found: ResolutionConfig | null = null;
    const name = CONFIG_NAMES.find((n) => isFile(path.join(dir, n)));
    if (name) found = this.readConfig(path.join(dir, name));
    else {
      const up = path.dirname(dir);
      if (dir !== this.topOf(dir) && up !== dir) found = this.configOfDir(up);
      // an Nx workspace keeps its `paths` in tsconfig.base.json at the top, which nothing may extend
      else if (isFile(path.join(dir, 'tsconfig.base.json'))) found = this.readConfig(path.join(dir, 'tsconfig.base.json'));
    }
    this.configByDir.set(dir, found);
    return found;
  }

  private readConfig(file: string, seen: Set<string> = new Set()): ResolutionConfig {
    const cached = this.configByFile.get(file);
    if (cached) return cached;
    const config: ResolutionConfig = { file, options: {}, references: [] };
    this.configByFile.set(file, config);
    seen.add(file);
    try {
      const json = ts.readConfigFile(file, ts.sys.readFile);
      if (json.error || !json.config) return config;
      // no readDirectory: the options are what matters, not the (possibly huge) file list
      const host: ts.ParseConfigHost = {
        useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
        fileExists: ts.sys.fileExists,
        readFile: ts.sys.readFile,
        readDirectory: () => [],
      };
      const parsed = ts.parseJsonConfigFileContent(json.config, host, path.dirname(file), undefined, file);
      config.options = withGeneratedAliases(parsed.options, json.config as GeneratedConfigLinks, path.dirname(file));
      for (const ref of parsed.projectReferences ?? []) {
        const refFile = isFile(ref.path) ? ref.path : path.join(ref.path, 'tsconfig.json');
        if (!seen.has(refFile) && isFile(refFile)) config.references.push(this.readConfig(refFile, seen));
      }
    } catch {
      // an unreadable or invalid config resolves like no config at all
    }
    return config;
  }

  // ---- packages --------------------------------------------------------------------------------

  private packageOfDir(dir: string): PackageInfo | null {
    const cached = this.packageByDir.get(dir);
    if (cached !== undefined) return cached;
    let found = this.readPackage(dir);
    if (!found) {
      const up = path.dirname(dir);
      if (dir !== this.topOf(dir) && up !== dir) found = this.packageOfDir(up);
    }
    this.packageByDir.set(dir, found);
    return found;
  }

  private readonly packages = new Map<string, PackageInfo | null>();

  /** The package.json in `dir` itself, parsed (null when absent or invalid). */
  readPackage(dir: string): PackageInfo | null {
    const cached = this.packages.get(dir);
    if (cached !== undefined) return cached;
    let info: PackageInfo | null = null;
    const file = path.join(dir, 'package.json');
    if (isFile(file)) {
      try {
        const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
        if (json && typeof json === 'object' && !Array.isArray(json)) info = { dir, json: json as PackageJson };
      } catch {
        // an invalid package.json names no package
      }
    }
    this.packages.set(dir, info);
    return info;
  }

  /**
   * The folder whose files may import `file`'s module without a package name in between: its
   * workspace root when its package is a workspace member, else its package folder (W-EDGE).
   */
  importersRootOf(file: string): string | undefined {
    const dir = path.dirname(file);
    return this.workspaceRootOf(dir) ?? this.packageFor(file)?.dir;
  }

  /**
   * A package whose consumers may live elsewhere: named and versioned (npm publishes nothing
   * without both), not `private`, with an entry point, and not an application (W-EDGE).
   */
  isPublished(file: string): boolean {
    const pkg = this.packageFor(file);
    if (!pkg) return false;
    const { json } = pkg;
    if (json.private === true || !json.name || !json.version) return false;
    return Boolean(json.main || json.module || json.exports || json.types || json.typings) && !isApplicationPackage(pkg);
  }

  // ---- workspaces ------------------------------------------------------------------------------

  /** The nearest folder at or above `dir` that declares workspace packages (asked once per folder). */
  private workspaceRootOf(dir: string): string | undefined {
    if (!this.workspaceRoots.has(dir)) this.workspaceRoots.set(dir, this.findWorkspaceRoot(dir));
    return this.workspaceRoots.get(dir);
  }

  private readonly workspaceRoots = new Map<string, string | undefined>();

  private findWorkspaceRoot(dir: string): string | undefined {
    const top = this.topOf(dir);
    let current = dir;
    for (let i = 0; i < MAX_UP; i++) {
      if (workspacePatterns(current, this.readPackage(current)?.json)) return current;
      if (current === top) return undefined;
      const up = path.dirname(current);
      if (up === current) return undefined;
      current = up;
    }
    return undefined;
  }

  private workspacePackages(root: string): Map<string, PackageInfo> | null {
    const cached = this.workspaces.get(root);
    if (cached !== undefined) return cached;
    const patterns = workspacePatterns(root, this.readPackage(root)?.json) ?? [];
    const include = patterns.filter((p) => !p.startsWith('!'));
    const exclude = new Set(patterns.filter((p) => p.startsWith('!')).flatMap((p) => expandPattern(root, p.slice(1))));
    const byName = new Map<string, PackageInfo>();
    const rootPackage = this.readPackage(root);
    if (rootPackage?.json.name) byName.set(rootPackage.json.name, rootPackage);
    for (const dir of include.flatMap((p) => expandPattern(root, p))) {
      if (exclude.has(dir)) continue;
      const pkg = this.readPackage(dir);
      if (pkg?.json.name && !byName.has(pkg.json.name)) byName.set(pkg.json.name, pkg);
    }
    this.workspaces.set(root, byName);
    return byName;
  }
}

/** The workspace patterns `dir` declares, if it declares any. */
function workspacePatterns(dir: string, json: PackageJson | undefined): string[] | undefined {
  const ws = json?.workspaces;
  if (Array.isArray(ws)) return ws.filter((p): p is string => typeof p === 'string');
  if (ws && typeof ws === 'object' && Array.isArray(ws.packages)) return ws.packages.filter((p): p is string => typeof p === 'string');
  const pnpm = path.join(dir, 'pnpm-workspace.yaml');
  if (isFile(pnpm)) return pnpmPackages(readFileSync(pnpm, 'utf8'));
  const lerna = path.join(dir, 'lerna.json');
  if (isFile(lerna)) {
    try {
      const packages = (JSON.parse(readFileSync(lerna, 'utf8')) as { packages?: unknown }).packages;
      if (Array.isArray(packages)) return packages.filter((p): p is string => typeof p === 'string');
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The `packages:` list of a pnpm-workspace.yaml (the only key read; a YAML subset). */
export function pnpmPackages(yaml: string): string[] {
  const out: string[] = [];
  let inPackages = false;
  for (const raw of yaml.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '');
    if (/^packages\s*:\s*$/.test(line)) {
      inPackages = true;
      continue;
    }
    const inline = /^packages\s*:\s*\[(.*)\]\s*$/.exec(line);
    if (inline) {
      out.push(...inline[1].split(',').map(unquote).filter(Boolean));
      continue;
    }
    if (!inPackages) continue;
    const item = /^\s*-\s*(.+?)\s*$/.exec(line);
    if (item) out.push(unquote(item[1]));
    else if (/^\S/.test(line)) inPackages = false;
  }
  return out;
}

function unquote(s: string): string {
  return s.trim().replace(/^(['"])(.*)\1$/, '$2');
}

/** Folders matching one workspace pattern (`packages/*`, `apps/**`, `libs/*\/api`). */
export function expandPattern(root: string, pattern: string): string[] {
  const segments = pattern.replace(/^\.\//, '').replace(/\/+$/, '').split('/').filter(Boolean);
  const out: string[] = [];
  const visit = (dir: string, i: number, depth: number): void => {
    if (i === segments.length) {
      out.push(dir);
      return;
    }
    const segment = segments[i];
    if (segment === '**') {
      visit(dir, i + 1, depth);
      if (depth < MAX_GLOB_DEPTH) for (const child of childDirs(dir)) visit(child, i, depth + 1);
      return;
    }
    if (segment.includes('*')) {
      const re = new RegExp(`^${segment.split('*').map(escapeRegExp).join('[^/]*')}$`);
      for (const child of childDirs(dir)) if (re.test(path.basename(child))) visit(child, i + 1, depth);
      return;
    }
    const next = path.join(dir, segment);
    if (isDirectory(next)) visit(next, i + 1, depth);
  };
  visit(root, 0, 0);
  return out;
}

function childDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name))
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

export function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Where a tsconfig points at the config a framework generates at build time. */
interface GeneratedConfigLinks { extends?: unknown; references?: unknown }

/**
 * SvelteKit and Nuxt write the tsconfig that holds their aliases at build time
 * (`.svelte-kit/tsconfig.json`, `.nuxt/tsconfig*.json`), and the project's tsconfig extends or
 * references it: a checkout has no such file, so `$lib/…`, `~/…` or `@/…` did not resolve and the
 * client behind them was unproven. When the generated file is missing, the aliases resolve as
 * the framework maps them by default. Aliases set in svelte.config.js or nuxt.config are not
 * read (they are code), except Nuxt's `srcDir` when it is a string literal.
 */
function withGeneratedAliases(options: ts.CompilerOptions, json: GeneratedConfigLinks, dir: string): ts.CompilerOptions {
  const linked = [
    ...(typeof json.extends === 'string' ? [json.extends] : Array.isArray(json.extends) ? json.extends : []),
    ...(Array.isArray(json.references) ? json.references.map((r: { path?: unknown }) => r?.path) : []),
  ].filter((e): e is string => typeof e === 'string');
  const missing = (pattern: RegExp): boolean => linked.some((e) => pattern.test(e) && !isFile(path.resolve(dir, e)));
  let paths: ts.MapLike<string[]> | undefined;
  if (missing(/(^|[\\/])\.svelte-kit[\\/]tsconfig\.json$/)) paths = aliasesTo(dir, [['$lib', 'src/lib']]);
  else if (missing(/(^|[\\/])\.nuxt[\\/]tsconfig(\.\w+)?\.json$/)) paths = nuxtAliases(dir);
  if (!paths) return options;
  return {
    ...options,
    paths: { ...paths, ...options.paths }, // an alias the project sets itself wins
    // where relative `paths` entries start when there is no baseUrl (the compiler's own key)
    pathsBasePath: (options as { pathsBasePath?: string }).pathsBasePath ?? dir,
  } as ts.CompilerOptions;
}

/** `alias` and `alias/*` mapped to absolute folders under `dir` (a `baseUrl` cannot move them). */
function aliasesTo(dir: string, aliases: readonly (readonly [string, string])[]): ts.MapLike<string[]> {
  const paths: ts.MapLike<string[]> = {};
  for (const [alias, target] of aliases) {
    const folder = path.join(dir, target);
    paths[alias] = [folder];
    paths[`${alias}/*`] = [path.join(folder, '*')];
  }
  return paths;
}

/**
 * Nuxt's default aliases: `~` and `@` the source directory, `~~` and `@@` the root, `#shared` the
 * root's shared/.
 */
function nuxtAliases(root: string): ts.MapLike<string[]> {
  const src = nuxtSourceDir(root);
  return aliasesTo(root, [['~', src], ['@', src], ['~~', '.'], ['@@', '.'], ['#shared', 'shared']]);
}

const NUXT_CONFIGS = ['nuxt.config.ts', 'nuxt.config.js', 'nuxt.config.mjs', 'nuxt.config.mts'];

/** Whether `dir` is the root of a Nuxt app (it holds a nuxt.config). */
export function isNuxtRoot(dir: string): boolean {
  return NUXT_CONFIGS.some((n) => isFile(path.join(dir, n)));
}

/**
 * A Nuxt app's source directory, relative to its root ('.' for the root itself): nuxt.config's
 * `srcDir` when it is a string literal; otherwise Nuxt 4's `app/` when there is one and the root
 * has neither app.vue nor pages/ (Nuxt 4 keeps a Nuxt 3 layout at the root), else the root.
 */
export function nuxtSourceDir(root: string): string {
  const configFile = NUXT_CONFIGS.map((n) => path.join(root, n)).find(isFile);
  const declared = configFile && /\bsrcDir\s*:\s*['"`]([^'"`$]+)['"`]/.exec(readFileSync(configFile, 'utf8'))?.[1];
  if (declared) return declared.replace(/^\.\//, '').replace(/\/+$/, '') || '.';
  if (isDirectory(path.join(root, 'app')) && !isFile(path.join(root, 'app.vue')) && !isDirectory(path.join(root, 'pages'))) return 'app';
  return '.';
}
