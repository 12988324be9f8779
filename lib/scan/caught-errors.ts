/**
 * What a handler does with the error it caught (S-FAILED, and the wording of API errors): whether
 * it tests for the SDK's error classes, or uses the error other than by showing it, so that a
 * failure the rewrite throws differently would send it down another branch. The search for the
 * handler a failure reaches is lib/scan/parse-errors.ts's.
 */
import { ts, accessName, climbWrappers, isAccess, isConsoleArgument, isFunctionLike, propertyNameText, someNode, stringValue, unwrap, walk } from './ast.js';
import { functionValue, symbolOf } from './references.js';

/**
 * `x instanceof APIError` in the file's code, the class the openai module's (`import { APIError }
 * from 'openai'`, `OpenAI.APIError`, `require('openai').APIError`): not a comment naming it (probe
 * of retry wrappers), not the project's own APIError (corpus: anything-llm's aibitat).
 */
export function testsSdkClassIn(sf: ts.SourceFile, classes: ReadonlySet<string>): boolean {
  const named = new Set<string>();
  const namespaces = new Set<string>();
  const fromSdk = (spec: ts.Node | undefined) => Boolean(spec && ts.isStringLiteralLike(spec) && /^openai(\/|$)/.test(spec.text));
  walk(sf, (n) => {
    if (ts.isImportDeclaration(n) && fromSdk(n.moduleSpecifier) && n.importClause) {
      if (n.importClause.name) namespaces.add(n.importClause.name.text);
      const bindings = n.importClause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (classes.has((el.propertyName ?? el.name).text)) named.add(el.name.text);
    }
    // `const OpenAI = require('openai')`, `const { APIError } = require('openai')`
    if (ts.isVariableDeclaration(n) && n.initializer && ts.isCallExpression(unwrap(n.initializer))) {
      const call = unwrap(n.initializer) as ts.CallExpression;
      if (ts.isIdentifier(call.expression) && call.expression.text === 'require' && fromSdk(call.arguments[0])) {
        if (ts.isIdentifier(n.name)) namespaces.add(n.name.text);
        else if (ts.isObjectBindingPattern(n.name)) for (const el of n.name.elements) if (ts.isIdentifier(el.name) && classes.has(el.propertyName ? propertyNameText(el.propertyName) ?? '' : el.name.text)) named.add(el.name.text);
      }
    }
    return undefined;
  });
  return someNode(sf, (n) => {
    if (!ts.isBinaryExpression(n) || n.operatorToken.kind !== ts.SyntaxKind.InstanceOfKeyword) return false;
    const right = unwrap(n.right);
    if (ts.isIdentifier(right)) return named.has(right.text);
    return ts.isPropertyAccessExpression(right) && classes.has(right.name.text) && ts.isIdentifier(right.expression) && namespaces.has(right.expression.text);
  });
}

/** `body` tests the text of the caught error's message (`err.message.includes(…)`, `err.error?.message === …`) or reads its `param`. */
export function testsWording(caught: string, body: ts.Node): boolean {
  const names = new Set([caught]);
  return someNode(body, (n) => {
    if (!ts.isIdentifier(n) || !names.has(n.text) || isDeclarationName(n)) return false;
    const use = useOfCaught(n);
    if (typeof use === 'object') {
      names.add(use.alias);
      return false;
    }
    // the whole error as text: `String(err).includes(…)`, `${err}`
    const whole = asText(n);
    if (whole && wordingTested(whole)) return true;
    // the chain of fields read from the error: `err.param`, `err.error?.message`
    for (let at: ts.Node = climbWrappers(n); isAccess(at.parent) && at.parent.expression === at; at = climbWrappers(at.parent)) {
      const field = accessName(at.parent);
      if (field === 'param') return true;
      if (field !== undefined && TEXT_FIELDS.has(field) && fieldUse(at.parent, field)) return true;
    }
    return false;
  });
}

/**
 * The SDK's error classes (openai 6 and 7, core/error.d.ts and the helpers' errors). A Chat stream's
 * failure was an APIError (a helper stream's too); a context overflow was a BadRequestError before
 * any event (HTTP 400), where Responses may accept the request and fail in the stream (probe:
 * dyad-sh/dyad#1672). The guard of a rewritten loop throws a plain Error, a helper stream's
 * listener an OpenAIError: a test for any of these classes may take another branch. Transport
 * errors and aborts (APIConnectionError, APIUserAbortError) are the same on both sides.
 */
export const SDK_ERROR_CLASSES: ReadonlySet<string> = new Set([
  'OpenAIError', 'APIError', 'BadRequestError', 'AuthenticationError', 'PermissionDeniedError', 'NotFoundError', 'ConflictError',
  'UnprocessableEntityError', 'RateLimitError', 'InternalServerError', 'OAuthError',
]);
/** Classes a failure is an instance of on both sides: a helper stream's failure is an OpenAIError either way. */
const SAME_FOR_HELPER: ReadonlySet<string> = new Set(['OpenAIError']);

export function testsClass(name: string, helper: boolean): boolean {
  return SDK_ERROR_CLASSES.has(name) && !(helper && SAME_FOR_HELPER.has(name));
}

/** `String(err)`: the error's text, the same for both. */
export const TEXT_OF: ReadonlySet<string> = new Set(['String', 'Boolean']);
/** `new Error(err)`: the error's text as a message, nothing else of it kept. */
const BUILTIN_ERRORS: ReadonlySet<string> = new Set(['Error', 'TypeError', 'RangeError']);
/** What a caught error's text may be shown as; reading them tells nothing apart unless the text is tested. */
const DISPLAYED_FIELDS: ReadonlySet<string> = new Set(['message', 'stack', 'name', 'toString']);
/** Methods and operators that test a text (`e.message.includes('maximum context length')`). */
const TEXT_TESTS: ReadonlySet<string> = new Set(['includes', 'startsWith', 'endsWith', 'match', 'matchAll', 'search', 'indexOf', 'lastIndexOf', 'test', 'localeCompare']);

/** `e instanceof APIError` (any of the SDK's classes), or a use of the caught value that may read what differs. */
export function tellsSdkErrorsApart(handler: ts.CatchClause | ts.Expression | ts.MethodDeclaration, helper: boolean, checker?: ts.TypeChecker): boolean {
  const { caught, pattern, body } = handlerParts(handler, checker);
  if (pattern && !displayedOnly(pattern)) return true;
  return Boolean(body) && testsSdkErrors(caught, body!, helper, checker);
}

function isProjectClass(checker: ts.TypeChecker, name: ts.Identifier): boolean {
  const decl = symbolOf(checker, name)?.declarations?.[0];
  return Boolean(decl && ts.isClassDeclaration(decl) && !decl.getSourceFile().isDeclarationFile && !decl.getSourceFile().fileName.includes('/node_modules/'));
}

/** A catch clause's, or a handler callback's (inline or a function it names), name for the error it takes, and its body. */
export function handlerParts(handler: ts.CatchClause | ts.Expression | ts.MethodDeclaration, checker?: ts.TypeChecker): { caught?: string; pattern?: ts.BindingPattern; body?: ts.Node } {
  const named = (name: ts.BindingName | undefined) => (name && ts.isIdentifier(name) ? { caught: name.text } : name ? { pattern: name } : {});
  if (ts.isCatchClause(handler)) return { ...named(handler.variableDeclaration?.name), body: handler.block };
  // `.catch(handleError)`: the function it names, in view
  const fn = ts.isMethodDeclaration(handler) ? handler : checker ? functionValue(checker, handler) : isFunctionLike(unwrap(handler)) ? unwrap(handler) as ts.FunctionLikeDeclaration : undefined;
  if (!fn?.body) return {};
  return { ...named(fn.parameters[0]?.name), body: fn.body };
}

/** `{ message, stack }`: a destructuring that takes only what is shown. */
function displayedOnly(pattern: ts.BindingPattern): boolean {
  return ts.isObjectBindingPattern(pattern) && pattern.elements.every((el) => {
    const key = el.propertyName ? propertyNameText(el.propertyName) : ts.isIdentifier(el.name) ? el.name.text : undefined;
    return !el.dotDotDotToken && key !== undefined && DISPLAYED_FIELDS.has(key) && key !== 'message';
  });
}

/**
 * `body` tests a value for the SDK's error classes, or uses the caught value (`caught`, and the
 * names it is copied to) other than by showing it: a field read (`e.code`, `(e as any).status`,
 * `e['type']`, `const { code } = e`), its message tested as text, it stored, returned or wrapped
 * as a cause. Logging it, rethrowing it and handing it to a function are judged by the caller
 * (handlerTellsApart follows those).
 */
export function testsSdkErrors(caught: string | undefined, body: ts.Node, helper: boolean, checker?: ts.TypeChecker): boolean {
  const names = new Set(caught ? [caught] : []);
  return someNode(body, (n) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) {
      const right = unwrap(n.right);
      const name = ts.isIdentifier(right) ? right : ts.isPropertyAccessExpression(right) && ts.isIdentifier(right.name) ? right.name : undefined;
      // the project's own class of that name (anything-llm's APIError) is not the SDK's
      if (name && testsClass(name.text, helper) && !(checker && isProjectClass(checker, name))) return true;
    }
    if (!ts.isIdentifier(n) || !names.has(n.text) || isDeclarationName(n)) return false;
    const use = useOfCaught(n);
    if (typeof use === 'object') {
      names.add(use.alias);
      return false;
    }
    return use;
  });
}

/** The identifier names something other than the caught value: a declaration, or a member (`console.error`, `{ error: … }`). */
function isDeclarationName(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isBindingElement(p)) && p.name === id) return true;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return true;
  if (ts.isBindingElement(p) && p.propertyName === id) return true;
  return (ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name === id;
}

/** Whether this use of the caught value may tell a failed Responses stream from a Chat one; `alias` when it is copied to a name. */
function useOfCaught(id: ts.Node): boolean | { alias: string } {
  const outer = climbWrappers(id);
  const p = outer.parent;
  // `err ?? fallback`, `err || {}`, `ok ? x : err`: the value may be the error, used as the whole is
  if ((ts.isBinaryExpression(p) && FLOWS_ON.has(p.operatorToken.kind)) || (ts.isConditionalExpression(p) && p.condition !== outer)) return useOfCaught(p);
  // `console.error(err.response?.data || err.message)`: whatever it reads, it only logs it
  if (isAccess(p) && p.expression === outer && onlyLogged(p)) return false;
  if (ts.isPropertyAccessExpression(p) && p.expression === outer) return fieldUse(p, p.name.text);
  if (ts.isElementAccessExpression(p) && p.expression === outer) {
    const key = stringValue(p.argumentExpression);
    return key === undefined ? true : fieldUse(p, key);
  }
  if (ts.isVariableDeclaration(p) && p.initializer === outer) {
    if (ts.isIdentifier(p.name)) return { alias: p.name.text };
    return !displayedOnly(p.name);
  }
  if (ts.isBinaryExpression(p) && p.right === outer && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    return ts.isIdentifier(unwrap(p.left)) ? { alias: (unwrap(p.left) as ts.Identifier).text } : true;
  }
  if (ts.isBinaryExpression(p) && p.left === outer && p.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) return false; // judged by its class
  // the whole error as text (`String(err)`, `${err}`, `'x' + err`): the same unless its words are tested
  const whole = asText(id);
  if (whole) return wordingTested(whole);
  // wrapped in an error of the project's (`new LlmError('failed', err)`): its catcher may read the cause
  if (ts.isNewExpression(p)) return !(ts.isIdentifier(p.expression) && BUILTIN_ERRORS.has(p.expression.text) && p.arguments?.[0] === outer);
  // shown or passed on: judged by the caller (a call, a rethrow), or harmless (a condition, a text)
  if (ts.isCallExpression(p) || ts.isThrowStatement(p) || ts.isTemplateSpan(p) || ts.isIfStatement(p) ||
    ts.isPrefixUnaryExpression(p) || ts.isExpressionStatement(p) || ts.isConditionalExpression(p)) return false;
  if (ts.isBinaryExpression(p)) return !(p.operatorToken.kind === ts.SyntaxKind.PlusToken || EQUALITY.has(p.operatorToken.kind));
  // returned, stored in an object or an array, wrapped as a cause: whoever reads it may test it
  return true;
}

/** Operators whose value may be the operand itself. */
const FLOWS_ON: ReadonlySet<ts.SyntaxKind> = new Set([ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken]);

/** A read whose value only reaches a console call's arguments (through further reads, `||`, `??`, `+`, a template). */
function onlyLogged(read: ts.Node): boolean {
  let at: ts.Node = climbWrappers(read);
  for (;;) {
    const p = at.parent;
    const carries = (isAccess(p) && p.expression === at) || ts.isTemplateSpan(p) || ts.isTemplateExpression(p) || (ts.isConditionalExpression(p) && p.condition !== at) ||
      (ts.isBinaryExpression(p) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.PlusToken].includes(p.operatorToken.kind));
    if (!carries) break;
    at = climbWrappers(p);
  }
  return isConsoleArgument(at);
}

/** A field of the caught value read at `access`: shown text is fine unless tested; any other field may differ. */
function fieldUse(access: ts.Expression, field: string): boolean {
  if (!DISPLAYED_FIELDS.has(field)) return true;
  if (field === 'toString') return ts.isCallExpression(access.parent) && access.parent.expression === access && wordingTested(access.parent);
  return TEXT_FIELDS.has(field) && wordingTested(access);
}

/** Fields that hold the error's text (the stack starts with the message). */
const TEXT_FIELDS: ReadonlySet<string> = new Set(['message', 'stack', 'toString']);
/** Methods whose result keeps a text's words: a test of the result tests the error's words. */
const TEXT_KEEPS: ReadonlySet<string> = new Set(['toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'trim', 'trimStart', 'trimEnd', 'normalize', 'toString', 'valueOf']);

/** The expression that turns the caught value at `id` into text as a whole (`String(err)`, a template, `+`), if it does. */
function asText(id: ts.Node): ts.Expression | undefined {
  const outer = climbWrappers(id);
  const p = outer.parent;
  if (ts.isCallExpression(p) && p.arguments[0] === outer && ts.isIdentifier(p.expression) && p.expression.text === 'String') return p;
  if (ts.isTemplateSpan(p) && p.expression === outer) return p.parent;
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.PlusToken) return p;
  return undefined;
}

/**
 * The error's text at `text` is tested against words the two APIs may say differently: directly,
 * or once carried on (lowercased, trimmed, defaulted with `??`/`||`, concatenated, converted with
 * `String()`, put in a template, or named: `const msg = err.message.toLowerCase()`).
 */
function wordingTested(text: ts.Node): boolean {
  const outer = climbWrappers(text);
  const p = outer.parent;
  if (ts.isPropertyAccessExpression(p) && p.expression === outer && TEXT_KEEPS.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p) return wordingTested(p.parent);
  const whole = asText(outer);
  if (whole) return wordingTested(whole);
  if (ts.isBinaryExpression(p) && (p.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || p.operatorToken.kind === ts.SyntaxKind.BarBarToken)) return wordingTested(p);
  if (ts.isConditionalExpression(p) && p.condition !== outer) return wordingTested(p);
  if (ts.isVariableDeclaration(p) && p.initializer === outer && ts.isIdentifier(p.name)) {
    const name = p.name;
    const scope = ts.findAncestor(p, (a) => ts.isBlock(a) || ts.isSourceFile(a) || isFunctionLike(a)) ?? p.getSourceFile();
    return someNode(scope, (n) => ts.isIdentifier(n) && n !== name && n.text === name.text && !isDeclarationName(n) && wordingTested(n));
  }
  return testedAgainstChatWording(outer);
}

/** The text at `outer` is the subject of a test (`includes`, a regular expression's `test`, `===`, `switch`) against wording that may be Chat's. */
function testedAgainstChatWording(outer: ts.Node): boolean {
  const p = outer.parent;
  // `message.includes('…')`, `/…/.test(message)`, `message === '…'`: what it is tested against
  let against: readonly ts.Expression[] | undefined;
  if (ts.isPropertyAccessExpression(p) && p.expression === outer && TEXT_TESTS.has(p.name.text)) {
    against = ts.isCallExpression(p.parent) && p.parent.expression === p ? p.parent.arguments : [];
  } else if (ts.isCallExpression(p) && p.arguments.includes(outer as ts.Expression)) {
    const callee = unwrap(p.expression);
    if (ts.isPropertyAccessExpression(callee) && TEXT_TESTS.has(callee.name.text)) against = [callee.expression];
  } else if (ts.isBinaryExpression(p) && EQUALITY.has(p.operatorToken.kind)) {
    against = [p.left === outer ? p.right : p.left];
  } else if (ts.isSwitchStatement(p)) {
    against = p.caseBlock.clauses.flatMap((c) => (ts.isCaseClause(c) ? [c.expression] : []));
  }
  return against !== undefined && against.some(mayBeChatWording);
}

const EQUALITY: ReadonlySet<ts.SyntaxKind> = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

/**
 * Words of the API errors that Chat and Responses say differently (a context overflow: "This
 * model's maximum context length is … tokens … your messages resulted in …"). A test against other
 * text (the project's own "OpenAI request timeout", "rate limit") reads the same on both sides.
 */
const CHAT_WORDING = /context|token|length|messages?\b|maximum|exceed/i;

/** A tested text that may be one of those: a literal or a regular expression naming such words, or a value not in view. */
function mayBeChatWording(e: ts.Expression): boolean {
  const v = unwrap(e);
  if (ts.isRegularExpressionLiteral(v)) return CHAT_WORDING.test(v.text);
  const text = stringValue(v);
  return text === undefined ? !ts.isNumericLiteral(v) : CHAT_WORDING.test(text);
}
