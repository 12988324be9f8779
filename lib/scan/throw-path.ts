/**
 * Where a failure surfaces. The run-time converter (M-CONTENT-UNTYPED) throws on messages the
 * Responses API has no input for, most of which Chat Completions rejected too (HTTP 400). Chat's
 * rejection came through the request's promise; the converter throws while the request's
 * arguments are evaluated, or where a converted array is built. The two meet the same handler
 * only when the request's promise is awaited (or returned by an async function outside any `try`)
 * and the conversion is inside the same `try` as the request (review of the corpus diffs: a socket
 * handler whose `.catch` logged the 400 would now crash the process on a malformed payload).
 * Where they would not, the conversion moves (MessagesAnalyzer.placeConversion): a history built
 * outside the try is converted in the request's arguments instead, and a request whose rejection
 * went elsewhere (rejectionPath: a handler on its promise, a promise returned, stored or passed
 * on) is called inside `(async () => …)()` when nothing else in it can throw (otherThrows).
 */
import { ts, climbWrappers, enclosingScope, isFunctionLike, isInside, unwrap, walk, literalValue, shortText, statementsBefore, thisClass, propertyNameText } from './ast.js';
import { aliasTarget, declarationOf, valuesAssignedTo, writtenValue } from './bindings.js';
import { referencesOf } from './references.js';
import { MAX_HOPS, callersOf, isFollowedFunction, returningFunction } from './callers.js';
import { locationOf } from './context.js';
import type { ScanContext } from './context.js';

/** What a run-time converter converts, as the reasons name it. */
export type Converted = 'messages' | 'tools';

export function outsideTry(what: Converted): string {
  return `the run-time converter would run outside the try around the request, whose catch received the API's rejection of such ${what}`;
}

/** Why a conversion in the request's arguments would throw where the rejection did not go (rejectionPath). */
export function beforeRejection(path: { handler: string } | { how: string }, what: Converted): string {
  if ('handler' in path) return `the run-time converter would throw before the request's ${path.handler}, which received the API's rejection of such ${what}`;
  return `the run-time converter would throw where the request is made, while the API's rejection of such ${what} came through the request's promise, ${path.how}`;
}

/**
 * The SDK's `stream()` helper returns its stream at once, and the API's rejection of the messages
 * comes through that stream: its iteration, its final results, its 'error' event. It is no
 * promise, so it cannot be wrapped in `(async () => …)()`. A throw where it is made meets the same
 * handler only when the stream is used inside the try around the call, and only by iterating it or
 * awaiting its final results there (a listener would take the error instead): the reason why not,
 * or undefined when they meet.
 */
export function helperStreamThrowPath(checker: ts.TypeChecker, call: ts.CallExpression, what: Converted): string | undefined {
  const why = `the run-time converter would throw where the stream is made, while the API's rejection of such ${what} came through the stream`;
  const handler = enclosingTry(call, true);
  if (!handler) return `${why} (no try around it)`;
  const outer = climbWrappers(call);
  const parent = outer.parent;
  const uses: ts.Node[] = [];
  if (ts.isForOfStatement(parent) && parent.awaitModifier && parent.expression === outer) uses.push(outer);
  else if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) uses.push(...referencesOf(checker, parent.name).map((r) => climbWrappers(r)));
  else return `${why}, which is handed on`;
  for (const use of uses) {
    if (!isInside(use, handler.tryBlock)) return `${why}, used outside the try around it (${shortText(use.parent as ts.Expression, 40)})`;
    const p = use.parent;
    if (ts.isForOfStatement(p) && p.awaitModifier && p.expression === use) continue;
    const call2 = ts.isPropertyAccessExpression(p) && p.expression === use ? p.parent : undefined;
    if (call2 && ts.isCallExpression(call2) && HELPER_FINALS.has((p as ts.PropertyAccessExpression).name.text) && ts.isAwaitExpression(climbWrappers(call2).parent)) continue;
    return `${why}, whose ${shortText(p as ts.Expression, 40)} may take the error`;
  }
  return undefined;
}

/** The helper stream's promises of its end: each rejects with the stream's error. */
const HELPER_FINALS = new Set(['done', 'finalChatCompletion', 'finalContent', 'finalMessage', 'finalFunctionToolCall', 'finalFunctionToolCallResult', 'totalUsage']);

/** `client.chat.completions.stream(…)` (the helper, not `create({ stream: true })`). */
export function isHelperStreamCall(call: ts.CallExpression): boolean {
  const callee = unwrap(call.expression);
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'stream';
}

/** `.catch(…)`, `.then(f, g)` or `.finally(…)` on the request's promise, through `.then(f)` links. */
export function promiseHandler(promise: ts.Expression): string | undefined {
  const handler = handlerOn(promise);
  return handler && (handler.kind === 'then' ? '.then(…, onRejected)' : `.${handler.kind}(…)`);
}

/**
 * The first `.catch(h)`, `.then(f, h)` or `.finally(f)` on a promise, through `.then(f)` links
 * and the SDK promise's own methods (a rejection passes all of those on).
 */
export function handlerOn(promise: ts.Expression): { link: ts.CallExpression; kind: 'catch' | 'then' | 'finally'; onRejected?: ts.Expression } | undefined {
  const outer = climbWrappers(promise);
  const access = outer.parent;
  if (!ts.isPropertyAccessExpression(access) || access.expression !== outer) return undefined;
  const link = access.parent;
  if (!ts.isCallExpression(link) || link.expression !== access) return undefined;
  const name = access.name.text;
  if (name === 'then') return link.arguments.length >= 2 ? { link, kind: 'then', onRejected: link.arguments[1] } : handlerOn(link);
  if (SDK_PROMISE_METHODS.has(name)) return handlerOn(link);
  if (name === 'catch') return { link, kind: 'catch', onRejected: link.arguments[0] };
  return name === 'finally' ? { link, kind: 'finally' } : undefined;
}

/** The SDK's APIPromise methods: their promise rejects as the request's does. */
const SDK_PROMISE_METHODS = new Set(['withResponse', 'asResponse']);

/**
 * `.withResponse()` or `.asResponse()` on the request's promise (through `.then(f)` links): a
 * promise of `(async () => …)()` has neither, so the request cannot be wrapped.
 */
function sdkPromiseMethod(call: ts.CallExpression): string | undefined {
  let outer = climbWrappers(call);
  for (let link = thenLink(outer); link; link = thenLink(outer)) {
    const name = (link.expression as ts.PropertyAccessExpression).name.text;
    if (SDK_PROMISE_METHODS.has(name)) return `.${name}()`;
    outer = climbWrappers(link);
  }
  return undefined;
}

/**
 * The innermost `try` whose block holds `node`, within its function; with `withCatch`, the
 * innermost that has a `catch` (what catches a throw there; a `try … finally` lets it pass).
 */
export function enclosingTry(node: ts.Node, withCatch = false): ts.TryStatement | undefined {
  let child = node;
  for (let at = node.parent; at && !isFunctionLike(at) && !ts.isSourceFile(at); child = at, at = at.parent) {
    if (ts.isTryStatement(at) && at.tryBlock === child && (!withCatch || at.catchClause)) return at;
  }
  return undefined;
}

/**
 * Where the request's rejection went when a throw where the request is made would not go there
 * too: a handler on its promise (`handler`), or how the promise leaves the expression (`how`:
 * returned by a function that is not async, stored, passed on, dropped). Undefined when the two
 * meet: the promise is awaited (through `.then(f)` links; enclosingTry decides the rest), or
 * returned from an async function outside any `try` (either way that function's promise rejects).
 */
export function rejectionPath(call: ts.CallExpression): { handler: string } | { how: string } | undefined {
  const handler = promiseHandler(call);
  if (handler) return { handler };
  let outer = climbWrappers(call);
  for (let link = thenLink(outer); link; link = thenLink(outer)) outer = climbWrappers(link);
  const parent = outer.parent;
  if (ts.isAwaitExpression(parent)) return undefined;
  const scope = ts.isReturnStatement(parent) ? enclosingScope(parent) : undefined;
  const fn = scope && isFunctionLike(scope) ? scope : ts.isArrowFunction(parent) && parent.body === outer ? parent : undefined;
  if (fn) {
    const isAsync = Boolean(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async);
    if (isAsync && !enclosingTry(outer)) return undefined;
    return { how: isAsync ? 'returned inside a try, which its rejection passes by' : 'returned by a function that is not async' };
  }
  if (ts.isVariableDeclaration(parent) || (ts.isBinaryExpression(parent) && parent.right === outer)) return { how: 'stored' };
  if (ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return { how: 'dropped (its rejection was unhandled)' };
  return { how: 'passed on' };
}

/**
 * A request promise stored in a const and awaited only after another `await` (`const p =
 * create(…); await typing(); … await p`): wrapped, its promise rejects at once, and with no handler
 * on it yet Node ends the process (unhandledRejection) where Chat's 400 came back after the
 * network's delay, usually once `p` was awaited. What runs in between, or undefined.
 */
export function awaitedLater(call: ts.CallExpression, checker: ts.TypeChecker): string | undefined {
  const outer = climbWrappers(call);
  const decl = outer.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== outer || !ts.isIdentifier(decl.name)) return undefined;
  const statement = decl.parent.parent;
  const block = statement.parent;
  if (!ts.isVariableStatement(statement) || !(ts.isBlock(block) || ts.isSourceFile(block))) return undefined;
  const refs = referencesOf(checker, decl.name).filter((r) => r !== decl.name);
  const after = block.statements.slice(block.statements.indexOf(statement) + 1);
  for (const st of after) {
    if (refs.some((r) => r.pos >= st.pos && r.end <= st.end)) return undefined; // the promise is used (handled) first
    let pause: ts.Node | undefined;
    walk(st, (n) => {
      if (pause || isFunctionLike(n)) return false;
      if (ts.isAwaitExpression(n) || (ts.isForOfStatement(n) && n.awaitModifier)) pause = n;
      return undefined;
    });
    if (pause) return shortText(st as unknown as ts.Expression, 40);
  }
  return undefined;
}

/**
 * sdkPromiseMethod on the request's promise, or on a call of the function that is not async and
 * returns it, wherever that is called in the project (`complete(h).withResponse()` in another
 * module), up to MAX_HOPS functions up: with its location there, or undefined.
 */
export function sdkPromiseMethodDownstream(ctx: ScanContext, call: ts.CallExpression, hops = 0): string | undefined {
  const own = sdkPromiseMethod(call);
  if (own) return hops ? `${own} (${locationOf(ctx, call)})` : own;
  const fn = returningFunction(climbWrappers(call));
  if (!fn || hops >= MAX_HOPS || ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async) return undefined;
  const callers = callersOf(fn, ctx, ctx.callerSearch);
  if ('stop' in callers) return undefined; // the result's own following reports where it stops
  for (const caller of callers.calls) {
    const found = sdkPromiseMethodDownstream(ctx, caller, hops + 1);
    if (found) return found;
  }
  return undefined;
}

/** `p.then(f)`, `p.withResponse()` or `p.asResponse()` around `p`: a rejection passes through it. */
function thenLink(promise: ts.Node): ts.CallExpression | undefined {
  const access = promise.parent;
  if (!ts.isPropertyAccessExpression(access) || access.expression !== promise) return undefined;
  const name = access.name.text;
  if (name !== 'then' && !SDK_PROMISE_METHODS.has(name)) return undefined;
  const link = access.parent;
  return ts.isCallExpression(link) && link.expression === access && link.arguments.length < 2 ? link : undefined;
}

/**
 * What else in the request call could throw synchronously, if anything: `(async () => <call>)()`
 * must move nothing but the run-time converter's throw to a rejection (WrapRequestEdit). Its
 * receiver must be a client that is never null (clientNeverNull) and, when it is a property of
 * `this`, `this` must be bound (thisBound); its arguments literals, declared names, such
 * properties of `this`, and object and array literals of them; no `await` or `yield` either:
 * inside the arrow they would no longer pause the function.
 */
export function otherThrows(ctx: ScanContext, call: ts.CallExpression): string | undefined {
  const checker = ctx.checker;
  let paused: ts.Node | undefined;
  walk(call, (n) => {
    if (ts.isAwaitExpression(n) || ts.isYieldExpression(n)) paused ??= n;
    return !isFunctionLike(n);
  });
  if (paused) return `${shortText(paused, 30)} in its arguments would no longer pause this function`;
  let receiver: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(receiver) && receiver.expression.kind !== ts.SyntaxKind.ThisKeyword) receiver = receiver.expression;
  let bound: boolean | undefined;
  const thisBound = () => (bound ??= thisUsedBefore(call) || calledOnReceiver(ctx, call));
  if (isClientHolder(receiver) && !thisBound()) return 'it is the first read of this in its function, not every use of which is a method call (unbound, it would reject instead of throwing)';
  if (!clientNeverNull(checker, receiver)) return `its client ${shortText(receiver, 30)} is not a client constructed once and never reassigned, so it could be null`;
  const risky = call.arguments.find((a) => !inert(checker, a, thisBound));
  if (!risky) return undefined;
  let first: ts.Node = risky;
  walk(risky, (n) => {
    if (first === risky && ts.isExpression(n) && !inert(checker, n, thisBound) && !ts.isObjectLiteralExpression(n) && !ts.isArrayLiteralExpression(n)) first = n;
    return first === risky;
  });
  if (first === risky) first = ts.isObjectLiteralExpression(risky) ? risky.properties.find((p) => ts.isSpreadAssignment(p) || (p.name && ts.isComputedPropertyName(p.name))) ?? risky : risky;
  return `${shortText(first, 30)} in its arguments could throw too`;
}

/** `this.x`: the receiver's holder when the client is a property of `this`. */
function isClientHolder(e: ts.Node): e is ts.PropertyAccessExpression & { expression: ts.ThisExpression } {
  return ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword;
}

/**
 * A receiver that holds a constructed client whenever the request runs: a variable (or an import
 * of one) initialised with `new …` and never assigned again, or a property of `this` that its
 * class only ever sets to `new …` and that nothing else in the file assigns.
 */
function clientNeverNull(checker: ts.TypeChecker, receiver: ts.Expression): boolean {
  if (ts.isIdentifier(receiver)) {
    let decl = declarationOf(checker, receiver);
    decl = decl && (aliasTarget(checker, decl) ?? decl);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer || !ts.isNewExpression(unwrap(decl.initializer))) return false;
    return valuesAssignedTo(checker, decl as ts.VariableDeclaration & { name: ts.Identifier })?.length === 0;
  }
  if (!isClientHolder(receiver)) return false;
  const cls = thisClass(receiver);
  const name = receiver.name.text;
  if (!cls) return false;
  let written = 0;
  let other = false;
  walk(receiver.getSourceFile(), (n) => {
    if (ts.isPropertyDeclaration(n) && n.parent === cls && propertyNameText(n.name) === name && n.initializer) {
      if (ts.isNewExpression(unwrap(n.initializer))) written++;
      else other = true;
    }
    if (ts.isPropertyAccessExpression(n) && n.name.text === name && writtenValue(n) !== undefined) {
      const value = writtenValue(n);
      if (isClientHolder(n) && thisClass(n) === cls && value !== 'hidden' && value && ts.isNewExpression(unwrap(value))) written++;
      else other = true;
    }
  });
  return written > 0 && !other;
}

/** An expression whose evaluation cannot throw (see otherThrows); a name must be declared. */
function inert(checker: ts.TypeChecker, node: ts.Expression, thisBound: () => boolean): boolean {
  const e = unwrap(node);
  if (ts.isIdentifier(e)) return e.text === 'undefined' || Boolean(declarationOf(checker, e));
  if (literalValue(e) || ts.isNoSubstitutionTemplateLiteral(e)) return true;
  if (isClientHolder(e)) return thisBound();
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((el) => !ts.isSpreadElement(el) && (ts.isOmittedExpression(el) || inert(checker, el, thisBound)));
  if (ts.isObjectLiteralExpression(e)) {
    return e.properties.every((p) => (ts.isShorthandPropertyAssignment(p) && !p.objectAssignmentInitializer && Boolean(declarationOf(checker, p.name))) ||
      (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && inert(checker, p.initializer, thisBound)));
  }
  return false;
}

/**
 * A statement before the one holding `node`, in the same function, that reads a property of
 * `this` whatever path it takes: were `this` unbound, that statement would already have thrown.
 */
function thisUsedBefore(node: ts.Node): boolean {
  for (const statement of statementsBefore(node)) {
    if ((ts.isExpressionStatement(statement) || ts.isVariableStatement(statement)) && readsThisAlways(statement)) return true;
  }
  return false;
}

/**
 * The class method holding `node` is called only as `receiver.method(…)` in the project
 * (callersOf: every use a call, none passed on or bound): `this` is then the receiver, which is
 * never nullish there (reading the method off it would have thrown in the caller first). An
 * arrow-valued class field's `this` is the instance, whoever calls it.
 */
function calledOnReceiver(ctx: ScanContext, node: ts.Node): boolean {
  let fn: ts.Node | undefined = node.parent;
  while (fn && !isFunctionLike(fn)) fn = fn.parent;
  if (fn && ts.isArrowFunction(fn) && ts.isPropertyDeclaration(climbWrappers(fn).parent)) return true;
  if (!fn || !ts.isMethodDeclaration(fn) || !isFollowedFunction(fn)) return false;
  const callers = callersOf(fn, ctx, ctx.callerSearch);
  return 'calls' in callers && callers.calls.every((c) => {
    const callee = unwrap(c.expression);
    return ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee);
  });
}

function readsThisAlways(statement: ts.Statement): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword && !n.questionDotToken) {
      found = true;
      return;
    }
    if (ts.isConditionalExpression(n)) return visit(n.condition);
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(n.operatorToken.kind)) return visit(n.left);
    ts.forEachChild(n, visit);
  };
  visit(statement);
  return found;
}

/**
 * The request call starts an expression statement that follows one not ended by `;`: in code
 * written without semicolons, `(async () => …)()` there would call the previous line's value.
 */
export function startsStatementAfterUnterminated(call: ts.CallExpression): boolean {
  let statement: ts.Node = call;
  while (statement.parent && !ts.isExpressionStatement(statement)) statement = statement.parent;
  if (!ts.isExpressionStatement(statement) || statement.getStart() !== call.getStart()) return false;
  const holder = statement.parent as { statements?: ts.NodeArray<ts.Statement> };
  const list = holder.statements;
  const index = list ? list.indexOf(statement) : -1;
  if (!list || index <= 0) return false;
  return !list[index - 1].getText().endsWith(';');
}
