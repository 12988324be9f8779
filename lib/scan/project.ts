/**
 * Builds the ts-morph project the scanner reads: the candidate files plus whatever they import
 * from the project. With a tsconfig the project's own settings (paths, node_modules types) apply
 * and the checker can tell what type a receiver has; without one, only relative imports are
 * followed ("import tracking") and nothing from node_modules is loaded.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Project, ts } from 'ts-morph';
import { MAX_NESTING, maxNesting } from './guards.js';

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
  /** Set when type-aware scanning had to be given up. */
  degraded?: string;
  tsconfig?: string;
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
 * Resolve only project-relative imports: bare specifiers (`openai`, `zod`) are recognised by name.
 * A file the parsers cannot take safely (MAX_NESTING) is left unresolved rather than loaded.
 */
const relativeOnly = (host: ts.ModuleResolutionHost, getOptions: () => ts.CompilerOptions) => {
  const safe = new Map<string, boolean>();
  const isSafe = (file: string): boolean => {
    let ok = safe.get(file);
    if (ok === undefined) {
      try {
        ok = maxNesting(readFileSync(file, 'utf8')) <= MAX_NESTING;
      } catch {
        ok = false;
      }
      safe.set(file, ok);
    }
    return ok;
  };
  return {
    resolveModuleNames(moduleNames: string[], containingFile: string): (ts.ResolvedModule | undefined)[] {
      return moduleNames.map((name) => {
        if (!name.startsWith('.') && !path.isAbsolute(name)) return undefined;
        const resolved = ts.resolveModuleName(name, containingFile, getOptions(), host).resolvedModule;
        return resolved && (resolved.resolvedFileName.endsWith('.d.ts') || isSafe(resolved.resolvedFileName)) ? resolved : undefined;
      });
    },
  };
};

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
  const project = tsconfig
    ? new Project({
        tsConfigFilePath: tsconfig,
        compilerOptions: { allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true },
      })
    : new Project({
        compilerOptions: FALLBACK_OPTIONS,
        skipLoadingLibFiles: true,
        resolutionHost: relativeOnly,
      });
  for (const c of candidates) {
    project.createSourceFile(c.path, c.text, { overwrite: true, scriptKind: scriptKindFor(c.path) });
  }
  const program = project.getProgram().compilerObject;
  const checker = program.getTypeChecker();
  return {
    program,
    checker,
    typeAware: Boolean(tsconfig),
    tsconfig,
    sourceFile: (file) => program.getSourceFile(file),
  };
}

/** Syntax errors of a file (TypeScript keeps them apart from type errors). */
export function syntaxErrors(sf: ts.SourceFile): string[] {
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map((d) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
