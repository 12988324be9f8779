/**
 * W-INJECTED (docs/migration-spec.md §1.4b): an injected client is proven when every construction
 * of its holder in the project passes a proven client. The holder (a class whose constructor takes
 * the client, a function that takes it as a parameter or in an options object) is often exported,
 * and the modules that construct or call it are not in the program: the program holds the files
 * that can hold a site and what they import, and callers import the holder, not the other way round.
 *
 * So a pass asks for the importers of an export (`wanted`); between passes the scan finds them
 * among all the files of the run with a text prefilter (the exported name as a word, or the
 * module's file name in a string: a default import or a `require` may name the export otherwise),
 * adds them to the program with their own imports, and analyses again. An export whose importers
 * were never looked for is never proven (the pass that asked for it reports the site as before).
 *
 * A holder exported by a published package (W-EDGE: package.json not `private`, the file reachable
 * from its `main`/`exports`) is constructed by code out of view: it is never proven.
 */
import path from 'node:path';
import { ts, climbWrappers, propertyNameText } from './ast.js';
import { locationOf } from './context.js';
import { isRequireCall } from './commonjs.js';
import { isUntyped } from './types.js';
import type { TextReader } from './endpoint-importers.js';
import type { FollowSearch } from './callers.js';
import { escapeRegExp, wordPattern } from '../regexp.js';
import { isApplicationPackage, type PackageInfo, type ProjectLayout } from '../project/layout.js';
import type { ModuleResolver } from '../project/resolver.js';

/** `file` exports its holder under `name` (`default` for a default export or `module.exports = X`). */
export interface ExportRef {
  file: string;
  name: string;
}

export function exportKey(ref: ExportRef): string {
  return `${path.normalize(ref.file)}\0${ref.name}`;
}

/** What a pass knows about the importers of exports, and what it asked for. */
export class CallerSearch {
  /** Exports whose importers were looked for (and loaded into the program): key → files found. */
  readonly searched = new Map<string, readonly string[]>();
  /** Exports a pass needed whose importers were not looked for yet. */
  readonly wanted = new Map<string, ExportRef>();

  /** True when the importers of `ref` are in the program; otherwise asks for them. */
  inView(ref: ExportRef): boolean {
    const key = exportKey(ref);
    if (this.searched.has(key)) return true;
    this.wanted.set(key, ref);
    return false;
  }

  /** The files found for `ref` (empty when it was not searched). */
  filesOf(ref: ExportRef): readonly string[] {
    return this.searched.get(exportKey(ref)) ?? [];
  }
}

/** The names a module is imported by in a string: its file name, and its folder's for an index. */
export function moduleNames(file: string): string[] {
  const base = path.basename(file).replace(/\.[^.]+$/, '');
  return base === 'index' ? [base, path.basename(path.dirname(file))] : [base];
}

/** A string that may name `file` as a module specifier (`'./chat'`, `"../lib/ai.js"`, a folder for an index). */
export function moduleSpecifierPattern(file: string): string {
  return `['"\`][^'"\`\\n]*\\b(?:${moduleNames(file).map(escapeRegExp).join('|')})(?:\\.[a-z]+)?['"\`]`;
}

/** A text that may import an export: it names it as a word, or names its module in a string. */
export function mentionPattern(ref: ExportRef): RegExp {
  const parts = [moduleSpecifierPattern(ref.file)];
  if (ref.name !== 'default') parts.push(wordPattern(ref.name).source);
  return new RegExp(parts.join('|'));
}

/**
 * Among `files` (every source file of the run), the ones that may import each wanted export: they
 * name it as a word, or name its module in a string. One read of each file for all the exports.
 * `texts` has the files already in memory; the others are read from disk.
 */
export function findCallerFiles(wanted: readonly ExportRef[], files: readonly string[], read: TextReader): Map<string, string[]> {
  const tests = wanted.map((ref) => ({ key: exportKey(ref), re: mentionPattern(ref) }));
  const any = new RegExp(tests.map((t) => t.re.source).join('|'));
  const out = new Map<string, string[]>(tests.map((t) => [t.key, []]));
  for (const file of files) {
    const key = path.normalize(file);
    const text = read(file);
    if (text === undefined || !any.test(text)) continue;
    for (const t of tests) if (t.re.test(text)) out.get(t.key)!.push(key);
  }
  return out;
}

/** Files read to follow a package's entry points, at most (a larger package counts as all public). */
const MAX_PUBLIC_FILES = 5000;

/**
 * W-EDGE: the published package whose public entry points reach a file. A package is published
 * when its package.json is not `private` and it is no application (isApplicationPackage); a file is public when the import graph from the
 * package's entry points (`exports` targets, else `main`/`module`/`types`, else `index`) reaches
 * it. An `exports` pattern, an entry point with no source in view or a graph too large to follow
 * make every file of the package public.
 */
export class PublishedPackages {
  private readonly reachable = new Map<string, ReadonlySet<string> | 'all' | null>();

  constructor(private readonly layout: ProjectLayout, private readonly resolver: ModuleResolver, private readonly read: TextReader) {}

  /** The name of the published package that exposes `file`, if one does. */
  publishedBy(file: string): string | undefined {
    const pkg = this.layout.packageFor(file);
    if (!pkg) return undefined;
    const reach = this.reachableOf(pkg);
    if (reach === null) return undefined;
    const name = pkg.json.name ?? path.basename(pkg.dir);
    if (reach === 'all') return name;
    return reach.has(path.normalize(file)) ? name : undefined;
  }

  private reachableOf(pkg: PackageInfo): ReadonlySet<string> | 'all' | null {
    let reach = this.reachable.get(pkg.dir);
    if (reach === undefined) {
      reach = pkg.json.private === true || isApplicationPackage(pkg) ? null : this.follow(pkg);
      this.reachable.set(pkg.dir, reach);
    }
    return reach;
  }

  private follow(pkg: PackageInfo): ReadonlySet<string> | 'all' {
    const entries = this.resolver.publicEntries(pkg);
    if (entries === 'all') return 'all';
    const seen = new Set<string>();
    const queue = entries.map((e) => path.normalize(e));
    const inside = pkg.dir + path.sep;
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file) || !file.startsWith(inside)) continue;
      seen.add(file);
      if (seen.size > MAX_PUBLIC_FILES) return 'all';
      const text = this.read(file);
      if (text === undefined) continue;
      for (const spec of ts.preProcessFile(text, true, true).importedFiles) {
        const r = this.resolver.resolve(spec.fileName, file);
        if (r.kind === 'project') queue.push(path.normalize(r.file));
      }
    }
    return seen;
  }
}

// ---- holders and their invocations ----------------------------------------------------------

/** What takes the client: a class (through its constructor) or a function. */
export interface Holder {
  kind: 'class' | 'function';
  /**
   * A class a DI framework builds from its registration (`@Inject(TOKEN)` parameters): a listing
   * in a module's `providers` is that registration, not a construction the tool must follow.
   */
  registered?: boolean;
  node: ts.ClassLikeDeclaration | ts.FunctionLikeDeclaration;
  /** The declarations a reference to it resolves to (a function expression's or class expression's const too). */
  decls: ReadonlySet<ts.Node>;
  /** For messages, and the name searched for in its own file. */
  name: string;
  /** The name of its own declaration (not a use). */
  nameNode?: ts.Node;
  /** How its own file exports it without naming it elsewhere (`export class`, `module.exports = class …`). */
  exports: ExportRef[];
}

/** A call or construction of a holder, with the arguments it passes. */
export interface Invocation {
  expr: ts.CallExpression | ts.NewExpression;
  args: readonly ts.Expression[];
}

export interface InjectedScope {
  checker: ts.TypeChecker;
  program: ts.Program;
  cwd: string;
  subclassesOf(cls: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration[];
  callers: CallerSearch;
  publishedBy(file: string): string | undefined;
  /** W-EDGE: where a module of the run may load a file by a computed path (callers.ts FollowSearch). */
  callerSearch?: Pick<FollowSearch, 'loadedByComputedPath' | 'namedUnscannable'>;
}

type Found<T> = T | { why: string };

/** Exports followed from a holder's module through re-exporting modules, at most. */
const MAX_EXPORT_HOPS = 8;
/** Levels of subclasses without a constructor of their own followed, at most. */
const MAX_SUBCLASS_DEPTH = 4;

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

/** `module.exports` → 'default'; `module.exports.X` / `exports.X` → 'X'; else undefined. */
function commonJsExportName(target: ts.Expression): string | undefined {
  const text = target.getText().replace(/\s+/g, '');
  if (text === 'module.exports') return 'default';
  const m = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(text);
  return m ? m[1] : undefined;
}

/** The holder a parameter's function stands for, or why its calls cannot be followed. */
export function holderOf(fn: ts.FunctionLikeDeclaration): Found<Holder> {
  const file = fn.getSourceFile().fileName;
  const exportsOf = (node: ts.Node, name: string): ExportRef[] =>
    hasModifier(node, ts.SyntaxKind.ExportKeyword) ? [{ file, name: hasModifier(node, ts.SyntaxKind.DefaultKeyword) ? 'default' : name }] : [];
  if (ts.isConstructorDeclaration(fn)) {
    const cls = fn.parent;
    if (ts.isClassDeclaration(cls)) {
      const name = cls.name?.text ?? 'default';
      return { kind: 'class', node: cls, decls: new Set([cls]), name, nameNode: cls.name, exports: exportsOf(cls, name) };
    }
    // a class expression: held by a const, or the module's export (`module.exports = class X …`)
    const outer = climbWrappers(cls);
    const parent = outer.parent;
    if (parent && ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name) && isConst(parent)) {
      return { kind: 'class', node: cls, decls: new Set([cls, parent]), name: parent.name.text, nameNode: parent.name, exports: exportsOf(parent.parent.parent, parent.name.text) };
    }
    if (parent && ts.isBinaryExpression(parent) && parent.right === outer && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const exported = commonJsExportName(parent.left);
      if (exported) return { kind: 'class', node: cls, decls: new Set([cls]), name: cls.name?.text ?? exported, nameNode: cls.name, exports: [{ file, name: exported }] };
    }
    return { why: `its class is ${ts.isClassExpression(cls) ? 'an expression passed on' : 'not followed'}` };
  }
  if (ts.isFunctionDeclaration(fn)) {
    if (!fn.body) return { why: 'a declaration without a body' };
    const name = fn.name?.text ?? 'default';
    return { kind: 'function', node: fn, decls: new Set([fn]), name, nameNode: fn.name, exports: exportsOf(fn, name) };
  }
  if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) {
    const outer = climbWrappers(fn);
    const parent = outer.parent;
    if (parent && ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name) && isConst(parent)) {
      return { kind: 'function', node: fn, decls: new Set([fn, parent]), name: parent.name.text, nameNode: parent.name, exports: exportsOf(parent.parent.parent, parent.name.text) };
    }
    return { why: 'its function is a value passed on (a callback, a property), whose calls are not followed' };
  }
  return { why: 'a method parameter, whose calls are not followed' };
}

function isConst(decl: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(decl.parent) && (decl.parent.flags & ts.NodeFlags.Const) !== 0 && ts.isVariableStatement(decl.parent.parent);
}

/** Names a file binds with its imports and requires (a default import or an alias may rename the holder). */
function importedNames(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  const bindingNames = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) out.push(name.text);
    else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bindingNames(e.name);
  };
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s) && s.importClause) {
      if (s.importClause.name) out.push(s.importClause.name.text);
      const b = s.importClause.namedBindings;
      if (b && ts.isNamespaceImport(b)) out.push(b.name.text);
      else if (b) for (const e of b.elements) out.push(e.name.text);
    } else if (ts.isImportEqualsDeclaration(s)) out.push(s.name.text);
  }
  if (/\b(require|import)\s*\(/.test(sf.text)) {
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && n.initializer && /\b(require|import)\s*\(/.test(n.initializer.getText(sf))) bindingNames(n.name);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** Uses of a holder: the calls and constructions, and the names other modules may import it by. */
interface Uses {
  news: ts.NewExpression[];
  calls: ts.CallExpression[];
  exports: ExportRef[];
}

/**
 * Every reference to the holder in `sf` whose text is one of `names` (or a name the file's imports
 * bind), classified; `why` at the first use the tool cannot follow (a value passed on, stored,
 * called through `.call`/`.apply`/`.bind`…).
 */
function usesIn(scope: InjectedScope, holder: Holder, sf: ts.SourceFile, names: ReadonlySet<string>, uses: Uses, seen: Set<ts.Node>): string | undefined {
  const wanted = new Set([...names, ...importedNames(sf)]);
  const checker = scope.checker;
  let why: string | undefined;
  const module = holder.node.getSourceFile();
  /** The holder, its module (a namespace import or require), or something else. */
  const target = (id: ts.Identifier): 'holder' | 'module' | undefined => {
    let symbol = ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id
      ? checker.getShorthandAssignmentValueSymbol(id.parent)
      : checker.getSymbolAtLocation(id);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
      try {
        symbol = checker.getAliasedSymbol(symbol);
      } catch {
        return undefined;
      }
    }
    if (symbol?.declarations?.some((d) => holder.decls.has(d))) return 'holder';
    return symbol?.declarations?.includes(module) ? 'module' : undefined;
  };
  const visit = (n: ts.Node): void => {
    if (why) return;
    if (ts.isIdentifier(n) && wanted.has(n.text) && !seen.has(n) && n !== holder.nameNode) {
      const t = target(n);
      if (t) seen.add(n);
      if (t === 'holder') why = classify(scope, holder, n, uses);
      else if (t === 'module') why = moduleUse(scope, holder, n);
      else if (sf !== module && ts.isPropertyAccessExpression(n.parent) && n.parent.name === n && isUntyped(checker.getTypeAtLocation(n.parent.expression))) {
        // `new mod.Bot(other)`, mod a module loaded by a path the checker cannot follow: it may be the holder
        why = `${holder.name} is read from an untyped value in ${locationOf(scope, n)}, where its ${holder.kind === 'class' ? 'constructions' : 'calls'} cannot be followed`;
      }
    } else if (isRequireCall(n) && n.arguments.length === 1 && ts.isStringLiteral(n.arguments[0]) && checker.getSymbolAtLocation(n.arguments[0])?.declarations?.includes(module)) {
      why = requireUse(scope, holder, n);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return why;
}

/**
 * `require('./assistant')` of the holder's module bound to a name (`const X = require(…)`) is found
 * by that name. Anything else hides the holder's uses: a CommonJS barrel's `module.exports = {
 * Assistant: require('./assistant') }` (its importers' names resolve to the barrel's property, not
 * to the holder), `new (require('./x'))(c)`, a value handed on (probe of CommonJS classes).
 */
function requireUse(scope: InjectedScope, holder: Holder, call: ts.CallExpression): string | undefined {
  const outer = climbWrappers(call);
  const parent = outer.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === outer) return undefined;
  return `the module of ${holder.name} is required as a value in ${locationOf(scope, call)}, where its ${holder.kind === 'class' ? 'constructions' : 'calls'} cannot be followed`;
}

/**
 * A use of the holder's module as an object (`import * as m`, `const m = require(…)`): `m.X` is
 * found by its name; the object handed on whole may reach the holder out of sight.
 */
function moduleUse(scope: InjectedScope, holder: Holder, id: ts.Identifier): string | undefined {
  const p = id.parent;
  if (ts.isNamespaceImport(p) || ts.isImportEqualsDeclaration(p) || ts.isImportClause(p) || ts.isExportSpecifier(p) ||
    (ts.isVariableDeclaration(p) && p.name === id) || ts.isBindingElement(p)) return undefined;
  if (ts.isPropertyAccessExpression(p) && p.expression === id) return undefined;
  if (ts.isQualifiedName(p) || ts.isTypeQueryNode(p) || ts.isTypeReferenceNode(p)) return undefined;
  return `the module of ${holder.name} is used as a value in ${locationOf(scope, id)}, where its ${holder.kind === 'class' ? 'constructions' : 'calls'} cannot be followed`;
}

function classify(scope: InjectedScope, holder: Holder, id: ts.Identifier, uses: Uses): string | undefined {
  const file = id.getSourceFile().fileName;
  const p = id.parent;
  // declarations that bind it under a name: their uses are found by that name
  if (ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p) || ts.isImportEqualsDeclaration(p) ||
    ts.isBindingElement(p) || (ts.isVariableDeclaration(p) && p.name === id)) return undefined;
  if (ts.isExportSpecifier(p)) {
    uses.exports.push({ file, name: p.name.text });
    return undefined;
  }
  if (ts.isExportAssignment(p)) {
    uses.exports.push({ file, name: 'default' });
    return undefined;
  }
  // type positions, `implements`/`extends` (subclasses are followed on their own)
  if (ts.isTypeReferenceNode(p) || ts.isTypeQueryNode(p) || ts.isQualifiedName(p) || ts.isImportTypeNode(p) ||
    (ts.isExpressionWithTypeArguments(p) && ts.isHeritageClause(p.parent))) return undefined;
  // `ns.Holder` / `require('./x').Holder`: the access is the reference
  const ref: ts.Node = ts.isPropertyAccessExpression(p) && p.name === id ? p : id;
  if (ref !== id && ts.isExpressionWithTypeArguments(ref.parent) && ts.isHeritageClause(ref.parent.parent)) return undefined;
  const outer = climbWrappers(ref);
  const parent = outer.parent;
  const used = `${holder.name} is used as a value in ${locationOf(scope, id)}, where its ${holder.kind === 'class' ? 'constructions' : 'calls'} cannot be followed`;
  if (holder.registered && ts.isArrayLiteralExpression(parent) && ts.isPropertyAssignment(parent.parent) && REGISTRATIONS.has(propertyNameText(parent.parent.name) ?? '')) return undefined;
  if (ts.isNewExpression(parent) && parent.expression === outer) {
    if (holder.kind !== 'class') return used;
    uses.news.push(parent);
    return undefined;
  }
  if (ts.isCallExpression(parent) && parent.expression === outer) {
    if (holder.kind !== 'function') return used;
    uses.calls.push(parent);
    return undefined;
  }
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && parent.right === outer) return undefined;
  if (ts.isTypeOfExpression(parent)) return undefined;
  // a static member (`ChatService.defaultModel`), but not `.call`/`.apply`/`.bind`/`.prototype`
  if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
    return ['call', 'apply', 'bind', 'prototype'].includes(parent.name.text) ? used : undefined;
  }
  // CommonJS exports: `module.exports = X`, `exports.X = X`, `module.exports = { X }`
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === outer) {
    const name = commonJsExportName(parent.left);
    if (name) {
      uses.exports.push({ file, name });
      return undefined;
    }
  }
  const property = ts.isShorthandPropertyAssignment(parent) && parent.name === outer ? parent
    : ts.isPropertyAssignment(parent) && parent.initializer === outer ? parent : undefined;
  if (property && ts.isObjectLiteralExpression(property.parent)) {
    const holderOfObject = climbWrappers(property.parent).parent;
    const key = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : undefined;
    if (key && ts.isBinaryExpression(holderOfObject) && holderOfObject.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      holderOfObject.right === climbWrappers(property.parent) && commonJsExportName(holderOfObject.left) === 'default') {
      uses.exports.push({ file, name: key });
      return undefined;
    }
  }
  return used;
}

/** Builds itself from inside (`new this(…)`, `new this.constructor(…)`, `new.target`): constructions out of sight. */
const SELF_CONSTRUCTION = /\bnew\s+this\b|\bthis\s*\.\s*constructor\b|\bnew\.target\b/;

/** Where a DI module lists the classes the framework builds (NestJS `@Module`, Angular `@NgModule`/`@Component`). */
const REGISTRATIONS: ReadonlySet<string> = new Set(['providers', 'controllers', 'exports', 'viewProviders']);

/**
 * Every call or construction of a holder in view: its own module, the modules that import it
 * (found between passes, CallerSearch), the modules that re-export it and theirs; for a class, the
 * `super(…)` calls of its subclasses' constructors and the constructions of subclasses that have none.
 * `why` when one cannot be followed or some importers were not looked for yet.
 */
export function invocationsOf(scope: InjectedScope, holder: Holder, level = 0): Found<{ calls: Invocation[] }> {
  if (holder.kind === 'class' && SELF_CONSTRUCTION.test(holder.node.getText())) {
    return { why: `${holder.name} builds instances of itself through \`this\`` };
  }
  const uses: Uses = { news: [], calls: [], exports: [...holder.exports] };
  const seen = new Set<ts.Node>();
  const own = holder.node.getSourceFile();
  const why = usesIn(scope, holder, own, new Set([holder.name]), uses, seen);
  if (why) return { why };
  // `new (await import(`./bots/${name}.js`)).Bot(other)`: a construction no search names (probe of
  // module structure: a Together client reached a holder proven to get OpenAI's)
  const loader = uses.exports.length ? scope.callerSearch?.loadedByComputedPath(own.fileName) : undefined;
  if (loader) return { why: `the module of ${holder.name} may be loaded by a path computed at run time in ${loader}, where its ${holder.kind === 'class' ? 'constructions' : 'calls'} cannot be followed` };
  const done = new Set<string>();
  let pending = false;
  for (let i = 0; i < uses.exports.length; i++) {
    const ref = uses.exports[i];
    const key = exportKey(ref);
    if (done.has(key)) continue;
    done.add(key);
    if (done.size > MAX_EXPORT_HOPS) return { why: `${holder.name} is re-exported through too many modules to follow` };
    const pkg = scope.publishedBy(ref.file);
    if (pkg) return { why: `${holder.name} is exported by the published package ${pkg}, whose users are out of view` };
    // a component or a skipped folder may build it with another vendor's client (the files of the
    // package outside the paths given were searched and loaded with the run's: lib/scan/index.ts)
    const unscannable = scope.callerSearch?.namedUnscannable(ref.file, ref.name);
    if (unscannable) return { why: `${holder.name} may be ${holder.kind === 'class' ? 'constructed' : 'called'} out of view: ${unscannable}` };
    if (!scope.callers.inView(ref)) {
      pending = true;
      continue;
    }
    for (const file of scope.callers.filesOf(ref)) {
      const sf = scope.program.getSourceFile(file);
      if (!sf) {
        pending = true;
        continue;
      }
      const names = new Set([holder.name, ...(ref.name === 'default' ? [] : [ref.name])]);
      const found = usesIn(scope, holder, sf, names, uses, seen);
      if (found) return { why: found };
    }
  }
  if (pending) return { why: `the modules that import ${holder.name} were not looked at` };
  const calls: Invocation[] = [...uses.news, ...uses.calls].map((expr) => ({ expr, args: expr.arguments ?? [] }));
  if (holder.kind !== 'class') return { calls };
  // subclasses: `super(…)` passes the constructor's arguments; one without a constructor is built like the class
  const cls = holder.node as ts.ClassLikeDeclaration;
  for (const sub of scope.subclassesOf(cls)) {
    const direct = sub.heritageClauses?.some((h) => h.token === ts.SyntaxKind.ExtendsKeyword && h.types.some((t) => resolvesTo(scope.checker, t.expression, cls)));
    if (!direct) continue;
    const ctor = sub.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
    if (ctor) {
      const supers: ts.CallExpression[] = [];
      const visit = (n: ts.Node): void => {
        if (isFunctionLikeOrClass(n)) return;
        if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) supers.push(n);
        ts.forEachChild(n, visit);
      };
      ts.forEachChild(ctor.body!, visit);
      if (supers.length === 0) return { why: `the subclass ${sub.name?.text ?? '(anonymous)'} in ${locationOf(scope, sub)} calls no super()` };
      calls.push(...supers.map((expr) => ({ expr, args: expr.arguments })));
      continue;
    }
    if (level >= MAX_SUBCLASS_DEPTH) return { why: `${holder.name} has subclasses too deep to follow` };
    const subHolder = classHolder(sub);
    if ('why' in subHolder) return subHolder;
    const inner = invocationsOf(scope, subHolder, level + 1);
    if ('why' in inner) return inner;
    calls.push(...inner.calls);
  }
  return { calls };
}

function isFunctionLikeOrClass(n: ts.Node): boolean {
  return ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isClassLike(n);
}

/** The holder of a class (a subclass without a constructor of its own). */
function classHolder(cls: ts.ClassLikeDeclaration): Found<Holder> {
  const ctor = cls.members.find(ts.isConstructorDeclaration);
  if (ctor) return holderOf(ctor);
  // the same shapes as a class with a constructor: reuse holderOf through a stand-in constructor
  const file = cls.getSourceFile().fileName;
  if (ts.isClassDeclaration(cls)) {
    const name = cls.name?.text ?? 'default';
    const exported = hasModifier(cls, ts.SyntaxKind.ExportKeyword) ? [{ file, name: hasModifier(cls, ts.SyntaxKind.DefaultKeyword) ? 'default' : name }] : [];
    return { kind: 'class', node: cls, decls: new Set([cls]), name, nameNode: cls.name, exports: exported };
  }
  return { why: `the subclass in ${path.basename(file)} is a class expression, whose constructions are not followed` };
}

function resolvesTo(checker: ts.TypeChecker, e: ts.Expression, cls: ts.ClassLikeDeclaration): boolean {
  let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(e) ? e.name : e);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
    try {
      symbol = checker.getAliasedSymbol(symbol);
    } catch {
      return false;
    }
  }
  return Boolean(symbol?.declarations?.includes(cls));
}
