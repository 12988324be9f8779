/**
 * A read tested for truth on the way to it: inside `if (x) …`, a `?:`'s first arm, after `&&`, or
 * past `if (!x) continue;` (break, return, throw) in the same block. TypeScript narrowed it there,
 * and so may the rewrite (a stream's text delta, O-CONTENT-NULL's JSON.parse).
 */
import { ts, unwrap, isFunctionLike } from './ast.js';
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
