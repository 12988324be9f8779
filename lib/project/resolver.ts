/**
 * Module resolution as the project's own toolchain does it, with no install needed
 * (docs/migration-spec.md §7, "Module resolution" and P-UNRESOLVED). A specifier resolves to one of
 * three things:
 *  - a project file: relative paths, tsconfig `paths` aliases (`@/lib/ai`), package.json `#imports`,
 *    and workspace packages by name (`@acme/llm`), mapped from their build output to their source;
 *  - a package: the SDK however it is spelled, Node built-ins, and packages the project declares
 *    or has installed (another vendor's SDK is then proven not to be an `openai` client, N05);
 *  - unresolved: anything else. A call on a value from such a module is still a site.
 * The TypeScript compiler's own resolution does the work wherever it can (paths, exports,
 * extensions); what it cannot know without node_modules (workspace packages, dist → src) is here.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from '../scan/typescript.cjs';
import { DEFAULT_IGNORED_DIRS } from '../options.js';
import { HTTP_MODULES } from '../rules/http.js';
import { isFile, type PackageInfo, type ProjectLayout, type ResolutionConfig } from './layout.js';
import { aliasTarget, declaredRange, preferredSdk, sdkDeclarations } from './sdk-names.js';
import { canonicalModule, packageSpecifier, type PackageSpecifier } from './specifiers.js';

export type Resolution =
  | { kind: 'project'; file: string }
  /** `module` is the canonical id: 'openai', 'openai/helpers/zod', 'groq-sdk'. */
  | { kind: 'package'; name: string; module: string }
  | { kind: 'unresolved'; specifier: string };

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const DECLARATION = /\.d\.[mc]?ts$/;
const ANY_EXTENSION = /\.(d\.[mc]?ts|[mc]?[jt]sx?)$/;
/** Folders a build writes into: an import that lands there is mapped back to the source. */
const OUTPUT_DIRS = new Set(['dist', 'build', 'out', 'esm', 'cjs', 'lib-esm']);
const SOURCE_DIRS = ['src', 'source', 'lib', ''];
/** Export conditions tried in order: source-first conditions that monorepos use, then the usual. */
const CONDITIONS = ['source', 'development', 'types', 'import', 'module', 'require', 'node', 'default'];
const BUILTINS: ReadonlySet<string> = new Set(builtinModules);
const IGNORED: ReadonlySet<string> = new Set(DEFAULT_IGNORED_DIRS);

export class ModuleResolver {
  private readonly cache = new Map<string, Resolution>();
  private readonly host: ts.ModuleResolutionHost;

  constructor(private readonly layout: ProjectLayout, fileExists: (file: string) => boolean = isFile) {
    this.host = {
      fileExists,
      readFile: ts.sys.readFile,
      directoryExists: ts.sys.directoryExists,
      realpath: ts.sys.realpath,
      getCurrentDirectory: ts.sys.getCurrentDirectory,
    };
  }

  resolve(specifier: string, fromFile: string): Resolution {
    const key = `${path.dirname(fromFile)}\0${specifier}`;
    let r = this.cache.get(key);
    if (!r) {
      r = this.compute(specifier, fromFile);
      this.cache.set(key, r);
    }
    return r;
  }

  private compute(spec: string, from: string): Resolution {
    const named = packageSpecifier(spec);
    const bare = isBareSpecifier(spec);
    const pkg = named && bare ? this.installedAs(named, from) : named;
    if (pkg && named && pkg.name !== named.name) return asPackage(pkg); // an npm alias, declared by construction
    // the SDK however it is spelled, Node's own modules and the HTTP clients are known by name,
    // declared or not (a project does not call its own module `openai` or `axios`)
    if (pkg && pkg.name === 'openai' && bare) {
      const shadow = this.projectFileBehind(spec, from);
      if (shadow) return { kind: 'project', file: shadow };
    }
    if (pkg && (pkg.name === 'openai' || BUILTINS.has(pkg.name) || pkg.name.startsWith('node:') || HTTP_MODULES.has(pkg.name))) return asPackage(pkg);
    if (/^https?:\/\//.test(spec)) return pkg ? asPackage(pkg) : { kind: 'unresolved', specifier: spec };
    const config = this.layout.configFor(from);
    const resolved = this.viaCompiler(spec, from, config);
    if (resolved) {
      const file = this.projectSource(resolved.resolvedFileName);
      if (file) return { kind: 'project', file };
      if (pkg && resolved.isExternalLibraryImport) return asPackage(pkg);
      return { kind: 'unresolved', specifier: spec }; // build output with no source in view
    }
    if (spec.startsWith('#')) return this.fromImportsField(spec, from);
    if (pkg) {
      const workspace = this.layout.workspacePackage(pkg.name, from);
      if (workspace) {
        const file = this.packageEntry(workspace, pkg.subpath);
        return file ? { kind: 'project', file } : { kind: 'unresolved', specifier: spec };
      }
      if (this.isDeclared(pkg.name, from)) return asPackage(pkg);
    }
    return { kind: 'unresolved', specifier: spec };
  }

  /**
   * A project file that a tsconfig `paths` entry or `baseUrl` puts behind the SDK's own name
   * (`"paths": { "openai": ["./src/llm-shim.ts"] }`): what the project's build imports then,
   * unless the file belongs to a package named `openai`.
   */
  private projectFileBehind(spec: string, from: string): string | undefined {
    const config = this.layout.configFor(from);
    const mapped = [config, ...(config?.references ?? [])].some((c) => c?.options.paths || c?.options.baseUrl);
    if (!mapped) return undefined;
    const resolved = this.viaCompiler(spec, from, config);
    const file = resolved && !resolved.isExternalLibraryImport ? this.projectSource(resolved.resolvedFileName) : undefined;
    // the SDK's own source (its repository's examples, a vendored copy) is still the SDK
    return file && this.layout.packageFor(file)?.json.name !== 'openai' ? file : undefined;
  }

  /** The compiler's resolution with the file's own config (and its references' `paths`). */
  private viaCompiler(spec: string, from: string, config: ResolutionConfig | undefined): ts.ResolvedModuleFull | undefined {
    const configs = config ? [config, ...config.references] : [undefined];
    for (const c of configs) {
      const r = ts.resolveModuleName(spec, from, resolutionOptions(c?.options ?? {}), this.host).resolvedModule;
      if (r) return r;
    }
    return undefined;
  }

  /** A file of the project that holds source code, or the source a build output came from. */
  private projectSource(file: string): string | undefined {
    if (file.split(path.sep).includes('node_modules')) return undefined;
    if (this.inOutputDir(file)) return this.sourceOf(file);
    // a declaration file next to its source (client.d.ts beside client.js) stands for the source
    if (DECLARATION.test(file)) return this.sourceOf(file) ?? file;
    return SOURCE_EXTENSIONS.includes(path.extname(file)) ? file : undefined;
  }

  private inOutputDir(file: string): boolean {
    const pkg = this.layout.packageFor(file);
    const rel = path.relative(pkg?.dir ?? path.dirname(file), file).split(path.sep);
    return rel.length > 1 && (OUTPUT_DIRS.has(rel[0]) || IGNORED.has(rel[0]));
  }

  /**
   * The source file a build output (or a declaration file) stands for: `dist/client.d.ts` →
   * `src/client.ts`, using the package's tsconfig `outDir`/`rootDir` when it has them.
   */
  private sourceOf(file: string): string | undefined {
    const pkg = this.layout.packageFor(file);
    const dir = pkg?.dir ?? path.dirname(file);
    const rel = path.relative(dir, file).replace(ANY_EXTENSION, '');
    const parts = rel.split(path.sep);
    const bases: string[] = [];
    const options = this.layout.configFor(file)?.options;
    if (options?.outDir && options.rootDir) {
      const out = path.relative(dir, options.outDir);
      if (rel.startsWith(out + path.sep)) bases.push(path.join(options.rootDir, rel.slice(out.length + 1)));
    }
    const inner = OUTPUT_DIRS.has(parts[0]) || IGNORED.has(parts[0]) ? parts.slice(1) : parts;
    // dist/esm/x, dist/cjs/x: a second output folder level
    const deeper = inner.length > 1 && OUTPUT_DIRS.has(inner[0]) ? [inner.slice(1)] : [];
    for (const p of [inner, ...deeper]) for (const s of SOURCE_DIRS) bases.push(path.join(dir, s, ...p));
    for (const base of bases) {
      const found = withSourceExtension(base, this.host.fileExists);
      if (found && found !== file && !this.inOutputDir(found)) return found;
    }
    return undefined;
  }

  /** `#alias` from the nearest package.json `imports`, mapped to source when it points at output. */
  private fromImportsField(spec: string, from: string): Resolution {
    const pkg = this.layout.packageFor(from);
    const target = pkg && matchExportsMap(pkg.json.imports, spec);
    const file = target && pkg && this.fileInPackage(pkg, target);
    return file ? { kind: 'project', file } : { kind: 'unresolved', specifier: spec };
  }

  /** The source file a workspace package's entry point (or subpath) stands for. */
  private packageEntry(pkg: PackageInfo, subpath: string): string | undefined {
    const key = subpath ? `./${subpath}` : '.';
    const exported = pkg.json.exports !== undefined ? matchExportsMap(normalizeExports(pkg.json.exports), key) : undefined;
    const targets = exported ? [exported]
      : subpath ? [subpath]
      : [pkg.json.types, pkg.json.typings, pkg.json.module, pkg.json.main, 'index'].filter((t): t is string => typeof t === 'string');
    for (const target of targets) {
      const file = this.fileInPackage(pkg, target);
      if (file) return file;
    }
    return undefined;
  }

  /**
   * The source files a package's public entry points stand for (W-EDGE): every `exports` target
   * under every condition, else `main`/`module`/`types`/`typings`, else `index`. 'all' when an
   * `exports` pattern (`./*`) or an entry point with no source in view leaves any file possibly public.
   */
  publicEntries(pkg: PackageInfo): string[] | 'all' {
    const targets: string[] = [];
    if (pkg.json.exports !== undefined && pkg.json.exports !== null) {
      const map = normalizeExports(pkg.json.exports);
      if (!map || typeof map !== 'object' || Array.isArray(map)) return 'all';
      for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
        if (key.includes('*')) return 'all';
        targets.push(...allTargets(value));
      }
    } else {
      targets.push(...[pkg.json.main, pkg.json.module, pkg.json.types, pkg.json.typings].filter((t): t is string => typeof t === 'string'));
      if (targets.length === 0) {
        const index = this.fileInPackage(pkg, 'index');
        return index ? [index] : [];
      }
    }
    const files: string[] = [];
    for (const target of targets) {
      if (target.endsWith('.json')) continue;
      const file = this.fileInPackage(pkg, target);
      if (!file) return 'all';
      files.push(file);
    }
    return files;
  }

  private fileInPackage(pkg: PackageInfo, target: string): string | undefined {
    const abs = path.resolve(pkg.dir, target);
    const direct = isFile(abs) ? abs : withSourceExtension(abs.replace(ANY_EXTENSION, ''), this.host.fileExists);
    if (direct) {
      const source = this.projectSource(direct);
      if (source) return source;
    }
    return this.sourceOf(abs);
  }

  /**
   * The package a bare name really installs. A dependency declared as `"openai-v4": "npm:openai@^4"`
   * makes `openai-v4` the SDK; `"openai": "npm:@acme/llm@1"` makes `openai` another package, whose
   * client is then not proven to be OpenAI. The nearest package.json declaring the name decides, as
   * the node_modules lookup does.
   */
  private installedAs(pkg: PackageSpecifier, from: string): PackageSpecifier {
    for (const info of this.layout.packageChain(from)) {
      const declared = declaredRange(info.json, pkg.name);
      if (declared === undefined) continue;
      const target = aliasTarget(declared);
      return target && target !== pkg.name ? { name: target, subpath: pkg.subpath } : pkg;
    }
    return pkg;
  }

  /**
   * The name `from`'s package installs the SDK under, for the imports a rewrite adds: `openai`,
   * or an npm alias of it when `openai` is older than the verified lines and the alias is newer
   * (`"openai-next": "npm:openai@^6"` beside `"openai": "^3"`; sdk-names.ts preferredSdk). The
   * nearest package.json declaring the SDK decides.
   */
  sdkNameFor(from: string): string {
    for (const info of this.layout.packageChain(from)) {
      const preferred = preferredSdk(sdkDeclarations(info.json));
      if (preferred) return preferred.name;
    }
    return 'openai';
  }

  /** Declared by a package.json of the file's chain, or installed: a real third-party package. */
  private isDeclared(name: string, from: string): boolean {
    for (const pkg of this.layout.packageChain(from)) {
      const j = pkg.json;
      if (j.name === name) return true;
      if (declaredRange(j, name) !== undefined) return true;
    }
    let dir = path.dirname(from);
    const top = this.layout.topOf(dir);
    for (;;) {
      if (isFile(path.join(dir, 'node_modules', name, 'package.json'))) return true;
      const up = path.dirname(dir);
      if (dir === top || up === dir) return false;
      dir = up;
    }
  }
}

/** A plain package name as Node resolves it through node_modules (not `npm:`, `jsr:`, a URL or `node:`). */
function isBareSpecifier(spec: string): boolean {
  return !/^(?:npm|jsr|node):|^https?:\/\//.test(spec);
}

function asPackage(p: { name: string; subpath: string }): Resolution {
  return { kind: 'package', name: p.name, module: canonicalModule(p) };
}

/**
 * Resolution options from a project's compiler options. Bundler resolution accepts what every
 * other mode accepts (extensionless paths, `.js` naming a `.ts` file, `exports`, `imports`), and
 * the tool must follow whatever the project's own build follows.
 */
function resolutionOptions(o: ts.CompilerOptions): ts.CompilerOptions {
  return {
    ...o,
    allowJs: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    resolveJsonModule: false,
    noEmit: true,
  };
}

/** `base` + the first source extension that exists, or `base/index.<ext>`. */
function withSourceExtension(base: string, exists: (f: string) => boolean): string | undefined {
  for (const ext of SOURCE_EXTENSIONS) if (exists(base + ext)) return base + ext;
  for (const ext of SOURCE_EXTENSIONS) if (exists(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  return undefined;
}

/** `exports` as a map of subpaths (a bare string or a conditions object stands for `.`). */
function normalizeExports(exports: unknown): unknown {
  if (typeof exports === 'string' || Array.isArray(exports)) return { '.': exports };
  if (exports && typeof exports === 'object' && !Object.keys(exports).some((k) => k.startsWith('.'))) return { '.': exports };
  return exports;
}

/** The target of `key` in an `exports`/`imports` map, with `*` patterns and nested conditions. */
function matchExportsMap(map: unknown, key: string): string | undefined {
  if (!map || typeof map !== 'object' || Array.isArray(map)) return undefined;
  const entries = map as Record<string, unknown>;
  if (Object.hasOwn(entries, key)) return conditionTarget(entries[key], undefined);
  for (const [pattern, value] of Object.entries(entries)) {
    const star = pattern.indexOf('*');
    if (star < 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (key.startsWith(prefix) && key.endsWith(suffix) && key.length >= prefix.length + suffix.length) {
      return conditionTarget(value, key.slice(prefix.length, key.length - suffix.length));
    }
  }
  return undefined;
}

/** Every target string of an `exports` value, whatever its conditions. */
function allTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(allTargets);
  if (value && typeof value === 'object') return Object.values(value as Record<string, unknown>).flatMap(allTargets);
  return [];
}

function conditionTarget(value: unknown, star: string | undefined): string | undefined {
  if (typeof value === 'string') return star === undefined ? value : value.replaceAll('*', star);
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = conditionTarget(v, star);
      if (t) return t;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    const conditions = value as Record<string, unknown>;
    for (const c of CONDITIONS) {
      if (Object.hasOwn(conditions, c)) {
        const t = conditionTarget(conditions[c], star);
        if (t) return t;
      }
    }
  }
  return undefined;
}
