/**
 * The parser for each file kind (README "How it works"): `.ts/.mts/.cts` → TypeScript without JSX (so
 * `<T>x` assertions parse), `.tsx` → TypeScript with JSX, JS files → JSX and modern syntax.
 * The same parser checks every rewritten file before it is written.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ParserOptions, ParserPlugin } from '@babel/parser';

// Required, not imported: Node would otherwise lex Babel's 0.5 MB parser for its export names on
// every run (see context.ts).
const { parse } = createRequire(import.meta.url)('@babel/parser') as typeof import('@babel/parser');

const COMMON: ParserPlugin[] = [
  'decorators-legacy', 'explicitResourceManagement', 'importAttributes', 'sourcePhaseImports', 'deferredImportEvaluation',
  'doExpressions', 'exportDefaultFrom', 'functionBind', 'throwExpressions',
];

function pluginsFor(file: string): ParserPlugin[] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return ['typescript', ...COMMON];
  if (ext === '.tsx') return [['typescript', {}], 'jsx', ...COMMON];
  return ['jsx', ...COMMON];
}

/** Files of the same kind get the same parser options. */
export function parserKind(file: string): string {
  return path.extname(file).toLowerCase();
}

export function parserOptions(file: string): ParserOptions {
  const ext = parserKind(file);
  return {
    sourceType: ext === '.cjs' || ext === '.cts' ? 'unambiguous' : 'module',
    allowImportExportEverywhere: true,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    allowNewTargetOutsideFunction: true,
    allowUndeclaredExports: true,
    errorRecovery: false,
    // no token list: nothing is printed through recast, the edits are text patches
    plugins: pluginsFor(file),
  };
}

/** A jscodeshift-compatible parser object for this file. */
export function parserFor(file: string): { parse(code: string): ReturnType<typeof parse> } {
  const options = parserOptions(file);
  return { parse: (code: string) => parse(code, options) };
}

/** Throws a SyntaxError with a position when the text does not parse. */
export function assertParses(file: string, code: string): void {
  parse(code, parserOptions(file));
}
