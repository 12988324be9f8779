/**
 * W-EDGE at modules loaded by a path computed at run time: `await import(\`./providers/${name}.js\`)`,
 * `require(path.join(__dirname, 'providers', name))`, Vite's `import.meta.glob('./tools/*.ts')`,
 * webpack's `require.context('./tools')`. Such a caller names neither the function nor its module,
 * so the caller search never sees it, and it keeps reading the Chat shape after the rewrite (probe
 * of module structure, 2026-12-05: `mod[fn](q)` read `choices[0]` of a Response). Each such load is
 * reduced to the folder its fixed prefix names; a load whose prefix says nothing (`import(spec)`)
 * may load any module of its own package.
 */
import path from 'node:path';
import { ts } from './ast.js';

export interface ComputedLoad {
  /** 1-based line of the load in its file. */
  line: number;
  /**
   * The folder every module it may load lies in (absolute), or undefined when the path says
   * nothing of where (a variable, a bundler's alias).
   */
  folder?: string;
}

/** Cheap test before a parse: the text holds a call that may load a module by a computed path. */
const MAY_LOAD = /\b(?:import|require)\s*\(\s*[^'"\s)]|\b(?:import|require)\s*\(\s*['"][^'"]*['"]\s*\+|import\.meta\.glob|require\.context/;

/** The loads by computed path in one file's text. */
export function computedLoads(file: string, text: string): ComputedLoad[] {
  if (!MAY_LOAD.test(text)) return [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
  const loads: ComputedLoad[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const prefix = loadPrefix(n, path.dirname(file));
      if (prefix !== null) loads.push({ line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, folder: prefix });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return loads;
}

/**
 * Whether a load may reach `target`: it lies under the load's folder, or the load's folder is
 * unknown and `target` is in the importer's own package (`sameRoot`).
 */
export function loadReaches(load: ComputedLoad, target: string, sameRoot: boolean): boolean {
  if (load.folder === undefined) return sameRoot;
  return target.startsWith(load.folder.endsWith(path.sep) ? load.folder : load.folder + path.sep);
}

/**
 * For a call that loads a module by a computed path, the folder it loads from (undefined when
 * unknown); null for any other call, a load by a fixed string included.
 */
function loadPrefix(call: ts.CallExpression, dir: string): string | undefined | null {
  const callee = call.expression;
  const arg = call.arguments[0];
  if (!arg) return null;
  // import.meta.glob('./tools/*.ts'), import.meta.glob(['./a/*.ts', …]); require.context('./tools', …)
  if (ts.isPropertyAccessExpression(callee) && (isImportMetaGlob(callee) || isRequireContext(callee))) {
    const patterns = ts.isArrayLiteralExpression(arg) ? arg.elements : [arg];
    const folders = patterns.map((p) => (ts.isStringLiteralLike(p) ? folderOf(globPrefix(p.text, isRequireContext(callee)), dir) : undefined));
    return folders.length === 1 ? folders[0] : commonFolder(folders);
  }
  const loader = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
  if (!loader || ts.isStringLiteralLike(arg)) return null;
  return folderOf(fixedPrefix(arg), dir);
}

function isImportMetaGlob(callee: ts.PropertyAccessExpression): boolean {
  return /^glob(Eager)?$/.test(callee.name.text) && ts.isMetaProperty(callee.expression) && callee.expression.keywordToken === ts.SyntaxKind.ImportKeyword;
}

function isRequireContext(callee: ts.PropertyAccessExpression): boolean {
  return callee.name.text === 'context' && ts.isIdentifier(callee.expression) && callee.expression.text === 'require';
}

/** A glob's text before its first wildcard; require.context's argument is a folder already. */
function globPrefix(pattern: string, folder: boolean): string {
  if (folder) return pattern.endsWith('/') ? pattern : `${pattern}/`;
  const wild = pattern.search(/[*?{[]/);
  return wild < 0 ? pattern : pattern.slice(0, wild);
}

/**
 * The path's text fixed before its first computed part: a template's head, the left string of a
 * `+`, or `path.join(__dirname, 'a', 'b', name)` as `<dir>/a/b/` (absolute). Undefined when none.
 */
function fixedPrefix(arg: ts.Expression): string | undefined {
  const e = skipParens(arg);
  if (ts.isTemplateExpression(e)) return e.head.text;
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = skipParens(e.left);
    return ts.isStringLiteralLike(left) ? left.text : fixedPrefix(left);
  }
  if (ts.isCallExpression(e) && /^(path\.)?(join|resolve)$/.test(e.expression.getText()) && e.arguments.length > 1) {
    const [first, ...rest] = e.arguments;
    if (!isModuleDir(first)) return undefined;
    const parts: string[] = [];
    for (const a of rest) {
      if (!ts.isStringLiteralLike(a)) break;
      parts.push(a.text);
    }
    // every part fixed: the call names one module, which a fixed require would name too (not computed)
    return `./${parts.join('/')}/`;
  }
  return undefined;
}

/** `__dirname`, `import.meta.dirname`. */
function isModuleDir(e: ts.Expression): boolean {
  return (ts.isIdentifier(e) && e.text === '__dirname') || (ts.isPropertyAccessExpression(e) && e.name.text === 'dirname' && ts.isMetaProperty(e.expression));
}

function skipParens(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

/**
 * The folder a fixed prefix names, relative to the importing file's folder: `./providers/open`
 * → `<dir>/providers`. A prefix that is not relative (a bundler's alias, `@/providers/`; nothing
 * at all) says nothing: undefined.
 */
function folderOf(prefix: string | undefined, dir: string): string | undefined {
  if (prefix === undefined || !/^\.\.?\//.test(prefix)) return undefined;
  const cut = prefix.lastIndexOf('/');
  return path.resolve(dir, prefix.slice(0, cut + 1));
}

/** The deepest folder holding every one of the folders; undefined when one is unknown. */
function commonFolder(folders: (string | undefined)[]): string | undefined {
  if (!folders.length || folders.some((f) => f === undefined)) return undefined;
  let common = folders[0]!;
  for (const f of folders.slice(1)) {
    while (!(f! === common || f!.startsWith(common + path.sep))) common = path.dirname(common);
  }
  return common;
}

function scriptKindOf(file: string): ts.ScriptKind {
  return /\.[cm]?tsx$|\.jsx$/.test(file) ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}
