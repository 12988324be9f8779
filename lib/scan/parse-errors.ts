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
import { ts, enclosingScope, isConsoleCallee, shortText, someNode, unwrap, walk } from './ast.js';
import { MAX_HOPS, calledFunction, callersOf, describeFunction, isFollowedFunction } from './callers.js';
import { locationOf, relativeFile, type ScanContext } from './context.js';
import { enclosingTry, handlerOn } from './throw-path.js';
import { promiseAllOfCallback } from './promise-all.js';

/** The parse-error-semantics detail when a throw of the parse() call `call` is caught in view. */
export function parseErrorCatcher(call: ts.CallExpression, ctx: ScanContext): string | undefined {
  const stops: string[] = [];
  const found = catcherOf(call, ctx, 0, new Set(), stops);
  // callers in view that the search cannot follow (a namespace import, a use other than a call):
  // one of them may catch it (probe of Next.js apps: a default-exported helper's route did)
  if (!found && stops.length) return `what parse() threw on a cut-off or filtered answer reaches callers the tool cannot follow (${stops[0]})`;
  if (!found) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `${found.catcher} took what parse() threw on a cut-off or filtered answer${through}`;
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
    const testing = stops.length ? sdkErrorTestIn(ctx, helper, rejecting) : undefined;
    return testing ? `a stream failure leaves for callers the tool cannot follow (${stops[0]}), while ${testing} tests for the SDK's errors ${thrown}` : undefined;
  }
  const how = handlerTellsApart(found.handler, ctx, helper, 0);
  if (!how) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `a stream failure caught by ${found.catcher}${through}, ${how} ${thrown}`;
}

/** A file of the run that tests for the SDK's error classes a Chat stream's failure had (relative path), if one does. */
function sdkErrorTestIn(ctx: ScanContext, helper: boolean, from?: ts.Node): string | undefined {
  const search = ctx.callerSearch;
  if (!search) return undefined;
  const classes = [...(helper ? SDK_ERRORS_CHAT_HAD.helper : SDK_ERRORS_CHAT_HAD.loop)];
  const test = new RegExp(`instanceof\\s+(?:[\\w$]+\\.)?(?:${classes.join('|')})\\b`);
  const files = [...new Set(classes.flatMap((name) => search.filesNaming(name)))];
  // the failing code's own file first: the test nearest to it
  const own = from && path.normalize(from.getSourceFile().fileName);
  const testing = [...files.filter((f) => path.normalize(f) === own), ...files].find((f) => test.test(search.textOf(f) ?? ''));
  return testing && relativeFile(ctx.cwd, testing);
}

/**
 * How the handler comes to tell the SDK's errors apart, if it does: itself; a function of the
 * project it hands the error to (`report(err)`), by that function's parameter; the handler that
 * takes it when it rethrows it (`throw err`), a catch of a caller; or a function out of view it
 * hands the error to (`next(err)`, an Express error middleware) while the project tests for the
 * SDK's errors somewhere (probe of projects with SDK-mocking tests: each went unreported).
 */
function handlerTellsApart(handler: ts.CatchClause | ts.Expression, ctx: ScanContext, helper: boolean, depth: number): string | undefined {
  if (tellsSdkErrorsApart(handler, helper)) return "which tests for the SDK's errors";
  if (depth >= MAX_HOPS) return undefined;
  const { caught, body } = handlerParts(handler);
  if (!body || !caught) return undefined;
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
    if (ts.isCallExpression(n) && !isConsoleCallee(n.expression)) {
      const index = n.arguments.findIndex((a) => isCaught(a));
      if (index < 0) return undefined;
      const callee = calledFunction(ctx.checker, n);
      const target = callee?.parameters[index]?.name;
      if (callee && target && ts.isIdentifier(target) && callee.body) {
        if (testsSdkErrors(target.text, callee.body, helper)) how = `which hands it to ${describeFunction(ctx, callee)}, which tests for the SDK's errors`;
      } else if (!callee) {
        const testing = sdkErrorTestIn(ctx, helper);
        if (testing) how = `which hands it to ${shortText(n.expression, 30)}(…), out of view, while ${testing} tests for the SDK's errors`;
      }
    }
    return undefined;
  });
  return how;
}

/** The error classes a Chat stream's failure was an instance of, as a failed Responses stream's is not. */
const SDK_ERRORS_CHAT_HAD = { loop: new Set(['APIError', 'OpenAIError']), helper: new Set(['APIError']) };
const SDK_ERROR_FIELDS = new Set(['code', 'type', 'param', 'error']);

/** `e instanceof APIError` (or `OpenAI.APIError`), or a read of an APIError field of the caught value. */
export function tellsSdkErrorsApart(handler: ts.CatchClause | ts.Expression, helper: boolean): boolean {
  const { caught, body } = handlerParts(handler);
  return Boolean(body) && testsSdkErrors(caught, body!, helper);
}

/** A catch clause's, or a handler callback's, name for the error it takes, and its body. */
function handlerParts(handler: ts.CatchClause | ts.Expression): { caught?: string; body?: ts.Node } {
  if (ts.isCatchClause(handler)) {
    const name = handler.variableDeclaration?.name;
    return { caught: name && ts.isIdentifier(name) ? name.text : undefined, body: handler.block };
  }
  const fn = unwrap(handler);
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return {};
  const name = fn.parameters[0]?.name;
  return { caught: name && ts.isIdentifier(name) ? name.text : undefined, body: fn.body };
}

/** `body` tests a value for the SDK's error classes, or reads an APIError field of `caught`. */
function testsSdkErrors(caught: string | undefined, body: ts.Node, helper: boolean): boolean {
  const classes = helper ? SDK_ERRORS_CHAT_HAD.helper : SDK_ERRORS_CHAT_HAD.loop;
  return someNode(body, (n) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) {
      const right = unwrap(n.right);
      const name = ts.isIdentifier(right) ? right.text : ts.isPropertyAccessExpression(right) ? right.name.text : undefined;
      if (name && classes.has(name)) return true;
    }
    return Boolean(caught) && ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === caught && SDK_ERROR_FIELDS.has(n.name.text);
  });
}

/**
 * Stops with no caller in view (a framework's, another package's, the browser's): as before, an
 * uncaught throw keeps the H-PARSE note. Any other stop has callers in view that cannot be
 * followed, and parseErrorCatcher reports it.
 */
const NOBODY_IN_VIEW = /has no caller in view|is decorated: a framework may call it|is a server action|exported from a published package|outside the paths given/;

function catcherOf(rejecting: ts.Node, ctx: ScanContext, hops: number, seen: Set<ts.Node>, stops?: string[]): Catcher | undefined {
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
    return catcherOf(all, ctx, hops + 1, seen, stops);
  }
  if (!isFollowedFunction(fn) || seen.has(fn) || hops >= MAX_HOPS) return undefined;
  seen.add(fn);
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
