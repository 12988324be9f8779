/**
 * W-FOLLOW through `Promise.all` (corpus: 3rd-devs' assistant runs two thoughts at once):
 * `const [a, b] = await Promise.all([create(…), create(…)])`, casts allowed
 * (`as [ChatCompletion, ChatCompletion]`). The promise at index i resolves to the name bound at
 * index i. A cast or an annotation on the tuple is retyped as a whole, so with one every element
 * must be a request of the same unit (a site call, or a call of the function being followed);
 * without, the other elements are other work done meanwhile (`Promise.all([create(…), saveMessage(…)])`,
 * estore's chat), untouched, and only this promise's name is followed.
 */
import { ts, climbWrappers, unwrap } from './ast.js';

export interface PromiseAllSlot {
  /** The array of promises (the unit shares it). */
  array: ts.ArrayLiteralExpression;
  /** The await of `Promise.all(…)`, and its outermost wrapper (casts in between). */
  awaited: ts.AwaitExpression;
  outer: ts.Node;
  /** The name bound at the promise's index, or undefined when the pattern skips it. */
  name: ts.Identifier | undefined;
}

/**
 * The slot `promise` (an element of an array literal) fills, when the array goes to an awaited
 * `Promise.all` destructured by an array pattern of plain names; else undefined.
 */
export function promiseAllSlot(checker: ts.TypeChecker, promise: ts.Node, sameUnit: (element: ts.Expression) => boolean): PromiseAllSlot | undefined {
  const array = promise.parent;
  if (!ts.isArrayLiteralExpression(array)) return undefined;
  const index = array.elements.indexOf(promise as ts.Expression);
  if (index < 0 || array.elements.some((e) => ts.isSpreadElement(e) || ts.isOmittedExpression(e))) return undefined;
  const allOfUnit = array.elements.every((e) => sameUnit(unwrap(e)));
  const call = climbWrappers(array).parent;
  if (!ts.isCallExpression(call) || call.arguments.length !== 1 || unwrap(call.arguments[0]) !== array || !isGlobalPromiseAll(checker, call.expression)) return undefined;
  const awaited = climbWrappers(call).parent;
  if (!ts.isAwaitExpression(awaited)) return undefined;
  const outer = climbWrappers(awaited);
  const decl = outer.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== outer || !ts.isArrayBindingPattern(decl.name)) return undefined;
  if (!allOfUnit && (outer !== awaited || decl.type)) return undefined;
  const elements = decl.name.elements;
  if (elements.length > array.elements.length) return undefined;
  if (elements.some((e) => !ts.isOmittedExpression(e) && (e.dotDotDotToken || e.initializer || !ts.isIdentifier(e.name)))) return undefined;
  const element = elements[index];
  const name = element && !ts.isOmittedExpression(element) ? (element.name as ts.Identifier) : undefined;
  return { array, awaited, outer, name };
}

/**
 * The `Promise.all(xs.map(fn))` call an arrow or function expression is the mapped callback of:
 * the callback's rejection is that call's (lib/scan/parse-errors.ts follows a throw through it).
 */
export function promiseAllOfCallback(checker: ts.TypeChecker, fn: ts.Node): ts.CallExpression | undefined {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  const map = fn.parent;
  if (!ts.isCallExpression(map) || map.arguments[0] !== fn || !ts.isPropertyAccessExpression(map.expression) || map.expression.name.text !== 'map') return undefined;
  let outer: ts.Node = map;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const all = outer.parent;
  return ts.isCallExpression(all) && all.arguments[0] === outer && isGlobalPromiseAll(checker, all.expression) ? all : undefined;
}

/** `Promise.all` of the global Promise (not a local or imported `Promise`). */
function isGlobalPromiseAll(checker: ts.TypeChecker, callee: ts.Expression): boolean {
  const e = unwrap(callee);
  if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'all' || !ts.isIdentifier(e.expression) || e.expression.text !== 'Promise') return false;
  // unresolved when the program was built without the ECMAScript lib; a project's own `Promise`
  // (a local, an import of bluebird) resolves to its declaration in a project file
  const decls = checker.getSymbolAtLocation(e.expression)?.declarations ?? [];
  return decls.every((d) => d.getSourceFile().isDeclarationFile);
}
