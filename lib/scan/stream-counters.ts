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
import { ts, climbWrappers, isBooleanContext, isConsoleCallee, isConstDeclaration, isFunctionLike, literalValue, someNode, unwrap, walk } from './ast.js';
import { referencesOf } from './references.js';
import { EMPTY_WRITE_SINKS } from '../rules/streams.js';

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
  const derived = chunkDerived(loop.statement, variable, checker);
  const readsChunk = (n: ts.Node): boolean => mentions(n, derived, checker);
  const out: IterationCounter[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return; // a callback defined in the loop runs when it is called
    const target = countedIdentifier(n);
    if (target && declaredOutside(target, loop, checker) && !guardedByChunk(n, loop.statement, readsChunk) && isRead(target, checker, n)) {
      out.push({ update: n as ts.Expression, name: target.text });
    }
    ts.forEachChild(n, visit);
  };
  visit(loop.statement);
  return out;
}

/**
 * The outer variables the loop body sets once, on its first iteration, whatever the chunk holds:
 * `if (!firstAt) firstAt = Date.now() - t0;`, `firstAt ??= performance.now()`. Chat's first chunk
 * came with the first token; Responses' first event, response.created, comes before any text, so
 * a time-to-first-token measured that way drops to almost nothing. The value must read the moment
 * (readsTheMoment) and not the chunk (a read of it is judged by the chunk analysis).
 */
export function firstEventAssignments(loop: ts.ForOfStatement, variable: ts.Identifier, checker: ts.TypeChecker): ts.Identifier[] {
  const derived = chunkDerived(loop.statement, variable, checker);
  const readsChunk = (n: ts.Node): boolean => mentions(n, derived, checker);
  const out: ts.Identifier[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return;
    const set = setOnce(n, checker);
    if (set && declaredOutside(set.target, loop, checker) && readsTheMoment(set.value) && !readsChunk(set.value) && !guardedByChunk(n, loop.statement, readsChunk)) out.push(set.target);
    ts.forEachChild(n, visit);
  };
  visit(loop.statement);
  return out;
}

/**
 * A value that depends on when it is computed: a call or a `new` (`Date.now() - t0`, `new Date()`,
 * `performance.now()`). A flag (`started = true`) ends the same whichever event sets it.
 */
function readsTheMoment(value: ts.Expression): boolean {
  const moment = (m: ts.Node) => ts.isCallExpression(m) || ts.isNewExpression(m);
  return moment(value) || someNode(value, moment);
}

/** `if (<test of x alone>) x = v;` or `x ??= v` / `x ||= v`: the variable and its value. */
function setOnce(n: ts.Node, checker: ts.TypeChecker): { target: ts.Identifier; value: ts.Expression } | undefined {
  if (ts.isBinaryExpression(n) && ts.isIdentifier(n.left) &&
    (n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionEqualsToken || n.operatorToken.kind === ts.SyntaxKind.BarBarEqualsToken)) return { target: n.left, value: n.right };
  if (!ts.isIfStatement(n) || n.elseStatement) return undefined;
  const body = ts.isBlock(n.thenStatement) && n.thenStatement.statements.length === 1 ? n.thenStatement.statements[0] : n.thenStatement;
  if (!ts.isExpressionStatement(body)) return undefined;
  const assign = unwrap(body.expression);
  if (!ts.isBinaryExpression(assign) || assign.operatorToken.kind !== ts.SyntaxKind.EqualsToken || !ts.isIdentifier(assign.left)) return undefined;
  const target = assign.left;
  const symbol = checker.getSymbolAtLocation(target);
  // the test reads the variable and nothing else but literals (`!x`, `x === undefined`, `x == null`)
  let onlyTarget = true;
  let readsTarget = false;
  walk(n.expression, (m) => {
    if (!ts.isIdentifier(m) || m.text === 'undefined') return;
    if (checker.getSymbolAtLocation(m) === symbol) readsTarget = true;
    else onlyTarget = false;
  });
  if (ts.isIdentifier(unwrap(n.expression)) && checker.getSymbolAtLocation(unwrap(n.expression)) === symbol) readsTarget = true;
  return readsTarget && onlyTarget ? { target, value: assign.right } : undefined;
}

/** A call or `yield` of the loop body that runs on every iteration, whatever the chunk holds. */
export interface IterationEffect {
  node: ts.Node;
  /** `console.*`: allowed with a note (O-ESCAPE: the logged output changes), like a logged chunk. */
  console: boolean;
}

/**
 * The calls whose value is unused (`log(text)`, `await send(frame)`) and the `yield`s of `body`
 * (a stream loop's, with its loop variable, or that of a function the chunk is handed to, with its
 * parameter) that no test of the chunk guards: Chat ran them once per chunk, Responses once per
 * event. `exclude`: calls the rewrite guards itself (S-TEXT's `process.stdout.write(<text> || '')`)
 * and calls that hand the chunk to a function whose own body is checked.
 */
export function iterationEffects(
  body: ts.Node, variable: ts.Identifier, checker: ts.TypeChecker, exclude: ReadonlySet<ts.Node>, emptyTexts: ReadonlySet<ts.Node>,
): IterationEffect[] {
  const derived = chunkDerived(body, variable, checker);
  const readsChunk = (n: ts.Node): boolean => mentions(n, derived, checker);
  const out: IterationEffect[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n)) return; // a callback defined in the loop runs when it is called
    // an arrow function's expression body is a statement of its own
    const bodyCall = n === body && !ts.isBlock(n) && ts.isExpression(n) && ts.isCallExpression(unwrap(n)) ? unwrap(n) : undefined;
    const effect = ts.isYieldExpression(n) ? n : bodyCall ?? effectCall(n);
    if (effect && !exclude.has(effect) && !endsTheStream(effect) && !emptyOnOtherEvents(effect, emptyTexts, checker) && !guardedByChunk(effect, body, readsChunk)) {
      out.push({ node: effect, console: ts.isCallExpression(effect) && isConsoleCallee(effect.expression) });
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return out;
}

/**
 * `stream.controller.abort()`, `controller.abort()`: it ends the stream, as a `break` ends the loop;
 * run on one more event it aborts once all the same (probe: a VS Code extension cancelling on its
 * token inside the loop).
 */
function endsTheStream(effect: ts.Node): boolean {
  return ts.isCallExpression(effect) && ts.isPropertyAccessExpression(effect.expression) && effect.expression.name.text === 'abort' && effect.arguments.length <= 1;
}

/**
 * A call that does nothing when the text is `''`, as on the events that are not text (Chat's role
 * and finish chunks gave `''` too): `out.write(<text> || '')`, which a stream or an HTTP response
 * writes as nothing (other arguments literals: an encoding), and `parts.push(<text> ?? '')` into a
 * local array only ever joined with `''`. `<text>` may come through a const of the loop.
 */
function emptyOnOtherEvents(effect: ts.Node, emptyTexts: ReadonlySet<ts.Node>, checker: ts.TypeChecker): boolean {
  if (!ts.isCallExpression(effect) || !ts.isPropertyAccessExpression(effect.expression)) return false;
  const [first, ...rest] = effect.arguments;
  if (!first || !isEmptyText(first, emptyTexts, checker)) return false;
  const method = effect.expression.name.text;
  if (method === 'write') return rest.every((a) => ts.isStringLiteral(a)) && writesNothingOnEmpty(effect.expression.expression, checker);
  return method === 'push' && rest.length === 0 && onlyJoinedEmpty(effect.expression.expression, emptyTexts, checker);
}

/**
 * A receiver whose `write('')` sends nothing: a library's writer (an HTTP response, a Writable)
 * not built in object mode, or, untyped, a parameter named `res` or `response` (an HTTP
 * handler's). The project's own writer (an SSE framer: a frame per call) and an object-mode
 * stream (an item per call) are not (probe of projects with SDK-mocking tests).
 */
function writesNothingOnEmpty(receiver: ts.Expression, checker: ts.TypeChecker): boolean {
  const r = unwrap(receiver);
  if (EMPTY_WRITE_SINKS.has(`${r.getText().replace(/\s+/g, '')}.write`)) return true;
  const decl = ts.isIdentifier(r) ? checker.getSymbolAtLocation(r)?.valueDeclaration : undefined;
  if (decl && ts.isVariableDeclaration(decl) && decl.initializer && /\b(?:writable|readable)?objectMode\s*:\s*true/i.test(decl.initializer.getText())) return false;
  const type = checker.getTypeAtLocation(r);
  if (type.flags & ts.TypeFlags.Any) return Boolean(decl && ts.isParameter(decl) && ts.isIdentifier(decl.name) && /^(res|response)$/.test(decl.name.text));
  const declarations = (type.aliasSymbol ?? type.getSymbol())?.declarations ?? [];
  return declarations.length > 0 && declarations.every((d) => d.getSourceFile().isDeclarationFile);
}

function isEmptyText(e: ts.Expression, emptyTexts: ReadonlySet<ts.Node>, checker: ts.TypeChecker): boolean {
  const arg = unwrap(e);
  if (emptyTexts.has(arg)) return true;
  if (!ts.isIdentifier(arg)) return false;
  const decl = checker.getSymbolAtLocation(arg)?.valueDeclaration;
  return Boolean(decl && ts.isVariableDeclaration(decl) && decl.initializer && isConstDeclaration(decl) && emptyTexts.has(unwrap(decl.initializer)));
}

/** A local array whose every use is a push of such a text or a `.join('')`. */
function onlyJoinedEmpty(target: ts.Expression, emptyTexts: ReadonlySet<ts.Node>, checker: ts.TypeChecker): boolean {
  if (!ts.isIdentifier(target)) return false;
  const decl = checker.getSymbolAtLocation(target)?.valueDeclaration;
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer || !ts.isArrayLiteralExpression(unwrap(decl.initializer))) return false;
  if ((unwrap(decl.initializer) as ts.ArrayLiteralExpression).elements.length) return false;
  return referencesOf(checker, decl.name).every((ref) => {
    if (ref === decl.name) return true;
    const access = ref.parent;
    if (!ts.isPropertyAccessExpression(access) || access.expression !== ref) return false;
    const call = access.parent;
    if (!ts.isCallExpression(call) || call.expression !== access) return false;
    if (access.name.text === 'join') return call.arguments.length === 1 && ts.isStringLiteral(call.arguments[0]) && call.arguments[0].text === '';
    return access.name.text === 'push' && call.arguments.length === 1 && isEmptyText(call.arguments[0], emptyTexts, checker);
  });
}

/**
 * Methods that send or store what they are given: called for their value too (`if
 * (!res.write(frame)) await once(res, 'drain')`, backpressure), they still send once per event.
 */
const SINK_METHODS: ReadonlySet<string> = new Set(['write', 'send', 'emit', 'enqueue', 'push', 'postMessage', 'publish', 'sendMessage', 'broadcast']);

/**
 * The call of an expression statement (`f(x);`, `await f(x);`, `void f(x);`): its value is unused;
 * or a call of a sink method (SINK_METHODS) wherever its value goes.
 */
function effectCall(n: ts.Node): ts.CallExpression | ts.NewExpression | undefined {
  if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && SINK_METHODS.has(n.expression.name.text)) {
    // `res.write(x);` and `await res.write(x);` are found below, as statements
    let whole = climbWrappers(n);
    if (ts.isAwaitExpression(whole.parent)) whole = climbWrappers(whole.parent);
    if (!ts.isExpressionStatement(whole.parent)) return n;
  }
  if (!ts.isExpressionStatement(n)) return undefined;
  let e: ts.Expression = unwrap(n.expression);
  if (ts.isAwaitExpression(e) || ts.isVoidExpression(e)) e = unwrap(e.expression);
  return ts.isCallExpression(e) || ts.isNewExpression(e) ? e : undefined;
}

/** The loop variable and the variables of the loop body initialised from it (`const delta = chunk.…`). */
function chunkDerived(body: ts.Node, variable: ts.Identifier, checker: ts.TypeChecker): Set<ts.Symbol> {
  const symbols = new Set<ts.Symbol>();
  const own = checker.getSymbolAtLocation(variable);
  if (own) symbols.add(own);
  walk(body, (n) => {
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
  // `n = n + 1`, `n = 1 + n`, `n = n - 1`
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left)) {
    const right = unwrap(n.right);
    if (!ts.isBinaryExpression(right) || (right.operatorToken.kind !== ts.SyntaxKind.PlusToken && right.operatorToken.kind !== ts.SyntaxKind.MinusToken)) return undefined;
    const [a, b] = [unwrap(right.left), unwrap(right.right)];
    const same = (e: ts.Expression) => ts.isIdentifier(e) && e.text === (n.left as ts.Identifier).text;
    if ((same(a) && ts.isNumericLiteral(b)) || (right.operatorToken.kind === ts.SyntaxKind.PlusToken && ts.isNumericLiteral(a) && same(b))) return n.left;
  }
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
function guardedByChunk(n: ts.Node, body: ts.Node, readsChunk: (n: ts.Node) => boolean): boolean {
  // a test of the chunk decides it, unless it runs on the branch a presence test takes when the
  // chunk lacks what it tests for: that branch runs on every other event, and Responses sends
  // more of those than Chat sent chunks (the else of `if (content)`, what follows `if (finish) return`)
  const onPresent = (cond: ts.Expression) => readsChunk(cond) && !selectsAbsent(cond, readsChunk);
  const onAbsent = (cond: ts.Expression) => readsChunk(cond) && !selectsPresent(cond, readsChunk);
  let child: ts.Node = n;
  for (let at = n.parent; at && child !== body; child = at, at = at.parent) {
    if (ts.isIfStatement(at) && child === at.thenStatement && onPresent(at.expression)) return true;
    if (ts.isIfStatement(at) && child === at.elseStatement && onAbsent(at.expression)) return true;
    if (ts.isConditionalExpression(at) && child === at.whenTrue && onPresent(at.condition)) return true;
    if (ts.isConditionalExpression(at) && child === at.whenFalse && onAbsent(at.condition)) return true;
    if (ts.isBinaryExpression(at) && at.right === child) {
      const op = at.operatorToken.kind;
      if (op === ts.SyntaxKind.AmpersandAmpersandToken && onPresent(at.left)) return true;
      if ((op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) && onAbsent(at.left)) return true;
    }
    if (ts.isBlock(at)) {
      for (const s of at.statements) {
        if (s === child) break;
        if (ts.isIfStatement(s) && !s.elseStatement && onAbsent(s.expression) && leavesIteration(s.thenStatement)) return true;
      }
    }
  }
  return false;
}

/**
 * A test true only on chunks that hold what it reads: a truth test of a read of the chunk, a
 * comparison of one with a literal that is not empty (`=== 'stop'`), or a conjunction with one.
 */
function selectsPresent(cond: ts.Expression, readsChunk: (n: ts.Node) => boolean): boolean {
  const e = unwrap(cond);
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return selectsPresent(e.left, readsChunk) || selectsPresent(e.right, readsChunk);
    if (op === ts.SyntaxKind.BarBarToken) return selectsPresent(e.left, readsChunk) && selectsPresent(e.right, readsChunk);
    if (op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken) {
      const lit = literalValue(e.left) ?? literalValue(e.right);
      return Boolean(lit && lit.kind !== 'null' && lit.kind !== 'undefined' && !(lit.kind === 'string' && lit.value === '') && readsChunk(e));
    }
    return false;
  }
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) return selectsAbsent(e.operand, readsChunk);
  return (ts.isIdentifier(e) || ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) && readsChunk(e);
}

/** A test false only on chunks that hold what it reads (`!content`, `!a || !b`): its negation selects them. */
function selectsAbsent(cond: ts.Expression, readsChunk: (n: ts.Node) => boolean): boolean {
  const e = unwrap(cond);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) return selectsPresent(e.operand, readsChunk);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.BarBarToken) return selectsAbsent(e.left, readsChunk) || selectsAbsent(e.right, readsChunk);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return selectsAbsent(e.left, readsChunk) && selectsAbsent(e.right, readsChunk);
  return false;
}

/** `continue`, `break`, `return`, `throw`, alone or ending a block. */
export function leavesIteration(s: ts.Statement): boolean {
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
