/**
 * Builds the program the scanner reads: the candidate files plus whatever they import from the
 * project. With a tsconfig the project's own settings (paths, node_modules types) apply and the
 * checker can tell what type a receiver has; without one, only relative imports are followed
 * ("import tracking") and nothing from node_modules is loaded.
 *
 * The program is created with the TypeScript compiler that ts-morph bundles (its core package,
 * @ts-morph/common), through a compiler host that serves the candidates' texts from memory.
 * ts-morph's Project wrapper is not used here: it wraps every file's children on creation, which
 * is quadratic on one-line minified bundles (13 s for a single 8,000-function line, against 0.3 s
 * for the program alone), and loading it costs 90 ms on every run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_NESTING, maxNesting } from './guards.js';
import { tsMorphRequire } from './compiler-files.cjs';
import ts from './typescript.cjs';
import { libFiles } from './lib-files.js';
import { importDepths } from './import-depth.js';
import type { ModuleResolver } from '../project/resolver.js';

/** ts-morph's core package (its dependency, resolved as it does), for its bundled lib files. */
export function tsMorphCommon(): { getLibFiles(): { fileName: string; text: string }[]; libFolderInMemoryPath: string } {
  return tsMorphRequire('@ts-morph/common');
}

/** Where the bundled lib files are served from (memory only; the path must not exist on disk). */
const LIB_FOLDER = '/node_modules/typescript/lib';

export interface CandidateText {
  /** Absolute path. */
  path: string;
  /** Text without the BOM. */
  text: string;
}

export interface ScanProject {
  program: ts.Program;
  checker: ts.TypeChecker;
  /** True when a tsconfig drives module resolution and types. */
  typeAware: boolean;
  tsconfig?: string;
  /** Set when type-aware scanning had to be given up. */
  degraded?: string;
  sourceFile(file: string): ts.SourceFile | undefined;
}

export function scriptKindFor(file: string): ts.ScriptKind {
  const ext = path.extname(file).toLowerCase();
  switch (ext) {
    case '.tsx': return ts.ScriptKind.TSX;
    case '.ts': case '.mts': case '.cts': return ts.ScriptKind.TS;
    case '.jsx': return ts.ScriptKind.JSX;
    default: return ts.ScriptKind.JS;
  }
}

/**
 * Import tracking: no tsconfig, nothing from node_modules, no lib files. The ECMAScript lib
 * (bundled with the compiler, no DOM) is added only when a site needs it (WITH_ES_LIB): without
 * it `input.trim()` or `arr.entries()` have no type, and a message content the tool cannot prove
 * string-typed is reported rather than passed through (M-CONTENT-UNTYPED).
 */
const FALLBACK_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  noLib: true,
  types: [],
  jsx: ts.JsxEmit.Preserve,
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: false,
  skipLibCheck: true,
};

const WITH_ES_LIB: ts.CompilerOptions = { ...FALLBACK_OPTIONS, noLib: false, lib: ['lib.es2022.d.ts'] };

export interface ProjectInput {
  /** Every candidate file's text (files loaded by imports come from here first, then the disk). */
  candidates: CandidateText[];
  /** The files the program starts from; their imports are loaded as the compiler resolves them. */
  roots: string[];
  /** A tsconfig that switches type-aware scanning on. */
  tsconfig?: string;
  /** How every specifier resolves, with each file's own configuration (lib/project). */
  resolver: ModuleResolver;
  /** Import tracking with the ECMAScript lib. */
  withLib?: boolean;
  /** Steps of import followed from the roots (lib/scan/import-depth.ts). */
  maxDepth?: number;
  /** Roots whose imports are followed although they call nothing (normalised paths). */
  expand?: ReadonlySet<string>;
  /**
   * Source files parsed by an earlier program of the same run, reused (and filled): a second
   * program then parses and binds only what the first did not have (type-aware programs keep
   * theirs apart, keyed by this map).
   */
  sources?: Map<string, ts.SourceFile>;
}

/** The type-aware programs' trees of a run, keyed by the run's import-tracking cache. */
const typedTrees = new WeakMap<Map<string, ts.SourceFile>, Map<string, ts.SourceFile>>();

function typedTreesOf(sources: Map<string, ts.SourceFile>): Map<string, ts.SourceFile> {
  let trees = typedTrees.get(sources);
  if (!trees) {
    trees = new Map();
    typedTrees.set(sources, trees);
  }
  return trees;
}

export function createScanProject(input: ProjectInput): ScanProject {
  if (input.tsconfig) {
    try {
      return build(input, input.tsconfig);
    } catch (err) {
      // a project the compiler cannot take (a stack overflow, an unreadable config, a compiler
      // bug): fall back to import tracking rather than lose the run
      const fallback = build(input, undefined);
      return { ...fallback, degraded: `type-aware scanning with ${input.tsconfig} failed (${(err as Error).message}); imports were tracked instead` };
    }
  }
  return build(input, undefined);
}

function build(input: ProjectInput, tsconfig: string | undefined): ScanProject {
  const config = tsconfig ? readConfig(tsconfig) : undefined;
  const options: ts.CompilerOptions = config
    ? { ...config.options, allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true }
    : input.withLib ? WITH_ES_LIB : FALLBACK_OPTIONS;
  const memory = new Map(input.candidates.map((c) => [path.normalize(c.path), c.text]));
  const host = ts.createCompilerHost(options, true);
  // ts-morph bundles the lib files (the compiler it ships has no lib folder on disk)
  // the program reads only the lib files its options name
  const libs = config || input.withLib ? libFiles(() => tsMorphCommon().getLibFiles()) : [];
  for (const lib of libs) memory.set(path.join(LIB_FOLDER, lib.fileName), lib.text);
  host.getDefaultLibLocation = () => LIB_FOLDER;
  host.getDefaultLibFileName = (o) => path.join(LIB_FOLDER, ts.getDefaultLibFileName(o));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => memory.has(path.normalize(file)) || fileExists(file);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => memory.get(path.normalize(file)) ?? readFile(file);
  // the trees of earlier programs of the run; type-aware programs parse with the tsconfig's options,
  // so they share a cache of their own (the same tsconfig for every program of a run)
  const sources = !input.sources ? new Map<string, ts.SourceFile>() : config ? typedTreesOf(input.sources) : input.sources;
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    const key = path.normalize(file);
    const reused = sources?.get(key);
    if (reused) return reused;
    const text = memory.get(key);
    const sf = text !== undefined
      ? ts.createSourceFile(file, text, languageVersion, true, scriptKindFor(file))
      : getSourceFile(file, languageVersion, onError, shouldCreate);
    if (sf) sources.set(key, sf);
    return sf;
  };
  const safe = new Map<string, boolean>();
  /** A file the parsers can take safely (MAX_NESTING); the ones in memory were checked already. */
  const isSafeToParse = (file: string): boolean => {
    const key = path.normalize(file);
    if (memory.has(key) || key.endsWith('.d.ts')) return true;
    let ok = safe.get(key);
    if (ok === undefined) {
      try {
        ok = maxNesting(readFileSync(file, 'utf8')) <= MAX_NESTING;
      } catch {
        ok = false;
      }
      safe.set(key, ok);
    }
    return ok;
  };
  const target = options.target ?? ts.ScriptTarget.ESNext;
  const depths = importDepths(input.roots, input.resolver, {
    sourceOf: (file) => (isSafeToParse(file) ? host.getSourceFile(file, target) : undefined),
    textOf: (file) => host.readFile(file),
  }, input.maxDepth, input.expand);
  host.resolveModuleNames = resolvedBy(input.resolver, host, options, Boolean(config), (file) => depths.has(path.normalize(file)) && isSafeToParse(file));
  const program = ts.createProgram({ rootNames: input.roots, options, host });
  const checker = program.getTypeChecker();
  return {
    program,
    checker,
    typeAware: Boolean(config),
    tsconfig,
    sourceFile: (file) => program.getSourceFile(file),
  };
}

/** The tsconfig's options (with its `extends` chain); its file list is not needed and not expanded. */
function readConfig(tsconfig: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, {
    ...ts.sys,
    readDirectory: () => [],
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(`cannot read ${tsconfig}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    },
  });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  // a config with errors (invalid JSON, an unknown option value) is not the project's real setup;
  // "no inputs were found" (TS18003) only says the file list was not expanded
  const error = parsed.errors.find((d) => d.category === ts.DiagnosticCategory.Error && d.code !== 18003);
  if (error) throw new Error(`cannot read ${tsconfig}: ${ts.flattenDiagnosticMessageText(error.messageText, ' ')}`);
  return parsed;
}

/**
 * The program's module resolution is the project resolver's (lib/project/resolver.ts): project
 * files however they are reached (relative, `paths`, `#imports`, workspace packages), within the
 * import depth and safe to parse (`loadable`); packages only in type-aware mode, where their
 * declarations come from node_modules. An import left unresolved simply has no value.
 */
function resolvedBy(resolver: ModuleResolver, host: ts.CompilerHost, options: ts.CompilerOptions, typeAware: boolean, loadable: (file: string) => boolean): ts.CompilerHost['resolveModuleNames'] {
  return (moduleNames, containingFile) => moduleNames.map((name) => {
    const r = resolver.resolve(name, containingFile);
    if (r.kind === 'project') return loadable(r.file) ? { resolvedFileName: r.file, extension: extensionOf(r.file), isExternalLibraryImport: false } : undefined;
    if (r.kind === 'package' && typeAware) return ts.resolveModuleName(r.module, containingFile, options, host).resolvedModule;
    return undefined;
  });
}

function extensionOf(file: string): ts.Extension {
  for (const ext of [ts.Extension.Dts, ts.Extension.Dmts, ts.Extension.Dcts]) if (file.endsWith(ext)) return ext;
  const ext = path.extname(file) as ts.Extension;
  return Object.values(ts.Extension).includes(ext) ? ext : ts.Extension.Ts;
}

/** Syntax errors of a file (TypeScript keeps them apart from type errors). */
export function syntaxErrors(sf: ts.SourceFile): string[] {
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
