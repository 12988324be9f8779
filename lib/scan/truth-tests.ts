/**
 * A read tested for truth on the way to it: inside `if (x) …`, a `?:`'s first arm, after `&&`, or
 * past `if (!x) continue;` (break, return, throw) in the same block. TypeScript narrowed it there,
 * and so may the rewrite (a stream's text delta, O-CONTENT-NULL's JSON.parse).
 */
import { ts, unwrap, isFunctionLike, isTruthTest } from './ast.js';
import { leavesIteration } from './stream-counters.js';

/**
 * The same read was tested for truth just before (`if (c.choices[0]?.delta?.content)
 * f(c.choices[0].delta.content)`, also after `&&` or in a `?:`'s first arm, or past `if (!x)
 * return;`), looking no further out than the function or the stream loop that holds it.
 */
export function testedBefore(read: ts.Node): boolean {
  const key = readKey(read);
  if (key === undefined) return false;
  const tests = (cond: ts.Expression) => operands(cond, ts.SyntaxKind.AmpersandAmpersandToken).some((c) => readKey(c) === key);
  // `if (!x) continue;` (or `!x || …`) before the read: past it, x is truthy
  const exitsUnless = (s: ts.Statement) => ts.isIfStatement(s) && !s.elseStatement && leavesIteration(s.thenStatement) &&
    operands(s.expression, ts.SyntaxKind.BarBarToken).some((d) => ts.isPrefixUnaryExpression(d) && d.operator === ts.SyntaxKind.ExclamationToken && readKey(unwrap(d.operand)) === key);
  let child = read;
  for (let at = read.parent; at && !isFunctionLike(at) && !ts.isForOfStatement(at); child = at, at = at.parent) {
    if (ts.isIfStatement(at) && child === at.thenStatement && tests(at.expression)) return true;
    if (ts.isConditionalExpression(at) && child === at.whenTrue && tests(at.condition)) return true;
    if (ts.isBinaryExpression(at) && at.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && child === at.right && tests(at.left)) return true;
    if (ts.isBlock(at) && at.statements.slice(0, at.statements.indexOf(child as ts.Statement)).some(exitsUnless)) return true;
  }
  return false;
}

/** The operands of a chain of `&&` (or of `||`), unwrapped: `a && (b && c)` → a, b, c. */
function operands(e: ts.Expression, op: ts.SyntaxKind.AmpersandAmpersandToken | ts.SyntaxKind.BarBarToken): ts.Expression[] {
  const inner = unwrap(e);
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === op) return [...operands(inner.left, op), ...operands(inner.right, op)];
  return [inner];
}

/** A property or element chain as TypeScript matches references: `a?.b!.c` and `a.b.c` alike. */
function readKey(n: ts.Node): string | undefined {
  if (ts.isIdentifier(n)) return n.text;
  if (!ts.isPropertyAccessExpression(n) && !ts.isElementAccessExpression(n) && !ts.isNonNullExpression(n)) return undefined;
  return n.getText().replace(/\s+/g, '').replace(/\?\./g, '.').replace(/!(?=[.[]|$)/g, '');
}

/**
 * A truth test on tool calls that the length test beside it makes redundant once they are an
 * array that is always there (O-TOOLCALLS): `calls && calls.length > 0` (the count test implies
 * the guard) or `!calls || calls.length === 0` (the count test holds wherever the guard answered).
 * Rewritten as `calls.length && calls.length > 0` they read like machine output; the guard and its
 * operator go instead: what to delete is from `from` to the start of `to` (the count test).
 */
export function redundantLengthGuard(guard: ts.Node): { from: ts.Node; to: ts.Node } | undefined {
  let test: ts.Node = guard;
  while (ts.isParenthesizedExpression(test.parent)) test = test.parent;
  const negated = ts.isPrefixUnaryExpression(test.parent) && test.parent.operator === ts.SyntaxKind.ExclamationToken;
  if (negated) test = test.parent;
  const both = test.parent;
  if (!ts.isBinaryExpression(both) || both.left !== test) return undefined;
  const op = both.operatorToken.kind;
  if (op !== (negated ? ts.SyntaxKind.BarBarToken : ts.SyntaxKind.AmpersandAmpersandToken) || !isTruthTest(both)) return undefined;
  const key = readKey(unwrap(guard as ts.Expression));
  const count = countTest(unwrap(both.right));
  if (key === undefined || !count || readKey(count.of) !== key || count.nonEmpty === negated) return undefined;
  return { from: test, to: both.right };
}

/**
 * `x.length` tested against emptiness: `x.length`, `x.length > 0`, `x.length !== 0`, `x.length >= 1`
 * (nonEmpty) or `!x.length`, `x.length === 0`, `x.length < 1`, `x.length <= 0` (empty), the
 * comparisons also mirrored. `of` is `x`.
 */
function countTest(e: ts.Expression): { of: ts.Expression; nonEmpty: boolean } | undefined {
  const length = (n: ts.Expression) => {
    const inner = unwrap(n);
    return ts.isPropertyAccessExpression(inner) && inner.name.text === 'length' ? inner.expression : undefined;
  };
  if (length(e)) return { of: length(e)!, nonEmpty: true };
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken && length(e.operand)) return { of: length(e.operand)!, nonEmpty: false };
  if (!ts.isBinaryExpression(e)) return undefined;
  const left = length(e.left);
  const of = left ?? length(e.right);
  const other = unwrap(left ? e.right : e.left);
  if (!of || !ts.isNumericLiteral(other)) return undefined;
  const n = Number(other.text);
  const K = ts.SyntaxKind;
  // written as count OP n (mirrored when the count is on the right)
  const [gt, ge, lt, le] = left ? [K.GreaterThanToken, K.GreaterThanEqualsToken, K.LessThanToken, K.LessThanEqualsToken] : [K.LessThanToken, K.LessThanEqualsToken, K.GreaterThanToken, K.GreaterThanEqualsToken];
  const op = e.operatorToken.kind;
  if ((op === K.ExclamationEqualsEqualsToken || op === K.ExclamationEqualsToken) && n === 0) return { of, nonEmpty: true };
  if ((op === K.EqualsEqualsEqualsToken || op === K.EqualsEqualsToken) && n === 0) return { of, nonEmpty: false };
  if ((op === gt && n >= 0) || (op === ge && n >= 1)) return { of, nonEmpty: true };
  if ((op === lt && n === 1) || (op === le && n === 0)) return { of, nonEmpty: false };
  return undefined;
}
