/**
 * Raw HTTP requests to Chat Completions (docs/migration-spec.md §1.1 A-HTTP, §7 P-RAWHTTP): never
 * rewritten, always reported `raw-http`, with the provider read from the URL's host.
 *
 * A request is an HTTP call whose URL's static text may end with `/chat/completions` (on some
 * branch: `url ?? 'https://…/chat/completions'` is listed, its provider then unknown). The URL is
 * evaluated from what is in view: literals, templates, concatenations, `const`s (also imported
 * ones), a parameter's default, a `let` and what is assigned or appended to it, `new URL(path,
 * base)`, a URL builder given the path (`this.endpoint('chat/completions')`), `this.<field>` when
 * the class assigns it once, the base URL of a client instance joined with the call's path, and
 * node's request options (`hostname`/`host` + `path`). The HTTP calls recognised:
 * - functions: the global `fetch`, and the default or named exports of the HTTP packages
 *   (`axios(…)`, `got(…)`, `ky(…)`, undici's `fetch`/`request`, https' `request`/`get`…);
 * - methods of those packages (`axios.post`, `https.request`…) and `globalThis.fetch`;
 * - instances: `axios.create({ baseURL })`, `got.extend({ prefixUrl })`, `ky.create|extend({
 *   prefixUrl })`, `ofetch.create({ baseURL })` held in a `const` (in this file or imported) or a
 *   class field, then `.post(path?, …)`, `.request({ url })`… or the instance called;
 * - `xhr.open(method, url)`;
 * - project functions that pass the URL on (up to three deep: `ask(url)` → `fetchSSE(url)` →
 *   `fetch(url)`), when one of their parameters reaches the URL or the request options of an HTTP
 *   call: the site is then the outermost call that carries the URL. When the request inside a
 *   wrapper ends with `/chat/completions` by itself, that request is the site and its callers are not;
 * - any other call named like a request (`fetch`, `fetchSSE`, `postJsonToApi`, `httpsPost`, a
 *   base class's `this.fetch`, a curried `makeFetch(opts)(url)`) that is given such a URL: the tool
 *   cannot see what it does, and a call to the endpoint is never dropped.
 *
 * Not requests (so not sites): server routes (`app.post('/v1/chat/completions', handler)`: a
 * handler among the arguments, or an express/fastify/koa/hono receiver), request mocks (nock,
 * msw, fetch-mock), decorators (`@Post('…')`), log lines and constants that reach no call (N03).
 * Not followed: a client the code does not construct in view (a parameter typed `AxiosInstance`,
 * an injected `HttpService`) unless its method is named like a request; an instance derived from
 * another instance (`api.extend(…)`).
 */
import type { Provider } from '../report/model.js';
import { HTTP_MODULES, NODE_HTTP } from '../rules/http.js';
import { ts, unwrap, climbWrappers, isWriteReference, stringValue, propertyNameText, propertyValue, findProperty, walk, isFunctionLike, shortText, returnExpressions } from './ast.js';
import { aliasTarget, bindingOfExpression, declarationOf, type BindingScope, type ModuleBinding } from './bindings.js';
import { referencesOf, symbolOf } from './references.js';

export interface HttpSite {
  kind: 'http';
  /** The request (or the wrapper call that carries its URL). */
  call: ts.CallExpression;
  /** The callee's name token (`fetch`, `post`, `request`, the wrapper's name): the reported position. */
  methodToken: ts.Node;
  /** The request body, when it is an object in view (for the kinds). */
  body?: ts.ObjectLiteralExpression;
  provider: Provider;
  evidence: string;
}

/** The provider of a raw HTTP site (P-RAWHTTP): from the URL's host. */
export function httpProvider(site: HttpSite): { provider: Provider; evidence: string } {
  return { provider: site.provider, evidence: site.evidence };
}

/** Methods of an HTTP package or instance that send a request (`native` and `raw` are ofetch's: its plain fetch, and a call resolving to the whole response). */
const HTTP_METHODS = new Set(['post', 'request', 'put', 'patch', 'get', 'fetch', 'stream', 'native', 'raw']);
/** What makes an instance, and the option that holds its base URL. */
const INSTANCE_FACTORIES = new Set(['create', 'extend']);
const BASE_URL_KEYS = ['baseURL', 'prefixUrl', 'prefix'];

/** A URL (or a relative path: `chat/completions`) that ends with the Chat Completions endpoint. */
const CHAT_PATH = /(^|\/)chat\/completions\/?(\?[^]*)?$/;
/** Most alternatives a URL is followed through (ternaries multiply). */
const MAX_ALTERNATIVES = 8;
const MAX_DEPTH = 12;

// ---- static URL text --------------------------------------------------------------------------

/** A piece of URL text: known text, or null for text not known statically. */
type Piece = string | null;

/** The static text of a URL: one list of pieces per alternative (ternary branches). */
interface UrlText {
  alts: Piece[][];
  /** A wrapper's parameter (bound to a caller's argument) contributed to it. */
  viaParam: boolean;
}

const UNKNOWN: UrlText = { alts: [[null]], viaParam: false };
const text = (s: string): UrlText => ({ alts: [s ? [s] : []], viaParam: false });

function merge(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    const last = out.length ? out[out.length - 1] : undefined;
    if (p === '') continue;
    if (typeof p === 'string' && typeof last === 'string') out[out.length - 1] = last + p;
    else if (p === null && last === null) continue;
    else out.push(p);
  }
  return out;
}

/**
 * At most MAX_ALTERNATIVES alternatives, the same ones once. Beyond that they are not followed one
 * by one, but whether some are Chat URLs is kept: a URL helper with five branches, each ending in
 * `/chat/completions`, given a base with a fallback (ten alternatives) is still a Chat URL, and its
 * call still a site (probe of gateways: the call was dropped from the report); so is an Azure
 * deployment path whose model comes from a table (corpus: BetterChatGPT).
 */
function bounded(alts: Piece[][]): Piece[][] {
  const seen = new Set<string>();
  const unique = alts.filter((a) => {
    const key = JSON.stringify(a);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  if (unique.length <= MAX_ALTERNATIVES) return unique;
  // the Chat URLs among them are kept as one, by the text they end with (its query too)
  const chat = unique.filter((a) => CHAT_PATH.test(a.map((p) => p ?? '').join('')));
  const last = chat[0]?.[chat[0].length - 1];
  if (typeof last !== 'string') return [[null]];
  return chat.length === unique.length ? [[null, last]] : [[null, last], [null]];
}

function concat(...parts: UrlText[]): UrlText {
  let alts: Piece[][] = [[]];
  for (const part of parts) {
    const next: Piece[][] = [];
    for (const a of alts) for (const b of part.alts) next.push(merge([...a, ...b]));
    alts = bounded(next);
  }
  return { alts, viaParam: parts.some((p) => p.viaParam) };
}

function alternatives(parts: UrlText[]): UrlText {
  const alts = parts.flatMap((p) => p.alts);
  return { alts: bounded(alts), viaParam: parts.some((p) => p.viaParam) };
}

/**
 * Some alternative's static text ends with `/chat/completions` (query string allowed): a request
 * that may go to the endpoint is listed (`url ?? 'https://…/chat/completions'`), and its provider
 * is then unknown unless every alternative names the same host.
 */
export function endsWithChat(url: UrlText): boolean {
  // unknown pieces may only stand before the path or inside the query (`?api-version=${v}`)
  return url.alts.some((a) => CHAT_PATH.test(a.map((p) => p ?? '\u0000').join('')));
}

function isEmpty(url: UrlText): boolean {
  return url.alts.every((a) => a.length === 0);
}

const ABSOLUTE = /^[a-z][a-z\d+.-]*:\/\//i;
const ORIGIN = /^([a-z][a-z\d+.-]*:\/\/)([^/?#]*)([/?#]|$)/i;

/** The host of one alternative, when its static text holds all of it. */
function hostOfPieces(pieces: Piece[]): string | undefined {
  const first = pieces[0];
  if (typeof first !== 'string') return undefined;
  const m = ORIGIN.exec(first);
  if (!m || !m[2]) return undefined;
  // `https://api.` + something: the host goes on past the known text
  if (m[3] === '' && pieces.length > 1) return undefined;
  return m[2].replace(/^[^@]*@/, '').replace(/:\d*$/, '').toLowerCase();
}

function isOpenAIHost(host: string): boolean {
  return host === 'api.openai.com' || host.endsWith('.api.openai.com');
}

/** Provider from the host of every alternative: openai or other only when all agree (P-RAWHTTP). */
function providerOf(url: UrlText): { provider: Provider; host?: string } {
  const hosts = url.alts.map(hostOfPieces);
  if (hosts.some((h) => h === undefined)) return { provider: 'unknown' };
  const kinds = new Set(hosts.map((h) => (isOpenAIHost(h!) ? 'openai' : 'other')));
  if (kinds.size !== 1) return { provider: 'unknown' };
  const unique = [...new Set(hosts)];
  return { provider: [...kinds][0] as Provider, host: unique.join(', ') };
}

function describe(url: UrlText): string {
  return url.alts.map((a) => a.map((p) => p ?? '…').join('')).join(' | ');
}

/** Join an instance's base URL and a call's path the way axios, got and ky do (one slash between). */
function joinBase(base: UrlText | undefined, path: UrlText | undefined): UrlText {
  if (!path || isEmpty(path)) return base ?? UNKNOWN;
  if (!base) return path;
  const alts: Piece[][] = [];
  for (const p of path.alts) {
    if (typeof p[0] === 'string' && ABSOLUTE.test(p[0])) {
      alts.push(p); // an absolute URL replaces the base
      continue;
    }
    const tail = typeof p[0] === 'string' ? [p[0].replace(/^\/+/, ''), ...p.slice(1)] : p;
    for (const b of base.alts) {
      const last = b[b.length - 1];
      const head = typeof last === 'string' ? [...b.slice(0, -1), last.replace(/\/+$/, '')] : b;
      alts.push(merge([...head, '/', ...tail]));
    }
  }
  return { alts: bounded(alts), viaParam: base.viaParam || path.viaParam };
}

/** `new URL(input, base)`. */
function resolveUrl(input: UrlText, base: UrlText): UrlText {
  const alts: Piece[][] = [];
  for (const i of input.alts) {
    const first = i[0];
    if (typeof first === 'string' && ABSOLUTE.test(first)) {
      alts.push(i);
      continue;
    }
    for (const b of base.alts) {
      const origin = typeof b[0] === 'string' ? ORIGIN.exec(b[0]) : null;
      if (typeof first === 'string' && first.startsWith('/')) {
        alts.push(merge([origin && (origin[3] !== '' || b.length === 1) ? origin[1] + origin[2] : null, ...i]));
      } else {
        // a relative path replaces the base's last segment (a bare origin has the path `/`)
        const last = b[b.length - 1];
        const dir = origin && origin[3] === '' && b.length === 1 ? [`${origin[1]}${origin[2]}/`]
          : typeof last === 'string' && last.includes('/') ? [...b.slice(0, -1), last.slice(0, last.lastIndexOf('/') + 1)]
          : [...b, null];
        alts.push(merge([...dir, ...i]));
      }
    }
  }
  return { alts: bounded(alts), viaParam: input.viaParam || base.viaParam };
}

// ---- evaluation scope ---------------------------------------------------------------------------

interface Scope {
  checker: ts.TypeChecker;
  /** How names bind to modules (the scanner's module resolution). */
  bindings: BindingScope;
  /** A wrapper's parameters (and destructured parameter names), bound to the caller's arguments. */
  params?: Map<ts.Node, ts.Expression | undefined>;
  /** The scope the wrapper's caller reads its arguments in (itself a wrapper's, for a wrapper of a wrapper). */
  caller?: Scope;
  depth: number;
}

const deeper = (scope: Scope): Scope => ({ ...scope, depth: scope.depth + 1 });
/** The caller's side of a wrapper call: its arguments are not bound to anything. */
const outer = (scope: Scope): Scope => (scope.caller
  ? { ...scope.caller, depth: scope.depth + 1 }
  : { checker: scope.checker, bindings: scope.bindings, depth: scope.depth + 1 });

/** The declaration an identifier names, through imports of project modules. */
function declarationThrough(checker: ts.TypeChecker, id: ts.Identifier): ts.Declaration | undefined {
  const decl = declarationOf(checker, id);
  if (decl && (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isExportSpecifier(decl))) return aliasTarget(checker, decl) ?? decl;
  return decl;
}

/** A wrapper parameter bound by the caller: its argument (undefined when the caller passes none); undefined when not bound. */
function boundParameter(decl: ts.Node, scope: Scope): { arg: ts.Expression | undefined } | undefined {
  if (!scope.params?.has(decl)) return undefined;
  return { arg: scope.params.get(decl) };
}

/** The value a `const` (or a wrapper parameter) holds, with the scope to read it in. */
function valueOf(id: ts.Identifier, scope: Scope): { value: ts.Expression; scope: Scope; viaParam: boolean } | undefined {
  const decl = declarationThrough(scope.checker, id);
  if (!decl) return undefined;
  const bound = boundParameter(decl, scope);
  if (bound) {
    if (bound.arg) return { value: bound.arg, scope: outer(scope), viaParam: true };
    const init = ts.isParameter(decl) || ts.isBindingElement(decl) ? decl.initializer : undefined;
    return init ? { value: init, scope: deeper(scope), viaParam: true } : undefined;
  }
  if (ts.isVariableDeclaration(decl) && decl.initializer && ts.isIdentifier(decl.name) && (decl.parent.flags & ts.NodeFlags.Const || neverAssigned(decl.name, scope.checker))) {
    // (a const declared inside a wrapper may be built from the wrapper's parameters; V-LOCAL: a
    // `let` never assigned again holds its initialiser too)
    return { value: decl.initializer, scope: deeper(scope), viaParam: false };
  }
  return undefined;
}

/** A `let`/`var` no statement of its scope assigns again (`=`, `+=`, `++`, a destructuring target). */
function neverAssigned(name: ts.Identifier, checker: ts.TypeChecker): boolean {
  return referencesOf(checker, name).every((ref) => {
    if (isWriteReference(ref)) return false;
    const outerRef = climbWrappers(ref);
    const parent = outerRef.parent;
    if ((ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === outerRef) return false;
    if (ts.isShorthandPropertyAssignment(parent) || ts.isArrayLiteralExpression(parent)) return !isAssignmentTarget(parent);
    return true;
  });
}

/** An object or array literal that is the left side of a destructuring assignment (`[a, b] = …`, `({ a } = …)`). */
function isAssignmentTarget(n: ts.Node): boolean {
  let current = n;
  while (ts.isObjectLiteralExpression(current.parent) || ts.isArrayLiteralExpression(current.parent) || ts.isPropertyAssignment(current.parent) || ts.isShorthandPropertyAssignment(current.parent) || ts.isParenthesizedExpression(current.parent)) current = current.parent;
  return ts.isBinaryExpression(current.parent) && current.parent.left === current && current.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

/**
 * The possible texts of a name that is not a const: a parameter the caller may leave out (its
 * default), a `let` with the values assigned to it (`url += path` appends). Undefined when the
 * name is neither.
 */
function variableTexts(id: ts.Identifier, scope: Scope): UrlText | undefined {
  const decl = declarationThrough(scope.checker, id);
  if (!decl || boundParameter(decl, scope)) return undefined;
  // a `let` built from another built from another… is evaluated once per scope and depth: each
  // assignment re-evaluated its right side, 3^depth for `v2 = v1; if (c) v2 = v1` chains (probe of
  // providers: a bundled file never finished)
  const byChecker = VARIABLE_TEXTS.get(scope.checker) ?? new WeakMap<object, WeakMap<ts.Node, Map<number, UrlText | undefined>>>();
  VARIABLE_TEXTS.set(scope.checker, byChecker);
  const byParams = byChecker.get(scope.params ?? NO_PARAMS) ?? new WeakMap<ts.Node, Map<number, UrlText | undefined>>();
  byChecker.set(scope.params ?? NO_PARAMS, byParams);
  const byDepth = byParams.get(decl) ?? new Map<number, UrlText | undefined>();
  byParams.set(decl, byDepth);
  if (!byDepth.has(scope.depth)) byDepth.set(scope.depth, evaluateVariable(decl, scope));
  return byDepth.get(scope.depth);
}

/**
 * variableTexts' answers, by program (a later scan pass sees more modules), wrapper parameters
 * bound (none: NO_PARAMS), declaration and depth.
 */
const VARIABLE_TEXTS = new WeakMap<ts.TypeChecker, WeakMap<object, WeakMap<ts.Node, Map<number, UrlText | undefined>>>>();
const NO_PARAMS = {};

function evaluateVariable(decl: ts.Declaration, scope: Scope): UrlText | undefined {
  const isParameter = ts.isParameter(decl) || (ts.isBindingElement(decl) && ts.isParameter(bindingRootOf(decl)));
  const isLet = ts.isVariableDeclaration(decl) && !(decl.parent.flags & ts.NodeFlags.Const);
  if ((!isParameter && !isLet) || !ts.isIdentifier(decl.name)) return undefined;
  const symbol = scope.checker.getSymbolAtLocation(decl.name);
  // a parameter may be anything a caller passes, or its default; a let starts as its initialiser
  const initializer = (ts.isParameter(decl) || ts.isBindingElement(decl) || ts.isVariableDeclaration(decl)) ? decl.initializer : undefined;
  const values: UrlText[] = isParameter
    ? [UNKNOWN, ...(initializer ? [urlText(initializer, deeper(scope))] : [])]
    : [initializer ? urlText(initializer, deeper(scope)) : UNKNOWN];
  let block: ts.Node = decl;
  while (block.parent && !isFunctionLike(block) && !ts.isSourceFile(block)) block = block.parent;
  walk(block, (n) => {
    if (!ts.isBinaryExpression(n) || !ts.isIdentifier(unwrap(n.left)) || scope.checker.getSymbolAtLocation(unwrap(n.left)) !== symbol) return;
    if (n.operatorToken.kind === ts.SyntaxKind.EqualsToken) values.push(urlText(n.right, deeper(scope)));
    else if (n.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken) values.push(concat(UNKNOWN, urlText(n.right, deeper(scope))));
  });
  return alternatives(values);
}

function bindingRootOf(decl: ts.BindingElement): ts.Node {
  let current: ts.Node = decl;
  while (ts.isBindingElement(current) || ts.isObjectBindingPattern(current) || ts.isArrayBindingPattern(current)) current = current.parent;
  return current;
}

/** `this.<name>`: the one value the class gives the field (its initialiser, or a single assignment). */
function thisFieldValue(access: ts.PropertyAccessExpression): ts.Expression | undefined {
  if (access.expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  const name = access.name.text;
  let cls: ts.Node | undefined = access.parent;
  while (cls && !ts.isClassLike(cls)) cls = cls.parent;
  if (!cls) return undefined;
  const values: ts.Expression[] = [];
  for (const member of (cls as ts.ClassLikeDeclaration).members) {
    if (ts.isPropertyDeclaration(member) && propertyNameText(member.name) === name && member.initializer) values.push(member.initializer);
  }
  walk(cls, (n) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const left = unwrap(n.left);
      if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword && left.name.text === name) values.push(n.right);
    }
  });
  // a constructor parameter property (`constructor(private http: AxiosInstance)`) is injected
  const ctor = (cls as ts.ClassLikeDeclaration).members.find(ts.isConstructorDeclaration);
  if (ctor?.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name && ts.getModifiers(p)?.length)) return undefined;
  return values.length === 1 ? values[0] : undefined;
}

/**
 * `this.<name>` of a constructor parameter property (`constructor(protected readonly endpoint:
 * string)`): what the constructions in the file pass it, `super(…)` of a subclass or `new C(…)`,
 * its default, and anything a construction out of view may pass. Undefined when the class has no
 * such parameter.
 */
function parameterPropertyTexts(access: ts.PropertyAccessExpression, scope: Scope): UrlText | undefined {
  if (access.expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  // the class that declares it may be a base class (`this.endpoint` in a subclass)
  const param = symbolOf(scope.checker, access.name)?.valueDeclaration;
  if (!param || !ts.isParameter(param) || !ts.isConstructorDeclaration(param.parent) || !ts.getModifiers(param)?.length) return undefined;
  const ctor = param.parent;
  const index = ctor.parameters.indexOf(param);
  const own = ctor.parent.name;
  const values: UrlText[] = [UNKNOWN];
  if (param.initializer) values.push(urlText(param.initializer, deeper(scope)));
  walk(ctor.getSourceFile(), (n) => {
    const args = ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword && extendsClass(n, own) ? n.arguments
      : ts.isNewExpression(n) && own && ts.isIdentifier(n.expression) && n.expression.text === own.text ? n.arguments : undefined;
    const arg = args?.[index];
    if (arg && !ts.isSpreadElement(arg)) values.push(urlText(arg, deeper(scope)));
  });
  return alternatives(values);
}

/**
 * `this.<name>` of a field the class declares without a value (`abstract readonly url: string`):
 * the values its subclasses in the file give it, and anything a subclass out of view may.
 */
function subclassFieldTexts(access: ts.PropertyAccessExpression, scope: Scope): UrlText | undefined {
  if (access.expression.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  const field = symbolOf(scope.checker, access.name)?.valueDeclaration;
  if (!field || !ts.isPropertyDeclaration(field) || field.initializer || !ts.isClassLike(field.parent)) return undefined;
  const base = field.parent.name;
  const values: UrlText[] = [];
  walk(field.getSourceFile(), (n) => {
    if (!ts.isClassLike(n) || !extendsClass(n, base)) return;
    for (const member of n.members) {
      if (ts.isPropertyDeclaration(member) && member.initializer && propertyNameText(member.name) === access.name.text) values.push(urlText(member.initializer, deeper(scope)));
    }
  });
  return values.length ? alternatives([UNKNOWN, ...values]) : undefined;
}

/** `super(…)` in a class (or the class itself) that extends the class named `base`. */
function extendsClass(node: ts.Node, base: ts.Identifier | undefined): boolean {
  let cls: ts.Node | undefined = node;
  while (cls && !ts.isClassLike(cls)) cls = cls.parent;
  const heritage = cls && (cls as ts.ClassLikeDeclaration).heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
  const parent = heritage?.types[0]?.expression;
  return Boolean(base && parent && ts.isIdentifier(parent) && parent.text === base.text);
}

/**
 * The value a property read names where it is declared: a property of an object literal
 * (`CONFIG.openai.url`, however deep), a static or readonly class field with an initialiser
 * (`Client.ENDPOINT`), an enum member. Undefined otherwise.
 */
function declaredValue(access: ts.PropertyAccessExpression, checker: ts.TypeChecker): ts.Expression | undefined {
  const decl = symbolOf(checker, access.name)?.valueDeclaration;
  if (!decl || decl.getSourceFile().isDeclarationFile) return undefined;
  if (ts.isPropertyAssignment(decl)) return decl.initializer;
  if (ts.isEnumMember(decl)) return decl.initializer;
  if (ts.isPropertyDeclaration(decl) && decl.initializer) {
    const flags = ts.getCombinedModifierFlags(decl);
    if (flags & (ts.ModifierFlags.Static | ts.ModifierFlags.Readonly)) return decl.initializer;
  }
  return undefined;
}

/** The static text of a URL expression. */
function urlText(expression: ts.Expression, scope: Scope): UrlText {
  if (scope.depth > MAX_DEPTH) return UNKNOWN;
  const e = unwrap(expression);
  const s = stringValue(e);
  if (s !== undefined) return text(s);
  if (ts.isTemplateExpression(e)) {
    const parts: UrlText[] = [text(e.head.text)];
    for (const span of e.templateSpans) parts.push(urlText(span.expression, deeper(scope)), text(span.literal.text));
    return concat(...parts);
  }
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    // a + b + c… is left-nested: its operands are read at one level, however long the chain
    const operands: ts.Expression[] = [];
    let left: ts.Expression = e;
    while (ts.isBinaryExpression(left) && left.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      operands.unshift(left.right);
      left = unwrap(left.left);
    }
    operands.unshift(left);
    return concat(...operands.map((o) => urlText(o, deeper(scope))));
  }
  if (ts.isConditionalExpression(e)) return alternatives([urlText(e.whenTrue, deeper(scope)), urlText(e.whenFalse, deeper(scope))]);
  if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
    return alternatives([urlText(e.left, deeper(scope)), urlText(e.right, deeper(scope))]);
  }
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'URL' && e.arguments?.[0]) {
    const input = urlText(e.arguments[0], deeper(scope));
    return e.arguments[1] ? resolveUrl(input, urlText(e.arguments[1], deeper(scope))) : input;
  }
  // `fetch(new Request(url, init))`: the request's URL
  if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'Request' && e.arguments?.[0]) {
    return urlText(e.arguments[0], deeper(scope));
  }
  if (ts.isIdentifier(e)) {
    const v = valueOf(e, scope);
    // `const url = new URL(base); url.pathname = '/v1/chat/completions'`: the path replaces the base's
    const path = pathnameSet(e, scope);
    if (path) return resolveUrl(urlText(path, deeper(scope)), v ? urlText(v.value, v.scope) : UNKNOWN);
    if (!v) return variableTexts(e, scope) ?? UNKNOWN;
    const t = urlText(v.value, v.scope);
    return v.viaParam ? { ...t, viaParam: true } : t;
  }
  if (ts.isPropertyAccessExpression(e)) {
    if (e.name.text === 'href') return urlText(e.expression, deeper(scope)); // url.href
    const field = thisFieldValue(e);
    if (field) return urlText(field, deeper(scope));
    const passed = parameterPropertyTexts(e, scope) ?? subclassFieldTexts(e, scope);
    if (passed) return passed;
    const obj = objectOf(e.expression, scope);
    const prop = obj && propertyValue(findProperty(obj.object, e.name.text));
    if (prop && obj) return withVia(urlText(prop, obj.scope), obj.viaParam);
    const declared = declaredValue(e, scope.checker);
    if (declared) return urlText(declared, deeper(scope));
    return UNKNOWN;
  }
  // `CHAT_URLS[provider]`: a literal key reads its member, any other key any member of the table
  // (a provider's endpoint table; probe of providers: the fetch was dropped)
  if (ts.isElementAccessExpression(e)) {
    const obj = objectOf(e.expression, scope);
    if (!obj) return UNKNOWN;
    const key = stringValue(e.argumentExpression);
    if (key !== undefined) {
      const prop = propertyValue(findProperty(obj.object, key));
      return prop ? withVia(urlText(prop, obj.scope), obj.viaParam) : UNKNOWN;
    }
    const members = obj.object.properties.map((p) => propertyValue(p));
    if (!members.length || members.some((m) => !m)) return UNKNOWN;
    return withVia(alternatives(members.map((m) => urlText(m!, obj.scope))), obj.viaParam);
  }
  if (ts.isCallExpression(e)) {
    // url.toString(), String(url)
    const callee = unwrap(e.expression);
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'toString' && e.arguments.length === 0) return urlText(callee.expression, deeper(scope));
    if (ts.isIdentifier(callee) && callee.text === 'String' && e.arguments.length === 1) return urlText(e.arguments[0], deeper(scope));
    // a project function that returns the URL: `fetch(this.buildUrl(), …)`, `endpoint('/chat/completions')`
    const returned = returnedUrl(e, scope);
    if (returned && endsWithChat(returned)) return returned;
    // a URL builder the tool cannot look into, given the endpoint's path: `this.endpoint('chat/completions')`, `api.assembleUrl('/chat/completions')`
    const name = calleeName(callee);
    if (name && nameWords(name).some((w) => URL_BUILDER_WORDS.has(w))) {
      for (const arg of e.arguments) {
        // `url('/chat/completions')`, or options naming the path: `this.config.url({ path: '/chat/completions', modelId })`
        const options = objectOf(arg, deeper(scope));
        const path = options ? optionText(options, 'path', 'url', 'endpoint') ?? UNKNOWN : urlText(arg, deeper(scope));
        if (endsWithChat(path)) return concat(UNKNOWN, text('/'), path);
      }
    }
  }
  return UNKNOWN;
}

/** The path a `url.pathname = …` write gives the URL object a variable holds (the last in the file), if any. */
function pathnameSet(id: ts.Identifier, scope: Scope): ts.Expression | undefined {
  const decl = declarationOf(scope.checker, id);
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return undefined;
  let path: ts.Expression | undefined;
  for (const ref of referencesOf(scope.checker, decl.name)) {
    const access = ref.parent;
    const write = access.parent;
    if (ts.isPropertyAccessExpression(access) && access.expression === ref && access.name.text === 'pathname' &&
      ts.isBinaryExpression(write) && write.left === access && write.operatorToken.kind === ts.SyntaxKind.EqualsToken) path = write.right;
  }
  return path;
}

/**
 * The URL a project function returns, read with its parameters bound to the call's arguments:
 * the alternatives of its return expressions. Undefined when the call runs no project function
 * with a body, or the function has no return with a value.
 */
function returnedUrl(call: ts.CallExpression, scope: Scope): UrlText | undefined {
  const fn = calledFunction(call, scope.checker);
  if (!fn) return undefined;
  const returns = returnExpressions(fn);
  if (!returns.length) return undefined;
  const inner = calleeScope(fn, call, scope, scope.depth + 1);
  return alternatives(returns.map((r) => urlText(r, inner)));
}

/** Words in the name of a function that builds a URL from a path (`endpoint`, `assembleUrl`, `getPath`). */
const URL_BUILDER_WORDS: ReadonlySet<string> = new Set(['url', 'uri', 'endpoint', 'path', 'route', 'href']);

/** The words of a camelCase, PascalCase or snake_case name, lower case: `fetchSSE` → fetch, sse. */
function nameWords(name: string): string[] {
  return (name.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? []).map((w) => w.toLowerCase());
}

/** The name a callee is known by: `f`, `x.f`, the innermost of `f(a)(b)`. */
function calleeName(callee: ts.Expression): string | undefined {
  const c = unwrap(callee);
  if (ts.isIdentifier(c)) return c.text;
  if (ts.isPropertyAccessExpression(c)) return c.name.text;
  if (ts.isCallExpression(c)) return calleeName(c.expression);
  return undefined;
}

function withVia(t: UrlText, viaParam: boolean): UrlText {
  return viaParam ? { ...t, viaParam: true } : t;
}

/** An object literal an expression stands for (inline, a const, a wrapper's argument), with the scope to read it in. */
function objectOf(expression: ts.Expression, scope: Scope): OptionsObject | undefined {
  if (scope.depth > MAX_DEPTH) return undefined;
  const e = unwrap(expression);
  if (ts.isObjectLiteralExpression(e)) return { object: e, scope, viaParam: false };
  if (ts.isIdentifier(e)) {
    const v = valueOf(e, scope);
    if (!v) return reassignedObject(e, scope);
    const o = objectOf(v.value, v.scope);
    return o && { ...o, viaParam: o.viaParam || v.viaParam };
  }
  // `const route = resolveRoute(model)`: a project function whose one return is an object literal,
  // read in the function (its own parameters unknown), whatever its declared return type says
  // (probe of providers: an annotated `: Route` hid the URL and the fetch was dropped)
  if (ts.isCallExpression(e) && ts.isIdentifier(unwrap(e.expression))) {
    const fn = calledFunction(e, scope.checker);
    const returns = fn ? returnExpressions(fn) : [];
    const only = returns.length === 1 ? unwrap(returns[0]) : undefined;
    return only && ts.isObjectLiteralExpression(only) ? { object: only, scope: deeper(scope), viaParam: false } : undefined;
  }
  return undefined;
}

/** Request options held in an object literal: where to read its values, and how sure they are. */
interface OptionsObject {
  object: ts.ObjectLiteralExpression;
  scope: Scope;
  viaParam: boolean;
  /** A `let` assigned again: its initialiser is one of the values it may hold. */
  reassigned?: true;
}

/** `let config = { url: … }` assigned again later: the initialiser, as one possibility among others. */
function reassignedObject(id: ts.Identifier, scope: Scope): OptionsObject | undefined {
  const decl = declarationThrough(scope.checker, id);
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || boundParameter(decl, scope)) return undefined;
  const init = unwrap(decl.initializer);
  return ts.isObjectLiteralExpression(init) ? { object: init, scope: deeper(scope), viaParam: false, reassigned: true } : undefined;
}

/** The value of a property of an options object, read in its scope. */
function optionText(obj: OptionsObject, ...keys: string[]): UrlText | undefined {
  for (const key of keys) {
    const p = findProperty(obj.object, key);
    if (!p) continue;
    // `{ hostname, path }`: the shorthand names a variable (or a wrapper's parameter)
    const value = ts.isShorthandPropertyAssignment(p) ? p.name : propertyValue(p);
    if (!value) return withVia(UNKNOWN, obj.viaParam);
    const t = withVia(urlText(value, obj.scope), obj.viaParam);
    return obj.reassigned ? alternatives([t, UNKNOWN]) : t;
  }
  return undefined;
}

/**
 * The URL of request options: `url` (with a `baseURL`/`prefixUrl` in the same options), or node's
 * `protocol` + `hostname`/`host` + `path`. Undefined when the options name no URL or path.
 */
function optionsUrl(obj: OptionsObject, instanceBase?: UrlText, scheme = 'https:'): UrlText | undefined {
  const url = optionText(obj, 'url');
  const base = optionText(obj, ...BASE_URL_KEYS) ?? instanceBase;
  if (url) return joinBase(base, url);
  const path = optionText(obj, 'path', 'pathname');
  if (!path) return base && !optionText(obj, 'hostname', 'host') ? base : undefined;
  const host = optionText(obj, 'hostname', 'host');
  const protocol = optionText(obj, 'protocol');
  const known = protocol && protocol.alts.length === 1 && protocol.alts[0].length === 1 && typeof protocol.alts[0][0] === 'string'
    ? protocol.alts[0][0]
    : scheme;
  return concat(host ? concat(text(`${known.replace(/:?$/, ':')}//`), host) : UNKNOWN, path);
}

// ---- HTTP clients -------------------------------------------------------------------------------

function httpBinding(bindings: BindingScope, e: ts.Expression): ModuleBinding | undefined {
  const b = bindingOfExpression(bindings, e);
  return b && HTTP_MODULES.has(b.module) ? b : undefined;
}

/** `fetch` (global or imported from a fetch package), `axios(…)`, `got(…)`, `request` from https… */
function isHttpFunction(id: ts.Identifier, bindings: BindingScope): { node: boolean; scheme?: string } | undefined {
  const decl = declarationOf(bindings.checker, id);
  // the global fetch: undeclared without lib files, declared by lib.dom / @types/node with them
  if (!decl || decl.getSourceFile().isDeclarationFile) return id.text === 'fetch' ? { node: false } : undefined;
  const binding = httpBinding(bindings, id);
  if (!binding) return undefined;
  if (NODE_HTTP.has(binding.module)) {
    return binding.kind === 'export' && (binding.name === 'request' || binding.name === 'get') ? { node: true, scheme: schemeOf(binding.module) } : undefined;
  }
  return { node: false };
}

function schemeOf(module: string): string {
  return module.endsWith('https') ? 'https:' : 'http:';
}

interface Instance {
  /** The base URL, or undefined when the instance sets none. */
  base?: UrlText;
  evidence: string;
}

/** `axios.create({ baseURL })`, `got.extend({ prefixUrl })`, `ky.create({ prefixUrl })`…: the instance it makes. */
function instanceOfCreation(init: ts.Expression, scope: Scope): Instance | undefined {
  const e = unwrap(init);
  if (!ts.isCallExpression(e)) return undefined;
  const callee = unwrap(e.expression);
  if (!ts.isPropertyAccessExpression(callee) || !INSTANCE_FACTORIES.has(callee.name.text)) return undefined;
  const lib = httpBinding(scope.bindings, callee.expression);
  if (!lib || NODE_HTTP.has(lib.module)) return undefined;
  const where = `instance from ${shortText(callee, 30)}() at ${lineOf(e)}`;
  const arg = e.arguments[0];
  if (!arg) return { evidence: where };
  const options = objectOf(arg, scope);
  if (!options) return { base: UNKNOWN, evidence: where }; // options not in view: the base URL may be anything
  const hasSpread = options.object.properties.some(ts.isSpreadAssignment);
  const base = optionText(options, ...BASE_URL_KEYS);
  return { base: base ?? (hasSpread ? UNKNOWN : undefined), evidence: where };
}

function lineOf(node: ts.Node): string {
  const sf = node.getSourceFile();
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  return `${sf.fileName.split('/').pop()}:${line}`;
}

/** The HTTP instance an expression holds: a const (here or imported) or a class field. */
function instanceOf(expression: ts.Expression, scope: Scope): Instance | undefined {
  const e = unwrap(expression);
  if (ts.isIdentifier(e)) {
    const decl = declarationThrough(scope.checker, e);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer && decl.parent.flags & ts.NodeFlags.Const) {
      return instanceOfCreation(decl.initializer, deeper(scope));
    }
    return undefined;
  }
  if (ts.isPropertyAccessExpression(e)) {
    const field = thisFieldValue(e);
    return field ? instanceOfCreation(field, deeper(scope)) : undefined;
  }
  return undefined;
}

// ---- requests -----------------------------------------------------------------------------------

interface Request {
  url: UrlText;
  token: ts.Node;
  via: string;
  /** The request body in view. */
  body?: ts.ObjectLiteralExpression;
}

/** The URL of a fetch/axios-style call: a URL argument, or a config object with `url`. */
function argumentUrl(arg: ts.Expression | undefined, scope: Scope, instanceBase?: UrlText, scheme?: string): UrlText | undefined {
  if (!arg) return instanceBase;
  const options = objectOf(arg, scope);
  if (options) return optionsUrl(options, instanceBase, scheme);
  const url = urlText(arg, scope);
  return instanceBase ? joinBase(instanceBase, url) : url;
}

/** The request an HTTP call makes, when the call is one; its URL is not checked here. */
function requestOf(call: ts.CallExpression, scope: Scope): Request | undefined {
  const callee = unwrap(call.expression);
  const args = call.arguments;
  if (ts.isIdentifier(callee)) {
    const fn = isHttpFunction(callee, scope.bindings);
    if (fn) {
      const url = argumentUrl(args[0], scope, undefined, fn.scheme);
      return url && { url, token: callee, via: callee.text, body: requestBody(call, scope, fn.node) };
    }
    const instance = instanceOf(callee, scope);
    if (instance) {
      const url = argumentUrl(args[0], scope, instance.base);
      return url && { url, token: callee, via: `${callee.text}, ${instance.evidence}`, body: requestBody(call, scope, false) };
    }
    return undefined;
  }
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const method = callee.name.text;
  const object = unwrap(callee.expression);
  if (method === 'open') {
    // xhr.open('POST', url)
    if (args.length < 2) return undefined;
    return { url: urlText(args[1], scope), token: callee.name, via: 'XMLHttpRequest' };
  }
  if (!HTTP_METHODS.has(method)) return undefined;
  const lib = httpBinding(scope.bindings, object);
  if (lib) {
    const node = NODE_HTTP.has(lib.module);
    if (node && method !== 'request' && method !== 'get') return undefined;
    const url = argumentUrl(args[0], scope, undefined, node ? schemeOf(lib.module) : undefined);
    return url && { url, token: callee.name, via: `${lib.module}.${method}`, body: requestBody(call, scope, node) };
  }
  if (ts.isIdentifier(object) && (object.text === 'globalThis' || object.text === 'window' || object.text === 'self') && method === 'fetch') {
    const url = argumentUrl(args[0], scope);
    return url && { url, token: callee.name, via: 'fetch', body: requestBody(call, scope, false) };
  }
  const instance = instanceOf(object, scope);
  if (instance) {
    const url = argumentUrl(args[0], scope, instance.base);
    return url && { url, token: callee.name, via: `${shortText(object, 30)}.${method}, ${instance.evidence}`, body: requestBody(call, scope, false) };
  }
  return undefined;
}

// ---- bodies -------------------------------------------------------------------------------------

/** The body object behind `{…}`, `JSON.stringify({…})`, a const or a wrapper's argument holding one. */
function bodyObject(expression: ts.Expression, scope: Scope): ts.ObjectLiteralExpression | undefined {
  if (scope.depth > MAX_DEPTH) return undefined;
  const e = unwrap(expression);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (ts.isCallExpression(e) && e.arguments[0] && e.expression.getText() === 'JSON.stringify') return bodyObject(e.arguments[0], deeper(scope));
  if (ts.isIdentifier(e)) {
    const v = valueOf(e, scope);
    return v ? bodyObject(v.value, v.scope) : undefined;
  }
  return undefined;
}

function hasMessages(obj: ts.ObjectLiteralExpression): boolean {
  return obj.properties.some((p) => propertyNameText(p.name) === 'messages');
}

/**
 * The request body when it is visible: `body: JSON.stringify({…})`, axios' `data`, got's `json`,
 * a `{ messages, … }` argument; for node's request, what is written to it (`req.write(…)`,
 * `req.end(…)`, a chained `.end(…)`).
 */
function requestBody(call: ts.CallExpression, scope: Scope, node: boolean): ts.ObjectLiteralExpression | undefined {
  if (node) return writtenBody(call, scope);
  for (const arg of call.arguments) {
    const options = objectOf(arg, scope);
    if (!options) continue;
    const p = findProperty(options.object, 'body') ?? findProperty(options.object, 'data') ?? findProperty(options.object, 'json');
    const value = p && (ts.isShorthandPropertyAssignment(p) ? p.name : propertyValue(p));
    const found = value && bodyObject(value, options.scope);
    if (found) return found;
    if (hasMessages(options.object)) return options.object;
  }
  return undefined;
}

/** What a node request is sent with: `req.write(x)` / `req.end(x)` on the request, or a chained `.end(x)`. */
function writtenBody(call: ts.CallExpression, scope: Scope): ts.ObjectLiteralExpression | undefined {
  let outerNode: ts.Node = call;
  while (ts.isParenthesizedExpression(outerNode.parent)) outerNode = outerNode.parent;
  const parent = outerNode.parent;
  const sent: ts.Expression[] = [];
  if (ts.isPropertyAccessExpression(parent) && (parent.name.text === 'end' || parent.name.text === 'write') && ts.isCallExpression(parent.parent) && parent.parent.arguments[0]) {
    sent.push(parent.parent.arguments[0]);
  }
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    const request = scope.checker.getSymbolAtLocation(parent.name);
    let block: ts.Node = parent;
    while (block.parent && !isFunctionLike(block) && !ts.isSourceFile(block)) block = block.parent;
    walk(block, (n) => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && (n.expression.name.text === 'end' || n.expression.name.text === 'write') && n.arguments[0]) {
        const target = unwrap(n.expression.expression);
        if (ts.isIdentifier(target) && request && scope.checker.getSymbolAtLocation(target) === request) sent.push(n.arguments[0]);
      }
    });
  }
  for (const s of sent) {
    const found = bodyObject(s, scope);
    if (found) return found;
  }
  return undefined;
}

// ---- sites --------------------------------------------------------------------------------------

function site(call: ts.CallExpression, token: ts.Node, url: UrlText, via: string, body: ts.ObjectLiteralExpression | undefined): HttpSite {
  const { provider, host } = providerOf(url);
  const evidence = host ? `raw request to ${host} (${via})` : `URL ${describe(url)} (${via})`;
  return { kind: 'http', call, methodToken: token, body, provider, evidence };
}

/** A raw HTTP request to Chat Completions, made by this call or by the wrapper it calls. */
/** The scope a URL is read in from a call of the file itself. */
function topScope(bindings: BindingScope): Scope {
  return { checker: bindings.checker, bindings, depth: 0 };
}

export function httpCall(call: ts.CallExpression, bindings: BindingScope): HttpSite | undefined {
  const scope = topScope(bindings);
  const request = requestOf(call, scope);
  if (request) return endsWithChat(request.url) ? site(call, request.token, request.url, request.via, request.body) : undefined;
  // a project function given the endpoint: a wrapper that sends it, or a descriptor that returns it
  if (!carriesChatUrl(call, scope)) return namedSender(call, scope);
  return wrapperCall(call, scope) ?? namedSender(call, scope) ?? descriptorCall(call, scope);
}

/** Request-mocking packages: their `post('…/chat/completions', …)` fakes the API for a test (N04). */
const REQUEST_MOCKS: ReadonlySet<string> = new Set(['nock', 'msw', 'fetch-mock', 'jest-fetch-mock', 'vitest-fetch-mock', 'undici-mock', 'axios-mock-adapter']);

/**
 * A test's fake of the endpoint (`nock('https://api.openai.com').post('/v1/chat/completions')`,
 * msw's `http.post('https://api.openai.com/v1/chat/completions', …)`): no site, but a double of
 * the Chat API that a migrated subject no longer calls (a `test-mock` notice).
 */
export function isRequestMock(call: ts.CallExpression, bindings: BindingScope): boolean {
  const scope = topScope(bindings);
  const module = moduleBehind(call.expression, scope, 0);
  if (!module || !REQUEST_MOCKS.has(module)) return false;
  const url = call.arguments[0] && argumentUrl(call.arguments[0], scope);
  return Boolean(url && endsWithChat(url));
}

// ---- Batch API endpoints (lib/scan/batches.ts) ----------------------------------------------------

/**
 * What a Batch API `endpoint` value names (A-BATCH), read as a URL is: the Chat Completions
 * endpoint, another endpoint (every alternative's text is known), or a value not in view.
 */
export function endpointKind(expression: ts.Expression, bindings: BindingScope): 'chat' | 'other' | 'unknown' {
  const url = urlText(expression, topScope(bindings));
  if (endsWithChat(url)) return 'chat';
  return url.alts.every((alt) => alt.every((piece) => piece !== null)) ? 'other' : 'unknown';
}

/** The object literal an argument is, or a const in view holds. */
export function objectInView(expression: ts.Expression, bindings: BindingScope): ts.ObjectLiteralExpression | undefined {
  return objectOf(expression, topScope(bindings))?.object;
}

// ---- local wrappers ------------------------------------------------------------------------------

/** How many wrappers deep a URL given to a project function is followed (a wrapper of a wrapper…). */
const MAX_WRAPPER_LEVELS = 3;

/** An argument whose static text ends with `/chat/completions`, or options with such a `path`/`url`. */
function carriesChatUrl(call: ts.CallExpression, scope: Scope): boolean {
  return call.arguments.length > 0 && call.arguments.some((arg) => {
    const a = unwrap(arg);
    if (ts.isObjectLiteralExpression(a)) {
      const url = optionText({ object: a, scope, viaParam: false }, 'url', 'path');
      return Boolean(url && endsWithChat(url));
    }
    if (!(ts.isStringLiteralLike(a) || ts.isTemplateExpression(a) || ts.isBinaryExpression(a) || ts.isIdentifier(a) || ts.isPropertyAccessExpression(a))) return false;
    return endsWithChat(urlText(a, scope));
  });
}

type FunctionWithBody = ts.FunctionLikeDeclaration & { body: ts.Node };

/** The project function a call calls: a declaration, a const arrow or function expression, a method. */
function calledFunction(call: ts.CallExpression, checker: ts.TypeChecker): FunctionWithBody | undefined {
  const callee = unwrap(call.expression);
  let decl: ts.Node | undefined;
  if (ts.isIdentifier(callee)) decl = declarationThrough(checker, callee);
  else if (ts.isPropertyAccessExpression(callee)) decl = checker.getSymbolAtLocation(callee.name)?.declarations?.[0];
  if (!decl) return undefined;
  if ((ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl)) && decl.initializer) {
    decl = unwrap(decl.initializer);
  }
  if (!isFunctionLike(decl) || !decl.body) return undefined;
  const sf = decl.getSourceFile();
  if (sf.isDeclarationFile || /[\\/]node_modules[\\/]/.test(sf.fileName)) return undefined;
  return decl as FunctionWithBody;
}

/** The scope a project function's body is read in: its parameters bound to the call's arguments, read in the caller's scope. */
function calleeScope(fn: ts.FunctionLikeDeclaration, call: ts.CallExpression, scope: Scope, depth: number): Scope {
  return { checker: scope.checker, bindings: scope.bindings, depth, params: bindParameters(fn, call), caller: scope };
}

/** The wrapper's parameters (and the names destructured from them) bound to the call's arguments. */
function bindParameters(fn: ts.FunctionLikeDeclaration, call: ts.CallExpression): Map<ts.Node, ts.Expression | undefined> {
  const params = new Map<ts.Node, ts.Expression | undefined>();
  fn.parameters.forEach((p, i) => {
    if (p.dotDotDotToken) return;
    const arg = call.arguments[i];
    params.set(p, arg);
    if (ts.isObjectBindingPattern(p.name)) {
      const object = arg && unwrap(arg);
      for (const element of p.name.elements) {
        if (element.dotDotDotToken || !ts.isIdentifier(element.name)) continue;
        const key = propertyNameText(element.propertyName ?? element.name);
        const value = object && ts.isObjectLiteralExpression(object) && key ? findProperty(object, key) : undefined;
        params.set(element, value && (ts.isShorthandPropertyAssignment(value) ? value.name : propertyValue(value)));
      }
    }
  });
  return params;
}

/**
 * `httpsPost('api.openai.com', '/v1/chat/completions', …)`: a call of a project function with a
 * chat URL argument, whose parameters reach the URL of an HTTP request in its body, directly or
 * through further project functions (`ask(url)` → `fetchSSE(url)` → `fetch(url)`).
 */
function wrapperCall(call: ts.CallExpression, scope: Scope): HttpSite | undefined {
  const request = requestInside(call, scope, 0);
  if (!request) return undefined;
  const callee = unwrap(call.expression);
  return site(call, nameToken(callee), request.url, `${shortText(callee, 30)}() → ${request.via}`, request.body ?? wrapperArgumentBody(call, scope));
}

/**
 * `openAIAccess(access, model, OPENAI_API_PATHS.chatCompletions)` → `{ headers, url: host + apiPath }`:
 * a project function given a chat URL that sends nothing itself but returns the request's URL (a
 * request descriptor a generic executor sends elsewhere, as big-AGI's dispatchers do). The request
 * cannot be followed there, so the call that builds it is the site: listed, never dropped.
 */
function descriptorCall(call: ts.CallExpression, scope: Scope): HttpSite | undefined {
  const fn = calledFunction(call, scope.checker);
  if (!fn) return undefined;
  const inner = calleeScope(fn, call, scope, 1);
  // (a function that returns the URL itself is a URL builder: where its result goes decides)
  // (an object with a function in it is a route or a handler registration, not a request: N03)
  const urls = returnExpressions(fn).map((r) => {
    const e = unwrap(r);
    const obj = objectOf(ts.isAwaitExpression(e) ? unwrap(e.expression) : e, inner);
    if (!obj || obj.object.properties.some((p) => isFunctionProperty(p, scope.checker))) return undefined;
    return optionText(obj, 'url', 'endpoint', 'href');
  });
  const chat = urls.find((u): u is UrlText => u !== undefined && u.viaParam && endsWithChat(u));
  if (!chat) return undefined;
  const callee = unwrap(call.expression);
  return site(call, nameToken(callee), chat, `${shortText(callee, 30)}() returns the request's URL; the request is sent elsewhere`, wrapperArgumentBody(call, scope));
}

/** A method, a function value, or a name whose type is callable (`{ url, handler }`). */
function isFunctionProperty(p: ts.ObjectLiteralElementLike, checker: ts.TypeChecker): boolean {
  if (ts.isMethodDeclaration(p)) return true;
  if (ts.isShorthandPropertyAssignment(p)) return checker.getTypeAtLocation(p.name).getCallSignatures().length > 0;
  const value = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : undefined;
  return Boolean(value && (isFunctionLike(value) || checker.getTypeAtLocation(value).getCallSignatures().length > 0));
}

/** The request the function `call` calls makes with the URL the call gives it, if it makes one. */
function wrappedRequest(call: ts.CallExpression, scope: Scope, level: number): Request | undefined {
  if (level >= MAX_WRAPPER_LEVELS || !carriesChatUrl(call, scope)) return undefined;
  return requestInside(call, scope, level);
}

/** wrappedRequest once the call is known to carry a chat URL. */
function requestInside(call: ts.CallExpression, scope: Scope, level: number): Request | undefined {
  const fn = calledFunction(call, scope.checker);
  if (!fn) return undefined;
  const inner = calleeScope(fn, call, scope, 0);
  let found: Request | undefined;
  // (from the function itself: an arrow's body may be the request)
  walk(fn, (n) => {
    if (found) return false;
    if (!ts.isCallExpression(n)) return;
    const nested = requestOf(n, inner);
    const request = nested ?? wrappedRequest(n, inner, level + 1);
    if (!request || !request.url.viaParam || !endsWithChat(request.url)) return;
    // a request that goes to a chat URL by itself is the site, not its callers
    const alone = nested && requestOf(n, { checker: scope.checker, bindings: scope.bindings, depth: 0 });
    if (alone && endsWithChat(alone.url)) return;
    found = nested ? request : { ...request, via: `${shortText(unwrap(n.expression), 30)}() → ${request.via}` };
  });
  return found;
}

// ---- calls named like requests -------------------------------------------------------------------

/** Words in the name of a function that sends a request (`fetch`, `fetchSSE`, `postJsonToApi`, `httpsPost`…). */
const SENDER_WORDS: ReadonlySet<string> = new Set(['fetch', 'request', 'post', 'sse', 'stream', 'http', 'https', 'xhr']);
/** Servers, routers and request mocks: their `post('/v1/chat/completions', …)` receives requests. */
const NOT_SENDERS: ReadonlySet<string> = new Set([
  'express', 'fastify', 'koa', 'koa-router', '@koa/router', 'hono', 'h3', 'elysia', 'restify', '@hapi/hapi',
  'nock', 'msw', 'fetch-mock', 'jest-fetch-mock', 'vitest-fetch-mock', 'supertest', 'undici-mock', 'axios-mock-adapter',
]);

/**
 * A call the tool cannot look into (another module's helper, a method of a base class it does not
 * see, a curried `makeFetch(opts)(url)`) that is named like a request and is given a Chat
 * Completions URL: listed as raw HTTP, since a call to the endpoint must never be dropped. Route
 * registrations (a handler among the arguments, a server or router receiver), request mocks and
 * decorators are not requests (N03, N04).
 */
function namedSender(call: ts.CallExpression, scope: Scope): HttpSite | undefined {
  if (ts.isDecorator(call.parent)) return undefined;
  const name = calleeName(call.expression);
  if (!name || !nameWords(name).some((w) => SENDER_WORDS.has(w))) return undefined;
  if (call.arguments.some((a) => isHandler(a, scope.checker))) return undefined;
  const module = moduleBehind(call.expression, scope, 0);
  if (module && NOT_SENDERS.has(module)) return undefined;
  // the URL first, or its path among the later arguments (`request('POST', '/v1/chat/completions', host)`)
  const url = call.arguments.map((a) => argumentUrl(a, scope)).find((u) => u && endsWithChat(u));
  if (!url) return undefined;
  const token = nameToken(call.expression);
  return site(call, token, url, `${shortText(unwrap(call.expression), 30)}(…), a request by its name`, requestBody(call, scope, false));
}

/** A function passed as an argument: inline, or a name declared as a function. */
function isHandler(arg: ts.Expression, checker: ts.TypeChecker): boolean {
  const a = unwrap(arg);
  if (isFunctionLike(a)) return true;
  if (!ts.isIdentifier(a)) return false;
  const decl = declarationThrough(checker, a);
  return Boolean(decl && (ts.isFunctionDeclaration(decl) || (ts.isVariableDeclaration(decl) && decl.initializer && isFunctionLike(unwrap(decl.initializer)))));
}

/** The package a receiver comes from: `app` of `const app = express()`, `router` of `express.Router()`, `nock(url)`. */
function moduleBehind(expression: ts.Expression, scope: Scope, depth: number): string | undefined {
  if (depth > 6) return undefined;
  const e = unwrap(expression);
  const binding = ts.isIdentifier(e) || ts.isPropertyAccessExpression(e) ? bindingOfExpression(scope.bindings, e) : undefined;
  if (binding) return binding.module;
  if (ts.isCallExpression(e) || ts.isNewExpression(e)) return moduleBehind(e.expression, scope, depth + 1);
  if (ts.isPropertyAccessExpression(e)) return moduleBehind(e.expression, scope, depth + 1);
  if (ts.isIdentifier(e)) {
    const decl = declarationThrough(scope.checker, e);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return moduleBehind(decl.initializer, scope, depth + 1);
  }
  return undefined;
}

/** The name token of a callee: `f`, the `f` of `x.f`, of `f(a)(b)`. */
function nameToken(callee: ts.Expression): ts.Node {
  const c = unwrap(callee);
  if (ts.isPropertyAccessExpression(c)) return c.name;
  if (ts.isCallExpression(c)) return nameToken(c.expression);
  return c;
}

/** A `{ messages, … }` object among the wrapper call's arguments. */
function wrapperArgumentBody(call: ts.CallExpression, scope: Scope): ts.ObjectLiteralExpression | undefined {
  for (const arg of call.arguments) {
    const obj = bodyObject(arg, scope);
    if (obj && hasMessages(obj)) return obj;
  }
  return undefined;
}
