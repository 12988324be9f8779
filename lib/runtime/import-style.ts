/**
 * How a TypeScript file spells a relative import of the run-time converter: `.js` under
 * Node16/NodeNext resolution; else the extension style of the file's own relative imports (`.js`,
 * `.ts` or none); else the style of its package's other TypeScript files (a file that imports only
 * packages says nothing, and its package's convention is what its runner resolves; `.ts` only where
 * the tsconfig allows it, else tsc fails with TS5097); else `.js` in a
 * `"type": "module"` package (Node's ES module loader needs the extension, and TypeScript maps
 * `./x.js` to `x.ts`), else none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_IGNORED_DIRS } from '../options.js';
import type { PackageInfo, ProjectLayout } from '../project/layout.js';
import ts from '../scan/typescript.cjs';

export type ImportStyle = '.js' | '.ts' | '';

/** Files of a package read for its import style, at most. */
const MAX_STYLE_FILES = 400;
const TS_FILE = /\.(?:m|c)?tsx?$/;
const IGNORED = new Set<string>(DEFAULT_IGNORED_DIRS);

/** Per run (its layout): a later run in the same process reads the files again. */
const packageStyles = new WeakMap<ProjectLayout, Map<string, ImportStyle | undefined>>();

export function importStyleOf(file: string, sf: ts.SourceFile, pkg: PackageInfo, layout: ProjectLayout): ImportStyle {
  const options = layout.configFor(file)?.options ?? {};
  const resolution = options.moduleResolution ?? (options.module === ts.ModuleKind.Node16 || options.module === ts.ModuleKind.NodeNext ? ts.ModuleResolutionKind.NodeNext : undefined);
  if (resolution === ts.ModuleResolutionKind.Node16 || resolution === ts.ModuleResolutionKind.NodeNext) return '.js';
  const own = majorityStyle(relativeSpecifiers(sf));
  if (own !== undefined) return own;
  const fallback = pkg.json.type === 'module' ? '.js' : '';
  const shared = packageStyle(pkg, layout);
  // `.ts` specifiers fail tsc without allowImportingTsExtensions (TS5097): a package whose runner
  // takes them (ts-node transpile-only) resolves `.js` to the `.ts` file as well
  if (shared === '.ts' && !options.allowImportingTsExtensions && !options.rewriteRelativeImportExtensions) return fallback;
  return shared ?? fallback;
}

function packageStyle(pkg: PackageInfo, layout: ProjectLayout): ImportStyle | undefined {
  let styles = packageStyles.get(layout);
  if (!styles) packageStyles.set(layout, (styles = new Map()));
  if (!styles.has(pkg.dir)) {
    const specifiers: string[] = [];
    for (const file of tsFilesOf(pkg.dir)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const { fileName } of ts.preProcessFile(text, true, false).importedFiles) if (fileName.startsWith('.')) specifiers.push(fileName);
    }
    styles.set(pkg.dir, majorityStyle(specifiers));
  }
  return styles.get(pkg.dir);
}

/** The package's TypeScript files, breadth first, without dependencies, builds or nested packages. */
function tsFilesOf(dir: string): string[] {
  const out: string[] = [];
  const queue = [dir];
  while (queue.length && out.length < MAX_STYLE_FILES) {
    const current = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    if (current !== dir && entries.some((e) => e.isFile() && e.name === 'package.json')) continue;
    for (const e of entries) {
      if (e.isDirectory() && !IGNORED.has(e.name) && !e.name.startsWith('.')) queue.push(path.join(current, e.name));
      else if (e.isFile() && TS_FILE.test(e.name) && !e.name.endsWith('.d.ts') && out.length < MAX_STYLE_FILES) out.push(path.join(current, e.name));
    }
  }
  return out;
}

function styleOf(specifier: string): ImportStyle {
  return /\.(m|c)?js$/.test(specifier) ? '.js' : /\.(m|c)?tsx?$/.test(specifier) ? '.ts' : '';
}

/** The most used style (ties go to `.js`, then `.ts`), or undefined without any specifier. */
function majorityStyle(specifiers: readonly string[]): ImportStyle | undefined {
  if (!specifiers.length) return undefined;
  const styles = specifiers.map(styleOf);
  const count = (style: ImportStyle) => styles.filter((s) => s === style).length;
  return (['.js', '.ts', ''] as const).reduce((best, s) => (count(s) > count(best) ? s : best));
}

function relativeSpecifiers(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const s of sf.statements) {
    const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? s.moduleSpecifier.text : undefined;
    if (spec && spec.startsWith('.')) out.push(spec);
  }
  return out;
}
