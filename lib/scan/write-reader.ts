/**
 * The write reader of the provider proof (docs/migration-spec.md §7, P-UNION, W-INJECTED): where a
 * client, the object that holds it or its options are written after they are built, in the files
 * of the run. A field written from outside its class (`svc.client = groq`), a member of an object
 * holder (`deps.client = …`, also through an alias, a namespace import or `require`), a value
 * handed to a function that writes into it, `Object.assign`, `Object.defineProperty`,
 * `Reflect.set`. What it cannot follow it says (`hidden`, or `pending` while the files that may
 * write are not loaded yet); lib/scan/provider.ts reads the values it finds.
 */
import path from 'node:path';
import {
  ts, unwrap, stringValue, propertyNameText, walk, shortText, climbWrappers, accessName, calleeName, thisClass, isGlobal,
} from './ast.js';
import { aliasTarget, declarationOf, writtenValue } from './bindings.js';
import { type ScanContext, locationOf, resolveClass, isProjectFile, relativeFile } from './context.js';
import { calledFunction, loadedSourceFiles } from './callers.js';
import { isExported } from './references.js';
import { wordPattern } from '../regexp.js';
import { COMPUTED_WRITE, REFLECTIVE_WRITE, findIdentifier, memberWritePattern, storedElsewhere } from './writes.js';

/** How many functions deep an object holding a client is followed for writes into it. */
const MAX_CALLEE_HOPS = 3;

/** Calls that read the objects they are given and never write into them. */
const READ_ONLY_CALLS: ReadonlySet<string> = new Set([
  'console.log', 'console.info', 'console.warn', 'console.error', 'console.debug', 'console.dir', 'console.table',
  'JSON.stringify', 'Object.keys', 'Object.values', 'Object.entries', 'Object.freeze', 'Array.isArray', 'String', 'Boolean',
]);

/** The writes of a field from outside its class, or why they cannot all be seen yet. */
export type OutsideWrites = { values: ts.Expression[]; loose: ts.Expression[]; hidden?: ts.Node } | { pending: string };
/** A value written into a client variable or options object, and the path still to follow inside it. */
export type Write = { value: ts.Expression; rest: readonly string[]; by: string };

export class WriteReader {
  constructor(private readonly ctx: ScanContext) {}

  private readonly outsideWritesCache = new Map<string, OutsideWrites>();
  /**
   * Writes of a field from outside its class, on an instance of it or of a subclass
   * (`summarizer.client = groq`, `svc['client'] ??= …`), in any file of the run that writes a
   * member of that name; the files not in the program yet are asked for (the scan runs again).
   * An instance the checker cannot type (`any`) is not seen.
   */
  outsideFieldWrites(cls: ts.ClassLikeDeclaration, classes: readonly ts.ClassLikeDeclaration[], name: string): OutsideWrites {
    const key = `${cls.getSourceFile().fileName}:${cls.pos}:${name}`;
    const cached = this.outsideWritesCache.get(key);
    if (cached) return cached;
    const writes = memberWritePattern(name);
    // and the files naming the class that write a member by a key the tool cannot read (`agent[k] = v`)
    const writesMember = (text: string) => writes.test(text) || REFLECTIVE_WRITE.test(text) || COMPUTED_WRITE.test(text);
    const paths = new Set([
      ...this.filesOfRun(name, writesMember),
      ...(cls.name ? this.filesOfRun(cls.name.text, (text) => COMPUTED_WRITE.test(text)) : []),
    ]);
    // and those of its package outside the paths given, read like the run's (`migrate-responses
    // src/services`: src/setup.ts writes `summarizer.client = groq`)
    const member = wordPattern(name);
    const owner = cls.name && wordPattern(cls.name.text);
    const outside = this.filesWrittenOutside(cls.getSourceFile().fileName, (text) =>
      (member.test(text) && writesMember(text)) || (owner !== undefined && owner.test(text) && COMPUTED_WRITE.test(text)));
    if (!('why' in outside)) for (const f of outside) paths.add(f);
    const { files, missing } = loadedSourceFiles(this.ctx, paths);
    let result: OutsideWrites;
    if ('why' in outside) result = { pending: outside.why };
    else if (missing.length) result = { pending: `files that write a member ${name} were not looked at yet` };
    else {
      const values: ts.Expression[] = [];
      const loose: ts.Expression[] = [];
      let hidden: ts.Node | undefined;
      // inside the classes, `this.x` and `Cls.x` are the class walk's; here, `Cls.x` after the class
      // and any other object the checker types as an instance
      const inside = (e: ts.Node) => classes.some((c) => c.getSourceFile() === e.getSourceFile() && c.pos <= e.pos && e.end <= c.end);
      const isInstance = (obj: ts.Expression) =>
        !inside(obj) && unwrap(obj).kind !== ts.SyntaxKind.ThisKeyword && (classes.some((c) => this.namesClass(obj, c)) || this.isInstanceOf(obj, classes));
      const mayBeInstance = (obj: ts.Expression) => !inside(obj) && this.mayBeInstance(obj, classes);
      for (const sf of files) hidden ??= this.memberWritesIn(sf, name, isInstance, values, mayBeInstance, loose);
      result = { values, loose, hidden };
    }
    this.outsideWritesCache.set(key, result);
    return result;
  }

  /**
   * The writes of member `name` in `scope` on an object `isHolder` accepts: the right sides of its
   * assignments go into `values`, and the first write that hides its value (`[x.client] = …`,
   * `for (x.client of …)`, `Object.assign(x, opts)` whose sources may hold it) is returned.
   */
  memberWritesIn(
    scope: ts.Node, name: string, isHolder: (e: ts.Expression) => boolean, values: ts.Expression[], mayHold: (e: ts.Expression) => boolean = () => false,
    loose: ts.Expression[] = [],
  ): ts.Node | undefined {
    let hidden: ts.Node | undefined;
    walk(scope, (n) => {
      // a loose target counts only when the call spells the member (`Object.assign(x, { client })`)
      if (ts.isCallExpression(n) && (this.assignsInto(n, isHolder, name) || this.definesMember(n, isHolder, name))) hidden ??= n;
      if (ts.isCallExpression(n) && (this.assignsInto(n, mayHold, name, true) || this.definesMember(n, mayHold, name, true))) hidden ??= n;
      // a key the tool cannot read (`this[key] = options[key]` merging a config) may name the member
      if (ts.isElementAccessExpression(n) && accessName(n) === undefined && this.mayNameMember(n.argumentExpression, name) &&
        isHolder(n.expression) && writtenValue(n) !== undefined) hidden ??= n;
      if (accessName(n) !== name) return;
      const written = writtenValue(n);
      if (written === undefined) return;
      const object = (n as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression;
      // an object that may be an instance (`any`, a type parameter, a structural type): what it
      // gets is judged by the caller (a test's double is no client), what no right side shows hides it
      if (!isHolder(object)) {
        if (!mayHold(object)) return;
        this.looseWrites.add(n);
        if (written === 'hidden') hidden ??= n;
        else loose.push(written);
        return;
      }
      if (written === 'hidden') hidden ??= n;
      else values.push(written);
    });
    return hidden;
  }

  /** A computed key whose type does not rule out `name` (a `const` of another literal, or a union of them, does). */
  private mayNameMember(key: ts.Expression, name: string): boolean {
    const type = this.ctx.checker.getTypeAtLocation(key);
    const literals = type.isUnion() ? type.types : [type];
    return !literals.every((t) => t.isStringLiteral() || t.isNumberLiteral()) || literals.some((t) => String(t.value) === name);
  }

  /** `Object.defineProperty(x, 'client', …)`, `Reflect.set(x, 'client', …)`, `Object.defineProperties(x, …)`. */
  private definesMember(call: ts.CallExpression, isTarget: (e: ts.Expression) => boolean, name: string, spelled = false): boolean {
    const fn = calleeName(call.expression);
    if (!['Object.defineProperty', 'Object.defineProperties', 'Reflect.set', 'Reflect.defineProperty'].includes(fn)) return false;
    const [target, key] = call.arguments;
    if (!target || !isTarget(target)) return false;
    if (fn === 'Object.defineProperties') return !spelled;
    const literal = key && stringValue(unwrap(key));
    return literal === undefined ? !spelled : literal === name;
  }

  /**
   * An object the checker cannot tie to a class but that may be an instance of one of `classes`:
   * `any` (`(svc as any)`, an untyped JavaScript parameter), a type parameter, a parameter whose
   * declared type an instance satisfies (`o: { client: OpenAI }`), or `this` in a mixin's class
   * (`class extends Base` of a parameter or a call) or in one extending them by another name.
   */
  private mayBeInstance(obj: ts.Expression, classes: readonly ts.ClassLikeDeclaration[]): boolean {
    const checker = this.ctx.checker;
    const e = unwrap(obj);
    if (e.kind === ts.SyntaxKind.ThisKeyword) {
      const cls = thisClass(e);
      if (!cls || classes.includes(cls)) return false;
      const heritage = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
      if (!heritage) return false;
      // a mixin's base (a parameter, a call's result); a class of an unresolved package is not ours
      const base = unwrap(heritage.expression);
      const baseDecl = ts.isIdentifier(base) ? declarationOf(checker, base) : undefined;
      if (baseDecl && ts.isParameter(baseDecl)) return true;
      // `extends mix(Base)`: only when the call is handed one of the classes (not `InheritMultiple([A, B])` of others)
      if (ts.isCallExpression(base)) return this.namesAnyClass(base.arguments, classes);
      if (checker.getTypeAtLocation(base).flags & ts.TypeFlags.TypeParameter) return true;
      const instance = checker.getTypeAtLocation(cls);
      return (checker.getBaseTypes(instance as ts.InterfaceType) ?? []).some((t) => this.isOrExtends(t, classes));
    }
    const loose = ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter;
    const type = checker.getTypeAtLocation(e);
    if ((type.flags | checker.getTypeAtLocation(obj).flags) & loose) return true;
    const root = ts.isIdentifier(e) ? declarationOf(checker, e) : undefined;
    if (!root || !ts.isParameter(root)) return false;
    return classes.some((c) => {
      const instance = checker.getTypeAtLocation(c);
      return checker.isTypeAssignableTo(instance, type);
    });
  }

  private namesAnyClass(nodes: readonly ts.Node[], classes: readonly ts.ClassLikeDeclaration[]): boolean {
    let found = false;
    const visit = (n: ts.Node): false | undefined => {
      if (found) return false;
      if (ts.isIdentifier(n) && classes.some((c) => c.name?.text === n.text) && classes.includes(resolveClass(this.ctx.checker, n) as ts.ClassLikeDeclaration)) found = true;
      return undefined;
    };
    for (const node of nodes) {
      visit(node);
      walk(node, visit);
    }
    return found;
  }

  /** A type that is, or derives from, an instance of one of `classes` (an unresolved ancestor is not one). */
  private isOrExtends(type: ts.Type, classes: readonly ts.ClassLikeDeclaration[], depth = 0): boolean {
    if (type.getSymbol()?.declarations?.some((d) => classes.includes(d as ts.ClassLikeDeclaration))) return true;
    if (depth > 8 || !(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) return false;
    return (this.ctx.checker.getBaseTypes(type as ts.InterfaceType) ?? []).some((t) => this.isOrExtends(t, classes, depth + 1));
  }

  /** The checker types `e` as an instance of one of `classes` (or a union that holds one). */
  private isInstanceOf(e: ts.Expression, classes: readonly ts.ClassLikeDeclaration[]): boolean {
    const type = this.ctx.checker.getTypeAtLocation(e);
    return (type.isUnion() ? type.types : [type]).some((t) => t.getSymbol()?.declarations?.some((d) => classes.includes(d as ts.ClassLikeDeclaration)));
  }

  /**
   * An object holding the client (at `path`) passed to a call: what the callee writes into it
   * through its parameter (`function configure(deps) { deps.client = other }`, a constructor too),
   * followed three functions deep. A call the tool cannot look into may write it, unless it is
   * one that only reads (`console.log`, `JSON.stringify`, `Object.keys`…).
   */
  private writesByCallee(arg: ts.Node, path: readonly string[], hops: number): Write[] | { hidden: ts.Node } {
    const call = arg.parent;
    if (!(ts.isCallExpression(call) || ts.isNewExpression(call)) || !call.arguments?.includes(arg as ts.Expression)) return [];
    // Object.assign is judged by the walk down the path (its sources may or may not hold the member)
    if (this.isObjectAssign(call) || READ_ONLY_CALLS.has(calleeName(call.expression))) return [];
    const index = call.arguments.indexOf(arg as ts.Expression);
    const fn = ts.isNewExpression(call)
      ? resolveClass(this.ctx.checker, call.expression)?.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && Boolean(m.body))
      : calledFunction(this.ctx.checker, call);
    if (!fn) {
      // a class of the project without a constructor of its own takes nothing it could write into
      const cls = ts.isNewExpression(call) ? resolveClass(this.ctx.checker, call.expression) : undefined;
      return cls && isProjectFile(cls.getSourceFile()) && !cls.heritageClauses?.length ? [] : { hidden: call };
    }
    if (hops >= MAX_CALLEE_HOPS || call.arguments.slice(0, index).some(ts.isSpreadElement)) return { hidden: call };
    const params = fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
    const param = params[index];
    if (!param) return [];
    if (param.dotDotDotToken) return { hidden: call };
    // a destructured parameter holds copies of the keys, not the object
    if (!ts.isIdentifier(param.name)) return [];
    return this.writesTo(fn, param.name, path, hops + 1);
  }

  /**
   * A member of an object literal reached by its type, not through a holder the write reader
   * follows (`const { deps } = require('./deps'); deps.client`, `deps.clients.main`,
   * `getDeps().client`, `exports.client`): a file of the run that writes a member of a name on its way
   * (`deps.client = …`, `m.deps.clients = …`) may have replaced it. Says which, or undefined.
   */
  literalMemberWriter(decl: ts.Declaration): string | undefined {
    const keys: string[] = [];
    // `exports.client = new OpenAI()`: the module object's member, written by whoever requires it
    // (its own assignment is one write of the name in its file)
    const exported = ts.isPropertyAccessExpression(decl) && ts.isBinaryExpression(decl.parent);
    if (exported) keys.push(decl.name.text);
    let node: ts.Node = decl;
    while ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isObjectLiteralExpression(node.parent)) {
      const key = propertyNameText(node.name);
      if (key) keys.push(key);
      const outer = climbWrappers(node.parent).parent;
      if (!outer) break;
      node = outer;
    }
    if (keys.length === 0) return undefined;
    const own = path.normalize(decl.getSourceFile().fileName);
    for (const key of keys) {
      const writes = new RegExp(memberWritePattern(key).source, 'g');
      const files = this.filesOfRun(key, (text, file) => (text.match(writes)?.length ?? 0) > (exported && path.normalize(file) === own ? 1 : 0));
      const what = exported ? 'an export of the module' : 'a member of the object literal';
      if (files.length) return `${what} in ${locationOf(this.ctx, decl)}; ${relativeFile(this.ctx.cwd, files[0])} writes a member ${key}`;
      const unseen = this.writtenOutside(own, (text) => memberWritePattern(key).test(text));
      if (unseen) return `${what} in ${locationOf(this.ctx, decl)}; a member ${key} may be written in ${unseen}`;
    }
    return undefined;
  }

  /**
   * Where a file the run does not scan, among those that may use `file` (its package outside the
   * paths given: `migrate-responses src/services` leaves out src/app.ts; a component), has a text
   * `test` accepts: a write there is never read, so the value it may replace is not proven.
   */
  writtenOutside(file: string, test: (text: string, file: string) => boolean): string | undefined {
    return this.ctx.callerSearch?.textOutside(file, test);
  }

  /** The files writtenOutside would name, all of them, to be loaded and read like the run's. */
  filesWrittenOutside(file: string, test: (text: string, file: string) => boolean): readonly string[] | { why: string } {
    return this.ctx.callerSearch?.filesOutside(file, test) ?? [];
  }

  /** The files of the run that name `name` and whose text passes `test` (without a caller search: the program's project files). */
  filesOfRun(name: string, test: (text: string, file: string) => boolean): string[] {
    const search = this.ctx.callerSearch;
    return search
      ? search.filesNaming(name).filter((f) => test(search.textOf(f) ?? '', f))
      : this.ctx.program.getSourceFiles().filter((sf) => isProjectFile(sf) && test(sf.text, sf.fileName)).map((sf) => sf.fileName);
  }

  /** The variable an object holder is declared by (`const deps = { client: … }`), here or imported. */
  objectHolder(id: ts.Identifier): (ts.VariableDeclaration & { name: ts.Identifier }) | undefined {
    let decl = declarationOf(this.ctx.checker, id);
    if (decl && (ts.isImportSpecifier(decl) || ts.isImportClause(decl))) decl = aliasTarget(this.ctx.checker, decl);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer || !isProjectFile(decl.getSourceFile())) return undefined;
    return ts.isObjectLiteralExpression(unwrap(decl.initializer)) ? (decl as ts.VariableDeclaration & { name: ts.Identifier }) : undefined;
  }

  /**
   * What a holder's member is given after its literal: in its module, and, when it is exported, in
   * the modules that import it (found by name among the files of the run, loaded for a second pass).
   * A module that names it without a named import (a namespace import, `require`) and writes a
   * member of that name leaves it unproven.
   */
  holderWrites(holder: ts.VariableDeclaration & { name: ts.Identifier }, member: string, receiver = false): Write[] | { hidden: ts.Node } | { unseen: string } {
    const own = this.writesTo(holder.getSourceFile(), holder.name, [member], 0, receiver);
    const search = this.ctx.callerSearch;
    if ('hidden' in own || !search || !isExported(this.ctx.checker, holder.name)) return own;
    const ownFile = path.normalize(holder.getSourceFile().fileName);
    // and those of its package outside the paths given, read like the run's (`migrate-responses
    // src/services`: src/app.ts sets deps.client to another vendor's client)
    const word = wordPattern(holder.name.text);
    const outside = search.filesOutside(ownFile, (text) => word.test(text));
    if ('why' in outside) return { unseen: outside.why };
    const naming = [...search.filesNaming(holder.name.text), ...outside].filter((f) => path.normalize(f) !== ownFile);
    const { files, missing } = loadedSourceFiles(this.ctx, naming);
    if (missing.length) return { unseen: `the modules that import ${holder.name.text} were not looked at yet` };
    const out = [...own];
    const writes = memberWritePattern(member);
    for (const sf of files) {
      let imported = false;
      for (const statement of sf.statements) {
        const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
        if (!bindings || !ts.isNamedImports(bindings)) continue;
        for (const spec of bindings.elements) {
          if (aliasTarget(this.ctx.checker, spec) !== holder) continue;
          imported = true;
          const written = this.writesTo(sf, spec.name, [member], 0, receiver);
          if ('hidden' in written) return written;
          out.push(...written);
        }
      }
      // reached another way (a namespace import, `require`, a dynamic import), not followed: a
      // module that also writes a member of that name may write it
      if (!imported && writes.test(sf.text)) {
        const mention = findIdentifier(sf, holder.name.text);
        if (mention) {
          this.passedOn.add(mention);
          return { hidden: mention };
        }
      }
    }
    return out;
  }

  /** The variable an identifier reads: for `{ deps }`, the variable, not the new object's property. */
  private referencedSymbol(n: ts.Identifier): ts.Symbol | undefined {
    const checker = this.ctx.checker;
    return ts.isShorthandPropertyAssignment(n.parent) && n.parent.name === n ? checker.getShorthandAssignmentValueSymbol(n.parent) : checker.getSymbolAtLocation(n);
  }

  /** Member writes on an object that may be an instance (mayBeInstance). */
  private readonly looseWrites = new WeakSet<ts.Node>();

  /** Uses of a holder that hand it on where the write reader does not follow it (storedElsewhere). */
  private readonly passedOn = new WeakSet<ts.Node>();

  /** Uses of an object literal that let its methods run on another object (methodBorrowed). */
  private readonly borrowed = new WeakSet<ts.Node>();

  /** Where a write that hides the client's value is: an assignment no right side shows, or a call that may write it. */
  hiddenWrite(at: ts.Node): string {
    const where = locationOf(this.ctx, at);
    if (this.looseWrites.has(at)) return `also written in ${where} on ${shortText((at as ts.PropertyAccessExpression).expression, 30)}, whose type does not rule out an instance`;
    if (this.passedOn.has(at)) return `handed on in ${where} (${shortText(at, 30)}), where its writes are not followed`;
    if (this.borrowed.has(at)) return `its methods may run with another \`this\` in ${where} (${shortText(at, 40)})`;
    if ((ts.isCallExpression(at) || ts.isNewExpression(at)) && !this.isObjectAssign(at)) return `handed to ${shortText(at.expression, 30)} in ${where}, which may write it`;
    return `also written in ${where}, with a value no assignment shows`;
  }

  private isObjectAssign(call: ts.CallExpression | ts.NewExpression): call is ts.CallExpression {
    const callee = unwrap(call.expression);
    return ts.isCallExpression(call) && ts.isPropertyAccessExpression(callee) && callee.name.text === 'assign' && isGlobal(this.ctx.checker, callee.expression, 'Object');
  }

  /** `Object.assign(<target>, …)` whose sources may hold `name`. */
  private assignsInto(call: ts.CallExpression, isTarget: (e: ts.Expression) => boolean, name: string, spelled = false): boolean {
    if (!this.isObjectAssign(call)) return false;
    const [target, ...sources] = call.arguments;
    if (!target || !isTarget(target)) return false;
    return sources.some((src) => {
      const obj = unwrap(src);
      if (!ts.isObjectLiteralExpression(obj)) return !spelled;
      return obj.properties.some((p) => !p.name || ts.isComputedPropertyName(p.name) || propertyNameText(p.name) === name);
    });
  }

  /** `this` inside the class, or the class's own name (a static member written as `Cls.x`). */
  namesClass(e: ts.Expression, cls: ts.ClassLikeDeclaration): boolean {
    const target = unwrap(e);
    if (target.kind === ts.SyntaxKind.ThisKeyword) return true;
    return ts.isIdentifier(target) && cls.name?.text === target.text && resolveClass(this.ctx.checker, target) === cls;
  }

  /**
   * The values a variable, parameter or options object (or its member at `path`) is given in
   * `scope`: `client = …`, `client ??= …`, `options.client = …`, `options['client'] ||= …`; or
   * where a write hides the value (`+=`, `[options.client] = …`, `Object.assign(options, overrides)`).
   */
  writesTo(scope: ts.Node, id: ts.Identifier, path: readonly string[], hops = 0, copiesEscape = false): Write[] | { hidden: ts.Node } {
    const symbol = this.ctx.checker.getSymbolAtLocation(id);
    if (!symbol) return [];
    // the literal's methods, whose `this` reads the member (copiesEscape: methodBorrowed)
    const methods = copiesEscape ? methodsOf(symbol) : undefined;
    const out: Write[] = [];
    let hidden: ts.Node | undefined;
    // one write: its right side at what is left of the path, or a value no right side shows
    const record = (target: ts.Node, rest: readonly string[]): void => {
      const written = writtenValue(target);
      if (written === 'hidden') hidden = target;
      else if (written) out.push({ value: written, rest, by: `${shortText(climbWrappers(target), 30)} = … in ${locationOf(this.ctx, target)}` });
    };
    walk(scope, (n) => {
      if (hidden) return false;
      if (!ts.isIdentifier(n) || n === id || n.text !== id.text || this.referencedSymbol(n) !== symbol) return undefined;
      record(n, path);
      // an object stored elsewhere (`const d = deps`, `[deps]`, `{ deps }`, `return deps`) may be
      // written through what holds it, which this walk does not follow
      if (path.length && !hidden) {
        const stored = storedElsewhere(climbWrappers(n) as ts.Expression, copiesEscape);
        if (stored) {
          this.passedOn.add(stored);
          hidden = stored;
        }
      }
      // `this.client` in its methods: a method run on another object reads that object's client
      if (methods && !hidden) {
        const borrowed = methodBorrowed(climbWrappers(n) as ts.Expression, methods);
        if (borrowed) {
          this.borrowed.add(borrowed);
          hidden = borrowed;
        }
      }
      // the object handed to a function, which may write the member (`configure(deps)`)
      const passed = path.length && !hidden ? this.writesByCallee(climbWrappers(n), path, hops) : [];
      if ('hidden' in passed) hidden = passed.hidden;
      else out.push(...passed);
      // down the path: `options.client`, `options['client']`, `options.a.client`
      let holder = climbWrappers(n);
      for (let i = 0; i < path.length && !hidden; i++) {
        const parent = holder.parent;
        if (ts.isCallExpression(parent) && parent.arguments[0] === holder && this.assignsInto(parent, (t) => t === holder, path[i])) hidden = parent;
        if (accessName(parent) !== path[i] || (parent as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression !== holder) break;
        record(parent, path.slice(i + 1));
        holder = climbWrappers(parent);
      }
      return undefined;
    });
    return hidden ? { hidden } : out;
  }
}

/** The names of the methods of the object literal a variable is declared with. */
function methodsOf(symbol: ts.Symbol): ReadonlySet<string> {
  const decl = symbol.valueDeclaration;
  const literal = decl && ts.isVariableDeclaration(decl) && decl.initializer ? unwrap(decl.initializer) : undefined;
  const names = new Set<string>();
  if (!literal || !ts.isObjectLiteralExpression(literal)) return names;
  for (const p of literal.properties) {
    const name = p.name && propertyNameText(p.name);
    if (!name) continue;
    const value = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : undefined;
    if (ts.isMethodDeclaration(p) || ts.isGetAccessor(p) || (value && (ts.isFunctionExpression(value) || ts.isArrowFunction(value)))) names.add(name);
  }
  return names;
}

/**
 * A use of an object literal that lets one of its methods run with another `this` (CommonJS
 * classes with mixins): the object handed to a function (`Object.assign(Bot.prototype, chatMixin)`,
 * `Object.create(chatMixin)`, `mixin(Bot, chatMixin)`), a method read other than to be called on
 * it (`Bot.prototype.ask = chatMixin.ask`, `chatMixin.ask.call(bot)`), destructured or read by a
 * computed key. Undefined for `chatMixin.ask(q)` and reads of its other members.
 */
function methodBorrowed(ref: ts.Expression, methods: ReadonlySet<string>): ts.Node | undefined {
  const parent = ref.parent;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(ref)) {
    return READ_ONLY_CALLS.has(calleeName(parent.expression)) ? undefined : parent;
  }
  if (ts.isVariableDeclaration(parent) && parent.initializer === ref && ts.isObjectBindingPattern(parent.name)) return parent;
  const name = ts.isPropertyAccessExpression(parent) && parent.expression === ref ? parent.name.text
    : ts.isElementAccessExpression(parent) && parent.expression === ref ? stringValue(parent.argumentExpression) ?? null
    : undefined;
  if (name === null) return parent; // `chatMixin[key]`
  if (name === undefined || !methods.has(name)) return undefined;
  const use = climbWrappers(parent);
  if (ts.isCallExpression(use.parent) && use.parent.expression === use) return undefined;
  // tested, not taken: `typeof chatMixin.ask`, `!chatMixin.ask`
  if (ts.isTypeOfExpression(use.parent) || (ts.isPrefixUnaryExpression(use.parent) && use.parent.operator === ts.SyntaxKind.ExclamationToken)) return undefined;
  return parent;
}
