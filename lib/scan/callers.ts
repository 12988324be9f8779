/**
 * W-FOLLOW through a function's return (docs/migration-spec.md §1.4b): the function a returned
 * Chat value leaves, and every call of it in the project. Following stops (W-EDGE), with the
 * place it stopped, at a use that is not a call, a same-named use the checker cannot tell apart,
 * a method of a class hierarchy (a call typed as the base may run it), a function exported from
 * a published package, a re-export under another name, or a module whose importers are not all
 * in the paths given. A binding that renames it on the way in (`import { f as g }`, `const { f: g }
 * = require(…)`, `await import(…)`) is followed to its own uses, as are the names importers give a
 * default export (default-imports.ts).
 */
import { existsSync } from 'node:fs';
import { ts, climbWrappers, isFunctionLike, walk, returnExpressions, shortText, unwrap, propertyNameText } from './ast.js';
import type { ScanContext } from './context.js';
import type { SiteAnalysis } from './site.js';
import { locationOf, relativeFile } from './context.js';
import { isExported, isExportedObject, isModuleExports, referencesOf, symbolOf } from './references.js';
import { defaultImportBindings, isProjectSpecifier } from './default-imports.js';
import { moduleObjectEscape } from './module-objects.js';
import { fromMissingModule } from './missing-module.js';
import { isErrorType, isUntyped } from './types.js';
import { heldObject, objectMemberOf } from './object-methods.js';

/** W-EDGE: how many functions a value is followed through, at most. */
export const MAX_HOPS = 3;

export type FollowedFunction = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ArrowFunction | ts.FunctionExpression;

/** A function whose callers can be looked for (a declaration, a method, an arrow or a function expression). */
export function isFollowedFunction(node: ts.Node | undefined): node is FollowedFunction {
  return Boolean(node && (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)));
}

export type Callers =
  | { calls: ts.CallExpression[] }
  /** Why following stopped, and where. */
  | { stop: string };

/** What the scan offers for finding callers outside the site's file. */
export interface FollowSearch {
  /** Files of the run whose text names `name` as a word (absolute paths). */
  filesNaming(name: string): readonly string[];
  /** Files a pass needed that its program does not hold: the scan adds them and runs again. */
  wanted: Set<string>;
  /** Files of the run that may import `file`: they name its module in a string (absolute paths). */
  filesImporting(file: string): readonly string[];
  /**
   * W-EDGE: a published package's module, or one `name` is used from outside the paths given
   * (for a default export, `name` is 'default': a file outside that imports the module).
   */
  edgeOf(file: string, name: string): string | undefined;
  /**
   * Where a file the run does not scan names `name` of `file` (a default export: imports the
   * module): outside the paths given, in a component, in a skipped folder. A holder named there
   * may be constructed there, a callee called there (W-EDGE, W-INJECTED).
   */
  namedOutside(file: string, name: string): string | undefined;
  /** namedOutside's files that the tool cannot load: a component, a skipped folder's file. */
  namedUnscannable(file: string, name: string): string | undefined;
  /**
   * Where a file the run does not scan, among those that may use `file` (a component, a file of
   * its package outside the paths given), has a text `test` accepts: a write the provider proof
   * cannot read (`deps.client = groq`, `process.env.OPENAI_BASE_URL = …`).
   */
  textOutside(file: string, test: (text: string, file: string) => boolean): string | undefined;
  /**
   * The files of `file`'s package outside the paths given (textOutside's, without components)
   * whose text `test` accepts, to be loaded and read like the run's own (never rewritten).
   */
  filesOutside(file: string, test: (text: string, file: string) => boolean): readonly string[] | { why: string };
  /** A file's text as the run read it (undefined when it cannot be read). */
  textOf(file: string): string | undefined;
  /**
   * W-EDGE: where a module of the run may load `file` by a path computed at run time
   * (`import(\`./providers/${p}.js\`)`: computed-imports.ts), as `file:line`; undefined when nowhere.
   */
  loadedByComputedPath(file: string): string | undefined;
}

/**
 * The source files of `paths` the program holds, and the ones it lacks: those are asked for
 * (`wanted`), and the scan loads them and runs again. Without a search nothing is asked for.
 */
export function loadedSourceFiles(ctx: ScanContext, paths: Iterable<string>): { files: ts.SourceFile[]; missing: string[] } {
  const files: ts.SourceFile[] = [];
  const missing: string[] = [];
  for (const f of paths) {
    const sf = ctx.program.getSourceFile(f);
    if (sf) files.push(sf);
    else missing.push(f);
  }
  for (const f of missing) ctx.callerSearch?.wanted.add(f);
  return { files, missing };
}

/** loadedSourceFiles of the files naming `name`, once per program: each same-named helper asks again. */
function filesNamingLoaded(ctx: ScanContext, search: FollowSearch, name: string): { files: ts.SourceFile[]; missing: string[] } {
  let known = NAMED_FILES.get(ctx.program);
  if (!known) NAMED_FILES.set(ctx.program, (known = new Map()));
  let loaded = known.get(name);
  if (!loaded) known.set(name, (loaded = loadedSourceFiles(ctx, search.filesNaming(name))));
  return loaded;
}

const NAMED_FILES = new WeakMap<ts.Program, Map<string, { files: ts.SourceFile[]; missing: string[] }>>();

/** The function a `return` (or an arrow's expression body) at `outer` returns from. */
export function returningFunction(outer: ts.Node): FollowedFunction | undefined {
  const parent = outer.parent;
  let fn: ts.Node | undefined;
  if (ts.isArrowFunction(parent) && parent.body === outer) fn = parent;
  else if (ts.isReturnStatement(parent)) {
    fn = parent.parent;
    while (fn && !isFunctionLike(fn)) fn = fn.parent;
  }
  if (!fn) return undefined;
  if (isFollowedFunction(fn)) return fn;
  return undefined;
}

/** The name callers use: a declaration's, a const's, a class method's or an arrow-valued class field's. */
export function calledName(fn: FollowedFunction): ts.Identifier | ts.PrivateIdentifier | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name && (ts.isIdentifier(fn.name) || ts.isPrivateIdentifier(fn.name))) return fn.name;
  const holder = climbWrappers(fn).parent;
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name) && holder.parent.flags & ts.NodeFlags.Const) return holder.name;
  if (ts.isPropertyDeclaration(holder) && (ts.isIdentifier(holder.name) || ts.isPrivateIdentifier(holder.name))) return holder.name;
  // `{ ask: async (q) => … }`: called as `holder.ask(…)` (object-methods.ts)
  if (ts.isPropertyAssignment(holder) && ts.isIdentifier(holder.name) && ts.isObjectLiteralExpression(holder.parent)) return holder.name;
  return undefined;
}

/**
 * W-FOLLOW of a value `fn` returns at `outer`, `hops` functions deep: every call of `fn`, or the
 * `result-escapes` detail of where following stops (too deep, another return that is not the same
 * value by `sameReturn`, a caller search that stops). The result and holder analyses both ask it.
 */
export function returnCallers(fn: FollowedFunction, outer: ts.Node, ctx: ScanContext, hops: number, sameReturn: (r: ts.Expression) => boolean): { calls: ts.CallExpression[]; promise?: true } | { stop: string } {
  if (hops >= MAX_HOPS) return { stop: `return: more than ${MAX_HOPS} functions deep (${locationOf(ctx, fn)})` };
  const overload = overloadSignature(fn);
  if (overload) return { stop: `return: ${calledName(fn)?.text ?? 'the function'} has overload signatures (${locationOf(ctx, overload)}), whose Chat types the rewrite does not retype` };
  const other = returnExpressions(fn).find((r) => !sameReturn(r));
  if (other) return { stop: `return: the function also returns ${shortText(other, 40)} (${locationOf(ctx, other)})` };
  // `p.then((r) => r.choices[0].message)`: what the callback returns, the `.then()` promise gives
  const then = thenCallOf(fn);
  if (then && then.arguments.length > 1) return { stop: `return: a .then() with a rejection handler, whose value the promise may give instead (${locationOf(ctx, then)})` };
  if (then) return { calls: [then], promise: true };
  const callers = callersOf(fn, ctx, ctx.callerSearch);
  return 'stop' in callers ? { stop: `return: ${callers.stop}` } : callers;
}

/** An overload signature of a function declaration or method (a sibling of its name with no body). */
function overloadSignature(fn: FollowedFunction): ts.Node | undefined {
  if (!(ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) || !fn.name) return undefined;
  const name = fn.name.getText();
  // a method of an object literal has no overloads (probe of projects' own tests: it threw here)
  const siblings: readonly ts.Node[] = ts.isFunctionDeclaration(fn) ? (fn.parent as ts.Block | ts.SourceFile).statements ?? [] : ts.isClassLike(fn.parent) ? fn.parent.members : [];
  return siblings.find((n) => n !== fn && (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && !n.body && n.name?.getText() === name);
}

/** The `.then(fn, …)` call `fn` is the fulfilment callback of, or undefined. */
function thenCallOf(fn: FollowedFunction): ts.CallExpression | undefined {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  const outer = climbWrappers(fn);
  const call = outer.parent;
  if (!ts.isCallExpression(call) || call.arguments[0] !== outer) return undefined;
  const callee = unwrap(call.expression);
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'then' ? call : undefined;
}

/** `r` is the very expression `outer` (a return of it, parentheses or casts aside). */
export function isReturnOf(r: ts.Expression, outer: ts.Node): boolean {
  return r === outer || climbWrappers(r) === outer;
}

/** Every call of `fn` in the project, or where following stopped. */
export function callersOf(fn: FollowedFunction, ctx: ScanContext, search: FollowSearch | undefined): Callers {
  if (fn.asteriskToken) return { stop: `a generator (${locationOf(ctx, fn)})` };
  const name = calledName(fn);
  if (!name) return { stop: `an anonymous function (${locationOf(ctx, fn)})` };
  const symbol = symbolOf(ctx.checker, name);
  if (!symbol) return { stop: `${name.text} is not resolved (${locationOf(ctx, name)})` };
  if (ts.canHaveDecorators(fn) && ts.getDecorators(fn)?.length) return { stop: `${name.text} is decorated: a framework may call it (${locationOf(ctx, name)})` };
  if (isServerAction(ctx.checker, fn, name)) return { stop: `${name.text} is a server action ("use server"): the browser calls it and receives its result serialised (${locationOf(ctx, name)})` };
  const action = search && ts.isIdentifier(name) ? serverActionReexport(name.text, search) : undefined;
  if (action) return { stop: `${name.text} is re-exported by ${relativeFile(ctx.cwd, action)}, a "use server" module: the browser calls it and receives its result serialised (${locationOf(ctx, name)})` };
  const member = ts.isClassLike(fn.parent) || ts.isPropertyDeclaration(climbWrappers(fn).parent);
  const cls = member ? (ts.isClassLike(fn.parent) ? fn.parent : climbWrappers(fn).parent.parent) as ts.ClassLikeDeclaration : undefined;
  if (cls && (cls.heritageClauses?.length || ctx.subclassesOf(cls).length)) {
    return { stop: `${name.text} belongs to a class hierarchy (${locationOf(ctx, name)})` };
  }
  // a method of an object literal: called through the object, which must stay in view
  const inObject = objectMemberOf(fn);
  const held = inObject && heldObject(inObject.object, inObject.key, ctx, search);
  if (held && 'stop' in held) return held;
  // `#m` and TypeScript's `private m` are called from their class only
  const privateMember = ts.isPrivateIdentifier(name) || Boolean(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Private);
  const visibleElsewhere = privateMember ? false : Boolean(cls) || Boolean(held?.exported) || (ts.isIdentifier(name) && isExported(ctx.checker, name));
  const declared = visibleElsewhere ? declarationSibling(fn.getSourceFile().fileName) : undefined;
  if (declared) return { stop: `${name.text}'s types are declared in ${relativeFile(ctx.cwd, declared)}, which its TypeScript callers read and the tool does not edit (${locationOf(ctx, name)})` };
  const uses = usesOf(name, symbol, visibleElsewhere, Boolean(cls), ctx, search);
  if ('stop' in uses) return uses;
  const calls: ts.CallExpression[] = [];
  for (const id of uses.uses) {
    const call = callOf(id);
    if (!call) return { stop: `${name.text} is used other than called (${locationOf(ctx, id)})` };
    calls.push(call);
  }
  // no call in view: whoever calls it (a framework, a test runner, another package) is not
  if (calls.length === 0) return { stop: `${name.text} has no caller in view (${locationOf(ctx, name)})` };
  return { calls };
}

/**
 * A React server action: a function whose body opens with `'use server'`, or one exported from a
 * module that does. Its callers in view are client components, whose call crosses the network:
 * the result is serialised to the browser (W-EDGE), so a returned Response would reach the page
 * whole (instructions included) where a Chat message did.
 */
function isServerAction(checker: ts.TypeChecker, fn: FollowedFunction, name: ts.Identifier | ts.PrivateIdentifier): boolean {
  const body = (fn as { body?: ts.Node }).body;
  if (body && ts.isBlock(body) && opensWithUseServer(body.statements)) return true;
  return ts.isIdentifier(name) && opensWithUseServer(fn.getSourceFile().statements) && isExported(checker, name);
}

/** The directive prologue holds 'use server'. */
function opensWithUseServer(statements: readonly ts.Statement[] | undefined): boolean {
  for (const st of statements ?? []) {
    if (!ts.isExpressionStatement(st) || !ts.isStringLiteral(st.expression)) return false;
    if (st.expression.text === 'use server') return true;
  }
  return false;
}

/**
 * The hand-written declarations beside a JavaScript module (`llm.js` + `llm.d.ts`): TypeScript
 * reads them in its place, so a caller's reads are typed by them (`Promise<ChatCompletion>`), and
 * the tool rewrites no declaration file. Its path, or undefined.
 */
function declarationSibling(file: string): string | undefined {
  const m = /^(.*)\.(js|jsx|mjs|cjs)$/.exec(file);
  if (!m) return undefined;
  const ext = m[2] === 'mjs' ? '.d.mts' : m[2] === 'cjs' ? '.d.cts' : '.d.ts';
  const candidate = m[1] + ext;
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * A file of the run that opens with 'use server' and re-exports `name` (`export { complete } from
 * '@/lib/ai'`): that makes the function a server action too. Its path, or undefined. Files are
 * found by the name they spell, so an `export *` module that never names it is not seen.
 */
function serverActionReexport(name: string, search: FollowSearch): string | undefined {
  let known = SERVER_ACTION_REEXPORTS.get(search);
  if (!known) SERVER_ACTION_REEXPORTS.set(search, (known = new Map()));
  if (!known.has(name)) known.set(name, findServerActionReexport(name, search));
  return known.get(name);
}

/** serverActionReexport's answers by name, for the run's search: one search per name, not per site. */
const SERVER_ACTION_REEXPORTS = new WeakMap<FollowSearch, Map<string, string | undefined>>();

function findServerActionReexport(name: string, search: FollowSearch): string | undefined {
  for (const file of search.filesNaming(name)) {
    const text = search.textOf(file);
    if (!text || !/['"]use server['"]/.test(text)) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    if (!opensWithUseServer(sf.statements)) continue;
    const reexports = sf.statements.some((st) => ts.isExportDeclaration(st) && st.moduleSpecifier &&
      (!st.exportClause || (ts.isNamedExports(st.exportClause) && st.exportClause.elements.some((el) => (el.propertyName ?? el.name).text === name))));
    if (reexports) return file;
  }
  return undefined;
}

/**
 * Every use of a declaration's name in the project: its own file, and when it is visible
 * elsewhere (exported, a class member) every file of the run that names it, all of which must be
 * in the program (the missing ones are asked for: SearchCallers.wanted). Imports and exports of it
 * are not uses. A same-named identifier the checker cannot resolve stops the search.
 */
export function usesOf(
  name: ts.Identifier | ts.PrivateIdentifier, symbol: ts.Symbol, visibleElsewhere: boolean, member: boolean, ctx: ScanContext, search: FollowSearch | undefined,
): { uses: (ts.Identifier | ts.PrivateIdentifier)[] } | { stop: string } {
  const file = name.getSourceFile();
  const decl = name.parent;
  // importers name a default export as they like: they are found by the module they import
  const byDefault = visibleElsewhere && isDefaultExport(decl, name);
  let files: ts.SourceFile[] = [file];
  if (visibleElsewhere) {
    if (!search) return { stop: `${name.text} is used from other modules (${locationOf(ctx, name)})` };
    const edge = search.edgeOf(file.fileName, name.text) ?? (byDefault ? search.edgeOf(file.fileName, 'default') : undefined);
    if (edge) return { stop: `${name.text}: ${edge} (${locationOf(ctx, name)})` };
    const loader = search.loadedByComputedPath(file.fileName);
    if (loader) return { stop: `${name.text}: its module may be loaded by a path computed at run time in ${loader}, whose caller the tool cannot see (${locationOf(ctx, name)})` };
    const named = filesNamingLoaded(ctx, search, name.text);
    const importing = byDefault ? loadedSourceFiles(ctx, search.filesImporting(file.fileName)) : undefined;
    if (named.missing.length || importing?.missing.length) return { stop: `${name.text} is used in files not loaded yet (${locationOf(ctx, name)})` };
    files = [...new Set([file, ...named.files, ...(importing?.files ?? [])])];
    // a module object reaches the function without naming it (`ai[command](q)`, `makeReply(ai)`)
    if (!byDefault && !member) {
      const importers = loadedSourceFiles(ctx, search.filesImporting(file.fileName));
      if (importers.missing.length) return { stop: `${name.text} is used in files not loaded yet (${locationOf(ctx, name)})` };
      for (const sf of importers.files) {
        const escape = sf === file ? undefined : moduleObjectEscape(ctx.checker, sf, file);
        if (escape) return { stop: `${name.text}: ${escape.how} (${locationOf(ctx, escape.at)})` };
      }
    }
  }
  const uses = new Set<ts.Identifier | ts.PrivateIdentifier>();
  // the names importers bind to a default export: their references are its uses
  const locals = new Set<ts.Node>();
  if (byDefault) {
    for (const sf of files.filter((f) => f !== file)) {
      const bound = defaultImportBindings(ctx.checker, sf, file);
      if ('stop' in bound) return { stop: `${name.text}, a default export, ${bound.stop} (${locationOf(ctx, bound.at)})` };
      for (const local of bound.locals) {
        locals.add(local);
        const s = symbolOf(ctx.checker, local);
        if (!s || !sameSymbol(s, symbol)) return { stop: `${local.text} is not resolved to ${name.text}, the module's default export (${locationOf(ctx, local)})` };
        for (const r of referencesOf(ctx.checker, local)) if (r !== local) uses.add(r);
      }
    }
  }
  // `export const chat = openai.chat.completions`: the property `.chat` its own initializer reads is not a use
  const ownInitializer = ts.isVariableDeclaration(decl) && decl.name === name ? decl.initializer : undefined;
  const ownProperty = (n: ts.Node) => Boolean(ownInitializer) && n.getSourceFile() === file && ts.isPropertyAccessExpression(n.parent) && n.parent.name === n &&
    n.getStart() >= ownInitializer!.getStart() && n.getEnd() <= ownInitializer!.getEnd();
  for (const sf of files) {
    for (const n of identifiersNamed(sf, name.text)) {
      if (n === name || ownProperty(n) || locals.has(n)) continue;
      const use = kindOfUse(ctx, n, symbol, member);
      if (use === 'use') uses.add(n);
      else if (typeof use === 'object') {
        // imported or destructured under a name of its own (`import { f as g }`, `const { f: g } = require(…)`, `const { f } = await import(…)`)
        if (ts.isExportSpecifier(use.local.parent)) return { stop: `${name.text} is exported again as ${use.local.text} (${locationOf(ctx, n)})` };
        for (const r of referencesOf(ctx.checker, use.local)) if (r !== use.local) uses.add(r);
      } else if (use !== 'other' && use !== 'plumbing') return { stop: `${use} (${locationOf(ctx, n)})` };
    }
    // `ai['ask'](q)`, `this['complete'](t)`: a call the rewrite of its callers would not see
    for (const key of elementKeysNamed(sf, name.text)) {
      const s = valueOfExportedProperty(ctx.checker, symbolOf(ctx.checker, key));
      const object = ctx.checker.getTypeAtLocation((key.parent as ts.ElementAccessExpression).expression);
      const untyped = isUntyped(object);
      if (s ? sameSymbol(s, symbol) : untyped) return { stop: `${name.text} is read by a key in brackets (${locationOf(ctx, key)})` };
    }
  }
  return { uses: [...uses] };
}

/**
 * A file's identifiers (and private names) with this text, in source order. The index is built
 * once per file: a run with many helpers of one name (1,000 modules exporting `ask()`) walked every
 * file naming it once per helper (bench/run.ts --profile helpers).
 */
function identifiersNamed(sf: ts.SourceFile, text: string): readonly (ts.Identifier | ts.PrivateIdentifier)[] {
  return namesOf(sf).identifiers.get(text) ?? [];
}

/** A file's element-access keys with this text (`ai['ask']`), in source order. */
function elementKeysNamed(sf: ts.SourceFile, text: string): readonly ts.StringLiteralLike[] {
  return namesOf(sf).keys.get(text) ?? [];
}

interface FileNames {
  identifiers: Map<string, (ts.Identifier | ts.PrivateIdentifier)[]>;
  keys: Map<string, ts.StringLiteralLike[]>;
}

function namesOf(sf: ts.SourceFile): FileNames {
  let index = NAME_INDEX.get(sf);
  if (!index) {
    const built: FileNames = { identifiers: new Map(), keys: new Map() };
    const add = <T>(map: Map<string, T[]>, key: string, n: T) => {
      const list = map.get(key);
      if (list) list.push(n);
      else map.set(key, [n]);
    };
    walk(sf, (n) => {
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) add(built.identifiers, n.text, n);
      else if (ts.isStringLiteralLike(n) && ts.isElementAccessExpression(n.parent) && n.parent.argumentExpression === n) add(built.keys, n.text, n);
      return undefined;
    });
    NAME_INDEX.set(sf, (index = built));
  }
  return index;
}

const NAME_INDEX = new WeakMap<ts.SourceFile, FileNames>();

/** `export default function f`, `export default f`, `export { f as default }`, `module.exports = f`. */
export function isDefaultExport(decl: ts.Node, name: ts.Identifier | ts.PrivateIdentifier): boolean {
  if (ts.canHaveModifiers(decl) && ts.getModifiers(decl)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return true;
  let found = false;
  walk(name.getSourceFile(), (n) => {
    if (found) return false;
    if (ts.isExportSpecifier(n) && (n.propertyName ?? n.name).getText() === name.text && n.name.getText() === 'default') found = true;
    if (!ts.isIdentifier(n) || n.text !== name.text) return undefined;
    const whole = climbWrappers(n);
    // `export default f`, `module.exports = f`, `exports.default = f`
    if ((ts.isExportAssignment(whole.parent) && whole.parent.expression === whole) || isModuleExports(whole) ||
      (ts.isBinaryExpression(whole.parent) && whole.parent.right === whole && /^(module\.)?exports\.default$/.test(whole.parent.left.getText().replace(/\s+/g, '')))) found = true;
    return undefined;
  });
  return found;
}

/** The call a use of a function's name makes (`f(…)`, `obj.f(…)`, `this.#f(…)`), if it is one. */
function callOf(id: ts.Node): ts.CallExpression | undefined {
  const parent = id.parent;
  const use = ts.isPropertyAccessExpression(parent) && parent.name === id ? parent : id;
  const outer = climbWrappers(use);
  return ts.isCallExpression(outer.parent) && outer.parent.expression === outer ? outer.parent : undefined;
}

/**
 * One same-named identifier: a use of the declaration, an import/export of it ('plumbing'),
 * another binding ('other'), or a description of a use that stops the following.
 */
function kindOfUse(ctx: ScanContext, id: ts.Identifier | ts.PrivateIdentifier, target: ts.Symbol, member: boolean): 'use' | 'plumbing' | 'other' | { local: ts.Identifier } | string {
  const r = resolutionOf(ctx, id);
  switch (r.kind) {
    case 'binding':
      if (r.unresolved) return `${id.text} is imported from '${r.unresolved}', a module of the project the tool cannot resolve (a bundler's alias?)`;
      if (r.symbol && !sameSymbol(r.symbol, target)) return 'other';
      return r.renamed ? { local: r.renamed } : 'plumbing';
    case 'destructured':
      if (r.untyped) return `${id.text} is taken by name from an untyped value`;
      return r.symbol && sameSymbol(r.symbol, target) ? { local: r.local } : 'other';
    case 'reference':
      // a signature of an interface or type: a call through it may run this function
      if (r.symbol && !sameSymbol(r.symbol, target)) return r.signature && member ? `${id.text} may be called through an interface` : 'other';
      if (!r.symbol) return r.unchecked;
      return r.plumbing ? 'plumbing' : 'use';
  }
}

/**
 * What one identifier is, whatever declaration is looked for: kindOfUse compares it with each
 * target. Kept per checker: a run with many same-named helpers (1,000 modules exporting `ask()`)
 * resolved every file's `ask` once per helper (bench/run.ts --profile helpers).
 */
type Resolution =
  /** an import, export or `require` binding of the name; `renamed`: the local name it takes */
  | { kind: 'binding'; unresolved?: string; symbol?: ts.Symbol; renamed?: ts.Identifier }
  /** `const { f } = svc` (or `await import('./m')`): the property the binding reads; `untyped`: of a value the checker cannot see */
  | { kind: 'destructured'; symbol?: ts.Symbol; local: ts.Identifier; untyped: boolean }
  /** any other occurrence; `unchecked`: the verdict when the checker resolves it to nothing */
  | { kind: 'reference'; symbol?: ts.Symbol; signature: boolean; plumbing: boolean; unchecked: 'other' | string };

const RESOLUTIONS = new WeakMap<ts.TypeChecker, WeakMap<ts.Node, Resolution>>();

function resolutionOf(ctx: ScanContext, id: ts.Identifier | ts.PrivateIdentifier): Resolution {
  let known = RESOLUTIONS.get(ctx.checker);
  if (!known) RESOLUTIONS.set(ctx.checker, (known = new WeakMap()));
  let r = known.get(id);
  if (!r) known.set(id, (r = resolve(ctx, id)));
  return r;
}

function resolve(ctx: ScanContext, id: ts.Identifier | ts.PrivateIdentifier): Resolution {
  const { checker } = ctx;
  const parent = id.parent;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || isRequireBinding(parent)) {
    const unresolved = unresolvedProjectImport(ctx, parent);
    if (unresolved) return { kind: 'binding', unresolved };
    // renamed on the way in (or out): the other name's uses are this one's
    const renamed = (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isBindingElement(parent)) && parent.propertyName === id && ts.isIdentifier(parent.name) && parent.name.text !== id.text;
    return { kind: 'binding', symbol: symbolOf(checker, id), renamed: renamed ? parent.name as ts.Identifier : undefined };
  }
  // `const { f } = await import('./m')`, `const { f } = svc`, `function reply({ ask })` (or
  // `{ f: g }`): a binding of the property of the value destructured (probe of CommonJS bots: an
  // injected module or instance destructured by name was not followed)
  if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === id && ts.isIdentifier(parent.name)) {
    const key = parent.propertyName ? propertyNameText(parent.propertyName) : parent.name.text;
    const type = checker.getTypeAtLocation(parent.parent);
    const property = key === undefined ? undefined : type.getProperty(key);
    const symbol = property && valueOfExportedProperty(checker, property.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(property) : property);
    const untyped = !property && !importedModule(parent.parent) && isUntyped(type);
    return { kind: 'destructured', symbol, local: parent.name, untyped };
  }
  const s = valueOfExportedProperty(checker, symbolOf(checker, id));
  const signature = Boolean(s?.declarations?.some((d) => ts.isMethodSignature(d) || (ts.isPropertySignature(d) && mayBeFunction(checker, s))));
  return { kind: 'reference', symbol: s, signature, plumbing: s !== undefined && isPlumbing(id), unchecked: s ? 'other' : uncheckedUse(checker, id) };
}

/** A name the checker resolves to nothing: a property of an untyped value, a key, an auto-import. */
function uncheckedUse(checker: ts.TypeChecker, id: ts.Identifier | ts.PrivateIdentifier): 'other' | string {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) {
    // the SDK's own `client.chat.completions.create`, whose types import tracking may not load:
    // no use of a helper named `chat` or `create` (probe of module structure: AiService.chat)
    if (isChatResourcePart(parent)) return 'other';
    return fromMissingModule(checker, parent.expression) ? 'other' : `${id.text} is read from an untyped value`;
  }
  if (ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isBindingElement(parent)) return `${id.text} is taken by name`;
  // called and declared nowhere: a framework's auto-import (Nuxt's server/utils, unplugin-auto-import)
  if (ts.isCallExpression(parent) && parent.expression === id) return `${id.text} is called in ${id.getSourceFile().fileName.split(/[\\/]/).pop()} without a declaration in view (an auto-import?)`;
  return 'other';
}

/** `x.chat` read for its `.completions`, or `x.completions.create` (`parse`, `stream`): the SDK's Chat resource. */
function isChatResourcePart(access: ts.PropertyAccessExpression): boolean {
  const outer = access.parent;
  if (access.name.text === 'chat') return ts.isPropertyAccessExpression(outer) && outer.expression === access && outer.name.text === 'completions';
  return ts.isPropertyAccessExpression(access.expression) && access.expression.name.text === 'completions' && ['create', 'parse', 'stream'].includes(access.name.text);
}

/** An occurrence that declares or exports the function rather than using it. */
function isPlumbing(id: ts.Identifier | ts.PrivateIdentifier): boolean {
  const parent = id.parent;
  // an overload signature of the function itself declares, it does not use
  if ((ts.isFunctionDeclaration(parent) || ts.isMethodDeclaration(parent)) && parent.name === id && !parent.body) return true;
  const outer = climbWrappers(ts.isPropertyAccessExpression(parent) && parent.name === id ? parent : id);
  // `export default f`, `module.exports = f`: its importers are found by the module (default-imports.ts)
  if (ts.isExportAssignment(outer.parent) || isModuleExports(outer)) return true;
  return (ts.isShorthandPropertyAssignment(outer.parent) || ts.isPropertyAssignment(outer.parent)) && isExportedObject(outer.parent.parent);
}

/**
 * The specifier of an import of the project's own modules that does not resolve: relative or
 * absolute, or an alias no package name can be (`@/services/ai`, `~/utils`, `#lib`, `$lib/ai`),
 * which a bundler resolves and the tool cannot (a Vite alias with no tsconfig `paths`). A bare
 * name no package.json declares and nothing installs (`@lib/ai`, a Vite alias spelled like a scoped
 * package; probe of module structure) may be one too; a package's name is another package's.
 */
function unresolvedProjectImport(ctx: ScanContext, binding: ts.Node): string | undefined {
  let decl: ts.Node | undefined = binding;
  while (decl && !ts.isImportDeclaration(decl)) decl = decl.parent;
  if (!decl || !ts.isStringLiteral(decl.moduleSpecifier)) return undefined;
  const spec = decl.moduleSpecifier.text;
  if (ctx.checker.getSymbolAtLocation(decl.moduleSpecifier)) return undefined;
  if (isProjectSpecifier(spec)) return spec;
  return ctx.resolve(spec, decl.getSourceFile().fileName).kind === 'unresolved' ? spec : undefined;
}

/** A property typed so that it may hold a function (`answer: string` may not: corpus, 3rd-devs' tool payloads). */
function mayBeFunction(checker: ts.TypeChecker, property: ts.Symbol): boolean {
  const type = checker.getTypeOfSymbol(property);
  const parts = type.isUnion() || type.isIntersection() ? type.types : [type];
  return parts.some((t) => {
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter | ts.TypeFlags.NonPrimitive) || isErrorType(t)) return true;
    return t.getCallSignatures().length > 0 || t.getSymbol()?.getName() === 'Function';
  });
}

/**
 * Two symbols for one declaration: a member read through an instance (`s.completion(…)`) can get a
 * transient copy of the method's symbol (corpus: ai-devs' OpenAiService), which is still the method.
 */
function sameSymbol(a: ts.Symbol, b: ts.Symbol): boolean {
  if (a === b) return true;
  const d = a.declarations?.[0];
  return d !== undefined && d === b.declarations?.[0];
}

/** The pattern destructures `import(…)` or `await import(…)`. */
export function importedModule(pattern: ts.ObjectBindingPattern): boolean {
  const decl = pattern.parent;
  if (!ts.isVariableDeclaration(decl) || !decl.initializer) return false;
  let init = unwrap(decl.initializer);
  if (ts.isAwaitExpression(init)) init = unwrap(init.expression);
  return ts.isCallExpression(init) && init.expression.kind === ts.SyntaxKind.ImportKeyword;
}

/**
 * `module.exports = { tools }` (or `export default { tools }`): a read of `m.tools` resolves to
 * the object's property; its value is the declaration it names.
 */
function valueOfExportedProperty(checker: ts.TypeChecker, s: ts.Symbol | undefined): ts.Symbol | undefined {
  const d = s?.declarations?.[0];
  if (!d) return s;
  let value: ts.Symbol | undefined;
  if (ts.isShorthandPropertyAssignment(d)) value = checker.getShorthandAssignmentValueSymbol(d);
  else if (ts.isPropertyAssignment(d) && ts.isIdentifier(unwrap(d.initializer))) value = checker.getSymbolAtLocation(unwrap(d.initializer));
  else return s;
  return value && value.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(value) : value ?? s;
}

/** `const { f } = require('./m')`: an import spelled in CommonJS (TypeScript binds it as an alias in JavaScript). */
function isRequireBinding(node: ts.Node): boolean {
  if (!ts.isBindingElement(node) || !ts.isObjectBindingPattern(node.parent)) return false;
  const decl = node.parent.parent;
  if (!ts.isVariableDeclaration(decl) || !decl.initializer) return false;
  const init = decl.initializer;
  return ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require';
}

/** The project function a call runs, when the checker can tell (a declaration with a body, in a project file). */
export function calledFunction(checker: ts.TypeChecker, call: ts.CallExpression): FollowedFunction | undefined {
  const callee = climbWrappersDown(call.expression);
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
  // a private method (`this.#send(x)`) resolves like any other
  const symbol = name && symbolOf(checker, name);
  for (const d of symbol?.declarations ?? []) {
    const sf = d.getSourceFile();
    if (sf.isDeclarationFile || sf.fileName.includes('/node_modules/')) return undefined;
    if ((ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d)) && d.body) return d;
    const init = (ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)) && d.initializer;
    let e: ts.Node | undefined = init || undefined;
    while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))) e = e.expression;
    if (e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e))) return e;
  }
  return undefined;
}

function climbWrappersDown(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
  return e;
}

/**
 * W-FOLLOW into a callee: `outer` (a followed value) is an argument of a call of a project
 * function. Returns the parameter to follow, 'done' when nothing more is to follow (already
 * followed, or following stopped and the reason is listed), or undefined when the callee is not
 * a project function (the caller reports the edge). Every call of the function must pass a value
 * of the same unit: the calls reached are recorded (SiteAnalysis.feed) and checked by the decision.
 */
export function feedParameter(
  ctx: ScanContext, site: SiteAnalysis, outer: ts.Node, followed: Map<ts.Node, readonly ts.CallExpression[]>, hops: number,
  code: 'result-escapes' | 'stream-handoff' = 'result-escapes',
): (ts.ParameterDeclaration & { name: ts.Identifier }) | 'done' | undefined {
  const call = outer.parent;
  if (!ts.isCallExpression(call)) return undefined;
  const index = call.arguments.indexOf(outer as ts.Expression);
  if (index < 0 || call.arguments.slice(0, index).some(ts.isSpreadElement)) return undefined;
  const fn = calledFunction(ctx.checker, call);
  const param = fn?.parameters[index];
  if (!fn || !param || !ts.isIdentifier(param.name) || param.dotDotDotToken) return undefined;
  const named = param as ts.ParameterDeclaration & { name: ts.Identifier };
  const known = followed.get(param);
  if (known) {
    site.feed(site.share('param', param), call, known, describeFunction(ctx, fn));
    return 'done';
  }
  if (hops >= MAX_HOPS) {
    site.reason(code, `argument: more than ${MAX_HOPS} functions deep (${locationOf(ctx, fn)})`);
    return 'done';
  }
  const callers = callersOf(fn, ctx, ctx.callerSearch);
  if ('stop' in callers) {
    site.reason(code, `argument: ${callers.stop}`);
    return 'done';
  }
  followed.set(param, callers.calls);
  site.feed(site.share('param', param), call, callers.calls, describeFunction(ctx, fn));
  return named;
}

export function describeFunction(ctx: ScanContext, fn: FollowedFunction): string {
  return `${calledName(fn)?.text ?? 'a function'} (${locationOf(ctx, fn)})`;
}

/**
 * Every use of a const in the project (W-FOLLOW through exports and imports), or where following
 * stopped: a value imported elsewhere is followed like a function's callers.
 */
export function constUses(decl: ts.VariableDeclaration & { name: ts.Identifier }, ctx: ScanContext): { uses: ts.Identifier[] } | { stop: string } {
  const symbol = symbolOf(ctx.checker, decl.name);
  if (!symbol) return { stop: `${decl.name.text} is not resolved (${locationOf(ctx, decl.name)})` };
  const result = usesOf(decl.name, symbol, isExported(ctx.checker, decl.name), false, ctx, ctx.callerSearch);
  return 'stop' in result ? result : { uses: result.uses.filter(ts.isIdentifier) };
}
