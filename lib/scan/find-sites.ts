/**
 * Finding call sites (docs/migration-spec.md §1.1): SDK calls of `chat.completions.<method>` however
 * the chain is spelled, raw HTTP requests to `/chat/completions` (lib/scan/http.ts), batches of
 * Chat Completions requests (lib/scan/batches.ts), and openai v3 `createChatCompletion`.
 * Look-alikes (N01–N10) are not sites: legacy completions, strings and comments (never parsed as
 * code), mocks and assertions, feature detection, other libraries' clients.
 */
import {
  ts, isTypeAssertion, unwrap, accessName, accessNameNode, isAccess, propertyNameText, walk, startOf, isFunctionLike, returnExpressions, climbWrappers, shortText,
} from './ast.js';
import { aliasTarget, bindingOfExpression, declarationOf, sdkClassOf, type BindingScope } from './bindings.js';
import { requiredExports } from './commonjs.js';
import { TEST_FILE } from './writes.js';
import { httpCall, isRequestMock, type HttpSite } from './http.js';
import { batchCall, type BatchSite } from './batches.js';

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
      /**
       * An exported `const x = client.chat.completions`: the declaration a call goes through
       * (`x.create(…)`, here or in a module importing it), or the one a hand-out site lists.
       */
      exportedResource?: ts.VariableDeclaration;
      /** Why the receiver cannot be followed (indirect call, chat resource from elsewhere). */
      receiverProblem?: string;
      /** The callee range to rewrite (`X.chat.completions.create`). */
      callee: ts.Expression;
    }
  | HttpSite
  | BatchSite
  | { kind: 'v3'; call: ts.CallExpression; methodToken: ts.Node };

export interface FileFindings {
  sites: FoundSite[];
  /** Test doubles of chat.completions seen in the file (N04). */
  mocks: ts.Node[];
}

/**
 * `endpointImported`: the file imports a module that exports the Chat Completions endpoint
 * (lib/scan/endpoint-importers.ts), so its raw HTTP requests are looked for although its own text
 * never spells `chat/completions`. `resourceImported`: it imports a module that exports a
 * completions resource, so its `x.create(…)` calls are looked for although it never spells `completions`.
 */
export function findSites(sf: ts.SourceFile, scope: BindingScope, endpointImported = false, resourceImported = false): FileFindings {
  const sites: FoundSite[] = [];
  const mocks: ts.Node[] = [];
  const quick = sf.text;
  const mayHaveSdk = resourceImported || quick.includes('completions');
  const mayHaveHttp = endpointImported || quick.includes('chat/completions');
  const mayHaveV3 = quick.includes('createChatCompletion');
  const mayHaveBatch = quick.includes('batches');
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
      if (mayHaveBatch) {
        const batch = batchCall(node, scope);
        if (batch) sites.push(batch);
      }
      if (mayHaveSdk && isMockCall(node)) mocks.push(node);
      if (mayHaveHttp && isRequestMock(node, scope)) mocks.push(node);
    }
    if (mayHaveSdk && ts.isObjectLiteralExpression(node) && isChatDouble(node)) mocks.push(node);
    if (mayHaveSdk && ts.isBindingElement(node)) {
      const detached = destructuredMethod(node);
      if (detached) sites.push(detached);
    }
    if (mayHaveSdk && isAccess(node) && SDK_METHODS.has(accessName(node) ?? '')) {
      const indirect = indirectUse(node, scope);
      if (indirect === 'mock') mocks.push(node);
      else if (indirect) sites.push(indirect);
    }
    if (mayHaveSdk && isAccess(node) && accessName(node) === 'completions') {
      const handedOut = handedOutResource(node);
      if (handedOut) sites.push(handedOut);
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

export interface Chain {
  completions: ts.Expression;
  chatHolder: ts.Expression;
}

/** `<x>.completions.<m>` where `<x>` is `<client>.chat` or `<client>.beta.chat` or a chat resource. */
export function chainOf(callee: ts.Expression): Chain | undefined {
  const c = unwrap(callee);
  if (!isAccess(c) || !SDK_METHODS.has(accessName(c) ?? '')) return undefined;
  const completions = unwrap(c.expression);
  if (!isAccess(completions) || accessName(completions) !== 'completions') return undefined;
  return { completions, chatHolder: unwrap(completions.expression) };
}

function sdkCall(call: ts.CallExpression, scope: BindingScope): FoundSite | undefined {
  const callee = call.expression;
  const chain = chainOf(callee);
  if (!chain) return completionsAliasCall(call, scope);
  const c = unwrap(callee) as ts.PropertyAccessExpression | ts.ElementAccessExpression;
  const method = accessName(c)!;
  const methodToken = accessNameNode(c);
  const holder = chain.chatHolder;
  if (isAccess(holder) && accessName(holder) === 'chat') {
    const { beta, receiver } = underChat(holder);
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
  if (hasMessages(call) && holder.kind === ts.SyntaxKind.ThisKeyword) {
    return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiverProblem: `the completions resource is held in ${chain.completions.getText()}`, callee: c };
  }
  if (hasMessages(call) && !(isAccess(holder) || ts.isNewExpression(holder))) {
    return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiverProblem: 'the chat resource is returned by a call', callee: c };
  }
  if (hasMessages(call) && isAccess(holder) && /chat/i.test(accessName(holder) ?? '')) {
    return { kind: 'sdk', call, direct: true, methodToken, method, beta: false, receiverProblem: `the chat resource ${holder.getText()} comes from elsewhere`, callee: c };
  }
  return undefined;
}

/**
 * `completions.create(…)` on a completions resource held in a variable: `const completions =
 * client.chat.completions` or `const { completions } = client.chat`. Rewritten like a chat alias
 * (`client.responses.create`); `beta.chat` and anything else held that way is listed, not followed.
 */
function completionsAliasCall(call: ts.CallExpression, scope: BindingScope): FoundSite | undefined {
  const c = unwrap(call.expression);
  if (!isAccess(c) || !SDK_METHODS.has(accessName(c) ?? '')) return undefined;
  const holder = unwrap(c.expression);
  if (!ts.isIdentifier(holder)) return undefined;
  const own = declarationOf(scope.checker, holder);
  // `import { chat } from './openai'`: the const the import names, in its module
  const decl = own && (ts.isImportSpecifier(own) ? aliasTarget(scope.checker, own) : own);
  const chat = decl && completionsResourceChat(decl);
  if (!chat) return undefined;
  const method = accessName(c)!;
  const site = { kind: 'sdk' as const, call, direct: true, methodToken: accessNameNode(c), method, beta: false, callee: c };
  if (isAccess(chat) && accessName(chat) === 'chat') {
    const { beta, receiver } = underChat(chat);
    if (beta) return { ...site, beta: true, receiverProblem: `the completions resource ${holder.text} is held in a variable` };
    if (method === 'runFunctions') return undefined;
    if (method === 'runTools') return { ...site, receiver };
    const exported = exportedResourceConst(decl);
    if (exported) return { ...site, receiver, exportedResource: exported };
    if (decl !== own) return { ...site, receiverProblem: `the completions resource ${holder.text} comes from another module` };
    return { ...site, receiver, chatAlias: holder };
  }
  // `const completions = openai.completions` is legacy completions (N01) unless the call says chat
  if (!hasMessages(call) && !(isAccess(chat) && /chat/i.test(accessName(chat) ?? '')) && !(ts.isIdentifier(chat) && /chat/i.test(chat.text))) return undefined;
  return { ...site, receiverProblem: `the completions resource ${holder.text} comes from elsewhere` };
}

/** What a `<x>.chat` access hangs from: the client, and whether the chain went through `beta` (`client.beta.chat`). */
function underChat(chat: ts.PropertyAccessExpression | ts.ElementAccessExpression): { beta: boolean; receiver: ts.Expression } {
  const below = unwrap(chat.expression);
  const beta = isAccess(below) && accessName(below) === 'beta';
  return { beta, receiver: beta ? unwrap((below as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression) : below };
}

/**
 * The names a module exports completions resources under (exportedResourceConst): the calls made
 * through them (`chat.create(…)`) are in its importers, which need never spell `completions`.
 */
export function exportedCompletionsResources(sf: ts.SourceFile): string[] {
  if (!sf.text.includes('completions')) return [];
  return sf.statements.flatMap((statement) => (ts.isVariableStatement(statement)
    ? statement.declarationList.declarations.filter((d) => exportedResourceConst(d)).map((d) => (d.name as ts.Identifier).text)
    : []));
}

/** `export const x = <client>.chat.completions` (a module-level const, named, exported in its statement). */
function exportedResourceConst(decl: ts.Declaration): ts.VariableDeclaration | undefined {
  if (!ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !ts.isVariableStatement(decl.parent.parent)) return undefined;
  const statement = decl.parent.parent;
  if (!ts.isSourceFile(statement.parent) || !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return undefined;
  return heldResource(decl, 'completions') ? decl : undefined;
}

/** `const x = <chat>.completions` or `const { completions } = <chat>`: the `<chat>` expression. */
function completionsResourceChat(decl: ts.Declaration): ts.Expression | undefined {
  return heldResource(decl, 'completions');
}

/** `const chat = client.chat` or `const { chat } = client` in view: the client expression. */
function chatResourceClient(decl: ts.Declaration): ts.Expression | undefined {
  return heldResource(decl, 'chat');
}

/** A resource held in a const: `const x = <holder>.<key>` or `const { <key> } = <holder>`; the holder. */
function heldResource(decl: ts.Declaration, key: string): ts.Expression | undefined {
  if (ts.isVariableDeclaration(decl) && decl.initializer && decl.parent.flags & ts.NodeFlags.Const) {
    const init = unwrap(decl.initializer);
    if (isAccess(init) && accessName(init) === key) return unwrap(init.expression);
  }
  if (ts.isBindingElement(decl) && ts.isObjectBindingPattern(decl.parent)) {
    const name = propertyNameText(decl.propertyName ?? (ts.isIdentifier(decl.name) ? decl.name : undefined));
    const holder = decl.parent.parent;
    if (name === key && ts.isVariableDeclaration(holder) && holder.initializer && holder.parent.flags & ts.NodeFlags.Const) return unwrap(holder.initializer);
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
  // `(client.chat.completions.create as any)(…)` is a direct call too (AstraLink's providers)
  while (ts.isParenthesizedExpression(outer.parent) || ts.isNonNullExpression(outer.parent) || isTypeAssertion(outer.parent)) outer = outer.parent;
  const parent = outer.parent;
  if (ts.isCallExpression(parent) && parent.expression === outer) return undefined; // a direct call
  const method = accessName(access)!;
  const { beta } = underChat(holder);
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
    // `const mockCreate = mockInstance.chat.completions.create; mockCreate.mockRejectedValueOnce(…)`
    if (ts.isIdentifier(parent.name) && onlyMocked(parent.name)) return 'mock';
    return site(access, 'the method is detached from its client');
  }
  if (ts.isTypeOfExpression(parent)) return undefined; // feature detection (N06)
  return 'mock'; // expect(create), vi.mocked(create)…
}

/**
 * A name whose every use in its file is a mock's (`name.mockResolvedValue(…)`, `name.mock.calls`,
 * `expect(name)`), in a test or mock module: a test's handle on a mocked method (N04), not a call.
 */
function onlyMocked(name: ts.Identifier): boolean {
  const sf = name.getSourceFile();
  if (!TEST_FILE.test(sf.fileName) && !MOCK_MODULE.test(sf.fileName)) return false;
  let uses = 0;
  let other = false;
  walk(sf, (n) => {
    if (other || !ts.isIdentifier(n) || n === name || n.text !== name.text) return undefined;
    uses++;
    const p = n.parent;
    if (isAccess(p) && p.expression === n && /^mock/.test(accessName(p) ?? '')) return undefined;
    if (ts.isCallExpression(p) && p.arguments.includes(n)) {
      const callee = unwrap(p.expression);
      const called = isAccess(callee) ? accessName(callee) : ts.isIdentifier(callee) ? callee.text : undefined;
      if (called && OBSERVERS.test(called)) return undefined;
    }
    other = true;
    return undefined;
  });
  return uses > 0 && !other;
}

/** Calls that only observe a value: test doubles and assertions (`vi.spyOn(x, 'create')`, `expect(x)`). */
const OBSERVERS = /^(spyOn|mocked|expect|stub|mock|assert|Boolean$)/i;

/**
 * `<client>.chat.completions` handed out as a value (returned, put in an object, passed, stored
 * in a field or a `let`): the calls made through it do not spell `chat.completions`, so they
 * would be found nowhere. The resource is listed as a site (receiver-not-client, §1.1 A-CREATE)
 * at the place it leaves, with the client it comes from. A `const` holding it is followed by
 * completionsAliasCall; a continued chain (`.create(…)`), a test double and a feature check are not sites.
 */
function handedOutResource(access: ts.PropertyAccessExpression | ts.ElementAccessExpression): FoundSite | undefined {
  const chat = unwrap(access.expression);
  if (!isAccess(chat) || accessName(chat) !== 'chat') return undefined;
  const { beta, receiver } = underChat(chat);
  let outer: ts.Node = climbWrappers(access);
  while (ts.isAwaitExpression(outer.parent) || (ts.isConditionalExpression(outer.parent) && outer.parent.condition !== outer)) outer = climbWrappers(outer.parent);
  const parent = outer.parent;
  const how = handOutOf(outer, parent);
  if (!how) return undefined;
  const exported = !beta && ts.isVariableDeclaration(parent) ? exportedResourceConst(parent) : undefined;
  return {
    kind: 'sdk', call: access, direct: false, methodToken: accessNameNode(access), method: 'create', beta, receiver,
    receiverProblem: `the completions resource is handed out (${how}); the calls made through it are not followed`, callee: access,
    ...(exported ? { exportedResource: exported } : {}),
  };
}

/** How a value leaves: `return`, `property <name>`, `argument of <f>`, `assigned to <x>`…; undefined when it does not. */
function handOutOf(value: ts.Node, parent: ts.Node): string | undefined {
  if (ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === value)) return 'returned';
  if (ts.isPropertyAssignment(parent) && parent.initializer === value) return `property ${parent.name.getText()}`;
  if (ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent)) return 'in an array';
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.some((a) => a === value)) {
    const callee = unwrap(parent.expression);
    const name = isAccess(callee) ? accessName(callee) : ts.isIdentifier(callee) ? callee.text : undefined;
    if (name && OBSERVERS.test(name)) return undefined;
    // `create.call(client.chat.completions, params)`: the this-argument of a method the scanner lists already
    if (parent.arguments?.[0] === value && (name === 'call' || name === 'apply' || name === 'bind')) return undefined;
    return `argument of ${shortText(callee, 30)}`;
  }
  if (ts.isBinaryExpression(parent) && parent.right === value && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) return `assigned to ${shortText(parent.left, 30)}`;
  if (ts.isVariableDeclaration(parent) && parent.initializer === value && !(parent.parent.flags & ts.NodeFlags.Const)) return `held in ${parent.name.getText()}`;
  // an exported const: its calls in other modules are not followed (completionsAliasCall sees this module's)
  if (ts.isVariableDeclaration(parent) && parent.initializer === value && ts.isVariableStatement(parent.parent.parent) &&
    ts.getModifiers(parent.parent.parent)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return `exported as ${parent.name.getText()}`;
  if (ts.isExportAssignment(parent)) return 'exported';
  if (ts.isPropertyDeclaration(parent) && parent.initializer === value) return `field ${parent.name.getText()}`;
  return undefined;
}

/** `const { create } = client.chat.completions`: the method detached from its client (a site, receiver-not-client). */
function destructuredMethod(element: ts.BindingElement): FoundSite | undefined {
  const key = propertyNameText(element.propertyName ?? (ts.isIdentifier(element.name) ? element.name : undefined));
  if (!key || !SDK_METHODS.has(key) || !ts.isObjectBindingPattern(element.parent)) return undefined;
  const holder = element.parent.parent;
  const init = ts.isVariableDeclaration(holder) || ts.isParameter(holder) ? holder.initializer && unwrap(holder.initializer) : undefined;
  if (!init || !isAccess(init) || accessName(init) !== 'completions') return undefined;
  const chat = unwrap(init.expression);
  if (!isAccess(chat) || accessName(chat) !== 'chat') return undefined;
  const { beta } = underChat(chat);
  if (key === 'runFunctions' && !beta) return undefined;
  return {
    kind: 'sdk', call: init, direct: false, methodToken: element.propertyName ?? element.name, method: key, beta,
    receiverProblem: 'the method is detached from its client', callee: init,
  };
}

/** `vi.spyOn(client.chat.completions, 'create')`, `jest.spyOn(…)`: test doubles of the API. */
/**
 * `{ chat: { completions: { create: vi.fn() } } }` in a test or mock module, or handed to a mocking
 * call (`vi.mock('openai', () => …)`, `jest.mock`, `.mockImplementation(() => …)`): a double of
 * the client that imitates chat.completions, which a migrated subject no longer calls.
 */
function isChatDouble(obj: ts.ObjectLiteralExpression): boolean {
  const completions = obj.properties.find((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && propertyNameText(p.name) === 'completions');
  let resource: ts.Expression | undefined = completions && (ts.isPropertyAssignment(completions) ? unwrap(completions.initializer) : (completions as ts.ShorthandPropertyAssignment).name);
  // `const completions = { create: vi.fn() }; … { chat: { completions } }`: a const of the same file
  if (resource && ts.isIdentifier(resource)) resource = constObjectOf(obj.getSourceFile(), resource.text);
  if (!resource || !ts.isObjectLiteralExpression(resource)) return false;
  if (!resource.properties.some((p) => ['create', 'parse', 'stream'].includes(p.name ? propertyNameText(p.name) ?? '' : ''))) return false;
  const file = obj.getSourceFile().fileName;
  if (TEST_FILE.test(file) || MOCK_MODULE.test(file)) return true;
  for (let at: ts.Node = obj.parent; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isCallExpression(at) && MOCKING_CALL.test(at.expression.getText())) return true;
  }
  return false;
}

/** The object literal a top-level `const name = { … }` of the file holds. */
function constObjectOf(sf: ts.SourceFile, name: string): ts.ObjectLiteralExpression | undefined {
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === name && d.initializer && ts.isObjectLiteralExpression(unwrap(d.initializer))) return unwrap(d.initializer) as ts.ObjectLiteralExpression;
    }
  }
  return undefined;
}

/** Besides the test runners' names (writes.ts TEST_FILE): a mocks/ folder, a module named test or spec. */
const MOCK_MODULE = /(?:^|[\\/])(?:mocks?[\\/]|(?:test|spec)\.[cm]?[jt]sx?$)/;
const MOCKING_CALL = /^(?:vi|jest)\.(?:do)?[mM]ock$|\.mock(?:Implementation|ReturnValue|ResolvedValue)(?:Once)?$/;

function isMockCall(node: ts.Node): boolean {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  // `vi.spyOn(client.chat.completions, 'create')`, sinon's `stub(…)` / `sinon.replace(…)`
  if (!ts.isPropertyAccessExpression(callee) || !['spyOn', 'stub', 'replace'].includes(callee.name.text)) return false;
  const target = node.arguments[0];
  return Boolean(target && isAccess(unwrap(target)) && accessName(unwrap(target) as ts.PropertyAccessExpression) === 'completions');
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
  // `require('./client')`: what that CommonJS module exports (`module.exports = new OpenAIApi(…)`)
  const required = requiredExports(scope, e, undefined);
  if (required) return required.some((v) => isV3Client(unwrap(v), scope, depth + 1));
  // a factory: `function getApi() { return new OpenAIApi(…) }`
  if (ts.isCallExpression(e)) return functionsCalled(scope.checker, e).some((fn) => returnExpressions(fn).some((r) => isV3Client(unwrap(r), scope, depth + 1)));
  if (ts.isIdentifier(e)) {
    let decl = declarationOf(scope.checker, e);
    // `import { openai } from './lib/openai'`: the client another module builds (corpus: zipzop-api, apiBump)
    if (decl && (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isExportSpecifier(decl))) decl = aliasTarget(scope.checker, decl) ?? decl;
    if (decl && ts.isExportAssignment(decl)) return isV3Client(unwrap(decl.expression), scope, depth + 1);
    // `const { openai } = require('./client')`
    if (decl && ts.isBindingElement(decl) && ts.isObjectBindingPattern(decl.parent) && ts.isVariableDeclaration(decl.parent.parent) && decl.parent.parent.initializer) {
      const key = propertyNameText(decl.propertyName ?? (ts.isIdentifier(decl.name) ? decl.name : undefined));
      const values = key ? requiredExports(scope, decl.parent.parent.initializer, key) : undefined;
      return Boolean(values?.some((v) => isV3Client(unwrap(v), scope, depth + 1)));
    }
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return isV3Client(unwrap(decl.initializer), scope, depth + 1);
    if (decl && ts.isParameter(decl) && decl.type) return /\bOpenAIApi\b/.test(decl.type.getText());
  }
  // `require('./client').openai`
  if (ts.isPropertyAccessExpression(e)) {
    const values = requiredExports(scope, e.expression, e.name.text);
    if (values) return values.some((v) => isV3Client(unwrap(v), scope, depth + 1));
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
