/**
 * Finding call sites (docs/migration-spec.md §1.1): SDK calls of `chat.completions.<method>` however the
 * chain is spelled, raw HTTP requests to `/chat/completions`, and openai v3 `createChatCompletion`.
 * Look-alikes (N01–N10) are not sites: legacy completions, strings and comments (never parsed as
 * code), mocks and assertions, feature detection, other libraries' clients.
 */
import {
  ts, unwrap, stringValue, accessName, accessNameNode, isAccess, propertyNameText, propertyValue, walk, startOf, isFunctionLike, returnExpressions,
} from './ast.js';
import { bindingOfExpression, declarationOf, sdkClassOf, type BindingScope } from './bindings.js';

export const SDK_METHODS = new Set(['create', 'parse', 'stream', 'runTools', 'runFunctions']);

export type FoundSite =
  | {
      kind: 'sdk';
      /** The call; for a detached method (`const create = client.chat.completions.create`) the access. */
      call: ts.CallExpression | ts.Expression;
      /** False when the method is not called directly (`.call`, `.bind`, aliases): nothing to analyse. */
      direct: boolean;
      /** The method-name token (`create`…): the reported position. */
      methodToken: ts.Node;
      method: string;
      beta: boolean;
      /** The client expression, when the chain reaches one (`X` in `X.chat.completions.create`). */
      receiver?: ts.Expression;
      /** `chat.completions.create` on a local `const chat = client.chat`: the chat identifier. */
      chatAlias?: ts.Identifier;
      /** Why the receiver cannot be followed (indirect call, chat resource from elsewhere). */
      receiverProblem?: string;
      /** The callee range to rewrite (`X.chat.completions.create`). */
      callee: ts.Expression;
    }
  | { kind: 'http'; call: ts.CallExpression; methodToken: ts.Node; body?: ts.ObjectLiteralExpression }
  | { kind: 'v3'; call: ts.CallExpression; methodToken: ts.Node };

export interface FileFindings {
  sites: FoundSite[];
  /** Test doubles of chat.completions seen in the file (N04). */
  mocks: ts.Node[];
}

export function findSites(sf: ts.SourceFile, scope: BindingScope): FileFindings {
  const sites: FoundSite[] = [];
  const mocks: ts.Node[] = [];
  const quick = sf.text;
  const mayHaveSdk = quick.includes('completions');
  const mayHaveHttp = quick.includes('chat/completions');
  const mayHaveV3 = quick.includes('createChatCompletion');
  walk(sf, (node) => {
    if (ts.isCallExpression(node)) {
      if (mayHaveSdk) {
        const sdk = sdkCall(node, scope);
        if (sdk) sites.push(sdk);
      }
      if (mayHaveHttp) {
        const http = httpCall(node, scope);
        if (http) sites.push(http);
      }
      if (mayHaveV3) {
        const v3 = v3Call(node, scope);
        if (v3) sites.push(v3);
      }
      if (mayHaveSdk && isMockCall(node)) mocks.push(node);
    }
    if (mayHaveSdk && isAccess(node) && SDK_METHODS.has(accessName(node) ?? '')) {
      const indirect = indirectUse(node, scope);
      if (indirect === 'mock') mocks.push(node);
      else if (indirect) sites.push(indirect);
    }
  });
  return { sites, mocks };
}

/** `….chat.completions.create(…)` / `.parse(…)` however the chain is spelled: a call the scanner lists. */
export function isChatCompletionsCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node)) return false;
  const chain = chainOf(node.expression);
  const method = chain && accessName(unwrap(node.expression) as ts.PropertyAccessExpression | ts.ElementAccessExpression);
  return Boolean(chain && (method === 'create' || method === 'parse'));
}

interface Chain {
  completions: ts.Expression;
  chatHolder: ts.Expression;
}

/** `<x>.completions.<m>` where `<x>` is `<client>.chat` or `<client>.beta.chat` or a chat resource. */
function chainOf(callee: ts.Expression): Chain | undefined {
  const c = unwrap(callee);
  if (!isAccess(c) || !SDK_METHODS.has(accessName(c) ?? '')) return undefined;
  const completions = unwrap(c.expression);
  if (!isAccess(completions) || accessName(completions) !== 'completions') return undefined;
  return { completions, chatHolder: unwrap(completions.expression) };
}

function sdkCall(call: ts.CallExpression, scope: BindingScope): FoundSite | undefined {
  const callee = call.expression;
  const chain = chainOf(callee);
  if (!chain) return undefined;
  const c = unwrap(callee) as ts.PropertyAccessExpression | ts.ElementAccessExpression;
  const method = accessName(c)!;
  const methodToken = accessNameNode(c);
  const holder = chain.chatHolder;
  if (isAccess(holder) && accessName(holder) === 'chat') {
    const below = unwrap(holder.expression);
    const beta = isAccess(below) && accessName(below) === 'beta';
    const receiver = beta ? unwrap((below as ts.PropertyAccessExpression).expression) : below;
    if (method === 'runFunctions' && !beta) return undefined;
    return { kind: 'sdk', call, direct: true, methodToken, method, beta, receiver, callee: c };
  }
  if (method !== 'create' && method !== 'parse' && method !== 'stream' && method !== 'runTools') return undefined;
  // `chat.completions.create(…)` on a chat resource held in a variable
  if (ts.isIdentifier(holder)) {
    const decl = declarationOf(scope.checker, holder);
    const client = decl && chatResourceClient(decl);
    if (client) return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiver: client, chatAlias: holder, callee: c };
    if (/chat/i.test(holder.text) || hasMessages(call)) {
      return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiverProblem: `the chat resource ${holder.text} comes from elsewhere`, callee: c };
    }
    return undefined; // `client.completions.create`: legacy completions (N01)
  }
  if (hasMessages(call) && !(isAccess(holder) || ts.isNewExpression(holder))) {
    return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiverProblem: 'the chat resource is returned by a call', callee: c };
  }
  if (hasMessages(call) && isAccess(holder) && /chat/i.test(accessName(holder) ?? '')) {
    return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiverProblem: `the chat resource ${holder.getText()} comes from elsewhere`, callee: c };
  }
  return undefined;
}

/** `const chat = client.chat` or `const { chat } = client` in view: the client expression. */
function chatResourceClient(decl: ts.Declaration): ts.Expression | undefined {
  if (ts.isVariableDeclaration(decl) && decl.initializer && decl.parent.flags & ts.NodeFlags.Const) {
    const init = unwrap(decl.initializer);
    if (isAccess(init) && accessName(init) === 'chat') return unwrap(init.expression);
  }
  if (ts.isBindingElement(decl) && ts.isObjectBindingPattern(decl.parent)) {
    const key = propertyNameText(decl.propertyName ?? (ts.isIdentifier(decl.name) ? decl.name : undefined));
    const holder = decl.parent.parent;
    if (key === 'chat' && ts.isVariableDeclaration(holder) && holder.initializer) return unwrap(holder.initializer);
  }
  return undefined;
}

function hasMessages(call: ts.CallExpression): boolean {
  const arg = call.arguments[0] && unwrap(call.arguments[0]);
  return Boolean(arg && ts.isObjectLiteralExpression(arg) && arg.properties.some((p) => propertyNameText(p.name) === 'messages'));
}

/**
 * A chat method referenced without being called: `.call/.apply/.bind` and aliases are sites
 * (receiver-not-client); mocks, spies, assertions and `typeof` checks are not.
 */
function indirectUse(access: ts.PropertyAccessExpression | ts.ElementAccessExpression, _scope: BindingScope): FoundSite | 'mock' | undefined {
  const chain = chainOf(access);
  if (!chain) return undefined;
  const holder = chain.chatHolder;
  if (!(isAccess(holder) && accessName(holder) === 'chat')) return undefined;
  let outer: ts.Node = access;
  while (ts.isParenthesizedExpression(outer.parent) || ts.isNonNullExpression(outer.parent)) outer = outer.parent;
  const parent = outer.parent;
  if (ts.isCallExpression(parent) && parent.expression === outer) return undefined; // a direct call
  const method = accessName(access)!;
  const below = unwrap(holder.expression);
  const beta = isAccess(below) && accessName(below) === 'beta';
  const site = (node: ts.Expression, problem: string): FoundSite =>
    ({ kind: 'sdk', call: node, direct: false, methodToken: accessNameNode(access), method, beta, receiverProblem: problem, callee: access });
  if (isAccess(parent) && parent.expression === outer) {
    const name = accessName(parent);
    const call = parent.parent;
    if ((name === 'call' || name === 'apply' || name === 'bind') && ts.isCallExpression(call) && call.expression === parent) {
      return site(call, `the method is called indirectly through .${name}()`);
    }
    return 'mock'; // create.mockResolvedValue(…), create.mock.calls…
  }
  if (ts.isVariableDeclaration(parent) && parent.initializer === outer) {
    return site(access, 'the method is detached from its client');
  }
  if (ts.isTypeOfExpression(parent)) return undefined; // feature detection (N06)
  return 'mock'; // expect(create), vi.mocked(create)…
}

/** `vi.spyOn(client.chat.completions, 'create')`, `jest.spyOn(…)`: test doubles of the API. */
function isMockCall(node: ts.Node): boolean {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'spyOn') return false;
  const target = node.arguments[0];
  return Boolean(target && isAccess(unwrap(target)) && accessName(unwrap(target) as ts.PropertyAccessExpression) === 'completions');
}

// ---- raw HTTP (A-HTTP) -----------------------------------------------------------------------

const HTTP_MODULES = new Set(['axios', 'got', 'ky', 'undici', 'node-fetch', 'cross-fetch', 'isomorphic-fetch', 'https', 'http', 'node:https', 'node:http', 'superagent', 'ofetch']);
const HTTP_METHODS = new Set(['post', 'request', 'put', 'get', 'fetch', 'stream', 'open']);

function httpCall(call: ts.CallExpression, scope: BindingScope): FoundSite | undefined {
  const callee = unwrap(call.expression);
  const urlArg = call.arguments[0];
  let token: ts.Node | undefined;
  if (ts.isIdentifier(callee)) {
    if (!isHttpFunction(callee, scope)) return undefined;
    token = callee;
  } else if (ts.isPropertyAccessExpression(callee) && HTTP_METHODS.has(callee.name.text)) {
    const object = unwrap(callee.expression);
    if (callee.name.text === 'open') {
      // xhr.open('POST', url)
      if (call.arguments.length < 2 || !urlEndsWithChat(call.arguments[1], scope)) return undefined;
      return { kind: 'http', call, methodToken: callee.name, body: undefined };
    }
    const isClient = isHttpClient(object, scope) || (ts.isIdentifier(object) && (object.text === 'globalThis' || object.text === 'window') && callee.name.text === 'fetch');
    if (!isClient) return undefined;
    token = callee.name;
  } else {
    return undefined;
  }
  const config = urlArg && unwrap(urlArg);
  const url = config && ts.isObjectLiteralExpression(config)
    ? propertyValue(config.properties.find((p) => ['url', 'path'].includes(propertyNameText(p.name) ?? '')))
    : urlArg;
  if (!url || !urlEndsWithChat(url, scope)) return undefined;
  return { kind: 'http', call, methodToken: token, body: requestBody(call) };
}

/** `fetch` (global or imported from a fetch package), `axios(…)`, `got(…)`, `ky(…)`. */
function isHttpFunction(id: ts.Identifier, scope: BindingScope): boolean {
  const decl = declarationOf(scope.checker, id);
  // the global fetch: undeclared without lib files, declared by lib.dom / @types/node with them
  if (!decl || decl.getSourceFile().isDeclarationFile) return id.text === 'fetch';
  const binding = bindingOfExpression(scope, id);
  return Boolean(binding && HTTP_MODULES.has(binding.module));
}

/** An object bound to an HTTP library (`axios`, an `axios.create()` instance, `https`…). */
function isHttpClient(object: ts.Expression, scope: BindingScope): boolean {
  const binding = bindingOfExpression(scope, object);
  if (binding && HTTP_MODULES.has(binding.module)) return true;
  if (ts.isIdentifier(object)) {
    const decl = declarationOf(scope.checker, object);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) {
      const init = unwrap(decl.initializer);
      if (ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression) && init.expression.name.text === 'create') {
        const b = bindingOfExpression(scope, init.expression.expression);
        return Boolean(b && HTTP_MODULES.has(b.module));
      }
    }
  }
  return false;
}

const CHAT_PATH = /\/chat\/completions\/?(\?.*)?$/;

/** The URL's static text ends with `/chat/completions`: a literal, a template, a concatenation, a const. */
function urlEndsWithChat(expression: ts.Expression, scope: BindingScope, depth = 0): boolean {
  const e = unwrap(expression);
  const literal = stringValue(e);
  if (literal !== undefined) return CHAT_PATH.test(literal);
  if (ts.isTemplateExpression(e)) return CHAT_PATH.test(e.templateSpans[e.templateSpans.length - 1].literal.text);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return urlEndsWithChat(e.right, scope, depth + 1);
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'URL' && e.arguments?.[0]) {
    return urlEndsWithChat(e.arguments[0], scope, depth + 1);
  }
  if (ts.isIdentifier(e) && depth < 4) {
    const decl = declarationOf(scope.checker, e);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer && decl.parent.flags & ts.NodeFlags.Const) {
      return urlEndsWithChat(decl.initializer, scope, depth + 1);
    }
  }
  return false;
}

/** The request body object when it is visible: `body: JSON.stringify({…})` or axios' `data`. */
function requestBody(call: ts.CallExpression): ts.ObjectLiteralExpression | undefined {
  for (const arg of call.arguments) {
    const a = unwrap(arg);
    if (ts.isObjectLiteralExpression(a)) {
      const body = propertyValue(a.properties.find((p) => ['body', 'data', 'json'].includes(propertyNameText(p.name) ?? '')));
      const found = body && bodyObject(body);
      if (found) return found;
      if (a.properties.some((p) => propertyNameText(p.name) === 'messages')) return a;
    }
  }
  return undefined;
}

function bodyObject(e: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const v = unwrap(e);
  if (ts.isObjectLiteralExpression(v)) return v;
  if (ts.isCallExpression(v) && v.arguments[0] && v.expression.getText() === 'JSON.stringify') {
    const inner = unwrap(v.arguments[0]);
    return ts.isObjectLiteralExpression(inner) ? inner : undefined;
  }
  return undefined;
}

// ---- openai v3 (A-V3) ------------------------------------------------------------------------

function v3Call(call: ts.CallExpression, scope: BindingScope): FoundSite | undefined {
  const callee = unwrap(call.expression);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'createChatCompletion') return undefined;
  if (!isV3Client(unwrap(callee.expression), scope, 0)) return undefined;
  return { kind: 'v3', call, methodToken: callee.name };
}

function isV3Client(e: ts.Expression, scope: BindingScope, depth: number): boolean {
  if (depth > 6) return false;
  if (ts.isNewExpression(e)) return sdkClassOf(bindingOfExpression(scope, e.expression)) === 'v3';
  if (ts.isAwaitExpression(e)) return isV3Client(unwrap(e.expression), scope, depth + 1);
  // a factory: `function getApi() { return new OpenAIApi(…) }`
  if (ts.isCallExpression(e)) return functionsCalled(scope.checker, e).some((fn) => returnExpressions(fn).some((r) => isV3Client(unwrap(r), scope, depth + 1)));
  if (ts.isIdentifier(e)) {
    const decl = declarationOf(scope.checker, e);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return isV3Client(unwrap(decl.initializer), scope, depth + 1);
    if (decl && ts.isParameter(decl) && decl.type) return /\bOpenAIApi\b/.test(decl.type.getText());
  }
  if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
    // this.openai = new OpenAIApi(…) somewhere in the class
    const cls = e.getSourceFile();
    let found = false;
    walk(cls, (n) => {
      if (ts.isBinaryExpression(n) && ts.isPropertyAccessExpression(n.left) && n.left.name.text === e.name.text && ts.isNewExpression(unwrap(n.right))) {
        if (sdkClassOf(bindingOfExpression(scope, (unwrap(n.right) as ts.NewExpression).expression)) === 'v3') found = true;
      }
      if (ts.isPropertyDeclaration(n) && propertyNameText(n.name) === e.name.text && n.initializer && ts.isNewExpression(unwrap(n.initializer))) {
        if (sdkClassOf(bindingOfExpression(scope, (unwrap(n.initializer) as ts.NewExpression).expression)) === 'v3') found = true;
      }
    });
    return found;
  }
  return false;
}

/** The project function declarations a call may run (a function, a const arrow, a method). */
function functionsCalled(checker: ts.TypeChecker, call: ts.CallExpression): ts.FunctionLikeDeclaration[] {
  const callee = unwrap(call.expression);
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
  let symbol = name && checker.getSymbolAtLocation(name);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return (symbol?.declarations ?? []).flatMap((d): ts.FunctionLikeDeclaration[] => {
    if (isFunctionLike(d) && (d as ts.FunctionLikeDeclaration).body) return [d as ts.FunctionLikeDeclaration];
    if (ts.isVariableDeclaration(d) && d.initializer && isFunctionLike(unwrap(d.initializer))) return [unwrap(d.initializer) as ts.FunctionLikeDeclaration];
    return [];
  });
}

export { startOf };
