/**
 * What counts as a write of a member, in the text of a file (to pick the files worth parsing) and
 * in its syntax (a use that hands an object on where its writes are not followed). Pure helpers of
 * the provider proof's write reader (lib/scan/write-reader.ts) and of lib/scan/provider.ts.
 */
import { escapeRegExp } from '../regexp.js';
import { ts, unwrap, accessName, calleeName, climbWrappers, isAssignmentOperator, isFunctionLike, propertyNameText, stringValue, walk } from './ast.js';
import { isProjectFile } from './context.js';

/**
 * The text of a write into a member `name` of some object (`.client =`, `['client'] ??=`, the
 * `.client] =` of a destructuring): which files of the run may write it, before parsing them.
 */
export function memberWritePattern(name: string): RegExp {
  const member = `(?:\\.\\s*${escapeRegExp(name)}|\\[\\s*['"\`]${escapeRegExp(name)}['"\`]\\s*\\])`;
  return new RegExp(`${member}(?:\\s*[\\]}])?\\s*(?:=(?![=>])|\\?\\?=|\\|\\|=|&&=)`);
}

/** `svc.client` of `svc.client = value`: what a write's right side is written into. */
export function writeTarget(value: ts.Expression): ts.Node {
  const write = climbWrappers(value).parent;
  return ts.isBinaryExpression(write) ? write.left : write;
}

/**
 * A use of an object holder that passes the object itself on to something the write reader does
 * not follow: an alias (`const d = deps`, `x = deps`), an array, object or return that stores it,
 * a branch of `a ? deps : b` or `deps || other`, `export default`. Returns the node that takes it;
 * undefined for its members, a call argument (read by writesByCallee), a write of the whole, a
 * comparison or test, a copy (`{ ...deps }`, destructuring), an export specifier and types.
 */
export function storedElsewhere(ref: ts.Expression, copiesEscape = false): ts.Node | undefined {
  const parent = ref.parent;
  // a copy carries the methods whose `this` reads the member (`{ ...svc, client: groq }.ask()`)
  if (copiesEscape && (ts.isSpreadAssignment(parent) || ts.isSpreadElement(parent))) return parent;
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === ref) return undefined;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && (parent.expression === ref || parent.arguments?.includes(ref))) return undefined;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (isAssignmentOperator(op)) return parent.left === ref ? undefined : parent;
    return LEAKING_OPERATORS.has(op) ? parent : undefined;
  }
  if (ts.isVariableDeclaration(parent)) return ts.isIdentifier(parent.name) ? parent : undefined;
  if (
    ts.isPrefixUnaryExpression(parent) || ts.isTypeOfExpression(parent) || ts.isVoidExpression(parent) || ts.isDeleteExpression(parent) ||
    ts.isExpressionStatement(parent) || ts.isTemplateSpan(parent) || ts.isSpreadAssignment(parent) || ts.isExportSpecifier(parent) ||
    ts.isTypeQueryNode(parent) || ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent) ||
    (ts.isForStatement(parent) && parent.condition === ref) || ts.isSwitchStatement(parent) || ts.isCaseClause(parent) ||
    ts.isForInStatement(parent) || ts.isQualifiedName(parent)
  ) {
    return undefined;
  }
  return parent;
}

/** The variable holding the object literal whose method `this` is in (`const svc = { ask() { this… } }`). */
export function literalOfThis(node: ts.Node): (ts.VariableDeclaration & { name: ts.Identifier }) | undefined {
  let fn: ts.Node | undefined = node.parent;
  while (fn && !ts.isSourceFile(fn) && !(isFunctionLike(fn) && !ts.isArrowFunction(fn)) && !ts.isClassLike(fn)) fn = fn.parent;
  if (!fn || ts.isSourceFile(fn) || ts.isClassLike(fn)) return undefined;
  const member = ts.isFunctionExpression(fn) && ts.isPropertyAssignment(fn.parent) ? fn.parent : fn;
  const literal = member.parent;
  if (!literal || !ts.isObjectLiteralExpression(literal)) return undefined;
  const decl = climbWrappers(literal).parent;
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer || unwrap(decl.initializer) !== literal) return undefined;
  return isProjectFile(decl.getSourceFile()) ? (decl as ts.VariableDeclaration & { name: ts.Identifier }) : undefined;
}

export function findIdentifier(scope: ts.Node, text: string): ts.Identifier | undefined {
  let found: ts.Identifier | undefined;
  walk(scope, (n) => {
    if (found) return false;
    if (ts.isIdentifier(n) && n.text === text) found = n;
    return undefined;
  });
  return found;
}

/** A test file, by the names test runners look for. */
export const TEST_FILE = /(?:^|[\\/])(?:__tests__|__mocks__|tests?|spec)[\\/]|\.(?:test|spec)\.[cm]?[jt]sx?$/;

/** A member written by a key that is a name, not a literal (`obj[key] = value`, `this[k] ??= v`). */
export const COMPUTED_WRITE = /\[\s*[A-Za-z_$][\w$.]*\s*\]\s*(?:=(?![=>])|\?\?=|\|\|=|&&=)/;

/** A call that may write a member whose name the text does not spell after a dot. */
export const REFLECTIVE_WRITE = /\b(?:Object\s*\.\s*(?:assign|defineProperty|defineProperties)|Reflect\s*\.\s*(?:set|defineProperty))\s*\(/;

/** Operators whose value may be the operand itself (`deps || other`, `a, deps`). */
const LEAKING_OPERATORS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.CommaToken,
]);

/** A file that may write a client's `baseURL` after construction (baseURLWriteTarget's shapes, as text). */
export const BASE_URL_MEMBER_WRITE = /\.baseURL\s*=(?!=)|\[\s*['"`]baseURL['"`]\s*\]\s*=(?!=)|Object\.assign\s*\([^)]*\bbaseURL\b|(?:Object\s*\.\s*defineProperty|Reflect\s*\.\s*(?:set|defineProperty))\s*\([^,]*,\s*['"`]baseURL['"`]|['"`]baseURL['"`][^]*\[\s*[A-Za-z_$][\w$]*\s*\]\s*=(?![=>])/;

/** A file that may replace a client's Chat method (chatMethodWriteTarget's shapes, as text). */
export const CHAT_METHOD_WRITE = /\.completions\s*(?:\.\s*(?:create|parse|stream)\s*)?=(?![=>])/;

/**
 * The client whose Chat method `n` replaces: `client.chat.completions.create = wrapper` (a gateway
 * that rewrites every request, RooCode-style model prefixes), or `client.chat.completions = …`.
 */
export function chatMethodWriteTarget(n: ts.Node): ts.Expression | undefined {
  if (!ts.isBinaryExpression(n) || n.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
  let left = unwrap(n.left);
  if (ts.isPropertyAccessExpression(left) && ['create', 'parse', 'stream'].includes(left.name.text)) left = unwrap(left.expression);
  if (!ts.isPropertyAccessExpression(left) || left.name.text !== 'completions') return undefined;
  const chat = unwrap(left.expression);
  return ts.isPropertyAccessExpression(chat) && chat.name.text === 'chat' ? chat.expression : undefined;
}

/** The object whose `baseURL` `n` writes: `x.baseURL = …`, `x['baseURL'] = …`, `Object.assign(x, { baseURL })`. */
export function baseURLWriteTarget(n: ts.Node): ts.Expression | undefined {
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const left = unwrap(n.left);
    if ((ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) && accessName(left) === 'baseURL') return left.expression;
    // `client[key] = url` with `const key = 'baseURL'` in the file (probe of gateways)
    if (ts.isElementAccessExpression(left) && ts.isIdentifier(left.argumentExpression) && constNamesBaseURL(n.getSourceFile(), left.argumentExpression.text)) return left.expression;
    return undefined;
  }
  // `Object.defineProperty(client, 'baseURL', …)`, `Reflect.set(client, 'baseURL', url)`
  if (ts.isCallExpression(n) && ['Object.defineProperty', 'Reflect.set', 'Reflect.defineProperty'].includes(calleeName(n.expression) ?? '') && n.arguments.length > 2 &&
    stringValue(n.arguments[1]) === 'baseURL') return n.arguments[0];
  if (ts.isCallExpression(n) && calleeName(n.expression) === 'Object.assign' && n.arguments.length > 1) {
    const sets = n.arguments.slice(1).some((a) => {
      const obj = unwrap(a);
      return ts.isObjectLiteralExpression(obj) && obj.properties.some((p) => propertyNameText(p.name) === 'baseURL');
    });
    return sets ? n.arguments[0] : undefined;
  }
  return undefined;
}

/** The file declares `name` a const (or let, var) holding the text 'baseURL'. */
function constNamesBaseURL(sf: ts.SourceFile, name: string): boolean {
  return new RegExp(`\\b(?:const|let|var)\\s+${escapeRegExp(name)}\\s*(?::\\s*[\\w'"\`|\\s]+)?=\\s*['"\`]baseURL['"\`]`).test(sf.text);
}
