/**
 * W-FOLLOW of a parameter's value into each call (docs/migration-spec.md S-DETECT, V-BUILDER): a
 * read inside a function that names one of its parameters, positional (`stream = false`) or a
 * property of an options parameter (`{ stream = false }: Options`, or
 * `const { stream = false } = config` over a `config` parameter read nowhere else), and what a
 * given call passes for it. Nothing here decides; the callers judge the values.
 */
import { ts, unwrap, literalValue, isWriteReference, propertyNameText, propertyValue, walk, climbWrappers } from './ast.js';
import { declarationOf } from './bindings.js';
import { calledName, callersOf, isFollowedFunction, MAX_HOPS, type FollowedFunction } from './callers.js';
import { locationOf, type ScanContext } from './context.js';
import { isUntyped } from './types.js';
import { referencesOf } from './references.js';

/** Where a name inside a function takes its value from: one parameter of the function. */
export interface ParameterSlot {
  fn: FollowedFunction;
  /** The parameter's position. */
  index: number;
  /** For an options parameter: the property read. */
  property?: string;
  /** Taken when the call leaves the value out (or passes `undefined`). */
  initializer?: ts.Expression;
  /** The declaration every read of the value resolves to (a parameter or a binding element). */
  decl: ts.ParameterDeclaration | ts.BindingElement;
}

/** The parameter slot an identifier reads, when its value is fixed by the call (never reassigned). */
export function parameterSlot(checker: ts.TypeChecker, id: ts.Identifier): ParameterSlot | undefined {
  const decl = declarationOf(checker, id);
  if (!decl) return undefined;
  if (ts.isParameter(decl)) {
    if (!ts.isIdentifier(decl.name) || decl.dotDotDotToken || isReassigned(checker, decl.name)) return undefined;
    const fn = followedFunction(decl.parent);
    return fn && { fn, index: fn.parameters.indexOf(decl), initializer: decl.initializer, decl };
  }
  if (!ts.isBindingElement(decl) || !ts.isIdentifier(decl.name) || decl.dotDotDotToken || !ts.isObjectBindingPattern(decl.parent)) return undefined;
  const property = propertyNameText(decl.propertyName ?? decl.name);
  if (!property || isReassigned(checker, decl.name)) return undefined;
  const param = optionsParameter(checker, decl.parent);
  const fn = param && followedFunction(param.parent);
  return fn && { fn, index: fn.parameters.indexOf(param!), property, initializer: decl.initializer, decl };
}

/** What a call passes for a slot: an expression (undefined when left out), or the same property of its own caller's options. */
export type Passed = { value: ts.Expression | undefined } | { slot: ParameterSlot };

/**
 * What `call` passes for the slot, or undefined when it cannot be seen: a spread argument, an
 * options value that is not an object literal, an accessor, a spread that may carry the property
 * after it is written or next to another such spread. A spread of the rest of the caller's own
 * options (`const { messages, ...rest } = config; f({ ...rest, messages })`) passes the caller's.
 */
export function passedFor(checker: ts.TypeChecker, slot: Pick<ParameterSlot, 'index' | 'property'>, call: ts.CallExpression): Passed | undefined {
  if (call.arguments.slice(0, slot.index + 1).some(ts.isSpreadElement)) return undefined;
  const arg = call.arguments[slot.index];
  if (!arg || slot.property === undefined) return { value: arg && unwrap(arg) };
  const options = unwrap(arg);
  if (!ts.isObjectLiteralExpression(options)) return undefined;
  let written: Passed | undefined;
  let carried: Passed | undefined;
  for (const p of options.properties) {
    if (ts.isSpreadAssignment(p)) {
      if (!mayCarry(checker, p.expression, slot.property)) continue;
      const rest = ts.isIdentifier(unwrap(p.expression)) ? restSlot(checker, unwrap(p.expression) as ts.Identifier, slot.property) : undefined;
      if (!rest || written || carried) return undefined;
      carried = { slot: rest };
      continue;
    }
    if (propertyNameText(p.name) !== slot.property) continue;
    const v = propertyValue(p);
    if (!v) return undefined;
    written = { value: unwrap(v) };
  }
  return written ?? carried ?? { value: undefined };
}

/**
 * The boolean a value is at run time when it is a literal or a local const of one. `undefined`
 * (passed or left out) takes the first default on its way (`defaults`, nearest the call first:
 * a pass-through `stream = false` of the caller before the callee's own); null is false.
 */
/**
 * What every call of the slot's function in the project gives the parameter: the expression it
 * passes, or the parameter's default where it leaves it out; undefined where the call passes it in
 * a way the tool cannot see (a spread, its own parameter). Where following stopped otherwise.
 */
export function argumentsFor(ctx: ScanContext, slot: ParameterSlot): { given: { call: ts.CallExpression; value: ts.Expression | undefined }[] } | { stop: string } {
  const callers = callersOf(slot.fn, ctx, ctx.callerSearch);
  if ('stop' in callers) return callers;
  return {
    given: callers.calls.map((call) => {
      const passed = passedFor(ctx.checker, slot, call);
      return { call, value: passed && 'value' in passed ? passed.value ?? slot.initializer : undefined };
    }),
  };
}

export function flagValue(checker: ts.TypeChecker, value: ts.Expression | undefined, defaults: readonly (ts.Expression | undefined)[] = []): boolean | undefined {
  const fallback = (): boolean | undefined => {
    const i = defaults.findIndex(Boolean);
    return i < 0 ? false : flagValue(checker, defaults[i], defaults.slice(i + 1));
  };
  if (!value) return fallback();
  let v = unwrap(value);
  if (ts.isIdentifier(v) && v.text !== 'undefined') {
    const decl = declarationOf(checker, v);
    if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
    v = unwrap(decl.initializer);
  }
  const lit = literalValue(v);
  if (lit?.kind === 'boolean') return lit.value;
  if (lit?.kind === 'undefined') return fallback();
  if (lit?.kind === 'null') return false;
  return undefined;
}

/** The values every call of a slot's function gives it, one call per value, or where following stopped. */
export type FlagValues = { values: Map<boolean, ts.CallExpression>; calls: number } | { stop: string };

/**
 * W-FOLLOW of a flag into every call of its function, and on into the callers' callers when a
 * call passes its own parameter through (`completion(messages, model, stream)` inside
 * `answer({ stream = false })`), at most MAX_HOPS functions deep.
 */
export function flagValuesOf(ctx: ScanContext, slot: ParameterSlot, defaults: readonly (ts.Expression | undefined)[] = [slot.initializer], depth = 0): FlagValues {
  const name = calledName(slot.fn)?.text ?? 'a function';
  if (depth >= MAX_HOPS) return { stop: `stream is passed through more than ${MAX_HOPS} functions (${locationOf(ctx, slot.fn)})` };
  const callers = callersOf(slot.fn, ctx, ctx.callerSearch);
  if ('stop' in callers) return { stop: `stream is a parameter and ${callers.stop}` };
  const values = new Map<boolean, ts.CallExpression>();
  for (const call of callers.calls) {
    const passed = passedFor(ctx.checker, slot, call);
    const through = passed && passedOn(ctx.checker, passed);
    if (through) {
      const outer = flagValuesOf(ctx, through.slot, through.ownDefault ? [through.slot.initializer, ...defaults] : defaults, depth + 1);
      if ('stop' in outer) return outer;
      // the call that chose the value: the outermost one
      for (const [v, at] of outer.values) values.set(v, at);
      continue;
    }
    const value = passed && 'value' in passed ? flagValue(ctx.checker, passed.value, defaults) : undefined;
    if (value === undefined) return { stop: `${name} is called with a stream value not in view (${locationOf(ctx, call)})` };
    values.set(value, call);
  }
  return { values, calls: callers.calls.length };
}

/**
 * A call that passes on its caller's own value: a parameter of the caller (whose default applies
 * before the callee's), or the rest of the caller's options (which has no default of its own).
 */
function passedOn(checker: ts.TypeChecker, passed: Passed): { slot: ParameterSlot; ownDefault: boolean } | undefined {
  if ('slot' in passed) return { slot: passed.slot, ownDefault: false };
  const slot = passed.value && ts.isIdentifier(passed.value) ? parameterSlot(checker, passed.value) : undefined;
  return slot && { slot, ownDefault: true };
}

/** `...rest` of `const { a, ...rest } = config` (or of the parameter itself): the caller's property, when rest holds it. */
function restSlot(checker: ts.TypeChecker, id: ts.Identifier, property: string): ParameterSlot | undefined {
  const decl = declarationOf(checker, id);
  if (!decl || !ts.isBindingElement(decl) || !decl.dotDotDotToken || !ts.isIdentifier(decl.name) || !ts.isObjectBindingPattern(decl.parent)) return undefined;
  // only ever spread: a write (`rest.stream = true`) or a hand-out would change what it carries
  if (!referencesOf(checker, decl.name).every((ref) => ts.isSpreadAssignment(climbWrappers(ref).parent))) return undefined;
  const holder = optionsParameter(checker, decl.parent);
  const fn = holder && followedFunction(holder.parent);
  return fn && { fn, index: fn.parameters.indexOf(holder!), property, decl };
}

/** Can spreading `e` write `property`? Only a known type without it says no. */
function mayCarry(checker: ts.TypeChecker, e: ts.Expression, property: string): boolean {
  const type = checker.getTypeAtLocation(e);
  if (isUntyped(type)) return true;
  return Boolean(type.getProperty(property));
}

/**
 * The parameter an object pattern takes apart: the parameter itself (`({ stream }) =>`), or one a
 * `const { stream } = config` destructures, when nothing else reads or writes it.
 */
function optionsParameter(checker: ts.TypeChecker, pattern: ts.ObjectBindingPattern): ts.ParameterDeclaration | undefined {
  const holder = pattern.parent;
  let param: ts.ParameterDeclaration | undefined;
  if (ts.isParameter(holder)) param = holder;
  else if (ts.isVariableDeclaration(holder) && holder.parent.flags & ts.NodeFlags.Const && holder.initializer && ts.isIdentifier(unwrap(holder.initializer))) {
    const source = unwrap(holder.initializer) as ts.Identifier;
    const sourceDecl = declarationOf(checker, source);
    if (sourceDecl && ts.isParameter(sourceDecl) && ts.isIdentifier(sourceDecl.name)) {
      const refs = referencesOf(checker, sourceDecl.name);
      if (refs.length === 1 && refs[0] === source) param = sourceDecl;
    }
  }
  return param && !param.dotDotDotToken ? param : undefined;
}

/** A function whose parameters keep their call's values: no `arguments` (sloppy-mode JavaScript aliases it to them). */
function followedFunction(node: ts.Node): FollowedFunction | undefined {
  if (!isFollowedFunction(node)) return undefined;
  let readsArguments = false;
  if (node.body) {
    walk(node.body, (n) => {
      if (ts.isIdentifier(n) && n.text === 'arguments') readsArguments = true;
      return readsArguments ? false : undefined;
    });
  }
  return readsArguments ? undefined : node;
}

function isReassigned(checker: ts.TypeChecker, name: ts.Identifier): boolean {
  return referencesOf(checker, name).some(isWriteReference);
}
