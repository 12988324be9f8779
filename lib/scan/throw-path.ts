/**
 * Where a failure surfaces. The run-time converter (M-CONTENT-UNTYPED) throws on messages the
 * Responses API has no input for, most of which Chat Completions rejected too (HTTP 400). Chat's
 * rejection came through the request's promise; the converter throws while the request's
 * arguments are evaluated, or where a converted array is built. The two meet the same handler
 * only when nothing handles the promise itself (`.catch`, `.then(f, g)`, `.finally`) and the
 * conversion is inside the same `try` as the request (review of the corpus diffs: a socket
 * handler whose `.catch` logged the 400 would now crash the process on a malformed payload).
 */
import { ts, climbWrappers, isFunctionLike } from './ast.js';

/** Why a conversion at `at` would throw where the request's own failure did not go, if it would. */
export function conversionThrowEscapes(at: ts.Node, call: ts.CallExpression): string | undefined {
  const handler = promiseHandler(call);
  if (handler) return `the run-time converter would throw before the request's ${handler}, which received the API's rejection of such messages`;
  if (enclosingTry(at) !== enclosingTry(call)) return "the run-time converter would run outside the try around the request, whose catch received the API's rejection of such messages";
  return undefined;
}

/** `.catch(…)`, `.then(f, g)` or `.finally(…)` on the request's promise, through `.then(f)` links. */
function promiseHandler(promise: ts.Expression): string | undefined {
  const outer = climbWrappers(promise);
  const access = outer.parent;
  if (!ts.isPropertyAccessExpression(access) || access.expression !== outer) return undefined;
  const link = access.parent;
  if (!ts.isCallExpression(link) || link.expression !== access) return undefined;
  const name = access.name.text;
  if (name === 'then') return link.arguments.length >= 2 ? '.then(…, onRejected)' : promiseHandler(link);
  return name === 'catch' || name === 'finally' ? `.${name}(…)` : undefined;
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
