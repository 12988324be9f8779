/**
 * Branches a known stream flag rules out (S-DETECT, SiteAnalysis.flags): when every call of a
 * function leaves `stream` false, `if (stream) …` and the true side of `stream ? a : b` never run
 * for its result.
 */
import { ts } from './ast.js';
import { declarationOf } from './bindings.js';

/** The value a test of a known flag has (`stream`, `!stream`, parenthesised), if it is one. */
export function flagTest(checker: ts.TypeChecker, flags: ReadonlyMap<ts.Node, boolean>, condition: ts.Expression): boolean | undefined {
  let e = condition;
  let negated = false;
  for (;;) {
    if (ts.isParenthesizedExpression(e)) e = e.expression;
    else if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) {
      negated = !negated;
      e = e.operand;
    } else break;
  }
  if (!ts.isIdentifier(e)) return undefined;
  const decl = declarationOf(checker, e);
  const value = decl && flags.get(decl);
  return value === undefined ? undefined : value !== negated;
}

/** The conditional or `if` whose ruled-out branch holds `node`, if any. */
export function deadGuard(checker: ts.TypeChecker, flags: ReadonlyMap<ts.Node, boolean>, node: ts.Node): ts.ConditionalExpression | ts.IfStatement | undefined {
  if (flags.size === 0) return undefined;
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isConditionalExpression(parent) && (child === parent.whenTrue || child === parent.whenFalse)) {
      const taken = flagTest(checker, flags, parent.condition);
      if (taken !== undefined && (child === parent.whenTrue) !== taken) return parent;
    }
    if (ts.isIfStatement(parent) && (child === parent.thenStatement || child === parent.elseStatement)) {
      const taken = flagTest(checker, flags, parent.expression);
      if (taken !== undefined && (child === parent.thenStatement) !== taken) return parent;
    }
  }
  return undefined;
}
