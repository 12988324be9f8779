/**
 * Mixin factories: a function that returns a class expression (`const WithChat = (Base) => class
 * extends Base { client = new OpenAI(); … }`). Its class is extended through a call
 * (`class Bot extends WithChat(Base)`), which the subclass index follows here, so that a Bot's
 * `this.client = groq` is a write of the field (probe of CommonJS classes with mixins: the site
 * in the mixin was migrated as OpenAI's). A factory whose result is used otherwise (kept in a
 * variable that is handed on, passed to another mixin, returned) has subclasses the index cannot
 * see, and the field is not proven (usesOtherThanExtends).
 */
import { returnExpressions, ts, unwrap } from './ast.js';
import { symbolOf } from './references.js';

type FunctionLike = ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction;

/** The function a callee or a name stands for, when the project declares it with a body. */
function functionOf(checker: ts.TypeChecker, expr: ts.Expression): FunctionLike | undefined {
  const symbol = symbolOf(checker, ts.isPropertyAccessExpression(expr) ? expr.name : expr);
  for (const d of symbol?.declarations ?? []) {
    if (d.getSourceFile().isDeclarationFile) return undefined;
    if (ts.isFunctionDeclaration(d) && d.body) return d;
    const init = ts.isVariableDeclaration(d) && d.initializer ? unwrap(d.initializer) : undefined;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return init;
  }
  return undefined;
}

/** The class expression a factory returns, if it returns one. */
function classReturnedBy(fn: FunctionLike): ts.ClassExpression | undefined {
  for (const r of returnExpressions(fn)) {
    const e = unwrap(r);
    if (ts.isClassExpression(e)) return e;
  }
  return undefined;
}

/**
 * The class an `extends` expression builds by calling a mixin factory: `WithChat(Base)`, or a
 * const holding that call (`const Chatty = WithChat(Base); class Bot extends Chatty`).
 */
export function mixinClassOf(checker: ts.TypeChecker, expr: ts.Expression): ts.ClassExpression | undefined {
  let e = unwrap(expr);
  if (ts.isIdentifier(e)) {
    const decl = checker.getSymbolAtLocation(e)?.declarations?.find(ts.isVariableDeclaration);
    if (!decl?.initializer) return undefined;
    e = unwrap(decl.initializer);
  }
  if (!ts.isCallExpression(e)) return undefined;
  const fn = functionOf(checker, e.expression);
  return fn && classReturnedBy(fn);
}

/** The factory whose returned class `cls` is, with the name it is called by. */
export function factoryOf(cls: ts.ClassLikeDeclaration): { fn: FunctionLike; name: ts.Identifier } | undefined {
  if (!ts.isClassExpression(cls)) return undefined;
  let fn: ts.Node | undefined = cls.parent;
  while (fn && !ts.isFunctionDeclaration(fn) && !ts.isFunctionExpression(fn) && !ts.isArrowFunction(fn) && !ts.isSourceFile(fn)) fn = fn.parent;
  if (!fn || ts.isSourceFile(fn) || classReturnedBy(fn as FunctionLike) !== cls) return undefined;
  if (ts.isFunctionDeclaration(fn)) return fn.name ? { fn, name: fn.name } : undefined;
  const holder = fn.parent;
  return ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name) ? { fn: fn as FunctionLike, name: holder.name } : undefined;
}

/**
 * A use of the factory, in `files`, other than a call that a class extends (directly, or through
 * a const that only `extends` clauses read): undefined when there is none.
 */
export function usesOtherThanExtends(checker: ts.TypeChecker, factory: { fn: FunctionLike; name: ts.Identifier }, files: readonly ts.SourceFile[]): ts.Node | undefined {
  const target = checker.getSymbolAtLocation(factory.name);
  const isFactory = (n: ts.Identifier) => symbolOf(checker, n) === target;
  let found: ts.Node | undefined;
  for (const sf of files) {
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(n) && n !== factory.name && n.text === factory.name.text && isFactory(n) && !isImportOrExport(n)) {
        const call = n.parent;
        if (!ts.isCallExpression(call) || call.expression !== n || !extendedOnly(checker, call)) found = n.parent;
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (found) return found;
  }
  return undefined;
}

function isImportOrExport(n: ts.Identifier): boolean {
  const p = n.parent;
  return ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isExportSpecifier(p) || ts.isNamespaceImport(p);
}

/** An `extends` clause names it, or `new` builds an instance of it (whose writes the field's search reads). */
function extendsOrBuilds(use: ts.Expression): boolean {
  const parent = use.parent;
  if (ts.isExpressionWithTypeArguments(parent) && ts.isHeritageClause(parent.parent) && parent.parent.token === ts.SyntaxKind.ExtendsKeyword) return true;
  return ts.isNewExpression(parent) && parent.expression === use;
}

/** The call is extended or built (extendsOrBuilds), or a const's value that is only extended or built. */
function extendedOnly(checker: ts.TypeChecker, call: ts.CallExpression): boolean {
  const parent = call.parent;
  if (extendsOrBuilds(call)) return true;
  if (!ts.isVariableDeclaration(parent) || !ts.isIdentifier(parent.name) || parent.initializer !== call) return false;
  const symbol = checker.getSymbolAtLocation(parent.name);
  let ok = true;
  const visit = (n: ts.Node): void => {
    if (!ok) return;
    if (ts.isIdentifier(n) && n !== parent.name && n.text === (parent.name as ts.Identifier).text && checker.getSymbolAtLocation(n) === symbol) {
      if (!extendsOrBuilds(n)) ok = false;
    }
    ts.forEachChild(n, visit);
  };
  visit(parent.getSourceFile());
  return ok;
}

/**
 * Where a class's methods are lent to other objects, so that they run with another `this`:
 * `Base.prototype.ask.call(bot)`, `Object.assign(Bot.prototype, Base.prototype)`,
 * `Bot.prototype.ask = Base.prototype.ask`, or the class handed to a project function that reads
 * `.prototype` (the TypeScript handbook's `applyMixins(Bot, [ChatMixin])`). Defining a member
 * (`Base.prototype.ask = function …`) and `new`, `extends` or a static read lend nothing.
 */
export function prototypeLent(checker: ts.TypeChecker, cls: ts.ClassLikeDeclaration, files: readonly ts.SourceFile[], isClass: (id: ts.Identifier) => boolean): ts.Node | undefined {
  const name = cls.name?.text;
  if (!name) return undefined;
  let found: ts.Node | undefined;
  for (const sf of files) {
    const visit = (n: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(n) && n.text === name && n !== cls.name && isClass(n)) found = lentAt(checker, n);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (found) return found;
  }
  return undefined;
}

function lentAt(checker: ts.TypeChecker, id: ts.Identifier): ts.Node | undefined {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === id && parent.name.text === 'prototype') {
    const member = parent.parent;
    // `Base.prototype.ask = function …` defines it; `Base.prototype.ask(…)` runs it on the prototype
    if (ts.isPropertyAccessExpression(member) && member.expression === parent) {
      const use = member.parent;
      if (ts.isBinaryExpression(use) && use.left === member && use.operatorToken.kind === ts.SyntaxKind.EqualsToken) return undefined;
      if (ts.isCallExpression(use) && use.expression === member) return undefined;
      return member;
    }
    return parent;
  }
  // handed (alone or in an array) to a project function that reads `.prototype`
  const arg = ts.isArrayLiteralExpression(parent) ? parent : id;
  const call = arg.parent;
  if (ts.isCallExpression(call) && call.arguments.includes(arg as ts.Expression)) {
    const fn = functionOf(checker, call.expression);
    if (fn?.body && /\.prototype\b/.test(fn.body.getText())) return call;
  }
  return undefined;
}
