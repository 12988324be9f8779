/**
 * W-FOLLOW through an object literal that carries a part of the result under one key (corpus:
 * Grue.is returns `{ text, usage: resp.usage, duration_ms, response: resp }` to three callers that
 * read `.text` and `.duration_ms`). The object is followed to where it is read, when it is returned
 * from a function (to every caller) or held by a local const: a read of the key is a read of that
 * part, any other key is the program's own value, and the object used in any other way (passed on,
 * spread, serialised, indexed by a computed key, written) leaves the code in view.
 */
import { ts, unwrap, climbWrappers, propertyNameText, isConsoleArgument, isWriteReference } from './ast.js';
import type { ScanContext } from './context.js';
import { locationOf } from './context.js';
import { referencesOf, isExported } from './references.js';
import { isReturnOf, returnCallers, returningFunction, type FollowedFunction } from './callers.js';

/** What the result analysis does with what the holder gives back. */
export interface HolderReads {
  /** `node` reads the carried part (`h.usage`, `(await f()).usage`): follow its reads. */
  part(node: ts.Node): void;
  /** A name bound to the carried part (`const { usage } = await f()`): follow its reads. */
  bound(name: ts.Identifier): void;
  /** The holder left the code in view: result-escapes with this detail. */
  escape(detail: string): void;
  /** The holder's function is a unit boundary (its callers' files join the group). */
  share(fn: ts.Node): void;
  /** The function's return type is fine for the holder (absent or `any`); false has reported. */
  returnTypeFits(fn: FollowedFunction): boolean;
}

export class HolderFollower {
  private readonly followed = new Set<ts.Node>();
  private hops = 0;

  constructor(
    private readonly ctx: ScanContext,
    /** The key the part is stored under, and how the reasons name it. */
    private readonly key: string,
    private readonly what: string,
    private readonly reads: HolderReads,
  ) {}

  /**
   * `object` holds the part under `key`: follow it from where it goes, when it is returned or held
   * by a local const of no declared type. False when it goes anywhere else (an argument, another
   * object, an array): the caller reports the part as stored, as it would any other store.
   */
  follow(object: ts.ObjectLiteralExpression): boolean {
    const outer = climbWrappers(object);
    const parent = outer.parent;
    const returned = ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === outer);
    const held = ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name) && !parent.type && Boolean(parent.parent.flags & ts.NodeFlags.Const);
    if (!returned && !held) return false;
    if (object.properties.some((p) => ts.isSpreadAssignment(p) || propertyNameText(p.name) === undefined)) {
      this.leaves(object, 'an object with spread or computed keys');
      return true;
    }
    if (returned) this.returned(outer);
    else this.binding((parent as ts.VariableDeclaration).name as ts.Identifier);
    return true;
  }

  private leaves(at: ts.Node, how: string): void {
    this.reads.escape(`store: ${this.what} is stored in ${how} that leaves the code in view (${locationOf(this.ctx, at)})`);
  }

  /** The holder is returned: every caller of the function gets it. */
  private returned(outer: ts.Node): void {
    const fn = returningFunction(outer);
    if (!fn) return this.leaves(outer, 'an object returned from an anonymous function');
    if (this.followed.has(fn)) return;
    this.followed.add(fn);
    const callers = returnCallers(fn, outer, this.ctx, this.hops, (r) => isReturnOf(r, outer));
    if ('stop' in callers) return this.reads.escape(callers.stop);
    if (!this.reads.returnTypeFits(fn)) return;
    this.reads.share(fn);
    const isAsync = Boolean(callers.promise) || Boolean(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async);
    this.hops++;
    for (const call of callers.calls) {
      if (isAsync) this.promise(call);
      else this.value(call);
    }
    this.hops--;
  }

  /** A promise of the holder: awaited, or given to `.then`. */
  private promise(node: ts.Node): void {
    const outer = climbWrappers(node);
    const parent = outer.parent;
    if (ts.isAwaitExpression(parent)) return this.value(parent);
    if (ts.isPropertyAccessExpression(parent) && parent.expression === outer && parent.name.text === 'then' && ts.isCallExpression(parent.parent) && parent.parent.expression === parent) {
      const cb = parent.parent.arguments[0] && unwrap(parent.parent.arguments[0]);
      const param = cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) ? cb.parameters[0] : undefined;
      if (!param) return cb ? this.leaves(parent.parent, 'a promise handed to a callback') : undefined;
      if (param.type) return this.leaves(param, 'a parameter with a declared type');
      if (ts.isIdentifier(param.name)) return this.binding(param.name);
      if (ts.isObjectBindingPattern(param.name)) return this.pattern(param.name);
      return this.leaves(param, 'a parameter');
    }
    if (ts.isExpressionStatement(parent)) return;
    this.leaves(outer, 'a promise');
  }

  /** The holder itself, as an expression. */
  private value(node: ts.Node): void {
    const outer = climbWrappers(node);
    const parent = outer.parent;
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer) {
      if (parent.type) return this.leaves(parent, 'a variable with a declared type');
      if (ts.isIdentifier(parent.name)) return this.binding(parent.name);
      if (ts.isObjectBindingPattern(parent.name)) return this.pattern(parent.name);
      return this.leaves(parent, 'a variable');
    }
    this.use(outer);
  }

  /** A use of the holder: a property read, or something that keeps it whole. */
  private use(outer: ts.Node): void {
    const parent = outer.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
      // another key is the program's own value, read or written; the part's key is only read
      if (parent.name.text !== this.key) return;
      if (isWriteReference(parent)) return this.leaves(parent, 'an object written');
      return this.reads.part(parent);
    }
    if (ts.isExpressionStatement(parent) || isConsoleArgument(outer)) return;
    this.leaves(outer, 'an object');
  }

  private binding(name: ts.Identifier): void {
    if (this.followed.has(name)) return;
    this.followed.add(name);
    if (isExported(this.ctx.checker, name)) return this.leaves(name, 'an exported object');
    for (const ref of referencesOf(this.ctx.checker, name)) {
      if (isWriteReference(ref)) return this.leaves(ref, 'a variable given another value');
      this.use(climbWrappers(ref));
    }
  }

  /** `const { text, usage } = …`: the key's name follows the part; the others are the program's own. */
  private pattern(pattern: ts.ObjectBindingPattern): void {
    for (const el of pattern.elements) {
      if (el.dotDotDotToken) return this.leaves(el, 'a rest element');
      const key = propertyNameText(el.propertyName ?? (ts.isIdentifier(el.name) ? el.name : undefined));
      if (key !== this.key) continue;
      if (!ts.isIdentifier(el.name) || el.initializer) return this.leaves(el, 'a nested or defaulted binding');
      this.reads.bound(el.name);
    }
  }
}
