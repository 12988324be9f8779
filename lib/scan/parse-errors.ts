/**
 * T-PARSE-NOTHROW (docs/migration-spec.md, H-PARSE): Chat's parse() threw on a cut-off or
 * filtered answer (LengthFinishReasonError, ContentFilterFinishReasonError); responses.parse()
 * returns output_parsed null instead. That matters where something caught the throw (a retry, a
 * fallback): a `catch` around the call, a handler on its promise, or either of those around a
 * call of the function the error left, followed through callers (W-FOLLOW) as far as they are
 * in view. Where following stops (a framework calls the function, callers out of view), nothing
 * in view caught it: the site keeps the H-PARSE note, as for an uncaught throw. So does a
 * program's last-resort handler (`main().catch(console.error)` at the top of a module): it does
 * what an uncaught throw does, report and end. The same search finds the handler a stream's
 * failure reaches (failureTellsApart, S-FAILED).
 */
import path from 'node:path';
import { ts, accessName, climbWrappers, enclosingScope, isAccess, isConsoleArgument, isConsoleCallee, propertyNameText, shortText, someNode, stringValue, unwrap, walk } from './ast.js';
import { symbolOf } from './references.js';
import { MAX_HOPS, calledFunction, callersOf, describeFunction, isFollowedFunction } from './callers.js';
import { locationOf, relativeFile, type ScanContext } from './context.js';
import { enclosingTry, handlerOn } from './throw-path.js';
import { promiseAllOfCallback } from './promise-all.js';

/** The parse-error-semantics detail when a throw of the parse() call `call` is caught in view. */
export function parseErrorCatcher(call: ts.CallExpression, ctx: ScanContext): string | undefined {
  const stops: string[] = [];
  const found = catcherOf(call, ctx, 0, new Set(), stops);
  // callers in view that the search cannot follow (a namespace import, a use other than a call):
  // one of them may catch it (probe of Next.js apps: a default-exported helper's route did)
  if (!found && stops.length) return `what parse() threw on a cut-off or filtered answer reaches callers the tool cannot follow (${stops[0]})`;
  if (!found) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `${found.catcher} took what parse() threw on a cut-off or filtered answer${through}`;
}

interface Catcher {
  catcher: string;
  /** The functions the error left on its way, innermost first. */
  through: string[];
  /** The catch clause, or the rejection handler, that takes the error. */
  handler: ts.CatchClause | ts.Expression;
}

/**
 * S-FAILED: a Chat stream's failure threw the SDK's APIError; the guard of a rewritten loop throws
 * a plain Error, and a helper stream's failure listener an Error the SDK wraps in an OpenAIError.
 * A handler in view that tells the SDK's errors apart (`instanceof APIError`, or reads `code`,
 * `type`, `param` or `error` of what it caught) would take another branch: the detail naming it.
 * `helper`: the failure comes from a helper stream (an OpenAIError, not an APIError).
 */
export function failureTellsApart(rejecting: ts.Node, ctx: ScanContext, helper: boolean): string | undefined {
  const stops: string[] = [];
  const found = catcherOf(rejecting, ctx, 0, new Set(), stops);
  const thrown = `(a failed Responses stream throws ${helper ? 'an OpenAIError, not an APIError' : 'a plain Error'} there)`;
  if (!found) {
    // callers in view the tool cannot follow (a generator's consumer, a handler a framework calls,
    // whose central error handler, bot.catch or app.onError, takes it): any test for the SDK's
    // errors may be the one. Nobody in view (a script's top level) lets it end the process.
    const beside = stops.length ? handedWithErrorHandler(rejecting, ctx, helper) : undefined;
    if (beside) return `a stream failure leaves for ${beside}, which tests for the SDK's errors ${thrown}`;
    const testing = stops.length ? sdkErrorTestIn(ctx, helper, rejecting) : undefined;
    return testing ? `a stream failure leaves for callers the tool cannot follow (${stops[0]}), while ${testing} tests for the SDK's errors ${thrown}` : undefined;
  }
  const how = handlerTellsApart(found.handler, ctx, helper, 0);
  if (!how) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `a stream failure caught by ${found.catcher}${through}, ${how} ${thrown}`;
}

/**
 * `withRetry(async () => { …stream… }, (err) => err.code === 'server_error')`, `pRetry(task, {
 * shouldRetry: (error) => … })`: the failing function is handed to a call (a retry, a queue) along
 * with a function that takes its error. That function, inline beside it, with an error-named first
 * parameter or under an error-handling option name, is judged like a catch (probe of retry wrappers).
 */
function handedWithErrorHandler(rejecting: ts.Node, ctx: ScanContext, helper: boolean): string | undefined {
  for (let fn = enclosingScope(rejecting); !ts.isSourceFile(fn); fn = enclosingScope(fn)) {
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) continue;
    const outer = climbWrappers(fn);
    const call = outer.parent;
    if (!ts.isCallExpression(call) || !call.arguments.includes(outer as ts.Expression)) continue;
    for (const arg of call.arguments) {
      if (arg === outer) continue;
      for (const { handler, what } of errorHandlersIn(arg)) {
        if (tellsSdkErrorsApart(handler, helper, ctx.checker)) return `${shortText(call.expression, 30)}(…), whose ${what} (${locationOf(ctx, handler)})`;
      }
    }
  }
  return undefined;
}

const ERROR_PARAMETER = /^(?:e|ex|err\w*|error\w*|exception|reason|failure)$/i;
const ERROR_OPTION = /retry|fail|error|catch|reject/i;

/** The functions an argument holds that take an error: itself, or an options object's error-handling members. */
function errorHandlersIn(arg: ts.Expression): { handler: ts.Expression | ts.MethodDeclaration; what: string }[] {
  const value = unwrap(arg);
  if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
    const first = value.parameters[0]?.name;
    return first && ts.isIdentifier(first) && ERROR_PARAMETER.test(first.text) ? [{ handler: value, what: `${first.text} => …` }] : [];
  }
  if (!ts.isObjectLiteralExpression(value)) return [];
  return value.properties.flatMap((p): { handler: ts.Expression | ts.MethodDeclaration; what: string }[] => {
    const key = p.name ? propertyNameText(p.name) : undefined;
    if (!key || !ERROR_OPTION.test(key)) return [];
    if (ts.isMethodDeclaration(p)) return [{ handler: p, what: key }];
    const fn = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : undefined;
    return fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) ? [{ handler: fn, what: key }] : [];
  });
}

/** A file of the run that tests for the SDK's error classes a Chat stream's failure had (relative path), if one does. */
function sdkErrorTestIn(ctx: ScanContext, helper: boolean, from?: ts.Node): string | undefined {
  const search = ctx.callerSearch;
  if (!search) return undefined;
  const classes = new Set([...SDK_ERROR_CLASSES].filter((name) => testsClass(name, helper)));
  const files = [...new Set([...classes].flatMap((name) => search.filesNaming(name)))];
  // the failing code's own file first: the test nearest to it
  const own = from && path.normalize(from.getSourceFile().fileName);
  const testing = [...files.filter((f) => path.normalize(f) === own), ...files].find((f) => {
    const text = search.textOf(f);
    return text !== undefined && testsSdkClassIn(ts.createSourceFile(f, text, ts.ScriptTarget.Latest, false), classes);
  });
  return testing && relativeFile(ctx.cwd, testing);
}

/**
 * `x instanceof APIError` in the file's code, the class the openai module's (`import { APIError }
 * from 'openai'`, `OpenAI.APIError`, `require('openai').APIError`): not a comment naming it (probe
 * of retry wrappers), not the project's own APIError (corpus: anything-llm's aibitat).
 */
function testsSdkClassIn(sf: ts.SourceFile, classes: ReadonlySet<string>): boolean {
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

/**
 * A request's API error (an HTTP 4xx) has the same class, status and code in both APIs, but not
 * the same words: a context overflow is "This model's maximum context length is … tokens" with
 * param 'messages' in Chat, "Your input exceeds the context window of this model" with param
 * 'input' in Responses (probe of retry wrappers; dyad-sh/dyad#1672). A handler in view that tests
 * the error's message text, or reads its `param`, would take another branch: the detail naming it.
 */
export function errorWordingCatcher(call: ts.CallExpression, ctx: ScanContext): string | undefined {
  const found = catcherOf(call, ctx, 0, new Set());
  if (!found) return undefined;
  const { caught, body } = handlerParts(found.handler, ctx.checker);
  if (!body || !caught || !testsWording(caught, body)) return undefined;
  const through = found.through.length ? `, through ${found.through.join(' and ')}` : '';
  return `an API error caught by ${found.catcher}${through}, which tests its message text or its param (the Responses API words its errors differently: a context overflow says "Your input exceeds the context window", param 'input')`;
}

/** `body` tests the text of the caught error's message (`err.message.includes(…)`, `err.error?.message === …`) or reads its `param`. */
function testsWording(caught: string, body: ts.Node): boolean {
  const names = new Set([caught]);
  return someNode(body, (n) => {
    if (!ts.isIdentifier(n) || !names.has(n.text) || isDeclarationName(n)) return false;
    const use = useOfCaught(n);
    if (typeof use === 'object') {
      names.add(use.alias);
      return false;
    }
    // the chain of fields read from the error: `err.param`, `err.error?.message`
    for (let at: ts.Node = climbWrappers(n); isAccess(at.parent) && at.parent.expression === at; at = climbWrappers(at.parent)) {
      const field = accessName(at.parent);
      if (field === 'param') return true;
      if (field === 'message' && fieldUse(at.parent, 'message')) return true;
    }
    return false;
  });
}

/**
 * How the handler comes to tell the SDK's errors apart, if it does: itself; a function of the
 * project it hands the error to (`report(err)`), by that function's parameter; the handler that
 * takes it when it rethrows it (`throw err`), a catch of a caller; or a function out of view it
 * hands the error to (`next(err)`, an Express error middleware) while the project tests for the
 * SDK's errors somewhere (probe of projects with SDK-mocking tests: each went unreported).
 */
function handlerTellsApart(handler: ts.CatchClause | ts.Expression, ctx: ScanContext, helper: boolean, depth: number): string | undefined {
  if (tellsSdkErrorsApart(handler, helper, ctx.checker)) return "which tests for the SDK's errors";
  const { caught, body } = handlerParts(handler, ctx.checker);
  return body && caught ? passedOnTellsApart(caught, body, ctx, helper, depth) : undefined;
}

/** Where `body` passes its error `caught` on (a rethrow, a function it hands it to), whether that tells the SDK's errors apart. */
function passedOnTellsApart(caught: string, body: ts.Node, ctx: ScanContext, helper: boolean, depth: number): string | undefined {
  if (depth >= MAX_HOPS) return undefined;
  const isCaught = (e: ts.Expression | undefined) => Boolean(e && ts.isIdentifier(unwrap(e)) && (unwrap(e) as ts.Identifier).text === caught);
  let how: string | undefined;
  walk(body, (n) => {
    if (how) return false;
    if (ts.isThrowStatement(n) && isCaught(n.expression)) {
      const stops: string[] = [];
      const next = catcherOf(n, ctx, 0, new Set(), stops);
      const inner = next && handlerTellsApart(next.handler, ctx, helper, depth + 1);
      if (next && inner) how = `which rethrows it to ${next.catcher}, ${inner}`;
      const testing = next || !stops.length ? undefined : sdkErrorTestIn(ctx, helper, n);
      if (testing) how = `which rethrows it to callers the tool cannot follow (${stops[0]}), while ${testing} tests for the SDK's errors`;
    }
    if (ts.isCallExpression(n) && !isConsoleCallee(n.expression) && !(ts.isIdentifier(n.expression) && TEXT_OF.has(n.expression.text))) {
      const index = n.arguments.findIndex((a) => isCaught(a));
      if (index < 0) return undefined;
      const callee = calledFunction(ctx.checker, n);
      const target = callee?.parameters[index]?.name;
      if (callee && target && ts.isIdentifier(target) && callee.body) {
        // the function tests it itself, or hands it on again (`isTransient(e)` → `isT(e)`)
        const inner = testsSdkErrors(target.text, callee.body, helper, ctx.checker) ? "which tests for the SDK's errors" : passedOnTellsApart(target.text, callee.body, ctx, helper, depth + 1);
        if (inner) how = `which hands it to ${describeFunction(ctx, callee)}, ${inner}`;
      } else if (!callee) {
        const testing = sdkErrorTestIn(ctx, helper);
        if (testing) how = `which hands it to ${shortText(n.expression, 30)}(…), out of view, while ${testing} tests for the SDK's errors`;
      }
    }
    return undefined;
  });
  return how;
}

/**
 * The SDK's error classes (openai 6 and 7, core/error.d.ts and the helpers' errors). A Chat stream's
 * failure was an APIError (a helper stream's too); a context overflow was a BadRequestError before
 * any event (HTTP 400), where Responses may accept the request and fail in the stream (probe:
 * dyad-sh/dyad#1672). The guard of a rewritten loop throws a plain Error, a helper stream's
 * listener an OpenAIError: a test for any of these classes may take another branch. Transport
 * errors and aborts (APIConnectionError, APIUserAbortError) are the same on both sides.
 */
const SDK_ERROR_CLASSES: ReadonlySet<string> = new Set([
  'OpenAIError', 'APIError', 'BadRequestError', 'AuthenticationError', 'PermissionDeniedError', 'NotFoundError', 'ConflictError',
  'UnprocessableEntityError', 'RateLimitError', 'InternalServerError', 'OAuthError',
]);
/** Classes a failure is an instance of on both sides: a helper stream's failure is an OpenAIError either way. */
const SAME_FOR_HELPER: ReadonlySet<string> = new Set(['OpenAIError']);

function testsClass(name: string, helper: boolean): boolean {
  return SDK_ERROR_CLASSES.has(name) && !(helper && SAME_FOR_HELPER.has(name));
}

/** `String(err)`: the error's text, the same for both. */
const TEXT_OF: ReadonlySet<string> = new Set(['String', 'Boolean']);
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
function handlerParts(handler: ts.CatchClause | ts.Expression | ts.MethodDeclaration, checker?: ts.TypeChecker): { caught?: string; pattern?: ts.BindingPattern; body?: ts.Node } {
  const named = (name: ts.BindingName | undefined) => (name && ts.isIdentifier(name) ? { caught: name.text } : name ? { pattern: name } : {});
  if (ts.isCatchClause(handler)) return { ...named(handler.variableDeclaration?.name), body: handler.block };
  let fn: ts.Node | undefined = ts.isMethodDeclaration(handler) ? handler : unwrap(handler);
  // `.catch(handleError)`: the function it names, in view
  if (checker && (ts.isIdentifier(fn) || ts.isPropertyAccessExpression(fn))) fn = namedFunction(checker, fn);
  if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) || !fn.body) return {};
  return { ...named(fn.parameters[0]?.name), body: fn.body };
}

function namedFunction(checker: ts.TypeChecker, e: ts.Identifier | ts.PropertyAccessExpression): ts.Node | undefined {
  const decl = symbolOf(checker, ts.isIdentifier(e) ? e : e.name)?.declarations?.[0];
  if (!decl || decl.getSourceFile().isDeclarationFile) return undefined;
  if (ts.isVariableDeclaration(decl) && decl.initializer) return unwrap(decl.initializer);
  return decl;
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
function testsSdkErrors(caught: string | undefined, body: ts.Node, helper: boolean, checker?: ts.TypeChecker): boolean {
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
function useOfCaught(id: ts.Identifier): boolean | { alias: string } {
  const outer = climbWrappers(id);
  const p = outer.parent;
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
  // wrapped in an error of the project's (`new LlmError('failed', err)`): its catcher may read the cause
  if (ts.isNewExpression(p)) return !(ts.isIdentifier(p.expression) && BUILTIN_ERRORS.has(p.expression.text) && p.arguments?.[0] === outer);
  // shown or passed on: judged by the caller (a call, a rethrow), or harmless (a condition, a text)
  if (ts.isCallExpression(p) || ts.isThrowStatement(p) || ts.isTemplateSpan(p) || ts.isIfStatement(p) ||
    ts.isPrefixUnaryExpression(p) || ts.isExpressionStatement(p) || ts.isConditionalExpression(p)) return false;
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    return !(op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken ||
      op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken);
  }
  // returned, stored in an object or an array, wrapped as a cause: whoever reads it may test it
  return true;
}

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
  if (field !== 'message') return false;
  const outer = climbWrappers(access);
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

/**
 * Stops with no caller in view (a framework's, another package's, the browser's): as before, an
 * uncaught throw keeps the H-PARSE note. Any other stop has callers in view that cannot be
 * followed, and parseErrorCatcher reports it.
 */
const NOBODY_IN_VIEW = /has no caller in view|is decorated: a framework may call it|is a server action|exported from a published package|outside the paths given/;

function catcherOf(rejecting: ts.Node, ctx: ScanContext, hops: number, seen: Set<ts.Node>, stops?: string[]): Catcher | undefined {
  const handler = ts.isExpression(rejecting) ? rejectionHandler(rejecting) : undefined;
  if (handler) {
    if (ts.isSourceFile(enclosingScope(handler.link)) && isLastResort(handler.onRejected)) return undefined;
    return { catcher: `the ${handler.name} at ${locationOf(ctx, handler.link)}`, through: [], handler: handler.onRejected };
  }
  const guarded = enclosingTry(rejecting, true);
  if (guarded) {
    if (ts.isSourceFile(enclosingScope(guarded)) && isLastResort(guarded.catchClause!.block)) return undefined;
    return { catcher: `the catch at ${locationOf(ctx, guarded.catchClause!)}`, through: [], handler: guarded.catchClause! };
  }
  // the error leaves the function: whoever calls it gets it
  const fn = enclosingScope(rejecting);
  // `await Promise.all(items.map(async (x) => …))`: the callback's rejection is Promise.all's
  const all = fn && isFollowedFunction(fn) ? promiseAllOfCallback(ctx.checker, fn) : undefined;
  if (all && !seen.has(fn) && hops < MAX_HOPS) {
    seen.add(fn);
    return catcherOf(all, ctx, hops + 1, seen, stops);
  }
  if (!isFollowedFunction(fn) || seen.has(fn) || hops >= MAX_HOPS) return undefined;
  seen.add(fn);
  // `(async () => { … })().catch(handleError)`: the function is called where it is written
  const iife = immediateCall(fn);
  if (iife) return catcherOf(iife, ctx, hops + 1, seen, stops);
  const callers = callersOf(fn, ctx, ctx.callerSearch);
  if ('stop' in callers) {
    if (!NOBODY_IN_VIEW.test(callers.stop)) stops?.push(callers.stop);
    return undefined;
  }
  for (const caller of callers.calls) {
    const found = catcherOf(caller, ctx, hops + 1, seen, stops);
    if (found) return { ...found, through: [describeFunction(ctx, fn), ...found.through] };
  }
  return undefined;
}

/** The call that runs a function expression where it is written (`(async () => …)()`), if it is one. */
function immediateCall(fn: ts.Node): ts.CallExpression | undefined {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  const outer = climbWrappers(fn);
  return ts.isCallExpression(outer.parent) && outer.parent.expression === outer ? outer.parent : undefined;
}

/** `.catch(h)` or `.then(f, h)` on the promise, past any `.finally(f)` (which passes a rejection on). */
function rejectionHandler(promise: ts.Expression): { link: ts.CallExpression; name: string; onRejected: ts.Expression } | undefined {
  let handler = handlerOn(promise);
  while (handler?.kind === 'finally') handler = handlerOn(handler.link);
  if (!handler?.onRejected) return undefined;
  return { link: handler.link, name: handler.kind === 'then' ? '.then(…, onRejected)' : '.catch(…)', onRejected: handler.onRejected };
}

/**
 * A handler that only reports and ends: `console.error` itself, or a function (or catch block)
 * whose statements only call console methods or process.exit, set process.exitCode, or rethrow.
 */
function isLastResort(handler: ts.Node): boolean {
  const h = ts.isExpression(handler) ? unwrap(handler) : handler;
  if (ts.isPropertyAccessExpression(h)) return isConsoleCallee(h);
  if (ts.isArrowFunction(h) || ts.isFunctionExpression(h)) {
    return ts.isBlock(h.body) ? isLastResort(h.body) : reportsOrEnds(h.body);
  }
  if (ts.isBlock(h)) {
    return h.statements.every((st) => ts.isThrowStatement(st) || (ts.isExpressionStatement(st) && reportsOrEnds(st.expression)));
  }
  return false;
}

function reportsOrEnds(e: ts.Expression): boolean {
  if (ts.isCallExpression(e)) return isConsoleCallee(e.expression) || (ts.isPropertyAccessExpression(e.expression) && isProcess(e.expression, 'exit'));
  return ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(e.left) && isProcess(e.left, 'exitCode');
}

function isProcess(e: ts.PropertyAccessExpression, member: string): boolean {
  return ts.isIdentifier(e.expression) && e.expression.text === 'process' && e.name.text === member;
}
