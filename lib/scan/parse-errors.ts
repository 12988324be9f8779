/**
 * T-PARSE-NOTHROW (docs/migration-spec.md, H-PARSE): Chat's parse() threw on a cut-off or
 * filtered answer (LengthFinishReasonError, ContentFilterFinishReasonError); responses.parse()
 * returns output_parsed null instead. That matters where something caught the throw (a retry, a
 * fallback): a `catch` around the call, a handler on its promise, or either of those around a
 * call of the function the error left, followed through callers (W-FOLLOW) as far as they are
 * in view. Where following stops (a framework calls the function, callers out of view), nothing
 * in view caught it: the site keeps the H-PARSE note, as for an uncaught throw. So does a
 * program's last-resort handler (`main().catch(console.error)` at the top of a module): it does
 * what an uncaught throw does, report and end. The same search finds the handler a stream's
 * failure reaches (failureTellsApart, S-FAILED).
 */
import path from 'node:path';
import { ts, climbWrappers, enclosingScope, isConsoleCallee, propertyNameText, shortText, unwrap, walk } from './ast.js';
import { SDK_ERROR_CLASSES, TEXT_OF, handlerParts, tellsSdkErrorsApart, testsClass, testsSdkClassIn, testsSdkErrors, testsWording } from './caught-errors.js';
import { MAX_HOPS, calledFunction, callersOf, describeFunction, isFollowedFunction, type FollowedFunction } from './callers.js';
import { locationOf, relativeFile, type ScanContext } from './context.js';
import { enclosingTry, handlerOn } from './throw-path.js';
import { promiseAllOfCallback } from './promise-all.js';

/** The parse-error-semantics detail when a throw of the parse() call `call` is caught in view. */
export function parseErrorCatcher(call: ts.CallExpression, ctx: ScanContext, what = 'parse()'): string | undefined {
  const stops: string[] = [];
  const found = catcherOf(call, ctx, 0, new Set(), stops);
  // callers in view that the search cannot follow (a namespace import, a use other than a call):
  // one of them may catch it (probe of Next.js apps: a default-exported helper's route did)
  if (!found && stops.length) return `what ${what} threw on a cut-off or filtered answer reaches callers the tool cannot follow (${stops[0]})`;
  if (!found) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `${found.catcher} took what ${what} threw on a cut-off or filtered answer${through}`;
}

interface Catcher {
  catcher: string;
  /** The functions the error left on its way, innermost first. */
  through: string[];
  /** The catch clause, or the rejection handler, that takes the error. */
  handler: ts.CatchClause | ts.Expression;
}

/**
 * S-FAILED: a Chat stream's failure threw the SDK's APIError; the guard of a rewritten loop throws
 * a plain Error, and a helper stream's failure listener an Error the SDK wraps in an OpenAIError.
 * A handler in view that tells the SDK's errors apart (`instanceof APIError`, or reads `code`,
 * `type`, `param` or `error` of what it caught) would take another branch: the detail naming it.
 * `helper`: the failure comes from a helper stream (an OpenAIError, not an APIError).
 */
export function failureTellsApart(rejecting: ts.Node, ctx: ScanContext, helper: boolean): string | undefined {
  const stops: string[] = [];
  const found = catcherOf(rejecting, ctx, 0, new Set(), stops);
  const thrown = `(a failed Responses stream throws ${helper ? 'an OpenAIError, not an APIError' : 'a plain Error'} there)`;
  if (!found) {
    // callers in view the tool cannot follow (a generator's consumer, a handler a framework calls,
    // whose central error handler, bot.catch or app.onError, takes it): any test for the SDK's
    // errors may be the one. Nobody in view (a script's top level) lets it end the process.
    const beside = stops.length ? handedWithErrorHandler(rejecting, ctx, (handler) => tellsSdkErrorsApart(handler, helper, ctx.checker)) : undefined;
    if (beside) return `a stream failure leaves for ${beside}, which tests for the SDK's errors ${thrown}`;
    const testing = stops.length ? sdkErrorTestIn(ctx, helper, rejecting) : undefined;
    return testing ? `a stream failure leaves for callers the tool cannot follow (${stops[0]}), while ${testing} tests for the SDK's errors ${thrown}` : undefined;
  }
  const how = handlerTellsApart(found.handler, ctx, helper, 0);
  if (!how) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `a stream failure caught by ${found.catcher}${through}, ${how} ${thrown}`;
}

/**
 * `withRetry(async () => { …stream… }, (err) => err.code === 'server_error')`, `pRetry(task, {
 * shouldRetry: (error) => … })`: the failing function is handed to a call (a retry, a queue) along
 * with a function that takes its error. That function, inline beside it, with an error-named first
 * parameter or under an error-handling option name, is judged like a catch (probe of retry wrappers).
 */
function handedWithErrorHandler(rejecting: ts.Node, ctx: ScanContext, tells: (handler: ts.Expression | ts.MethodDeclaration) => boolean): string | undefined {
  for (let fn = enclosingScope(rejecting); !ts.isSourceFile(fn); fn = enclosingScope(fn)) {
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) continue;
    const outer = climbWrappers(fn);
    const call = outer.parent;
    if (!ts.isCallExpression(call) || !call.arguments.includes(outer as ts.Expression)) continue;
    for (const arg of call.arguments) {
      if (arg === outer) continue;
      for (const { handler, what } of errorHandlersIn(arg)) {
        if (tells(handler)) return `${shortText(call.expression, 30)}(…), whose ${what} (${locationOf(ctx, handler)})`;
      }
    }
  }
  return undefined;
}

const ERROR_PARAMETER = /^(?:e|ex|err\w*|error\w*|exception|reason|failure)$/i;
const ERROR_OPTION = /retry|fail|error|catch|reject/i;

/** The functions an argument holds that take an error: itself, or an options object's error-handling members. */
function errorHandlersIn(arg: ts.Expression): { handler: ts.Expression | ts.MethodDeclaration; what: string }[] {
  const value = unwrap(arg);
  if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
    const first = value.parameters[0]?.name;
    return first && ts.isIdentifier(first) && ERROR_PARAMETER.test(first.text) ? [{ handler: value, what: `${first.text} => …` }] : [];
  }
  if (!ts.isObjectLiteralExpression(value)) return [];
  return value.properties.flatMap((p): { handler: ts.Expression | ts.MethodDeclaration; what: string }[] => {
    const key = p.name ? propertyNameText(p.name) : undefined;
    if (!key || !ERROR_OPTION.test(key)) return [];
    if (ts.isMethodDeclaration(p)) return [{ handler: p, what: key }];
    const fn = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : undefined;
    return fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? [{ handler: fn, what: key }] : [];
  });
}

/** A file of the run that tests for the SDK's error classes a Chat stream's failure had (relative path), if one does. */
function sdkErrorTestIn(ctx: ScanContext, helper: boolean, from?: ts.Node): string | undefined {
  const search = ctx.callerSearch;
  if (!search) return undefined;
  const classes = new Set([...SDK_ERROR_CLASSES].filter((name) => testsClass(name, helper)));
  const files = [...new Set([...classes].flatMap((name) => search.filesNaming(name)))];
  // the failing code's own file first: the test nearest to it
  const own = from && path.normalize(from.getSourceFile().fileName);
  const testing = [...files.filter((f) => path.normalize(f) === own), ...files].find((f) => {
    const text = search.textOf(f);
    return text !== undefined && testsSdkClassIn(ts.createSourceFile(f, text, ts.ScriptTarget.Latest, false), classes);
  });
  return testing && relativeFile(ctx.cwd, testing);
}

/**
 * A request's API error (an HTTP 4xx) has the same class, status and code in both APIs, but not
 * the same words: a context overflow is "This model's maximum context length is … tokens" with
 * param 'messages' in Chat, "Your input exceeds the context window of this model" with param
 * 'input' in Responses (probe of retry wrappers; dyad-sh/dyad#1672). A handler in view that tests
 * the error's message text, or reads its `param`, would take another branch: the detail naming it.
 */
export function errorWordingCatcher(call: ts.CallExpression, ctx: ScanContext): string | undefined {
  // the callers are searched only where some file of the run spells what such a test reads: a
  // search per site is a caller search per function, which on a tree of many same-named exported
  // helpers cost ten times the run (bench: 1,500 files exporting ask(), 6 s then 69 s)
  const inRun = wordingTestedInRun(ctx);
  const found = catcherOf(call, ctx, 0, new Set(), undefined, inRun);
  const words = '(the Responses API words its errors differently: a context overflow says "Your input exceeds the context window", param \'input\')';
  if (!found) {
    // `retry(async () => …, (e) => !e.message.includes('maximum context length'))` (probe of request options)
    const beside = inRun ? handedWithErrorHandler(call, ctx, (handler) => wordingTestedThrough(handler, ctx, 0) !== undefined) : undefined;
    return beside ? `an API error leaves for ${beside}, which tests its message text or its param ${words}` : undefined;
  }
  const how = wordingTestedThrough(found.handler, ctx, 0);
  if (how === undefined) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `an API error caught by ${found.catcher}${through}, which ${how}tests its message text or its param ${words}`;
}

/**
 * Whether a handler tests the error's wording: itself, or a function of the project it hands the
 * error to (`if (isContextOverflow(err))`, probe of request options: migrated before), and how it
 * gets there ('' for itself, 'hands it to …, which ' through functions); undefined when it does not.
 */
function wordingTestedThrough(handler: ts.CatchClause | ts.Expression | ts.MethodDeclaration, ctx: ScanContext, depth: number): string | undefined {
  const { caught, body } = handlerParts(handler, ctx.checker);
  return body && caught ? bodyTestsWording(caught, body, ctx, depth) : undefined;
}

function bodyTestsWording(caught: string, body: ts.Node, ctx: ScanContext, depth: number): string | undefined {
  if (testsWording(caught, body)) return '';
  if (depth >= MAX_HOPS) return undefined;
  let how: string | undefined;
  walk(body, (n) => {
    if (how !== undefined) return false;
    const handed = ts.isCallExpression(n) ? handedTo(n, caught, ctx) : undefined;
    if (!handed) return undefined;
    const inner = bodyTestsWording(handed.param, handed.callee.body!, ctx, depth + 1);
    if (inner !== undefined) how = `hands it to ${describeFunction(ctx, handed.callee)}, which ${inner}`;
    return undefined;
  });
  return how;
}

/** `report(err)`: the project function a call hands the caught error to, and the name its parameter gives it. */
function handedTo(call: ts.CallExpression, caught: string, ctx: ScanContext): { callee: FollowedFunction; param: string } | undefined {
  if (isConsoleCallee(call.expression) || (ts.isIdentifier(call.expression) && TEXT_OF.has(call.expression.text))) return undefined;
  const index = call.arguments.findIndex((a) => ts.isIdentifier(unwrap(a)) && (unwrap(a) as ts.Identifier).text === caught);
  if (index < 0) return undefined;
  const callee = calledFunction(ctx.checker, call);
  const target = callee?.parameters[index]?.name;
  return callee?.body && target && ts.isIdentifier(target) ? { callee, param: target.text } : undefined;
}

/** Words a wording test spells (`err.param`, `'maximum context length'`, `/context_length/`): one of them named by a file of the run. */
const WORDING_WORDS = ['param', 'context', 'maximum', 'exceed', 'exceeds', 'tokens', 'context_length_exceeded'];

function wordingTestedInRun(ctx: ScanContext): boolean {
  const search = ctx.callerSearch;
  return !search || WORDING_WORDS.some((word) => search.filesNaming(word).length > 0);
}

/**
 * How the handler comes to tell the SDK's errors apart, if it does: itself; a function of the
 * project it hands the error to (`report(err)`), by that function's parameter; the handler that
 * takes it when it rethrows it (`throw err`), a catch of a caller; or a function out of view it
 * hands the error to (`next(err)`, an Express error middleware) while the project tests for the
 * SDK's errors somewhere (probe of projects with SDK-mocking tests: each went unreported).
 */
function handlerTellsApart(handler: ts.CatchClause | ts.Expression, ctx: ScanContext, helper: boolean, depth: number): string | undefined {
  if (tellsSdkErrorsApart(handler, helper, ctx.checker)) return "which tests for the SDK's errors";
  const { caught, body } = handlerParts(handler, ctx.checker);
  return body && caught ? passedOnTellsApart(caught, body, ctx, helper, depth) : undefined;
}

/** Where `body` passes its error `caught` on (a rethrow, a function it hands it to), whether that tells the SDK's errors apart. */
function passedOnTellsApart(caught: string, body: ts.Node, ctx: ScanContext, helper: boolean, depth: number): string | undefined {
  if (depth >= MAX_HOPS) return undefined;
  const isCaught = (e: ts.Expression | undefined) => Boolean(e && ts.isIdentifier(unwrap(e)) && (unwrap(e) as ts.Identifier).text === caught);
  let how: string | undefined;
  walk(body, (n) => {
    if (how) return false;
    if (ts.isThrowStatement(n) && isCaught(n.expression)) {
      const stops: string[] = [];
      const next = catcherOf(n, ctx, 0, new Set(), stops);
      const inner = next && handlerTellsApart(next.handler, ctx, helper, depth + 1);
      if (next && inner) how = `which rethrows it to ${next.catcher}, ${inner}`;
      const testing = next || !stops.length ? undefined : sdkErrorTestIn(ctx, helper, n);
      if (testing) how = `which rethrows it to callers the tool cannot follow (${stops[0]}), while ${testing} tests for the SDK's errors`;
    }
    if (ts.isCallExpression(n) && !isConsoleCallee(n.expression) && !(ts.isIdentifier(n.expression) && TEXT_OF.has(n.expression.text))) {
      if (!n.arguments.some((a) => isCaught(a))) return undefined;
      const handed = handedTo(n, caught, ctx);
      if (handed) {
        // the function tests it itself, or hands it on again (`isTransient(e)` → `isT(e)`)
        const inner = testsSdkErrors(handed.param, handed.callee.body!, helper, ctx.checker) ? "which tests for the SDK's errors" : passedOnTellsApart(handed.param, handed.callee.body!, ctx, helper, depth + 1);
        if (inner) how = `which hands it to ${describeFunction(ctx, handed.callee)}, ${inner}`;
      } else if (!calledFunction(ctx.checker, n)) {
        const testing = sdkErrorTestIn(ctx, helper);
        if (testing) how = `which hands it to ${shortText(n.expression, 30)}(…), out of view, while ${testing} tests for the SDK's errors`;
      }
    }
    return undefined;
  });
  return how;
}

/**
 * Stops with no caller in view (a framework's, another package's, the browser's): as before, an
 * uncaught throw keeps the H-PARSE note. Any other stop has callers in view that cannot be
 * followed, and parseErrorCatcher reports it.
 */
const NOBODY_IN_VIEW = /has no caller in view|is decorated: a framework may call it|is a server action|exported from a published package|outside the paths given/;

function catcherOf(rejecting: ts.Node, ctx: ScanContext, hops: number, seen: Set<ts.Node>, stops?: string[], followCallers = true): Catcher | undefined {
  const handler = ts.isExpression(rejecting) ? rejectionHandler(rejecting) : undefined;
  if (handler) {
    if (ts.isSourceFile(enclosingScope(handler.link)) && isLastResort(handler.onRejected)) return undefined;
    return { catcher: `the ${handler.name} at ${locationOf(ctx, handler.link)}`, through: [], handler: handler.onRejected };
  }
  const guarded = enclosingTry(rejecting, true);
  if (guarded) {
    if (ts.isSourceFile(enclosingScope(guarded)) && isLastResort(guarded.catchClause!.block)) return undefined;
    return { catcher: `the catch at ${locationOf(ctx, guarded.catchClause!)}`, through: [], handler: guarded.catchClause! };
  }
  // the error leaves the function: whoever calls it gets it
  const fn = enclosingScope(rejecting);
  // `await Promise.all(items.map(async (x) => …))`: the callback's rejection is Promise.all's
  const all = fn && isFollowedFunction(fn) ? promiseAllOfCallback(ctx.checker, fn) : undefined;
  if (all && !seen.has(fn) && hops < MAX_HOPS) {
    seen.add(fn);
    return catcherOf(all, ctx, hops + 1, seen, stops, followCallers);
  }
  if (!isFollowedFunction(fn) || seen.has(fn) || hops >= MAX_HOPS) return undefined;
  seen.add(fn);
  // `(async () => { … })().catch(handleError)`: the function is called where it is written
  const iife = immediateCall(fn);
  if (iife) return catcherOf(iife, ctx, hops + 1, seen, stops, followCallers);
  if (!followCallers) return undefined;
  const callers = callersOf(fn, ctx, ctx.callerSearch);
  if ('stop' in callers) {
    if (!NOBODY_IN_VIEW.test(callers.stop)) stops?.push(callers.stop);
    return undefined;
  }
  for (const caller of callers.calls) {
    const found = catcherOf(caller, ctx, hops + 1, seen, stops);
    if (found) return { ...found, through: [describeFunction(ctx, fn), ...found.through] };
  }
  return undefined;
}

/** The call that runs a function expression where it is written (`(async () => …)()`), if it is one. */
function immediateCall(fn: ts.Node): ts.CallExpression | undefined {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  const outer = climbWrappers(fn);
  return ts.isCallExpression(outer.parent) && outer.parent.expression === outer ? outer.parent : undefined;
}

/** `.catch(h)` or `.then(f, h)` on the promise, past any `.finally(f)` (which passes a rejection on). */
function rejectionHandler(promise: ts.Expression): { link: ts.CallExpression; name: string; onRejected: ts.Expression } | undefined {
  let handler = handlerOn(promise);
  while (handler?.kind === 'finally') handler = handlerOn(handler.link);
  if (!handler?.onRejected) return undefined;
  return { link: handler.link, name: handler.kind === 'then' ? '.then(…, onRejected)' : '.catch(…)', onRejected: handler.onRejected };
}

/**
 * A handler that only reports and ends: `console.error` itself, or a function (or catch block)
 * whose statements only call console methods or process.exit, set process.exitCode, or rethrow.
 */
function isLastResort(handler: ts.Node): boolean {
  const h = ts.isExpression(handler) ? unwrap(handler) : handler;
  if (ts.isPropertyAccessExpression(h)) return isConsoleCallee(h);
  if (ts.isArrowFunction(h) || ts.isFunctionExpression(h)) {
    return ts.isBlock(h.body) ? isLastResort(h.body) : reportsOrEnds(h.body);
  }
  if (ts.isBlock(h)) {
    return h.statements.every((st) => ts.isThrowStatement(st) || (ts.isExpressionStatement(st) && reportsOrEnds(st.expression)));
  }
  return false;
}

function reportsOrEnds(e: ts.Expression): boolean {
  if (ts.isCallExpression(e)) return isConsoleCallee(e.expression) || (ts.isPropertyAccessExpression(e.expression) && isProcess(e.expression, 'exit'));
  return ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(e.left) && isProcess(e.left, 'exitCode');
}

function isProcess(e: ts.PropertyAccessExpression, member: string): boolean {
  return ts.isIdentifier(e.expression) && e.expression.text === 'process' && e.name.text === member;
}
