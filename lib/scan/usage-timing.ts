/**
 * When a Chat stream loop reads usage relative to finish_reason. With
 * `stream_options.include_usage`, Chat sends the finish_reason on one chunk and the usage on a
 * chunk after it (`choices: []`); Responses carries both on its final event (response.completed).
 * A loop that leaves on the finish_reason never saw the usage, and a usage read in the finish
 * branch read undefined; after the rewrite both see it: a bill that never ran now runs (probe of
 * streams, run before and after on a fake server). Such loops are reported.
 */
import { ts, accessName, isAccess, isFunctionLike, someNode } from './ast.js';

const ON_FINISH_CHUNK = "usage read on the finish_reason chunk, which carried none in Chat (Responses sends both on its final event)";

/** Why the loop's usage reads would see another value after the rewrite, or undefined. */
export function usageFinishTiming(loop: ts.ForOfStatement): string | undefined {
  const body = loop.statement;
  const reads = (node: ts.Node, name: string) => isAccessTo(node, name) || someNode(node, (n) => isAccessTo(n, name) && !insideFunction(n, body));
  if (!reads(body, 'usage') || !reads(body, 'finish_reason')) return undefined;
  let why: string | undefined;
  const visit = (n: ts.Node): void => {
    if (why || (n !== body && isFunctionLike(n))) return;
    if (ts.isIfStatement(n) && reads(n.expression, 'finish_reason')) {
      if (reads(n.thenStatement, 'usage')) why = ON_FINISH_CHUNK;
      else if (leavesLoop(n.thenStatement, loop)) why = 'usage of a stream loop that leaves on finish_reason, before the chunk Chat sends it on (Responses sends both on its final event)';
    }
    if (ts.isConditionalExpression(n) && reads(n.condition, 'finish_reason') && (reads(n.whenTrue, 'usage') || reads(n.whenFalse, 'usage'))) {
      why = ON_FINISH_CHUNK;
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && reads(n.left, 'finish_reason') && reads(n.right, 'usage')) {
      why = ON_FINISH_CHUNK;
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return why;
}

function isAccessTo(n: ts.Node, name: string): boolean {
  return isAccess(n) && accessName(n) === name;
}

function insideFunction(n: ts.Node, within: ts.Node): boolean {
  for (let at = n.parent; at && at !== within; at = at.parent) if (isFunctionLike(at)) return true;
  return false;
}

/** A `break` or `return` of `statement` that leaves `loop` (not one of a loop or function inside it). */
function leavesLoop(statement: ts.Node, loop: ts.ForOfStatement): boolean {
  const labelled = (label: ts.Identifier) => ts.isLabeledStatement(loop.parent) && loop.parent.label.text === label.text;
  // `inner`: inside a loop or a switch of the body, where a plain `break` stays in the body
  const check = (n: ts.Node, inner: boolean): boolean => {
    if (ts.isReturnStatement(n)) return true;
    if (ts.isBreakStatement(n)) return n.label ? labelled(n.label) : !inner;
    if (isFunctionLike(n)) return false;
    const nested = inner || ts.isIterationStatement(n, false) || ts.isSwitchStatement(n);
    return Boolean(ts.forEachChild(n, (c) => (check(c, nested) ? true : undefined)));
  };
  return check(statement, false);
}
