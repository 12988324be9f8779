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
      if (prefix !== null && mayHideCalls(n)) loads.push({ line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, folder: prefix });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return loads;
}

/**
 * Whether the loaded module may be used without naming what it calls: only then is a caller
 * hidden from the search by name. A module whose members are all read by a fixed name
 * (`mod.discoverFiles(…)`, `const { ask } = await import(p)`) names them, and a caller through it
 * is found, untyped, and stops following there (callers.ts). Anything else may hide one: a
 * computed key (`mod[method]`), `default`, the module handed on, returned or stored, `.then`.
 */
function mayHideCalls(load: ts.CallExpression): boolean {
  let outer: ts.Node = load;
  // the value goes on as it is through parentheses, casts, `await`, and a conditional's branch
  while (isPassThrough(outer.parent) || (ts.isConditionalExpression(outer.parent) && outer.parent.condition !== outer)) outer = outer.parent;
  const parent = outer.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) return !fixedName(parent.name.text, load);
  if (!ts.isVariableDeclaration(parent) || parent.initializer !== outer) return true;
  if (ts.isObjectBindingPattern(parent.name)) {
    return parent.name.elements.some((el) => el.dotDotDotToken || (el.propertyName ? !ts.isIdentifier(el.propertyName) : false) ||
      !fixedName((el.propertyName ?? el.name).getText(), load));
  }
  if (!ts.isIdentifier(parent.name)) return true;
  // every use of the name in the declaration's scope (shadowing counts against it: the safe side)
  const name = parent.name.text;
  const scope = parent.parent.parent.parent;
  let hides = false;
  const visit = (n: ts.Node): void => {
    if (hides) return;
    if (ts.isIdentifier(n) && n.text === name && n !== parent.name) {
      let inner: ts.Node = n;
      while (isPassThrough(inner.parent) && !ts.isAwaitExpression(inner.parent)) inner = inner.parent;
      const use = inner === n ? n.parent : inner.parent;
      if (inner !== n && ts.isPropertyAccessExpression(use) && use.expression === inner) {
        if (!fixedName(use.name.text, load)) hides = true;
        return;
      }
      const read = ts.isPropertyAccessExpression(use) && use.expression === n && fixedName(use.name.text, load);
      // a declaration's or a member's own name (`{ files: 0 }`, `files: number;`, `x.files`) is no use of it
      const named = !ts.isShorthandPropertyAssignment(use) && (use as { name?: ts.Node }).name === n;
      if (!read && !named) hides = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(scope);
  return hides;
}

function isPassThrough(n: ts.Node): boolean {
  return ts.isParenthesizedExpression(n) || ts.isAwaitExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n) ||
    ts.isTypeAssertionExpression(n) || ts.isSatisfiesExpression(n);
}

/** A member read by this name names what it calls; `default` (named by importers as they like) and `then` (a promise's) do not. */
function fixedName(name: string, load: ts.CallExpression): boolean {
  return name !== 'default' && !(name === 'then' && load.expression.kind === ts.SyntaxKind.ImportKeyword);
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
 * unknown); null for any other call: a load by a fixed string, or one whose path ends in a name
 * no source module has (`` import(`@assets/bg/${name}.png`) ``, `require(path.resolve(cwd, 'package.json'))`).
 */
function loadPrefix(call: ts.CallExpression, dir: string): string | undefined | null {
  const callee = call.expression;
  const arg = call.arguments[0];
  if (!arg) return null;
  // import.meta.glob('./tools/*.ts'), import.meta.glob(['./a/*.ts', …]); require.context('./tools', …)
  if (ts.isPropertyAccessExpression(callee) && (isImportMetaGlob(callee) || isRequireContext(callee))) {
    const patterns = ts.isArrayLiteralExpression(arg) ? arg.elements : [arg];
    if (!isRequireContext(callee) && patterns.every((p) => ts.isStringLiteralLike(p) && !isSourceName(p.text))) return null;
    const folders = patterns.map((p) => (ts.isStringLiteralLike(p) ? folderOf(globPrefix(p.text, isRequireContext(callee)), dir) : undefined));
    return folders.length === 1 ? folders[0] : commonFolder(folders);
  }
  const loader = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
  if (!loader || ts.isStringLiteralLike(arg)) return null;
  const shape = pathShape(arg, 0);
  if (shape.tail !== undefined && !isSourceName(shape.tail)) return null;
  return folderOf(shape.head, dir);
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

/** A path's fixed text before its first computed part (`head`) and after its last (`tail`), when known. */
interface PathShape {
  head?: string;
  tail?: string;
}

/**
 * The fixed ends of a computed path: a template's head and last literal, the outer strings of a
 * `+`, `path.join(__dirname, 'a', name, 'index.js')` as `./a/` … `index.js`, and a const of the
 * same file holding one of those (`const dir = path.join(__dirname, 'commands')`: a Discord bot's
 * command loader).
 */
function pathShape(arg: ts.Expression, depth: number): PathShape {
  const e = skipParens(arg);
  if (ts.isStringLiteralLike(e)) return { head: e.text, tail: e.text };
  if (ts.isTemplateExpression(e)) return { head: e.head.text, tail: e.templateSpans[e.templateSpans.length - 1]!.literal.text || undefined };
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return { head: pathShape(e.left, depth).head, tail: pathShape(e.right, depth).tail };
  }
  const init = ts.isIdentifier(e) && depth < 3 ? constInitializer(e) : undefined;
  if (init) return pathShape(init, depth + 1);
  if (ts.isCallExpression(e) && /^(path\.)?(join|resolve)$/.test(e.expression.getText()) && e.arguments.length > 0) {
    const [first, ...rest] = e.arguments;
    const last = rest.length ? skipParens(rest[rest.length - 1]!) : undefined;
    const tail = last && ts.isStringLiteralLike(last) ? last.text.split('/').pop() : undefined;
    const base = isModuleDir(first!) ? '.' : depth < 3 ? wholeFolder(first!, depth + 1) : undefined;
    if (base === undefined) return { tail };
    const parts: string[] = [];
    for (const a of rest) {
      if (!ts.isStringLiteralLike(a)) break;
      parts.push(a.text);
    }
    return { head: `${[base.replace(/\/$/, ''), ...parts].join('/')}/`, tail };
  }
  return {};
}

/**
 * The folder a join of fixed parts names in full (`path.join(__dirname, 'commands')`, or a const
 * holding it), relative to the file's folder; undefined otherwise.
 */
function wholeFolder(e: ts.Expression, depth: number): string | undefined {
  let inner = skipParens(e);
  if (ts.isIdentifier(inner)) {
    const init = constInitializer(inner);
    if (!init) return undefined;
    inner = skipParens(init);
  }
  if (!ts.isCallExpression(inner) || !inner.arguments.slice(1).every((a) => ts.isStringLiteralLike(a))) return undefined;
  return pathShape(inner, depth).head;
}

/** The initializer of the file's one declaration of this name, when that is a const's. */
function constInitializer(id: ts.Identifier): ts.Expression | undefined {
  const found: Array<ts.Expression | undefined> = [];
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === id.text) {
      found.push(n.parent.flags & ts.NodeFlags.Const ? n.initializer : undefined);
    }
    ts.forEachChild(n, visit);
  };
  visit(id.getSourceFile());
  return found.length === 1 ? found[0] : undefined;
}

/** A name a source module may have: a script extension, or none (resolution adds one). */
function isSourceName(name: string): boolean {
  const ext = /\.(\w+)$/.exec(name.split('/').pop() ?? '')?.[1];
  return ext === undefined || /^[cm]?[jt]sx?$/.test(ext);
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
