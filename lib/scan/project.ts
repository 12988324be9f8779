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

/** ts-morph's core package (its dependency, resolved as it does), only for its bundled lib files (type-aware mode). */
function tsMorphCommon(): { getLibFiles(): { fileName: string; text: string }[]; libFolderInMemoryPath: string } {
  return tsMorphRequire('@ts-morph/common');
}

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

export function createScanProject(candidates: CandidateText[], tsconfig?: string): ScanProject {
  if (tsconfig) {
    try {
      return build(candidates, tsconfig);
    } catch (err) {
      // a project file the compiler cannot take (stack overflow): fall back to import tracking
      if (!(err instanceof RangeError)) throw err;
      const fallback = build(candidates, undefined);
      return { ...fallback, degraded: `type-aware scanning with ${tsconfig} failed (${err.message}); imports were tracked instead` };
    }
  }
  return build(candidates, undefined);
}

function build(candidates: CandidateText[], tsconfig: string | undefined): ScanProject {
  const config = tsconfig ? readConfig(tsconfig) : undefined;
  const options: ts.CompilerOptions = config
    ? { ...config.options, allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true }
    : FALLBACK_OPTIONS;
  const memory = new Map(candidates.map((c) => [path.normalize(c.path), c.text]));
  const host = ts.createCompilerHost(options, true);
  if (config) {
    // ts-morph bundles the lib files (the compiler it ships has no lib folder on disk)
    const { getLibFiles, libFolderInMemoryPath } = tsMorphCommon();
    for (const lib of getLibFiles()) memory.set(path.join(libFolderInMemoryPath, lib.fileName), lib.text);
    host.getDefaultLibLocation = () => libFolderInMemoryPath;
    host.getDefaultLibFileName = (o) => path.join(libFolderInMemoryPath, ts.getDefaultLibFileName(o));
  }
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => memory.has(path.normalize(file)) || fileExists(file);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => memory.get(path.normalize(file)) ?? readFile(file);
  host.getSourceFile = (file, languageVersion, onError, shouldCreate) => {
    const text = memory.get(path.normalize(file));
    if (text !== undefined) return ts.createSourceFile(file, text, languageVersion, true, scriptKindFor(file));
    return getSourceFile(file, languageVersion, onError, shouldCreate);
  };
  if (!config) host.resolveModuleNames = relativeOnly(host, options);
  const rootNames = [...new Set([...(config?.fileNames ?? []), ...candidates.map((c) => c.path)])];
  const program = ts.createProgram({ rootNames, options, host });
  const checker = program.getTypeChecker();
  return {
    program,
    checker,
    typeAware: Boolean(config),
    tsconfig,
    sourceFile: (file) => program.getSourceFile(file),
  };
}

function readConfig(tsconfig: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(`cannot read ${tsconfig}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    },
  });
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return parsed;
}

/**
 * Resolve only project-relative imports: bare specifiers (`openai`, `zod`) are recognised by name.
 * A file the parsers cannot take safely (MAX_NESTING) is left unresolved rather than loaded.
 */
function relativeOnly(host: ts.CompilerHost, options: ts.CompilerOptions): ts.CompilerHost['resolveModuleNames'] {
  const safe = new Map<string, boolean>();
  const isSafe = (file: string): boolean => {
    let ok = safe.get(file);
    if (ok === undefined) {
      try {
        ok = maxNesting(host.readFile(file) ?? readFileSync(file, 'utf8')) <= MAX_NESTING;
      } catch {
        ok = false;
      }
      safe.set(file, ok);
    }
    return ok;
  };
  return (moduleNames, containingFile) => moduleNames.map((name) => {
    if (!name.startsWith('.') && !path.isAbsolute(name)) return undefined;
    const resolved = ts.resolveModuleName(name, containingFile, options, host).resolvedModule;
    return resolved && (resolved.resolvedFileName.endsWith('.d.ts') || isSafe(resolved.resolvedFileName)) ? resolved : undefined;
  });
}

/** Syntax errors of a file (TypeScript keeps them apart from type errors). */
export function syntaxErrors(sf: ts.SourceFile): string[] {
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
