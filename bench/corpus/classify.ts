/**
 * Reconciliation of one file: every textual occurrence of a Chat Completions spelling is either
 * inside a site of the report, or explained as a non-site with a category, or `unexplained`.
 *
 * The spellings (found by text, then classified with the TypeScript parser):
 *   member   `chat.completions`, `chat?.completions`, `chat⏎  .completions` (any case: `Chat.Completions`)
 *   element  `['chat']['completions']`, `['chat'].completions`, `chat['completions']`
 *   path     `/chat/completions`, and `chat/completions` at the start of a word
 *   v3       `createChatCompletion`
 *
 * The categories (DEVELOPERS.md explains each):
 *   site, comment, string, type, test-double, feature-detection, non-call, other-sdk, own-api,
 *   file-error, not-scanned, unexplained.
 *
 * The rule is honesty: an occurrence that looks like a real call (an SDK-shaped member chain that
 * is called, an endpoint URL that reaches a call that could send it) and that no reported site
 * covers is `unexplained`, whatever its receiver looks like. Only the shapes listed here explain
 * an occurrence. Data flow is followed inside the file only (variables, `this.x` fields, one
 * function return), by name, a few hops deep; one exception: a receiver imported from a relative
 * module (or from SvelteKit's `$lib`, src/lib by default) is followed into that module when it
 * exports a const the module builds with `new X(…)` (`export const groq = new Groq(…)` in
 * lib/groq.ts), and no further.
 */
import ts from 'typescript';
import { isOtherSdk, packageName } from '../../lib/rules/other-sdks.js';

export type Category =
  | 'site'
  | 'comment'
  | 'string'
  | 'type'
  | 'test-double'
  | 'feature-detection'
  | 'non-call'
  | 'other-sdk'
  | 'own-api'
  | 'file-error'
  /** in a component file (.vue, .svelte, .astro) the report lists with a `not-scanned` notice */
  | 'not-scanned'
  | 'unexplained';

export const CATEGORIES: readonly Category[] = [
  'site', 'comment', 'string', 'type', 'test-double', 'feature-detection', 'non-call', 'other-sdk', 'own-api', 'file-error', 'not-scanned', 'unexplained',
];

export type Spelling = 'member' | 'element' | 'path' | 'v3';

export interface Occurrence {
  file: string;
  line: number;
  column: number;
  spelling: Spelling;
  category: Category;
  /** why this category, in a few words; for `unexplained`, the shape seen */
  detail: string;
  /** the source line, trimmed and cut to 200 characters */
  text: string;
  /** an endpoint string whose value leaves the file (exported, returned, unused here): cross-file flow is not followed */
  leavesFile?: boolean;
}

export interface ReportSite {
  file: string;
  line: number;
  column: number;
  api: string;
  status: string;
  kinds?: string[];
  client?: { provider?: string; evidence?: string };
  reasons?: Array<{ code: string; message?: string }>;
}

export interface FileInput {
  /** relative to the export root, as in the report */
  file: string;
  text: string;
  sites: ReportSite[];
  fileError: string | undefined;
  /** some scanned file of the repository mentions `OpenAIApi` (the v3 client class) */
  repoHasV3Client: boolean;
  /** the names of the repository's own packages (its workspaces), openai excluded */
  ownPackages?: ReadonlySet<string>;
  /** the text of the project file a relative specifier written in `file` names, when there is one */
  readRelative?: (fromFile: string, specifier: string) => { file: string; text: string } | undefined;
}

export interface SiteCheck {
  site: ReportSite;
  /** the site's position is not at a call's callee */
  unlocated?: boolean;
  /** no occurrence of any spelling lies in the site's call or in the values that flow into it */
  noOccurrence?: boolean;
  /** every construction of the receiver comes from another vendor's package (N05) */
  otherSdk?: string;
}

export interface FileResult {
  occurrences: Occurrence[];
  siteChecks: SiteCheck[];
}

// ---------------------------------------------------------------------------------------------
// Finding the occurrences

const PATTERNS: Array<{ spelling: Spelling; re: RegExp }> = [
  { spelling: 'member', re: /\bchat\s*(?:\?\.|\.)\s*completions\b/gi },
  {
    spelling: 'element',
    re: /\[\s*(['"`])chat\1\s*\]\s*(?:\?\.)?\s*(?:\[\s*(['"`])completions\2\s*\]|\.\s*completions\b)|\bchat\s*(?:\?\.)?\s*\[\s*(['"`])completions\3\s*\]/gi,
  },
  { spelling: 'path', re: /(?:\/|\b)chat\/completions\b/g },
  { spelling: 'v3', re: /createChatCompletion(?![\w$])/g },
];

/** Quick test: could the text hold an occurrence at all. */
export const ANY_SPELLING = /chat\s*(?:\?\.|\.)\s*completions|['"`]chat['"`]|chat\s*(?:\?\.)?\s*\[|chat\/completions|createChatCompletion/i;

interface RawOccurrence {
  spelling: Spelling;
  /** offset of the match */
  index: number;
  /** offset of the token to classify: `chat` (identifier or string), `/chat/…`, `createChatCompletion` */
  anchor: number;
}

function findRaw(text: string): RawOccurrence[] {
  const out: RawOccurrence[] = [];
  for (const { spelling, re } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let anchor = m.index;
      if (spelling === 'element') {
        const q = m[0].search(/['"`]chat/i);
        anchor = m[0][0] === '[' && q >= 0 ? m.index + q : m.index;
      }
      out.push({ spelling, index: m.index, anchor });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

// ---------------------------------------------------------------------------------------------
// Syntax helpers

function scriptKind(file: string): ts.ScriptKind {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.[mc]?ts$/.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS; // .js .mjs .cjs: JSX is accepted in JS by the TypeScript parser
}

function isJSDocKind(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstJSDocNode && kind <= ts.SyntaxKind.LastJSDocNode;
}

/**
 * The token whose text contains `pos`, or undefined when `pos` is in trivia (a comment, since
 * the spellings are never whitespace) or inside a JSDoc comment.
 */
function tokenAt(sf: ts.SourceFile, pos: number): ts.Node | undefined {
  let node: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    for (const child of node.getChildren(sf)) {
      if (isJSDocKind(child.kind)) {
        if (pos >= child.pos && pos < child.end) return undefined;
        continue;
      }
      if (pos >= child.getStart(sf) && pos < child.end) {
        next = child;
        break;
      }
    }
    if (!next) return node !== sf && node.getChildCount(sf) === 0 ? node : undefined;
    node = next;
  }
}

function isStringToken(n: ts.Node): boolean {
  switch (n.kind) {
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
    case ts.SyntaxKind.TemplateHead:
    case ts.SyntaxKind.TemplateMiddle:
    case ts.SyntaxKind.TemplateTail:
    case ts.SyntaxKind.RegularExpressionLiteral:
    case ts.SyntaxKind.JsxText:
      return true;
    default:
      return false;
  }
}

/** Parentheses, `!`, `as`, `satisfies`, `<T>x` around an expression. */
function isWrapper(n: ts.Node): boolean {
  return (
    ts.isParenthesizedExpression(n) || ts.isNonNullExpression(n) || ts.isAsExpression(n) ||
    ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n)
  );
}

function unwrapDown(n: ts.Expression): ts.Expression {
  while (isWrapper(n)) n = (n as ts.ParenthesizedExpression).expression;
  return n;
}

function climbWrappers(n: ts.Node): ts.Node {
  while (n.parent && isWrapper(n.parent)) n = n.parent;
  return n;
}

function isCallLike(n: ts.Node): n is ts.CallExpression | ts.NewExpression {
  return ts.isCallExpression(n) || ts.isNewExpression(n);
}

/** The property names of a member chain, outermost last; the root expression. */
function chainOf(top: ts.Expression): { names: string[]; root: ts.Expression } {
  const names: string[] = [];
  let e = unwrapDown(top);
  for (;;) {
    if (ts.isPropertyAccessExpression(e)) {
      names.unshift(e.name.text);
      e = unwrapDown(e.expression);
    } else if (ts.isElementAccessExpression(e)) {
      const a = e.argumentExpression;
      names.unshift(ts.isStringLiteralLike(a) ? a.text : '[]');
      e = unwrapDown(e.expression);
    } else break;
  }
  return { names, root: e };
}

/** The last name of a callee: `fetch`, `post` in `axios.post`, `request` in `https.request`. */
function calleeName(call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression): string {
  const e = unwrapDown(ts.isTaggedTemplateExpression(call) ? call.tag : call.expression);
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression.text;
  return '';
}

/** The root identifier of a callee chain (`vi` in `vi.spyOn`), or `nock` for `nock(…).post`. */
function calleeRoot(call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression): string {
  let e: ts.Expression = unwrapDown(ts.isTaggedTemplateExpression(call) ? call.tag : call.expression);
  for (;;) {
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = unwrapDown(e.expression);
    else if (ts.isCallExpression(e)) e = unwrapDown(e.expression);
    else break;
  }
  if (ts.isIdentifier(e)) return e.text;
  if (e.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  return '';
}

function lineText(sf: ts.SourceFile, line0: number): string {
  const starts = sf.getLineStarts();
  const end = line0 + 1 < starts.length ? starts[line0 + 1] : sf.text.length;
  const t = sf.text.slice(starts[line0], end).trim();
  return t.length > 200 ? t.slice(0, 197) + '...' : t;
}

/**
 * Scope-correct name resolution: the binder of a one-file program (no lib, no imports resolved),
 * set up by classifyFile for the file being classified.
 */
let checker: ts.TypeChecker;
let identifiers: ts.Identifier[] = [];
const symbols = new Map<ts.Node, ts.Symbol | undefined>();

function bind(sf: ts.SourceFile): void {
  const options: ts.CompilerOptions = {
    noLib: true, noResolve: true, allowJs: true, checkJs: false, noEmit: true, types: [],
    target: ts.ScriptTarget.Latest, jsx: ts.JsxEmit.Preserve,
  };
  const host: ts.CompilerHost = {
    getSourceFile: (f) => (f === sf.fileName ? sf : undefined),
    getDefaultLibFileName: () => '/lib.d.ts',
    writeFile: () => {},
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => f === sf.fileName,
    readFile: () => undefined,
  };
  checker = ts.createProgram({ rootNames: [sf.fileName], options, host }).getTypeChecker();
  symbols.clear();
  identifiers = [];
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) identifiers.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

function symbolOf(id: ts.Node): ts.Symbol | undefined {
  if (symbols.has(id)) return symbols.get(id);
  let sym: ts.Symbol | undefined;
  try {
    const p = id.parent;
    sym = p && ts.isShorthandPropertyAssignment(p) && p.name === id ? checker.getShorthandAssignmentValueSymbol(p) : checker.getSymbolAtLocation(id);
  } catch {
    sym = undefined;
  }
  symbols.set(id, sym);
  return sym;
}

/** References to the binding `id` (a declaration's name or a reference) resolves to, declarations excluded. */
function referencesOf(id: ts.Node): ts.Identifier[] {
  const sym = symbolOf(id);
  if (!sym) return [];
  const names = new Set((sym.declarations ?? []).map((d) => (d as ts.NamedDeclaration).name));
  return identifiers.filter((i) => i !== id && !names.has(i) && symbolOf(i) === sym);
}

/** The declarations of the binding `id` resolves to. */
function declarationsOf(id: ts.Node): ts.Declaration[] {
  return symbolOf(id)?.declarations ?? [];
}

/** `this.<name>` expressions in the file. */
function thisReferences(sf: ts.SourceFile, name: string): ts.PropertyAccessExpression[] {
  const out: ts.PropertyAccessExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword && n.name.text === name) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Where a receiver comes from (for N05, other vendors' SDKs)

/** The module an identifier is imported or required from, in this file. */
function moduleOfIdentifier(id: ts.Identifier): string | undefined {
  for (const d of declarationsOf(id)) {
    if (ts.isImportSpecifier(d)) return (d.parent.parent.parent.moduleSpecifier as ts.StringLiteral).text;
    if (ts.isImportClause(d)) return (d.parent.moduleSpecifier as ts.StringLiteral).text;
    if (ts.isNamespaceImport(d)) return (d.parent.parent.moduleSpecifier as ts.StringLiteral).text;
    if (ts.isImportEqualsDeclaration(d) && ts.isExternalModuleReference(d.moduleReference) && ts.isStringLiteral(d.moduleReference.expression)) {
      return d.moduleReference.expression.text;
    }
    const v = ts.isBindingElement(d) ? d.parent.parent : d;
    if (ts.isVariableDeclaration(v) && v.initializer) {
      const m = requiredModule(v.initializer);
      if (m) return m;
    }
  }
  return undefined;
}

/**
 * `require('x')`, `require('x').Y`, `await import('x')`, `(await import('x')).default`, and a
 * loader given the import to run (`await loadPeer('x', () => import('x'))`).
 */
function requiredModule(e: ts.Expression): string | undefined {
  e = unwrapDown(e);
  if (ts.isAwaitExpression(e)) e = unwrapDown(e.expression);
  while (ts.isPropertyAccessExpression(e)) e = unwrapDown(e.expression);
  if (ts.isAwaitExpression(e)) e = unwrapDown(e.expression);
  if (!ts.isCallExpression(e)) return undefined;
  if (e.arguments.length >= 1 && ts.isStringLiteralLike(e.arguments[0])) {
    if ((ts.isIdentifier(e.expression) && e.expression.text === 'require') || e.expression.kind === ts.SyntaxKind.ImportKeyword) {
      return e.arguments[0].text;
    }
  }
  for (const a of e.arguments) {
    const f = unwrapDown(a);
    if (ts.isArrowFunction(f) && !ts.isBlock(f.body)) {
      const body = unwrapDown(f.body);
      if (ts.isCallExpression(body) && body.expression.kind === ts.SyntaxKind.ImportKeyword && body.arguments[0] && ts.isStringLiteralLike(body.arguments[0])) {
        return body.arguments[0].text;
      }
    }
  }
  return undefined;
}

/** The module of a constructor, factory or type name: `Groq`, `ns.Groq`. */
function moduleOfName(sf: ts.SourceFile, e: ts.Node): string | undefined {
  if (ts.isIdentifier(e)) return moduleOfIdentifier(e);
  if (ts.isPropertyAccessExpression(e)) return moduleOfName(sf, unwrapDown(e.expression));
  if (ts.isQualifiedName(e)) return moduleOfName(sf, e.left);
  return undefined;
}

/** Set by classifyFile: how to read a relative module of the file being classified. */
let readRelative: FileInput['readRelative'];

/**
 * The package whose class constructs the const a relative module exports under the imported name
 * (`import { groq } from '../lib/groq'`, there `export const groq = new Groq(…)` with Groq from
 * 'groq-sdk'), or the specifier itself when that cannot be read so plainly.
 */
function builtIn(sf: ts.SourceFile, specifier: string, d: ts.ImportSpecifier | ts.ImportClause): string {
  if (ts.isImportClause(d)) return specifier;
  const target = readRelative?.(sf.fileName.replace(/^\//, ''), specifier);
  if (!target) return specifier;
  const other = ts.createSourceFile(`/${target.file}`, target.text, ts.ScriptTarget.Latest, true, scriptKind(target.file));
  bind(other);
  const name = (d.propertyName ?? d.name).text;
  for (const st of other.statements) {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (!(st.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const v of st.declarationList.declarations) {
      if (!ts.isIdentifier(v.name) || v.name.text !== name || !v.initializer) continue;
      const init = unwrapDown(v.initializer);
      if (!ts.isNewExpression(init)) return specifier;
      return moduleOfName(other, unwrapDown(init.expression)) ?? specifier;
    }
  }
  return specifier;
}

/** Modules of the values an expression can be: `new Y()`, `Y()`, `createY()`, an import, `require()`. */
function modulesOfValue(sf: ts.SourceFile, e: ts.Expression, depth: number, out: string[]): void {
  e = unwrapDown(e);
  if (ts.isAwaitExpression(e)) e = unwrapDown(e.expression);
  const req = requiredModule(e);
  if (req) return void out.push(req);
  if (ts.isNewExpression(e) || ts.isCallExpression(e)) {
    const m = moduleOfName(sf, unwrapDown(e.expression));
    // a wrapper built around another vendor's client (`Instructor({ client: anthropic })`): the
    // calls go to that vendor (P-WRAPPER of a non-openai client is N05)
    if ((!m || !isOtherSdk(m)) && depth < 3) {
      const wrapped: string[] = [];
      for (const arg of e.arguments ?? []) {
        const a = unwrapDown(arg);
        const values = ts.isObjectLiteralExpression(a)
          ? a.properties.flatMap((p) => (ts.isPropertyAssignment(p) ? [p.initializer] : ts.isShorthandPropertyAssignment(p) ? [p.name] : []))
          : [a];
        for (const v of values) {
          const mods: string[] = [];
          modulesOfValue(sf, v, depth + 1, mods);
          if (mods.length && mods.every((x) => x !== '?' && isOtherSdk(x))) wrapped.push(...mods);
        }
      }
      if (wrapped.length) return void out.push(...wrapped);
    }
    out.push(m ?? '?');
    return;
  }
  if (ts.isConditionalExpression(e)) {
    modulesOfValue(sf, e.whenTrue, depth, out);
    modulesOfValue(sf, e.whenFalse, depth, out);
    return;
  }
  if (ts.isIdentifier(e) && depth < 3) return void modulesOfReceiver(sf, e, undefined, depth + 1, out);
  out.push('?');
}

function modulesOfType(sf: ts.SourceFile, t: ts.TypeNode | undefined, out: string[]): void {
  if (t && ts.isTypeReferenceNode(t)) out.push(moduleOfName(sf, t.typeName) ?? '?');
  else out.push('?');
}

/**
 * Modules the receiver of a chain can come from: its variable's initializers and assignments,
 * its parameter type, its import; for `this.f`, the class's field initialiser or type and every
 * `this.f = …`. `?` stands for anything not traced to a module.
 */
function modulesOfReceiver(sf: ts.SourceFile, root: ts.Expression, firstName: string | undefined, depth: number, out: string[]): void {
  if (root.kind === ts.SyntaxKind.ThisKeyword && firstName) {
    const cls = findAncestor(root, (n) => ts.isClassLike(n)) as ts.ClassLikeDeclaration | undefined;
    if (!cls) return void out.push('?');
    let found = false;
    for (const m of cls.members) {
      if (ts.isPropertyDeclaration(m) && m.name.getText(sf).replace(/^#/, '') === firstName.replace(/^#/, '')) {
        found = true;
        if (m.initializer) modulesOfValue(sf, m.initializer, depth, out);
        else modulesOfType(sf, m.type, out);
      }
      if (ts.isConstructorDeclaration(m)) {
        for (const p of m.parameters) {
          if (ts.isIdentifier(p.name) && p.name.text === firstName && p.modifiers?.length) {
            found = true;
            modulesOfType(sf, p.type, out);
          }
        }
      }
    }
    const visit = (n: ts.Node): void => {
      if (
        ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(n.left) && n.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
        n.left.name.text === firstName
      ) {
        found = true;
        modulesOfValue(sf, n.right, depth, out);
      }
      ts.forEachChild(n, visit);
    };
    visit(cls);
    if (!found) out.push('?');
    return;
  }
  if (!ts.isIdentifier(root)) return void out.push('?');
  const decls = declarationsOf(root);
  if (decls.length === 0) return void out.push('?');
  for (const d of decls) {
    if (ts.isImportSpecifier(d) || ts.isImportClause(d) || ts.isNamespaceImport(d) || ts.isImportEqualsDeclaration(d)) {
      const m = moduleOfIdentifier(root);
      out.push((m && /^(\.\.?|\$lib)\//.test(m) && (ts.isImportSpecifier(d) || ts.isImportClause(d)) ? builtIn(sf, m, d) : m) ?? '?');
    } else if (ts.isVariableDeclaration(d)) {
      if (d.initializer) modulesOfValue(sf, d.initializer, depth, out);
      else if (d.type) modulesOfType(sf, d.type, out);
      else out.push('?');
    } else if (ts.isParameter(d)) {
      modulesOfType(sf, d.type, out);
    } else if (ts.isBindingElement(d)) {
      const v = d.parent.parent;
      const m = ts.isVariableDeclaration(v) && v.initializer ? requiredModule(v.initializer) : undefined;
      out.push(m ?? '?');
    } else out.push('?');
  }
  // later assignments `x = new Y()`
  const visit = (n: ts.Node): void => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left) && n.left !== root && symbolOf(n.left) === symbolOf(root) && symbolOf(root)) {
      modulesOfValue(sf, n.right, depth, out);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}

/** The other vendor's package when every traced module of the receiver is one (N05). */
function otherSdkOf(sf: ts.SourceFile, root: ts.Expression, firstName: string | undefined): string | undefined {
  return receiverPackages(sf, root, firstName, isOtherSdk);
}

/** The packages every construction of the receiver comes from, when each passes `test`. */
function receiverPackages(sf: ts.SourceFile, root: ts.Expression, firstName: string | undefined, test: (module: string) => boolean): string | undefined {
  const mods: string[] = [];
  modulesOfReceiver(sf, root, firstName, 0, mods);
  if (mods.length === 0 || !mods.every((m) => m !== '?' && test(m))) return undefined;
  return [...new Set(mods.map(packageName))].join(', ');
}

/** `x` of `x.chat.completions.create(…)` is a const built by `new C(…)` in this file (not a factory's result). */
function constructedHere(root: ts.Expression): boolean {
  if (!ts.isIdentifier(root)) return false;
  return declarationsOf(root).some((d) => ts.isVariableDeclaration(d) && d.initializer !== undefined && ts.isNewExpression(unwrapDown(d.initializer)));
}

/** The repository's own packages every construction of the receiver comes from (a workspace gateway class). */
function ownPackageOf(sf: ts.SourceFile, root: ts.Expression, firstName: string | undefined, own: ReadonlySet<string>): string | undefined {
  return receiverPackages(sf, root, firstName, (m) => own.has(packageName(m)));
}

function findAncestor(n: ts.Node, test: (n: ts.Node) => boolean): ts.Node | undefined {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) if (test(p)) return p;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Sites of the report: the call each one points at, and what flows into it

interface Span {
  start: number;
  end: number;
  site: ReportSite;
}

/** The call whose callee holds `pos`: the site's call. */
function callAt(sf: ts.SourceFile, pos: number): ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression | undefined {
  const tok = tokenAt(sf, pos);
  if (!tok) return undefined;
  for (let n: ts.Node | undefined = tok; n && n !== sf; n = n.parent) {
    const p: ts.Node | undefined = n.parent;
    if (!p) break;
    if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === n) return p;
    if (ts.isTaggedTemplateExpression(p) && p.tag === n) return p;
    if (ts.isStatement(p) || ts.isFunctionLike(p)) break;
  }
  return undefined;
}

/**
 * Values that flow into a call in the same file: the initialisers of the variables and `this.x`
 * fields its callee and arguments name, then theirs (3 hops).
 */
function flowSpans(sf: ts.SourceFile, call: ts.Node, site: ReportSite): Span[] {
  const spans: Span[] = [];
  const seen = new Set<ts.Node>();
  const queue: Array<{ node: ts.Node; depth: number }> = [{ node: call, depth: 0 }];
  while (queue.length) {
    const { node, depth } = queue.shift()!;
    if (depth >= 3) continue;
    const visit = (n: ts.Node): void => {
      let inits: ts.Node[] = [];
      if (ts.isPropertyAccessExpression(n) && n.expression.kind === ts.SyntaxKind.ThisKeyword) {
        const cls = findAncestor(n, (a) => ts.isClassLike(a)) as ts.ClassLikeDeclaration | undefined;
        for (const m of cls?.members ?? []) {
          if (ts.isPropertyDeclaration(m) && m.initializer && m.name.getText(sf) === n.name.text) inits.push(m.initializer);
        }
      } else if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) {
        inits = declarationsOf(n)
          .filter((d): d is ts.VariableDeclaration => ts.isVariableDeclaration(d) && !!d.initializer)
          .map((d) => d.initializer!);
      }
      for (const i of inits) {
        if (seen.has(i)) continue;
        seen.add(i);
        spans.push({ start: i.getStart(sf), end: i.end, site });
        queue.push({ node: i, depth: depth + 1 });
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Where an endpoint string goes

/** Calls that carry the string on: their result is the URL, so the search goes on from the call. */
const CARRIER_CALLS = new Set(['URL', 'String', 'join', 'resolve', 'concat', 'encodeURI', 'format', 'Request', 'toString', 'trim', 'toLowerCase']);
/** Calls that read a string without sending it anywhere. */
const STRING_READERS = new Set([
  'endsWith', 'startsWith', 'includes', 'indexOf', 'lastIndexOf', 'match', 'matchAll', 'search', 'replace', 'replaceAll',
  'split', 'test', 'exec', 'RegExp', 'localeCompare', 'has', 'get', 'set', 'delete', 'add', 'push',
  'log', 'debug', 'info', 'warn', 'error', 'trace', 't',
  // array methods on a list of URL patterns, serialisation, object helpers, UI state, messaging, storage
  'some', 'every', 'find', 'findIndex', 'filter', 'map', 'forEach', 'stringify', 'keys', 'values', 'entries', 'assign',
  'freeze', 'useState', 'useRef', 'setState', 'postMessage', 'sendMessage', 'setItem',
  'defaults', 'defaultsDeep', 'merge', 'cloneDeep', 'pick', 'omit',
]);
/** React state setters and hooks (`setEditingApiMode`, `useMemo`). */
const UI_STATE = /^(set|use)[A-Z]/;
/** Callee names that can send a request: an endpoint string reaching one of these is never explained by a test file. */
const HTTP_NAME = /^(fetch\w*|\w*Fetch|request|post|put|patch|get|send|axios|got|ky|xhr|open)$|^https?[A-Z_]|^(send|make|do|post)(Json|Request)|^\w*(EventSource|SSE)$/i;

/** Test sources by path: a string there that reaches a test helper (not an HTTP call) is a test fixture. */
export function isTestFile(file: string): boolean {
  return /(^|\/)(__tests__|__mocks__|tests?|test-utils|testing|e2e|fixtures|mocks)\//.test(file) ||
    /[._](test|spec|vitest|servertest|e2e)\.[cm]?[jt]sx?$/.test(file);
}
const TEST_TITLES = new Set(['describe', 'it', 'test', 'bench', 'suite']);
const TEST_ASSERTS = new Set([
  'expect', 'assert', 'toBe', 'toEqual', 'toStrictEqual', 'toContain', 'toMatch', 'toHaveBeenCalledWith',
  'toHaveBeenNthCalledWith', 'toHaveBeenLastCalledWith', 'toHaveProperty', 'strictEqual', 'deepEqual', 'deepStrictEqual',
  'equal', 'ok', 'calledWith', 'stringContaining', 'objectContaining',
]);
const TEST_ROOTS = new Set(['expect', 'assert', 'nock', 'fetchMock', 'mockFetch', 'sinon', 'td', 'msw', 'server']);
const ROUTE_RECEIVERS = new Set(['app', 'router', 'server', 'fastify', 'hono', 'route', 'routes', 'express', 'api_router']);
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'route', 'on', 'options', 'head']);

/** How many bindings, calls and parameters a string is followed through. */
const MAX_DEPTH = 10;

type Verdict = {
  category: Category;
  detail: string;
  /** an unexplained endpoint string that reaches a call named like an HTTP client */
  http?: boolean;
  /** a string whose value leaves the file (exported, returned, a binding unused here): not followed */
  leaves?: boolean;
};

interface FlowContext {
  sf: ts.SourceFile;
  spans: Span[];
  seen: Set<ts.Node>;
  /** sites an occurrence was matched to */
  used: Set<ReportSite>;
  testFile: boolean;
}

/** `<x>.chat.completions` whose `completions` token is at `pos`, when that access is not called or continued. */
function handedOutResourceAt(sf: ts.SourceFile, pos: number): ts.PropertyAccessExpression | undefined {
  const tok = tokenAt(sf, pos);
  const access = tok?.parent;
  if (!tok || !access || !ts.isPropertyAccessExpression(access) || access.name !== tok || tok.getText(sf) !== 'completions') return undefined;
  const chat = unwrapDown(access.expression);
  if (!ts.isPropertyAccessExpression(chat) || chat.name.text !== 'chat') return undefined;
  const outer = climbWrappers(access);
  return outer.parent && (ts.isPropertyAccessExpression(outer.parent) || ts.isElementAccessExpression(outer.parent)) ? undefined : access;
}

/** The site whose call contains `pos`. */
function siteAt(spans: Span[], pos: number): Span | undefined {
  let best: Span | undefined;
  for (const s of spans) if (pos >= s.start && pos < s.end && (!best || s.end - s.start < best.end - best.start)) best = s;
  return best;
}

function isFunctionLikeArg(a: ts.Expression): boolean {
  const e = unwrapDown(a);
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e) ||
    (ts.isIdentifier(e) && /handler|controller|route|middleware|resolver/i.test(e.text));
}

function judgeCall(ctx: FlowContext, call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression, arg: ts.Node, depth: number): Verdict {
  const { sf } = ctx;
  const name = calleeName(call);
  const root = calleeRoot(call);
  const line = sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1;
  const inSite = siteAt(ctx.spans, call.getStart(sf));
  if (inSite) {
    ctx.used.add(inSite.site);
    return { category: 'site', detail: `flows into the ${inSite.site.api} site at ${inSite.site.line}:${inSite.site.column}` };
  }
  if (TEST_TITLES.has(name) && root === name) return { category: 'string', detail: `test title (${name})` };
  if (TEST_ASSERTS.has(name) || TEST_ROOTS.has(root) || /^(mock|fake|stub)/i.test(root) || /mock/i.test(name)) {
    return { category: 'test-double', detail: `test assertion or mock (${root && root !== name ? root + '…' : ''}${name})` };
  }
  const args: readonly ts.Expression[] = isCallLike(call) ? call.arguments ?? [] : [];
  if (ROUTE_METHODS.has(name) && (ROUTE_RECEIVERS.has(root) || args.slice(1).some(isFunctionLikeArg))) {
    return { category: 'string', detail: `route or handler definition (${root}.${name}, N03)` };
  }
  if (STRING_READERS.has(name) || UI_STATE.test(name) || root === 'console' || root === 'JSON' || root === 'Object' || /(Error|Exception)$/.test(name)) {
    return { category: 'string', detail: `read by ${name}()` };
  }
  const callee = unwrapDown(ts.isTaggedTemplateExpression(call) ? call.tag : call.expression);
  if (name === 'create' && chainOf(callee).names.includes('batches')) {
    return { category: 'string', detail: 'Batch API endpoint field (names the endpoint of the batch lines; not a request)' };
  }
  const http = HTTP_NAME.test(name);
  if (ctx.testFile && !http) return { category: 'test-double', detail: `in a test file, given to the test helper ${name}()` };
  const where = `${root && root !== name ? root + '.…' : ''}${name || 'a call'}(…) at line ${line}`;
  if (!http && depth < MAX_DEPTH) {
    // what the call's result becomes: a URL helper whose result reaches a reported site is part of it
    const downstream = worst(followValue(ctx, call, depth + 1));
    // a function of this file: follow the parameter that receives the string into its body
    const inside = intoLocalFunction(ctx, call, callee, arg, depth);
    if (inside) {
      const v = worst([...inside, downstream]);
      if (v.category === 'site' || v.http) return v;
      if (v.category === 'unexplained') return { ...v, detail: `endpoint string given to ${where}; then ${v.detail.replace(/^endpoint string /, '')}` };
      return { category: 'string', detail: `given to ${name}() of this file, which does not send it, nor its result (${v.detail})` };
    }
    if (downstream.category === 'site') return downstream;
    const then = downstream.category === 'unexplained' ? `; then ${downstream.detail.replace(/^endpoint string /, '')}` : '';
    return { category: 'unexplained', detail: `endpoint string reaches ${where}, no site reported there${then}`, http: downstream.http };
  }
  return { category: 'unexplained', detail: `endpoint string reaches ${where}, no site reported there`, http };
}

/**
 * When the callee is a function or method declared in this file, the verdicts of the parameter
 * that receives `arg`, followed inside it; undefined when the callee is not in view.
 */
function intoLocalFunction(ctx: FlowContext, call: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression, callee: ts.Expression, arg: ts.Node, depth: number): Verdict[] | undefined {
  if (!isCallLike(call)) return undefined;
  const index = (call.arguments ?? []).findIndex((a) => a === arg || climbWrappers(a) === arg || unwrapDown(a) === arg);
  if (index < 0) return undefined;
  let fn: ts.SignatureDeclaration | undefined;
  if (ts.isIdentifier(callee)) {
    for (const d of declarationsOf(callee)) {
      if (ts.isFunctionDeclaration(d)) fn = d;
      else if (ts.isVariableDeclaration(d) && d.initializer) {
        const init = unwrapDown(d.initializer);
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) fn = init;
      }
    }
  } else if (ts.isPropertyAccessExpression(callee) && callee.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const cls = findAncestor(callee, (n) => ts.isClassLike(n)) as ts.ClassLikeDeclaration | undefined;
    for (const m of cls?.members ?? []) {
      if ((ts.isMethodDeclaration(m) || ts.isPropertyDeclaration(m)) && m.name.getText(ctx.sf) === callee.name.text) {
        if (ts.isMethodDeclaration(m)) fn = m;
        else if (m.initializer && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer))) fn = m.initializer;
      }
    }
  }
  if (!fn || !('body' in fn) || !fn.body) return undefined;
  const param = fn.parameters[index];
  if (!param || !ts.isIdentifier(param.name)) return undefined;
  return followName(ctx, param.name, depth + 1);
}

/** Keys of a settings tree whose values are read at run time (configuration, not a request). */
const SETTINGS_KEY = /^['"]?(defaultSettings|defaults?|settings|config(uration)?)['"]?$/i;

/**
 * Follow an endpoint string (or a value holding it) to the calls that receive it. Returns the
 * verdicts of those calls, or a `string` verdict saying where the search stopped.
 */
function followValue(ctx: FlowContext, start: ts.Node, depth: number): Verdict[] {
  const { sf } = ctx;
  if (ctx.seen.has(start) || depth > MAX_DEPTH) return [];
  ctx.seen.add(start);
  let cur: ts.Node = start;
  for (;;) {
    const p: ts.Node | undefined = cur.parent;
    if (!p) return [{ category: 'string', detail: 'not used' }];
    if (isWrapper(p) || ts.isTemplateSpan(p) || ts.isTemplateExpression(p) || ts.isSpreadElement(p) || ts.isArrayLiteralExpression(p)) {
      cur = p;
      continue;
    }
    if (ts.isConditionalExpression(p)) {
      if (p.condition === cur) return [{ category: 'string', detail: 'used as a condition' }];
      cur = p;
      continue;
    }
    if (ts.isBinaryExpression(p)) {
      const op = p.operatorToken.kind;
      if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.AmpersandAmpersandToken) {
        cur = p;
        continue;
      }
      if ((op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.PlusEqualsToken) && p.right === cur) {
        const left = unwrapDown(p.left);
        if (ts.isIdentifier(left)) return followName(ctx, left, depth, p.getStart(sf));
        if (ts.isPropertyAccessExpression(left) && left.expression.kind === ts.SyntaxKind.ThisKeyword) return followThis(ctx, left.name.text, depth);
        return [{ category: 'string', detail: `assigned to ${left.getText(sf).slice(0, 40)}` }];
      }
      return [{ category: 'string', detail: `compared (${ts.tokenToString(op) ?? op})` }];
    }
    if ((ts.isPropertyAssignment(p) && p.initializer === cur) || ts.isShorthandPropertyAssignment(p)) {
      // a default in a settings object (`defaultSettings: { apiPath: '/v1/chat/completions' }`) is
      // configuration: what reads it at run time is another module's business, with a URL the
      // tool cannot see statically there
      if (ts.isPropertyAssignment(p) && SETTINGS_KEY.test(p.name.getText(sf)) && cur !== start) {
        return [{ category: 'string', detail: `a configuration default under ${p.name.getText(sf)}` }];
      }
      cur = p.parent; // the object literal carries the string
      continue;
    }
    if (ts.isPropertyAccessExpression(p) && p.expression === cur) {
      const call = p.parent;
      if (ts.isCallExpression(call) && call.expression === p) {
        if (CARRIER_CALLS.has(p.name.text)) {
          cur = call;
          continue;
        }
        return [judgeCall(ctx, call, cur, depth)];
      }
      return [{ category: 'string', detail: `property ${p.name.text} read` }];
    }
    if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression !== cur) {
      const name = calleeName(p);
      if (CARRIER_CALLS.has(name)) {
        cur = p;
        continue;
      }
      return [judgeCall(ctx, p, cur, depth)];
    }
    if (ts.isTaggedTemplateExpression(p)) return [judgeCall(ctx, p, cur, depth)];
    if (ts.isVariableDeclaration(p) && p.initializer === cur) {
      if (ts.isIdentifier(p.name)) return followName(ctx, p.name, depth);
      return [{ category: 'string', detail: 'destructured' }];
    }
    if (ts.isParameter(p) && p.initializer === cur) {
      if (ts.isIdentifier(p.name)) return followName(ctx, p.name, depth);
      return [{ category: 'string', detail: 'destructured default' }];
    }
    if (ts.isPropertyDeclaration(p) && p.initializer === cur) {
      return followThis(ctx, p.name.getText(sf), depth);
    }
    if (ts.isReturnStatement(p) || (ts.isArrowFunction(p) && p.body === cur)) {
      const fn = ts.isArrowFunction(p) ? p : (findAncestor(p, (n) => ts.isFunctionLike(n)) as ts.SignatureDeclaration | undefined);
      const fname = fn ? functionName(fn) : undefined;
      if (!fname || depth >= MAX_DEPTH) return [{ category: 'string', detail: 'returned', leaves: true }];
      return followCalls(ctx, fname, depth);
    }
    if (ts.isEnumMember(p)) return [{ category: 'string', detail: 'enum member', leaves: true }];
    if (ts.isCaseClause(p)) return [{ category: 'string', detail: 'switch case' }];
    if (ts.isElementAccessExpression(p)) return [{ category: 'string', detail: 'used as a key' }];
    if (ts.isExportAssignment(p)) return [{ category: 'string', detail: 'exported', leaves: true }];
    if (ts.isJsxAttribute(p) || ts.isJsxExpression(p) || ts.isJsxElement(p)) return [{ category: 'string', detail: 'JSX text or attribute' }];
    if (ts.isExpressionStatement(p)) return [{ category: 'string', detail: 'expression statement' }];
    return [{ category: 'string', detail: `held by ${ts.SyntaxKind[p.kind]}` }];
  }
}

function functionName(fn: ts.SignatureDeclaration): string | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn) || ts.isFunctionExpression(fn)) && fn.name && ts.isIdentifier(fn.name)) return fn.name.text;
  const p = fn.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  return undefined;
}

/** The verdicts of several paths; none means the value is not used in this file: it leaves it. */
function merge(results: Verdict[][], none: string): Verdict[] {
  const all = results.flat();
  return all.length ? all : [{ category: 'string', detail: none, leaves: true }];
}

/** Follow the binding `id` names: its references after `from` (the assignment), assignments to it excluded. */
function followName(ctx: FlowContext, id: ts.Identifier, depth: number, from = id.getStart(ctx.sf)): Verdict[] {
  const refs = referencesOf(id).filter((r) => r.getStart(ctx.sf) > from && !(ts.isBinaryExpression(r.parent) && r.parent.left === r));
  return merge(refs.map((r) => followValue(ctx, climbChainUp(r), depth + 1)), `held by ${id.text}, not used in this file`);
}

function followThis(ctx: FlowContext, name: string, depth: number): Verdict[] {
  const refs = thisReferences(ctx.sf, name).filter((r) => !(ts.isBinaryExpression(r.parent) && r.parent.left === r));
  return merge(refs.map((r) => followValue(ctx, climbChainUp(r), depth + 1)), `held by this.${name}, not used in this file`);
}

/** Calls of a function named `name` in the file (`name(…)`, `this.name(…)`, `x.name(…)`). */
function followCalls(ctx: FlowContext, name: string, depth: number): Verdict[] {
  const calls: ts.CallExpression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && calleeName(n) === name) calls.push(n);
    ts.forEachChild(n, visit);
  };
  visit(ctx.sf);
  return merge(calls.map((c) => followValue(ctx, c, depth + 1)), `returned by ${name}(), not called in this file`);
}

/** From an identifier, up its member chain (`X` → `X.openai.ChatPath`). */
function climbChainUp(n: ts.Node): ts.Node {
  let cur = n;
  while (cur.parent && ((ts.isPropertyAccessExpression(cur.parent) && cur.parent.expression === cur) || (ts.isElementAccessExpression(cur.parent) && cur.parent.expression === cur)) &&
    !(ts.isCallExpression(cur.parent.parent) && cur.parent.parent.expression === cur.parent)) {
    cur = cur.parent;
  }
  return cur;
}

/**
 * The verdict of a string that goes several ways: an unreported call named like an HTTP client
 * first (a send nobody reports), then a reported site, then any other unexplained call, a test
 * double, a plain string.
 */
function worst(verdicts: Verdict[]): Verdict {
  const rank = (v: Verdict): number =>
    v.category === 'unexplained' ? (v.http ? 0 : 2) : v.category === 'site' ? 1 : v.category === 'test-double' ? 3 : 4;
  return [...verdicts].sort((a, b) => rank(a) - rank(b))[0] ?? { category: 'string', detail: 'not used' };
}

// ---------------------------------------------------------------------------------------------
// Member chains in code

const SITE_METHODS = new Set(['create', 'parse', 'stream', 'runTools', 'runFunctions']);
const MOCK_MEMBERS = new Set([
  'mockResolvedValue', 'mockResolvedValueOnce', 'mockReturnValue', 'mockReturnValueOnce', 'mockImplementation',
  'mockImplementationOnce', 'mockRejectedValue', 'mockRejectedValueOnce', 'mockClear', 'mockReset', 'mockRestore', 'mock',
  'mockName', 'withImplementation', 'resolves', 'rejects', 'returns', 'callsFake', 'withArgs', 'getCall', 'callCount', 'calledWith',
  'firstCall', 'lastCall', 'args',
]);
const TEST_CALLEES = new Set(['expect', 'spyOn', 'spy', 'stub', 'mocked', 'replace', 'fake', 'assert']);

function isTypePosition(n: ts.Node): boolean {
  for (let p: ts.Node | undefined = n; p; p = p.parent) {
    if (ts.isTypeNode(p) && !ts.isExpressionWithTypeArguments(p)) return true;
    if (ts.isExpressionWithTypeArguments(p) && p.parent && ts.isHeritageClause(p.parent) && p.parent.token === ts.SyntaxKind.ImplementsKeyword) return true;
    if (ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p) || ts.isImportEqualsDeclaration(p)) return true;
    if (ts.canHaveModifiers(p) && ts.getModifiers(p)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return true;
    if (ts.isStatement(p) && !ts.isBlock(p) && !ts.isModuleBlock(p) && !ts.isModuleDeclaration(p)) return false;
  }
  return false;
}

/** The file replaces the `openai` module with a double: `vi.mock('openai', …)`, `vitest.mock`, `jest.mock`. */
function mocksOpenAI(sf: ts.SourceFile): boolean {
  return /\b(vi|vitest|jest)\.(mock|doMock)\(\s*['"]openai['"]/.test(sf.text);
}

function isModuleSpecifier(tok: ts.Node): 'module' | 'mock-module' | undefined {
  const p = tok.parent;
  if (!p) return undefined;
  if ((ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) && p.moduleSpecifier === tok) return 'module';
  if (ts.isExternalModuleReference(p) || (ts.isLiteralTypeNode(p) && p.parent && ts.isImportTypeNode(p.parent))) return 'module';
  if (ts.isModuleDeclaration(p) && p.name === tok) return 'module';
  if (ts.isCallExpression(p) && p.arguments[0] === tok) {
    if (p.expression.kind === ts.SyntaxKind.ImportKeyword) return 'module';
    const name = calleeName(p);
    const root = calleeRoot(p);
    if (name === 'require' || name === 'resolve') return 'module';
    if ((root === 'vi' || root === 'vitest' || root === 'jest') && /^(mock|doMock|unmock|importActual|requireActual)$/.test(name)) return 'mock-module';
  }
  return undefined;
}

/** The chain around a `chat`/`createChatCompletion` token, up to the outermost member access. */
function chainTop(tok: ts.Node): ts.Expression {
  let cur: ts.Node = tok;
  for (;;) {
    const p: ts.Node | undefined = cur.parent;
    if (!p) break;
    if ((ts.isPropertyAccessExpression(p) && (p.expression === cur || p.name === cur)) ||
      (ts.isElementAccessExpression(p) && (p.expression === cur || p.argumentExpression === cur)) || isWrapper(p)) {
      cur = p;
      continue;
    }
    break;
  }
  return cur as ts.Expression;
}

function classifyCode(ctx: FlowContext, tok: ts.Node, spelling: Spelling, input: FileInput): Verdict {
  const { sf } = ctx;
  if (isTypePosition(tok)) return { category: 'type', detail: 'type position' };

  if (spelling === 'v3') {
    const p = tok.parent;
    if (p && (ts.isFunctionDeclaration(p) || ts.isMethodDeclaration(p) || ts.isMethodSignature(p) || ts.isPropertyDeclaration(p) ||
      ts.isPropertySignature(p) || ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) ||
      ts.isBindingElement(p) || ts.isGetAccessorDeclaration(p) || ts.isClassDeclaration(p) || ts.isFunctionExpression(p) ||
      ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && (p as ts.NamedDeclaration).name === tok) {
      return { category: 'non-call', detail: `declaration named createChatCompletion (${ts.SyntaxKind[p.kind]})` };
    }
  }

  const top = chainTop(tok);
  const { names, root } = chainOf(top);
  const key = spelling === 'v3' ? 'createChatCompletion' : 'completions';
  const at = names.findIndex((n) => n.toLowerCase() === key.toLowerCase());
  const after = at >= 0 ? names.slice(at + 1) : [];
  const firstName = root.kind === ts.SyntaxKind.ThisKeyword ? names[0] : undefined;
  const outer = climbWrappers(top);
  const parent = outer.parent;
  const called = !!parent && (((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === outer) || (ts.isTaggedTemplateExpression(parent) && parent.tag === outer));
  const last = names[names.length - 1] ?? '';

  // test doubles
  const mockMember = after.find((n) => MOCK_MEMBERS.has(n));
  if (mockMember) return { category: 'test-double', detail: `.${mockMember}` };
  if (parent && isCallLike(parent) && parent.expression !== outer) {
    const name = calleeName(parent);
    const r = calleeRoot(parent);
    if (TEST_CALLEES.has(name) || r === 'sinon' || r === 'assert' || r === 'td') return { category: 'test-double', detail: `argument of ${name}()` };
  }
  if (parent && ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.left === outer) {
    const right = unwrapDown(parent.right);
    const rootR = isCallLike(right) ? calleeRoot(right) : ts.isIdentifier(right) ? right.text : '';
    if (/^(vi|jest|sinon|td)$/.test(rootR) || /mock|stub|fake|spy/i.test(rootR)) return { category: 'test-double', detail: 'assigned a mock' };
    return { category: 'non-call', detail: 'assignment target' };
  }

  // feature detection
  for (let a: ts.Node | undefined = outer.parent, c: ts.Node = outer; a; c = a, a = a.parent) {
    if (ts.isTypeOfExpression(a)) return { category: 'feature-detection', detail: 'typeof' };
    if (ts.isBinaryExpression(a) && a.operatorToken.kind === ts.SyntaxKind.InKeyword && a.right === c) return { category: 'feature-detection', detail: "'…' in" };
    if (!isWrapper(a) && !ts.isPropertyAccessExpression(a)) break;
  }
  if (!called && parent && (
    (ts.isPrefixUnaryExpression(parent) && parent.operator === ts.SyntaxKind.ExclamationToken) ||
    ((ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isConditionalExpression(parent)) && (parent as ts.IfStatement).expression === outer) ||
    (ts.isConditionalExpression(parent) && parent.condition === outer) ||
    (ts.isBinaryExpression(parent) && parent.left === outer && parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken)
  )) return { category: 'feature-detection', detail: 'truthiness check' };

  // other vendors' SDKs
  const other = otherSdkOf(sf, root, firstName);
  if (other) return { category: 'other-sdk', detail: other };
  const own = input.ownPackages && constructedHere(root) && ownPackageOf(sf, root, firstName, input.ownPackages);
  if (own && called) return { category: 'own-api', detail: `a client of the repository's own package ${own}` };

  if (spelling === 'v3' && (called || after.length === 0)) {
    const ownDecl = (() => {
      if (!input.repoHasV3Client) return 'no OpenAIApi in the repository';
      if (ts.isIdentifier(root) && names.length === 0) {
        const d = declarationsOf(root).find((x) => ts.isFunctionDeclaration(x) || ts.isVariableDeclaration(x));
        if (d) return 'function declared in this file';
      }
      if (root.kind === ts.SyntaxKind.ThisKeyword && names.length === 1) {
        const cls = findAncestor(root, (n) => ts.isClassLike(n)) as ts.ClassLikeDeclaration | undefined;
        if (cls?.members.some((m) => m.name?.getText(sf) === 'createChatCompletion')) return 'method of this class';
      }
      return undefined;
    })();
    if (ownDecl && called) return { category: 'own-api', detail: ownDecl };
  }

  // `const groq = { chat: { completions: { create: async () => canned } } }`: an imitation written in
  // this file, no client behind it (one that passes create on to a client is listed by the tool, r47)
  if (called && ts.isIdentifier(root) && declarationsOf(root).some((d) => ts.isVariableDeclaration(d) && d.initializer !== undefined &&
    ts.isObjectLiteralExpression(unwrapDown(d.initializer)) && (unwrapDown(d.initializer) as ts.ObjectLiteralExpression).properties.some((p) => p.name?.getText(sf) === 'chat'))) {
    return { category: 'own-api', detail: 'an object literal in this file that imitates the client' };
  }
  if (called) {
    if (/^(call|apply|bind)$/.test(last)) return { category: 'unexplained', detail: `indirect call .${last}() of an SDK-shaped method, not in the report` };
    return { category: 'unexplained', detail: `SDK-shaped call ${names.join('.')}(…) not in the report` };
  }
  // stored: follow the variable to the calls made through it
  if (parent && ts.isVariableDeclaration(parent) && parent.initializer === outer) {
    const bound: ts.Identifier[] = [];
    if (ts.isIdentifier(parent.name)) bound.push(parent.name);
    else if (ts.isObjectBindingPattern(parent.name)) for (const e of parent.name.elements) if (ts.isIdentifier(e.name)) bound.push(e.name);
    const calls: ts.Node[] = [];
    for (const b of bound) {
      for (const r of referencesOf(b)) {
        const t = climbWrappers(chainTop(r));
        if (t.parent && isCallLike(t.parent) && t.parent.expression === t) calls.push(t.parent);
      }
    }
    if (calls.length === 0) return { category: 'non-call', detail: `stored in ${bound.map((b) => b.text).join(', ') || 'a binding'}, never called in this file` };
    const unreported = calls.filter((c) => !siteAt(ctx.spans, c.getStart(sf)));
    for (const c of calls) {
      const s = siteAt(ctx.spans, c.getStart(sf));
      if (s) ctx.used.add(s.site);
    }
    if (unreported.length === 0) return { category: 'site', detail: 'called through a local binding that the report lists' };
    const l = sf.getLineAndCharacterOfPosition(unreported[0].getStart(sf)).line + 1;
    return { category: 'unexplained', detail: `stored, then called at line ${l}; not in the report` };
  }
  if (SITE_METHODS.has(last) && ctx.testFile && mocksOpenAI(sf)) {
    // `mockCreate = (OpenAI as any)().chat.completions.create` in a test that replaced the openai module
    return { category: 'test-double', detail: 'method read from the mocked openai module' };
  }
  if (SITE_METHODS.has(last) || (spelling === 'v3' && last === 'createChatCompletion')) {
    return { category: 'unexplained', detail: `method reference ${names.join('.')} escapes (${parent ? ts.SyntaxKind[parent.kind] : '?'}) without a call` };
  }
  if (parent && isCallLike(parent)) return { category: 'unexplained', detail: `resource ${names.join('.')} passed to ${calleeName(parent)}()` };
  if (parent && (ts.isReturnStatement(parent) || ts.isArrowFunction(parent) || ts.isPropertyAssignment(parent) || ts.isArrayLiteralExpression(parent) || ts.isShorthandPropertyAssignment(parent))) {
    return { category: 'unexplained', detail: `resource ${names.join('.')} handed out (${ts.SyntaxKind[parent.kind]})` };
  }
  return { category: 'non-call', detail: `${names.join('.')} neither called nor passed (${parent ? ts.SyntaxKind[parent.kind] : '?'})` };
}

// ---------------------------------------------------------------------------------------------

export function classifyFile(input: FileInput): FileResult {
  const text = input.text.charCodeAt(0) === 0xfeff ? input.text.slice(1) : input.text;
  const raws = findRaw(text);
  const sf = ts.createSourceFile(`/${input.file}`, text, ts.ScriptTarget.Latest, true, scriptKind(input.file));
  bind(sf);
  readRelative = input.readRelative;

  // the report's sites in this file, as spans
  const spans: Span[] = [];
  const siteChecks: SiteCheck[] = [];
  for (const site of input.sites) {
    const check: SiteCheck = { site };
    siteChecks.push(check);
    let pos: number;
    try {
      pos = sf.getPositionOfLineAndCharacter(site.line - 1, site.column - 1);
    } catch {
      check.unlocated = true;
      continue;
    }
    const call = callAt(sf, pos);
    const resource = call ? undefined : handedOutResourceAt(sf, pos);
    if (resource) {
      // the tool lists a completions resource where it is handed out (A-CREATE): the site is the access
      spans.push({ start: resource.getStart(sf), end: resource.end, site });
      continue;
    }
    if (!call) {
      check.unlocated = true;
      const tok = tokenAt(sf, pos);
      if (tok) spans.push({ start: tok.getStart(sf), end: tok.end, site });
      continue;
    }
    const span: Span = { start: call.getStart(sf), end: call.end, site };
    spans.push(span);
    if (site.api === 'http' || site.api === 'createChatCompletion') spans.push(...flowSpans(sf, call, site));
    // a site on another vendor's client (N05 says: not a site)
    const callee = unwrapDown(ts.isTaggedTemplateExpression(call) ? call.tag : call.expression);
    if (site.api !== 'http') {
      const { names, root } = chainOf(callee);
      const other = otherSdkOf(sf, root, root.kind === ts.SyntaxKind.ThisKeyword ? names[0] : undefined);
      if (other) check.otherSdk = other;
    }
  }

  const occurrences: Occurrence[] = [];
  const used = new Set<ReportSite>();
  for (const raw of raws) {
    const lc = sf.getLineAndCharacterOfPosition(raw.index);
    const base = { file: input.file, line: lc.line + 1, column: lc.character + 1, spelling: raw.spelling, text: lineText(sf, lc.line) };
    const verdict = ((): Verdict => {
      if (input.fileError) return { category: 'file-error', detail: input.fileError.slice(0, 160) };
      const tok = tokenAt(sf, raw.anchor);
      if (!tok) return { category: 'comment', detail: 'comment' };
      const inSite = siteAt(spans, raw.anchor);
      if (inSite) {
        used.add(inSite.site);
        return { category: 'site', detail: `${inSite.site.api} ${inSite.site.status} at ${inSite.site.line}:${inSite.site.column}` };
      }
      const ctx: FlowContext = { sf, spans, seen: new Set(), used, testFile: isTestFile(input.file) };
      const elementKey = ts.isStringLiteralLike(tok) && tok.parent && ts.isElementAccessExpression(tok.parent) && tok.parent.argumentExpression === tok;
      if (isStringToken(tok) && !(elementKey && (raw.spelling === 'element' || raw.spelling === 'member'))) {
        const mod = isModuleSpecifier(tok);
        if (mod === 'mock-module') return { category: 'test-double', detail: 'mocked module path' };
        if (mod) return { category: 'type', detail: 'module path' };
        if (raw.spelling !== 'path') return { category: 'string', detail: 'inside a string or JSX text' };
        let node: ts.Node = tok;
        if (tok.kind === ts.SyntaxKind.TemplateHead) node = tok.parent;
        else if (tok.kind === ts.SyntaxKind.TemplateMiddle || tok.kind === ts.SyntaxKind.TemplateTail) node = tok.parent.parent;
        if (tok.kind === ts.SyntaxKind.JsxText || tok.kind === ts.SyntaxKind.RegularExpressionLiteral) return { category: 'string', detail: 'JSX text or regular expression' };
        return worst(followValue(ctx, node, 0));
      }
      return classifyCode(ctx, tok, raw.spelling, input);
    })();
    occurrences.push({ ...base, category: verdict.category, detail: verdict.detail, ...(verdict.category === 'string' && verdict.leaves ? { leavesFile: true } : {}) });
  }
  for (const c of siteChecks) {
    if (!c.unlocated && !used.has(c.site)) c.noOccurrence = true;
  }
  return { occurrences, siteChecks };
}

/**
 * A component file (.vue, .svelte, .astro): the tool does not parse it, so each occurrence is
 * explained only by the report's `not-scanned` notice for the file; without one it is unexplained.
 */
export function classifyComponent(input: { file: string; text: string; listed: boolean }): FileResult {
  const lines = input.text.split(/\r?\n/);
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i].length + 1, i++) starts.push(at);
  const occurrences = findRaw(input.text).map((raw): Occurrence => {
    let line = starts.findIndex((start, i) => raw.index >= start && (i + 1 === starts.length || raw.index < starts[i + 1]));
    if (line < 0) line = 0;
    return {
      file: input.file, line: line + 1, column: raw.index - starts[line] + 1, spelling: raw.spelling,
      category: input.listed ? 'not-scanned' : 'unexplained',
      detail: input.listed ? 'component file listed by a not-scanned notice' : 'component file not listed in the report',
      text: lines[line].trim().slice(0, 200),
    };
  });
  return { occurrences, siteChecks: [] };
}
