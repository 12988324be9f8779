/**
 * Small helpers over the raw TypeScript AST (through ts-morph's bundled compiler).
 * The scanner works on compiler nodes directly: it is faster than wrapping every node, and the
 * offsets it records are the same character offsets the jscodeshift transforms see.
 */
import ts from './typescript.cjs';

export { ts };

/** Strip the wrappers that do not change a value: parentheses, `!`, `as`, `satisfies`, `<T>x`. */
export function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (
      ts.isParenthesizedExpression(current) ||
      ts.isNonNullExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current)
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

/** `x as T`, `<T>x`, `x satisfies T`: a type assertion (the value is the same at run time). */
export function isTypeAssertion(node: ts.Node): node is ts.AsExpression | ts.TypeAssertion | ts.SatisfiesExpression {
  return ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isSatisfiesExpression(node);
}

/** Climb from an expression through the wrappers that `unwrap` strips. */
export function climbWrappers(node: ts.Node): ts.Node {
  let current = node;
  while (
    current.parent &&
    (ts.isParenthesizedExpression(current.parent) ||
      ts.isNonNullExpression(current.parent) ||
      ts.isAsExpression(current.parent) ||
      ts.isSatisfiesExpression(current.parent) ||
      ts.isTypeAssertionExpression(current.parent))
  ) {
    current = current.parent;
  }
  return current;
}

/** The static text of a string literal or a template without substitutions. */
export function stringValue(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  const inner = ts.isExpression(node) ? unwrap(node) : node;
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
  return undefined;
}

export function numberValue(node: ts.Node | undefined): number | undefined {
  if (!node) return undefined;
  const inner = ts.isExpression(node) ? unwrap(node) : node;
  if (ts.isNumericLiteral(inner)) return Number(inner.text);
  if (ts.isPrefixUnaryExpression(inner) && inner.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(inner.operand)) {
    return -Number(inner.operand.text);
  }
  return undefined;
}

export type Literal = { kind: 'string'; value: string } | { kind: 'number'; value: number } | { kind: 'boolean'; value: boolean } | { kind: 'null' } | { kind: 'undefined' };

/** A primitive literal value, when the expression is one. */
export function literalValue(node: ts.Expression | undefined): Literal | undefined {
  if (!node) return undefined;
  const inner = unwrap(node);
  const s = stringValue(inner);
  if (s !== undefined) return { kind: 'string', value: s };
  const n = numberValue(inner);
  if (n !== undefined) return { kind: 'number', value: n };
  if (inner.kind === ts.SyntaxKind.TrueKeyword) return { kind: 'boolean', value: true };
  if (inner.kind === ts.SyntaxKind.FalseKeyword) return { kind: 'boolean', value: false };
  if (inner.kind === ts.SyntaxKind.NullKeyword) return { kind: 'null' };
  if (ts.isIdentifier(inner) && inner.text === 'undefined') return { kind: 'undefined' };
  if (ts.isVoidExpression(inner)) return { kind: 'undefined' };
  return undefined;
}

/** The name of a property, method or element access when it is static. */
export function propertyNameText(name: ts.PropertyName | ts.Expression | ts.MemberName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return stringValue(name.expression);
  return undefined;
}

/** `a.b` or `a['b']` or `a?.b`: the accessed name when static. */
export function accessName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) return propertyNameText(node.name);
  if (ts.isElementAccessExpression(node)) return stringValue(node.argumentExpression) ?? numberText(node.argumentExpression);
  return undefined;
}

function numberText(node: ts.Expression): string | undefined {
  const n = numberValue(node);
  return n === undefined ? undefined : String(n);
}

export function isAccess(node: ts.Node): node is ts.PropertyAccessExpression | ts.ElementAccessExpression {
  return ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node);
}

/** The token that names the accessed member (`create` in `a.create` or `a['create']`). */
export function accessNameNode(node: ts.PropertyAccessExpression | ts.ElementAccessExpression): ts.Node {
  return ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression;
}

/** The object literal's property with this static name (last one wins, like at run time). */
export function findProperty(obj: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  let found: ts.ObjectLiteralElementLike | undefined;
  for (const p of obj.properties) if (propertyNameText(p.name) === name) found = p;
  return found;
}

/** The value expression of a property assignment or shorthand. */
export function propertyValue(p: ts.ObjectLiteralElementLike | undefined): ts.Expression | undefined {
  if (!p) return undefined;
  if (ts.isPropertyAssignment(p)) return p.initializer;
  if (ts.isShorthandPropertyAssignment(p)) return p.name;
  return undefined;
}

export function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The nearest enclosing function, or the source file for module-level code. */
export function enclosingScope(node: ts.Node): ts.FunctionLikeDeclaration | ts.SourceFile {
  let current = node.parent;
  while (current) {
    if (isFunctionLike(current) || ts.isSourceFile(current)) return current;
    current = current.parent;
  }
  return node.getSourceFile();
}

/** The statement that contains the node (where a marker comment goes). */
export function enclosingStatement(node: ts.Node): ts.Node {
  let current: ts.Node = node;
  while (current.parent && !ts.isSourceFile(current.parent) && !ts.isBlock(current.parent) && !ts.isModuleBlock(current.parent) && !ts.isCaseClause(current.parent) && !ts.isDefaultClause(current.parent)) {
    // a class member is the "statement" of a class body
    if (ts.isClassLike(current.parent)) return current;
    current = current.parent;
  }
  return current;
}

/**
 * The statements that run before the one holding `node`, in each block that encloses it within its
 * function, innermost block first.
 */
export function* statementsBefore(node: ts.Node): Generator<ts.Statement> {
  for (let child: ts.Node = node, at = node.parent; at && !isFunctionLike(at) && !ts.isSourceFile(at); child = at, at = at.parent) {
    if (!ts.isBlock(at)) continue;
    for (const statement of at.statements) {
      if (statement === child) break;
      yield statement;
    }
  }
}

export function isInside(node: ts.Node, container: ts.Node): boolean {
  return node.pos >= container.pos && node.end <= container.end;
}

export interface Position {
  line: number;
  column: number;
}

/** 1-based line and column of an offset. */
export function positionOf(sf: ts.SourceFile, offset: number): Position {
  const lc = sf.getLineAndCharacterOfPosition(offset);
  return { line: lc.line + 1, column: lc.character + 1 };
}

export function startOf(node: ts.Node): number {
  return node.getStart(undefined, false);
}

/** One-line, shortened source text for messages and evidence. */
export function shortText(node: ts.Node, max = 60): string {
  const text = node.getText().replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Walk every descendant, depth first; return false from the visitor to skip a subtree. */
export function walk(node: ts.Node, visit: (n: ts.Node) => boolean | void): void {
  const recurse = (n: ts.Node): void => {
    if (visit(n) === false) return;
    ts.forEachChild(n, recurse);
  };
  ts.forEachChild(node, recurse);
}

/** Some descendant of `node` (not `node` itself) passes `test`; the walk stops at the first. */
export function someNode(node: ts.Node, test: (n: ts.Node) => boolean): boolean {
  let found = false;
  walk(node, (n) => {
    if (found || test(n)) found = true;
    return !found;
  });
  return found;
}

/** The variable declaration whose name is exactly this identifier, if any. */
export function declarationOfName(id: ts.Identifier): ts.VariableDeclaration | undefined {
  return ts.isVariableDeclaration(id.parent) && id.parent.name === id ? id.parent : undefined;
}

/** True when the variable declaration is `const`, or `let`/`var` never assigned again (checked by the caller). */
export function isConstDeclaration(decl: ts.VariableDeclaration): boolean {
  const list = decl.parent;
  return ts.isVariableDeclarationList(list) && (list.flags & ts.NodeFlags.Const) !== 0;
}

export function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** `x = …`, `x ??= …`, `x++`…: true when this identifier occurrence is written to. */
export function isWriteReference(id: ts.Node): boolean {
  const node = climbWrappers(id);
  const parent = node.parent;
  if (!parent) return false;
  if (ts.isBinaryExpression(parent) && parent.left === node && isAssignmentOperator(parent.operatorToken.kind)) return true;
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) &&
    (parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken)) return true;
  return false;
}

/** `node = …` with a plain `=`: the old value is not read. */
export function isPlainWriteTarget(node: ts.Node): boolean {
  const parent = node.parent;
  return ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

export function isEquality(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.EqualsEqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
    kind === ts.SyntaxKind.EqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsToken;
}

/**
 * A value tested for truth: `if (x)`, `while (x)`, `for (;x;)`, `!x`, `x ? … : …`, `x && …`, and
 * either side of an `&&` or `||` that is itself tested (`if (ready && x)`, `if (x || y)`).
 */
export function isBooleanContext(node: ts.Node): boolean {
  const outer = climbWrappers(node);
  const parent = outer.parent;
  if ((ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent)) && parent.expression === outer) return true;
  if (ts.isForStatement(parent) && parent.condition === outer) return true;
  if (ts.isConditionalExpression(parent) && parent.condition === outer) return true;
  if (ts.isPrefixUnaryExpression(parent) && parent.operator === ts.SyntaxKind.ExclamationToken) return true;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken && parent.left === outer) return true;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) return isBooleanContext(parent);
  }
  return false;
}

/**
 * A value whose truth alone is used: a boolean context (isBooleanContext) where an `&&` or `||`
 * it is an operand of is itself tested. In `const n = calls && calls.length` the left operand is
 * tested, but it is also the value `n` takes when it is falsy.
 */
export function isTruthTest(node: ts.Node): boolean {
  if (!isBooleanContext(node)) return false;
  const outer = climbWrappers(node);
  const parent = outer.parent;
  if (ts.isBinaryExpression(parent) && (parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || parent.operatorToken.kind === ts.SyntaxKind.BarBarToken)) return isTruthTest(parent);
  return true;
}

/**
 * `x == null`, `x === undefined`, `x !== null`…: a comparison of `node` with null or undefined.
 * A Chat array that is absent when empty (`tool_calls`) maps to an array that is always there.
 */
export function isNullishComparison(node: ts.Node): boolean {
  const outer = climbWrappers(node);
  const parent = outer.parent;
  if (!ts.isBinaryExpression(parent) || !isEquality(parent.operatorToken.kind)) return false;
  const other = unwrap(parent.left === outer ? parent.right : parent.left);
  return other.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(other) && other.text === 'undefined') || ts.isVoidExpression(other);
}

/**
 * A count used only to tell empty from not empty: a boolean context, or a comparison with 0
 * (`n > 0`, `n === 0`, `n !== 0`, `n >= 1`, `n < 1`, and the same mirrored).
 */
export function isEmptinessTest(node: ts.Node): boolean {
  if (isBooleanContext(node)) return true;
  const outer = climbWrappers(node);
  const parent = outer.parent;
  if (ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'expect' && parent.arguments[0] === outer) return isEmptinessMatcher(parent);
  if (!ts.isBinaryExpression(parent)) return false;
  const left = parent.left === outer;
  const other = unwrap(left ? parent.right : parent.left);
  if (!ts.isNumericLiteral(other)) return false;
  const n = Number(other.text);
  const op = parent.operatorToken.kind;
  if (isEquality(op)) return n === 0;
  const K = ts.SyntaxKind;
  // written as count OP n: > 0, >= 1, < 1, <= 0 (mirrored when the count is on the right)
  const [gt, ge, lt, le] = left ? [K.GreaterThanToken, K.GreaterThanEqualsToken, K.LessThanToken, K.LessThanEqualsToken] : [K.LessThanToken, K.LessThanEqualsToken, K.GreaterThanToken, K.GreaterThanEqualsToken];
  return (op === gt && n === 0) || (op === ge && n === 1) || (op === lt && n === 1) || (op === le && n === 0);
}

/** `expect(n).toBeGreaterThan(0)`, `.toBeTruthy()`, `.not.toBe(0)`…: a test runner's emptiness assertion. */
function isEmptinessMatcher(expectCall: ts.CallExpression): boolean {
  let access: ts.Node = expectCall.parent;
  if (ts.isPropertyAccessExpression(access) && access.name.text === 'not') access = access.parent;
  if (!ts.isPropertyAccessExpression(access) || !ts.isCallExpression(access.parent) || access.parent.expression !== access) return false;
  const matcher = access.name.text;
  const arg = access.parent.arguments[0];
  const n = arg && ts.isNumericLiteral(arg) ? Number(arg.text) : undefined;
  if (matcher === 'toBeTruthy' || matcher === 'toBeFalsy') return true;
  if (matcher === 'toBeGreaterThan' || matcher === 'toBeLessThanOrEqual') return n === 0;
  if (matcher === 'toBeGreaterThanOrEqual' || matcher === 'toBeLessThan') return n === 1;
  if (matcher === 'toBe' || matcher === 'toEqual' || matcher === 'toStrictEqual') return n === 0;
  return false;
}

/** The types of the `as` / `<T>` / `satisfies` casts wrapped around an expression, outermost first. */
export function castTypes(e: ts.Expression): ts.TypeNode[] {
  const out: ts.TypeNode[] = [];
  let current: ts.Expression = e;
  while (ts.isParenthesizedExpression(current) || isTypeAssertion(current)) {
    if (!ts.isParenthesizedExpression(current)) out.push(current.type);
    current = current.expression;
  }
  return out;
}

/** Expressions a function can return (a concise arrow body counts). */
export function returnExpressions(fn: ts.FunctionLikeDeclaration): ts.Expression[] {
  if (!fn.body) return [];
  if (!ts.isBlock(fn.body)) return [fn.body];
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isReturnStatement(n) && n.expression) out.push(n.expression);
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(fn.body, visit);
  return out;
}

/** A JavaScript source (.js, .jsx, .mjs, .cjs): TypeScript infers nothing the code must fit. */
export function isJavaScriptFile(sf: ts.SourceFile): boolean {
  return /\.[cm]?jsx?$/i.test(sf.fileName);
}

/** A `console.*` callee (`console.log`, `console.error`…). */
export function isConsoleCallee(callee: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'console';
}

/** `use` is an argument of a `console.*` call. */
export function isConsoleArgument(use: ts.Node): boolean {
  const call = use.parent;
  return ts.isCallExpression(call) && call.arguments.includes(use as ts.Expression) && isConsoleCallee(call.expression);
}

/** `console.log` of `console.log(…)`, `fn` of `fn(…)`; '' for any other callee. */
export function calleeName(callee: ts.Expression): string {
  const e = unwrap(callee);
  if (ts.isIdentifier(e)) return e.text;
  return ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression) ? `${e.expression.text}.${e.name.text}` : '';
}

/** The class whose `this` a node sees: undefined inside a plain function (its own `this`). */
export function thisClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  let current = node.parent;
  while (current) {
    if (ts.isClassLike(current)) return current;
    if (isFunctionLike(current) && !ts.isArrowFunction(current) && !ts.isMethodDeclaration(current) &&
      !ts.isConstructorDeclaration(current) && !ts.isGetAccessorDeclaration(current) && !ts.isSetAccessorDeclaration(current)) {
      return undefined; // `this` of a plain function
    }
    current = current.parent;
  }
  return undefined;
}

/** `name` as the global (the lib's declaration, or none), not a project binding of that name. */
export function isGlobal(checker: ts.TypeChecker, e: ts.Expression, name: string): boolean {
  const id = unwrap(e);
  if (!ts.isIdentifier(id) || id.text !== name) return false;
  const decl = checker.getSymbolAtLocation(id)?.declarations?.[0];
  return !decl || decl.getSourceFile().isDeclarationFile;
}
