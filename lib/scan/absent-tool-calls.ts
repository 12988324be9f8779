/**
 * O-TOOLCALLS through an optional chain: Chat leaves `tool_calls` out of a text answer, so
 * `tool_calls?.map(f)` is undefined there; the function_call items the rewrite reads instead are an
 * array that is always there, and the same chain gives `[]` (`?.length` 0, `?.join()` '', `?.some()`
 * false). Probe of structured outputs (2026-12-05): `if (!calls) return text` after
 * `const calls = msg.tool_calls?.map(…)` never returned, and the agent loop called the API forever.
 * The `?.` may go only where the answer cannot tell the two apart.
 */
import { ts, climbWrappers, isConsoleArgument, isTruthTest, unwrap } from './ast.js';
import { INDEX0, ANY } from '../rules/results.js';

/** Reads that give undefined on an empty array, as on an absent one. */
const UNDEFINED_ON_EMPTY = new Set([INDEX0, ANY, 'find', 'findLast', 'forEach', 'pop', 'shift']);

/** What a read gives on an empty array, when that is a literal a fallback can spell. */
const ON_EMPTY: Record<string, 0 | '' | false | '[]'> = {
  length: 0, join: '', some: false, includes: false,
  map: '[]', filter: '[]', flatMap: '[]', slice: '[]', concat: '[]', toReversed: '[]', toSorted: '[]',
};

/**
 * Whether the optional chain that reads `name` from the tool calls (its first read, `read`)
 * answers alike on an absent array and on an empty one: its value is dropped or logged, it gives
 * undefined on both, its falsy answer is only tested (`if (calls?.length)`, `calls?.length > 0`), or a
 * fallback gives the empty answer anyway (`calls?.length ?? 0`, `calls?.map(f) ?? []`).
 */
export function absentReadsAlike(read: ts.Node, name: string): boolean {
  if (UNDEFINED_ON_EMPTY.has(name)) return true;
  // the first read's value: the call, for a method (`calls?.join(',')`)
  let first = read;
  if (ts.isCallExpression(first.parent) && first.parent.expression === first) first = first.parent;
  const top = chainTop(first);
  if (ts.isExpressionStatement(climbWrappers(top).parent)) return true;
  // logged: a log line may read `0` for `undefined`, as logged results change shape elsewhere (O-ESCAPE)
  if (isConsoleArgument(climbWrappers(top))) return true;
  if (top !== first || !(name in ON_EMPTY)) return false;
  const empty = ON_EMPTY[name];
  if (empty !== '[]' && !empty && isTruthTest(top)) return true;
  if (name === 'length' && isPositiveCount(top)) return true;
  return fallsBackTo(top, empty);
}

/** The outermost node of the optional chain `node` is part of (`a?.b.c(d)` for `a?.b`). */
function chainTop(node: ts.Node): ts.Node {
  let top = node;
  for (;;) {
    const p = top.parent;
    const continues = (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p) || ts.isCallExpression(p) || ts.isNonNullExpression(p)) &&
      p.expression === top && (ts.isOptionalChain(p) || ts.isNonNullChain(p as ts.NonNullExpression));
    if (!continues) return top;
    top = p;
  }
}

/** `n > 0`, `n >= 1`, `0 < n`: false on undefined as on 0. */
function isPositiveCount(count: ts.Node): boolean {
  const outer = climbWrappers(count);
  const parent = outer.parent;
  if (!ts.isBinaryExpression(parent)) return false;
  const left = parent.left === outer;
  const other = unwrap(left ? parent.right : parent.left);
  if (!ts.isNumericLiteral(other)) return false;
  const n = Number(other.text);
  const K = ts.SyntaxKind;
  const op = parent.operatorToken.kind;
  const [gt, ge] = left ? [K.GreaterThanToken, K.GreaterThanEqualsToken] : [K.LessThanToken, K.LessThanEqualsToken];
  return (op === gt && n >= 0) || (op === ge && n >= 1);
}

/**
 * `v ?? 0`, `v ?? []`: the fallback is the value an empty array gives, so both answers are it; `v || x`
 * on a falsy empty answer (0, '', false) gives x on both.
 */
function fallsBackTo(value: ts.Node, empty: 0 | '' | false | '[]'): boolean {
  const outer = climbWrappers(value);
  const parent = outer.parent;
  if (!ts.isBinaryExpression(parent) || parent.left !== outer) return false;
  const op = parent.operatorToken.kind;
  if (op === ts.SyntaxKind.BarBarToken && empty !== '[]') return true;
  if (op !== ts.SyntaxKind.QuestionQuestionToken && op !== ts.SyntaxKind.BarBarToken) return false;
  const right = unwrap(parent.right);
  if (empty === '[]') return ts.isArrayLiteralExpression(right) && right.elements.length === 0;
  if (op !== ts.SyntaxKind.QuestionQuestionToken) return false;
  if (empty === 0) return ts.isNumericLiteral(right) && Number(right.text) === 0;
  if (empty === '') return (ts.isStringLiteral(right) || ts.isNoSubstitutionTemplateLiteral(right)) && right.text === '';
  return right.kind === ts.SyntaxKind.FalseKeyword;
}
