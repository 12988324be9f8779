/**
 * Where a failure surfaces. The run-time converter (M-CONTENT-UNTYPED) throws on messages the
 * Responses API has no input for, most of which Chat Completions rejected too (HTTP 400). Chat's
 * rejection came through the request's promise; the converter throws while the request's
 * arguments are evaluated, or where a converted array is built. The two meet the same handler
 * only when nothing handles the promise itself (`.catch`, `.then(f, g)`, `.finally`) and the
 * conversion is inside the same `try` as the request (review of the corpus diffs: a socket
 * handler whose `.catch` logged the 400 would now crash the process on a malformed payload).
 * Where they would not, the conversion moves (MessagesAnalyzer.placeConversion): a history built
 * outside the try is converted in the request's arguments instead, and a request whose promise has
 * its own handler is called inside `(async () => …)()` when nothing else in it can throw (otherThrows).
 */
import { ts, climbWrappers, isFunctionLike, unwrap, walk, literalValue, shortText } from './ast.js';

export const OUTSIDE_TRY = "the run-time converter would run outside the try around the request, whose catch received the API's rejection of such messages";

export function beforeHandler(handler: string): string {
  return `the run-time converter would throw before the request's ${handler}, which received the API's rejection of such messages`;
}

/** `.catch(…)`, `.then(f, g)` or `.finally(…)` on the request's promise, through `.then(f)` links. */
export function promiseHandler(promise: ts.Expression): string | undefined {
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

/**
 * What else in the request call could throw synchronously, if anything: `(async () => <call>)()`
 * must move nothing but the run-time converter's throw to a rejection (WrapRequestEdit). Its
 * receiver must be a name or a property of `this` (read before, so `this` is bound), and its
 * arguments literals, names, such properties of `this`, and object and array literals of them;
 * no `await` or `yield` either: inside the arrow they would no longer pause the function.
 */
export function otherThrows(call: ts.CallExpression): string | undefined {
  let paused: ts.Node | undefined;
  walk(call, (n) => {
    if (ts.isAwaitExpression(n) || ts.isYieldExpression(n)) paused ??= n;
    return !isFunctionLike(n);
  });
  if (paused) return `${shortText(paused, 30)} in its arguments would no longer pause this function`;
  let receiver: ts.Expression = call.expression;
  while (ts.isPropertyAccessExpression(receiver)) receiver = receiver.expression;
  const thisBound = () => thisUsedBefore(call);
  if (receiver.kind === ts.SyntaxKind.ThisKeyword) {
    if (!thisBound()) return 'it is the first read of this in its function (unbound, it would reject instead of throwing)';
  } else if (!ts.isIdentifier(receiver)) {
    return `its receiver ${shortText(receiver, 30)} could throw too`;
  }
  const risky = call.arguments.find((a) => !inert(a, thisBound));
  if (!risky) return undefined;
  let first: ts.Node = risky;
  walk(risky, (n) => {
    if (first === risky && ts.isExpression(n) && !inert(n, thisBound) && !ts.isObjectLiteralExpression(n) && !ts.isArrayLiteralExpression(n)) first = n;
    return first === risky;
  });
  return `${shortText(first, 30)} in its arguments could throw too`;
}

/** An expression whose evaluation cannot throw (see otherThrows). */
function inert(node: ts.Expression, thisBound: () => boolean): boolean {
  const e = unwrap(node);
  if (literalValue(e) || ts.isIdentifier(e) || ts.isNoSubstitutionTemplateLiteral(e)) return true;
  if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) return thisBound();
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((el) => !ts.isSpreadElement(el) && (ts.isOmittedExpression(el) || inert(el, thisBound)));
  if (ts.isObjectLiteralExpression(e)) {
    return e.properties.every((p) => (ts.isShorthandPropertyAssignment(p) && !p.objectAssignmentInitializer) ||
      (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && inert(p.initializer, thisBound)));
  }
  return false;
}

/**
 * A statement before the one holding `node`, in the same function, that reads a property of
 * `this` whatever path it takes: were `this` unbound, that statement would already have thrown.
 */
function thisUsedBefore(node: ts.Node): boolean {
  for (let child: ts.Node = node, at = node.parent; at && !isFunctionLike(at) && !ts.isSourceFile(at); child = at, at = at.parent) {
    if (!ts.isBlock(at)) continue;
    for (const statement of at.statements) {
      if (statement === child) break;
      if ((ts.isExpressionStatement(statement) || ts.isVariableStatement(statement)) && readsThisAlways(statement)) return true;
    }
  }
  return false;
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
