/**
 * Stream loops that count their own iterations. A Chat stream yields one chunk per delta plus a
 * role chunk and a finish chunk; a Responses stream yields one event per delta plus at least six
 * lifecycle events (created, in_progress, output_item.added, content_part.added, and their done
 * events). The loop body keeps its structure (S-TEXT), so a statement that runs on every iteration
 * whatever the chunk holds runs a different number of times: `chunks++` then counts events, and
 * `if (++seen >= 3) break` stops before any text arrives, and a logged count prints another
 * number. A count kept under a test of the chunk (`if (delta) n++`, or after
 * `if (!delta) continue`) counts text deltas on both sides, and a count nothing reads is no count,
 * nor one only tested against what every stream has (a Chat stream that completes yields at least
 * two chunks, a role chunk and a finish chunk, and a Responses stream more events: `n > 1`, `!n`
 * answer alike); the others are reported by the stream analysis.
 */
import { ts, climbWrappers, isBooleanContext, isFunctionLike, walk } from './ast.js';
import { referencesOf } from './references.js';

export interface IterationCounter {
  /** The update (`n++`, `n += 1`). */
  update: ts.Expression;
  /** The counted variable's name. */
  name: string;
}

/**
 * The updates of an outer variable by a constant that run on every iteration of `loop` (no test
 * of the chunk before them) and whose variable is read.
 */
export function iterationCounters(loop: ts.ForOfStatement, variable: ts.Identifier, checker: ts.TypeChecker): IterationCounter[] {
  const derived = chunkDerived(loop, variable, checker);
  const readsChunk = (n: ts.Node): boolean => mentions(n, derived, checker);
  const out: IterationCounter[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return; // a callback defined in the loop runs when it is called
    const target = countedIdentifier(n);
    if (target && declaredOutside(target, loop, checker) && !guardedByChunk(n, loop, readsChunk) && isRead(target, checker, n)) {
      out.push({ update: n as ts.Expression, name: target.text });
    }
    ts.forEachChild(n, visit);
  };
  visit(loop.statement);
  return out;
}

/** The loop variable and the variables of the loop body initialised from it (`const delta = chunk.…`). */
function chunkDerived(loop: ts.ForOfStatement, variable: ts.Identifier, checker: ts.TypeChecker): Set<ts.Symbol> {
  const symbols = new Set<ts.Symbol>();
  const own = checker.getSymbolAtLocation(variable);
  if (own) symbols.add(own);
  walk(loop.statement, (n) => {
    if (!ts.isVariableDeclaration(n) || !n.initializer || !mentions(n.initializer, symbols, checker)) return;
    const add = (m: ts.Node) => {
      const s = ts.isIdentifier(m) ? checker.getSymbolAtLocation(m) : undefined;
      if (s) symbols.add(s);
    };
    add(n.name); // `const delta = …`, or each name of a destructuring pattern
    walk(n.name, add);
  });
  return symbols;
}

/** Whether `node` (itself included: `if (delta)`, `const c = chunk`) names one of `symbols`. */
function mentions(node: ts.Node, symbols: ReadonlySet<ts.Symbol>, checker: ts.TypeChecker): boolean {
  let found = false;
  const check = (m: ts.Node) => {
    if (found || !ts.isIdentifier(m)) return;
    const s = checker.getSymbolAtLocation(m);
    if (s && symbols.has(s)) found = true;
  };
  check(node);
  walk(node, check);
  return found;
}

/** `n++`, `++n`, `n--`, `--n`, `n += 1`, `n -= 1` (any numeric literal): the identifier counted. */
function countedIdentifier(n: ts.Node): ts.Identifier | undefined {
  if ((ts.isPostfixUnaryExpression(n) || ts.isPrefixUnaryExpression(n)) &&
    (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken) && ts.isIdentifier(n.operand)) return n.operand;
  if (ts.isBinaryExpression(n) && (n.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken || n.operatorToken.kind === ts.SyntaxKind.MinusEqualsToken) &&
    ts.isIdentifier(n.left) && ts.isNumericLiteral(n.right)) return n.left;
  return undefined;
}

function declaredOutside(id: ts.Identifier, loop: ts.ForOfStatement, checker: ts.TypeChecker): boolean {
  const decl = checker.getSymbolAtLocation(id)?.valueDeclaration;
  return Boolean(decl && !(decl.pos >= loop.pos && decl.end <= loop.end && decl.getSourceFile() === loop.getSourceFile()));
}

/**
 * Whether a test of the chunk decides if `n` runs: an `if`, `?:`, `&&`/`||` around it whose
 * condition reads the chunk, or an earlier statement of an enclosing block that leaves the
 * iteration on such a test (`if (!delta) continue;`).
 */
function guardedByChunk(n: ts.Node, loop: ts.ForOfStatement, readsChunk: (n: ts.Node) => boolean): boolean {
  let child: ts.Node = n;
  for (let at = n.parent; at && child !== loop.statement; child = at, at = at.parent) {
    if (ts.isIfStatement(at) && child !== at.expression && readsChunk(at.expression)) return true;
    if (ts.isConditionalExpression(at) && child !== at.condition && readsChunk(at.condition)) return true;
    if (ts.isBinaryExpression(at) && at.right === child && isShortCircuit(at.operatorToken.kind) && readsChunk(at.left)) return true;
    if (ts.isBlock(at)) {
      for (const s of at.statements) {
        if (s === child) break;
        if (ts.isIfStatement(s) && readsChunk(s.expression) && leavesIteration(s.thenStatement)) return true;
      }
    }
  }
  return false;
}

function isShortCircuit(op: ts.SyntaxKind): boolean {
  return op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken;
}

/** `continue`, `break`, `return`, `throw`, alone or ending a block. */
function leavesIteration(s: ts.Statement): boolean {
  const last = ts.isBlock(s) ? s.statements[s.statements.length - 1] : s;
  return Boolean(last && (ts.isContinueStatement(last) || ts.isBreakStatement(last) || ts.isReturnStatement(last) || ts.isThrowStatement(last)));
}

/** The counted variable is read: anywhere but its own update statements (`if (++n > 3)` reads it). */
function isRead(id: ts.Identifier, checker: ts.TypeChecker, update: ts.Node): boolean {
  const decl = checker.getSymbolAtLocation(id)?.valueDeclaration;
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || valueUsed(update)) return true;
  return referencesOf(checker, decl.name).some((m) => m !== id && (countedIdentifier(m.parent) === m ? valueUsed(m.parent) : !decidedForAnyStream(m)));
}

/** The fewest iterations a completed stream loop runs: Chat's role chunk and finish chunk. */
const FEWEST_ITERATIONS = 2;

/**
 * A read whose answer is the same for every count of at least FEWEST_ITERATIONS: a boolean test,
 * or a comparison with a number literal that every such count is on the same side of
 * (`pieces > 1`, `n >= 2`, `n === 0`).
 */
function decidedForAnyStream(read: ts.Identifier): boolean {
  const outer = climbWrappers(read);
  if (isBooleanContext(outer)) return true;
  const cmp = outer.parent;
  if (!ts.isBinaryExpression(cmp)) return false;
  const other = cmp.left === outer ? cmp.right : cmp.left;
  if (!ts.isNumericLiteral(other)) return false;
  const c = Number(other.text);
  const mirrored = cmp.right === outer;
  const op = cmp.operatorToken.kind;
  const K = ts.SyntaxKind;
  // n OP c, with n ≥ FEWEST: decided when c is below (or, for the inclusive bounds, at) the fewest
  const below = c < FEWEST_ITERATIONS;
  const atMost = c <= FEWEST_ITERATIONS;
  switch (op) {
    case K.GreaterThanToken: return mirrored ? atMost : below; // c > n: false when c ≤ FEWEST
    case K.GreaterThanEqualsToken: return mirrored ? below : atMost;
    case K.LessThanToken: return mirrored ? below : atMost;
    case K.LessThanEqualsToken: return mirrored ? atMost : below;
    case K.EqualsEqualsEqualsToken: case K.ExclamationEqualsEqualsToken: case K.EqualsEqualsToken: case K.ExclamationEqualsToken: return below;
    default: return false;
  }
}

/** An update whose value is used (`if (++n > 3)`), not a statement of its own or a `for` step. */
function valueUsed(update: ts.Node): boolean {
  const parent = climbWrappers(update).parent;
  return !ts.isExpressionStatement(parent) && !(ts.isForStatement(parent) && parent.incrementor === climbWrappers(update));
}
