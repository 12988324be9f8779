/**
 * What a transform works with: the jscodeshift API and root for the file, a node index by source
 * range, the patch editor, the file's style (quotes, semicolons) and the imports to add.
 */
import { createRequire } from 'node:module';
import type { ASTNode, Collection, JSCodeshift } from 'jscodeshift';
import { sdkSpellingIn, withSdkName } from '../lib/project/sdk-names.js';
import { SourceEditor } from './editor.js';
import { parserFor, parserKind } from './parser.js';

// Required, not imported: importing a CommonJS package from an ES module makes Node lex its
// source (and what it re-exports) for export names first, a cost paid on every run.
const jscodeshift = createRequire(import.meta.url)('jscodeshift') as JSCodeshift;

export type Node = ASTNode & { type: string; start: number; end: number; [key: string]: unknown };

export interface ImportRequest {
  name: string;
  module: string;
  typeOnly: boolean;
}

/**
 * The parser and jscodeshift API for a file's kind, made once per kind: withParser() copies every
 * ast-types builder onto a new function each time (~0.3 ms, 35 ms over the 10k bench tree).
 */
const apis = new Map<string, { parser: ReturnType<typeof parserFor>; j: JSCodeshift }>();
function apiFor(file: string): { parser: ReturnType<typeof parserFor>; j: JSCodeshift } {
  const key = parserKind(file);
  let api = apis.get(key);
  if (!api) {
    const parser = parserFor(file);
    api = { parser, j: jscodeshift.withParser(parser) };
    apis.set(key, api);
  }
  return api;
}

/** ast-types' Identifier and the types it lists as its subtypes (a type parameter's name is a string). */
const IDENTIFIER_TYPES: ReadonlySet<string> = new Set(['Identifier', 'JSXIdentifier', 'TSTypeParameter']);

export class TransformContext {
  readonly j: JSCodeshift;
  readonly root: Collection;
  readonly editor: SourceEditor;
  readonly quote: "'" | '"';
  readonly imports: ImportRequest[] = [];
  /** Ranges the run-time converter takes whole (convert-messages edits): no static rewrite inside them. */
  convertedRanges: readonly { start: number; end: number }[] = [];
  /** The name the SDK is installed under (`openai`, or an npm alias): the added imports use it. */
  sdkName = 'openai';
  /**
   * The file's own spelling of the SDK when it imports it by `npm:` or a URL (Deno): the added
   * imports use it. Read on the first import asked for (most files are parsed ahead and add none).
   */
  private sdkSpelling: ((module: string) => string) | undefined | null = null;
  /** Local names whose import goes when nothing uses them any more (a retyped Chat type). */
  readonly released = new Set<string>();
  private readonly index = new Map<string, Node[]>();
  /** Identifier-like nodes by name (what jscodeshift's find(j.Identifier, { name }) would visit). */
  private readonly identifiers = new Map<string, Node[]>();
  /** Identifiers that name a member, not a binding: `x.name`, `OpenAI.Chat.Name`, `{ name: … }`. */
  private readonly memberNames = new Set<Node>();

  constructor(readonly file: string, readonly text: string) {
    const { parser, j } = apiFor(file);
    this.j = j;
    // parse once with Babel and wrap that AST: jscodeshift's own parse (recast) normalises CRLF
    // to LF, which would shift every offset the plan anchors to
    this.root = this.j(parser.parse(text) as unknown as ASTNode);
    this.editor = new SourceEditor(text);
    this.buildIndex(this.root.get().node as Node);
    this.quote = this.quotes.double > this.quotes.single ? '"' : this.quotes.single ? "'" : detectQuote(text);
  }

  /** The delimiters of the file's string literals (a quote inside another string is not one). */
  private readonly quotes = { single: 0, double: 0 };

  private buildIndex(node: Node): void {
    const stack: unknown[] = [node];
    while (stack.length) {
      const n = stack.pop();
      if (!n || typeof n !== 'object') continue;
      if (Array.isArray(n)) {
        for (const c of n) stack.push(c);
        continue;
      }
      const rec = n as Node;
      if (typeof rec.type === 'string' && typeof rec.start === 'number' && typeof rec.end === 'number') {
        if (rec.type === 'StringLiteral') {
          if (this.text[rec.start] === "'") this.quotes.single++;
          else if (this.text[rec.start] === '"') this.quotes.double++;
        }
        const key = `${rec.start}:${rec.end}`;
        const list = this.index.get(key) ?? [];
        list.push(rec);
        this.index.set(key, list);
        if ((rec.type === 'MemberExpression' || rec.type === 'OptionalMemberExpression') && !rec.computed) this.memberNames.add(rec.property as Node);
        if (rec.type === 'TSQualifiedName') this.memberNames.add(rec.right as Node);
        if ((rec.type === 'ObjectProperty' || rec.type === 'ClassProperty') && !rec.computed && !rec.shorthand) this.memberNames.add(rec.key as Node);
        if (IDENTIFIER_TYPES.has(rec.type) && typeof rec.name === 'string') {
          const named = this.identifiers.get(rec.name) ?? [];
          named.push(rec);
          this.identifiers.set(rec.name, named);
        }
      }
      for (const k of Object.keys(rec)) {
        if (k === 'loc' || k === 'tokens' || k === 'comments' || k === 'leadingComments' || k === 'trailingComments' || k === 'innerComments' || k === 'extra') continue;
        const v = rec[k];
        if (v && typeof v === 'object') stack.push(v);
      }
    }
  }

  /**
   * Every identifier with this name, anywhere in the file. From the index built at parse time: a
   * jscodeshift find() walks the whole tree through ast-types' path visitor each time (~1 ms).
   */
  identifiersNamed(name: string): readonly Node[] {
    return this.identifiers.get(name) ?? [];
  }

  /** The identifiers with this name that may refer to a binding (not a member's name). */
  bindingsNamed(name: string): readonly Node[] {
    return this.identifiersNamed(name).filter((n) => !this.memberNames.has(n));
  }

  /** The node with exactly this range (the outermost, or the first of the given types). */
  nodeAt(start: number, end: number, ...types: string[]): Node {
    const list = this.index.get(`${start}:${end}`) ?? [];
    const found = types.length ? list.find((n) => types.includes(n.type)) : list[0];
    if (!found) {
      const what = types.length ? types.join('/') : 'node';
      throw new Error(`no ${what} at ${start}-${end} (${JSON.stringify(this.text.slice(start, Math.min(end, start + 40)))})`);
    }
    return found;
  }

  source(node: { start: number; end: number }): string {
    return this.text.slice(node.start, node.end);
  }

  /** A string literal in the file's quote style. */
  str(value: string): string {
    const q = this.quote;
    return `${q}${value.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`)}${q}`;
  }

  requireImport(ask: ImportRequest): void {
    if (this.sdkSpelling === null) this.sdkSpelling = sdkSpellingIn(this.text);
    const request = { ...ask, module: this.sdkSpelling?.(ask.module) ?? withSdkName(ask.module, this.sdkName) };
    if (!this.imports.some((i) => i.name === request.name && i.module === request.module)) this.imports.push(request);
  }
}

/** The quote style most string literals of the file use. */
function detectQuote(text: string): "'" | '"' {
  const single = (text.match(/'[^'\n]*'/g) ?? []).length;
  const double = (text.match(/"[^"\n]*"/g) ?? []).length;
  return double > single ? '"' : "'";
}

/** Object-literal property helpers over Babel nodes. */
export function propKey(p: Node): string | undefined {
  if (p.type !== 'ObjectProperty' && p.type !== 'Property') return undefined;
  if (p.computed) {
    const key = p.key as Node;
    return key.type === 'StringLiteral' ? (key.value as string) : undefined;
  }
  const key = p.key as Node;
  if (key.type === 'Identifier') return key.name as string;
  if (key.type === 'StringLiteral' || key.type === 'NumericLiteral') return String(key.value);
  return undefined;
}

export function props(obj: Node): Node[] {
  return (obj.properties as Node[]) ?? [];
}

export function findProp(obj: Node, key: string): Node | undefined {
  return props(obj).find((p) => propKey(p) === key);
}

/** Strip TypeScript wrappers that do not change a value: `x as const`, `x satisfies T`, `x!`. */
export function unwrapNode(n: Node): Node {
  let current = n;
  while (['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'TypeCastExpression', 'ParenthesizedExpression'].includes(current.type)) {
    current = current.expression as Node;
  }
  return current;
}

/** A property's value with TypeScript wrappers stripped. */
export function valueOf(p: Node | undefined): Node | undefined {
  return p ? unwrapNode(p.value as Node) : undefined;
}

export function stringLiteralValue(n: Node | undefined): string | undefined {
  if (!n) return undefined;
  n = unwrapNode(n);
  if (n.type === 'StringLiteral') return n.value as string;
  if (n.type === 'TemplateLiteral' && (n.expressions as unknown[]).length === 0) {
    return ((n.quasis as Node[])[0].value as { cooked: string }).cooked;
  }
  return undefined;
}

/** The text of [start, end) with some inner ranges replaced (for building a reshaped literal). */
export function sliceWith(ctx: TransformContext, start: number, end: number, replacements: { start: number; end: number; text: string }[]): string {
  let out = '';
  let at = start;
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    out += ctx.text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + ctx.text.slice(at, end);
}

/**
 * Shift the lines after the first of a property list from one indentation to another (a literal
 * moved up a level). A line that starts inside a template literal is part of the string's value
 * and stays as it is; properties that do not parse on their own keep every line.
 */
export function reindent(text: string, from: string, to: string, file: string): string {
  if (from === to) return text;
  const kept = text.includes('`') ? templateLines(text, file) : new Set<number>();
  if (!kept) return text;
  return text.split('\n').map((line, i) => (i > 0 && !kept.has(i) && line.startsWith(from) ? to + line.slice(from.length) : line)).join('\n');
}

/** The indexes of the lines of a property list that start inside a template literal's text. */
function templateLines(properties: string, file: string): Set<number> | undefined {
  const prefix = '({';
  let program: unknown;
  try {
    program = parserFor(file).parse(`${prefix}${properties}\n});`);
  } catch {
    return undefined;
  }
  const texts: [number, number][] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const n = node as { type?: unknown; start?: number; end?: number };
    if (n.type === 'TemplateElement') texts.push([n.start! - prefix.length, n.end! - prefix.length]);
    for (const [key, value] of Object.entries(n)) if (key !== 'loc' && key !== 'comments' && key !== 'extra') visit(value);
  };
  visit(program);
  const lines = new Set<number>();
  let line = 0;
  for (let at = properties.indexOf('\n'); at !== -1; at = properties.indexOf('\n', at + 1)) {
    line++;
    if (texts.some(([start, end]) => at >= start && at < end)) lines.add(line);
  }
  return lines;
}

/**
 * `holder: { …properties }` → `…properties` in the holder's object (its layout, comments kept):
 * the edit replacing the holder. Comments after the inner object's last property (`strict: true,
 * // why`) stay after it; the holder's own comma then moves before them when nothing follows.
 */
export function flattenedProperties(ctx: TransformContext, holder: Node, inner: Node, replacements: { start: number; end: number; text: string }[] = [], extra: string[] = []): { start: number; end: number; text: string } {
  const list = props(inner);
  const outerIndent = ctx.editor.indentAt(holder.start);
  const innerIndent = list.length ? ctx.editor.indentAt(list[0].start) : undefined;
  const multiline = outerIndent !== undefined && innerIndent !== undefined;
  let body = list.length ? sliceWith(ctx, list[0].start, list[list.length - 1].end, replacements) : '';
  if (multiline) body = reindent(body, innerIndent!, outerIndent!, ctx.file);
  const sep = multiline ? `,${ctx.editor.eol}${outerIndent}` : ', ';
  const edit = { start: holder.start, end: holder.end };
  const tail = list.length ? ctx.text.slice(list[list.length - 1].end, inner.end - 1).replace(/^\s*,/, '').trimEnd() : '';
  if (!/\/[/*]/.test(tail)) return { ...edit, text: [body, ...extra].filter(Boolean).join(sep) };
  // `{ url, detail: 'low' /* why */ }` on one line: the comment stays after its property
  if (!multiline && !tail.includes('\n') && !tail.includes('//')) return { ...edit, text: [body + tail, ...extra].join(sep) };
  const comments = multiline ? reindent(tail, innerIndent!, outerIndent!, ctx.file) : tail;
  if (extra.length) return { ...edit, text: `${body},${comments}${ctx.editor.eol}${outerIndent ?? ''}${extra.join(sep)}` };
  const comma = /^[ \t]*,/.exec(ctx.text.slice(holder.end));
  return { start: holder.start, end: holder.end + (comma ? comma[0].length : 0), text: `${body},${comments}` };
}

/**
 * Drop the outer parentheses of a replacement that already sits alone inside parentheses
 * (`if (<here>)`, `f(<here>)`): `if ((a && b))` reads badly.
 */
export function bare(ctx: TransformContext, start: number, end: number, text: string): string {
  if (!text.startsWith('(') || !text.endsWith(')') || !wrapsWhole(text)) return text;
  const before = ctx.text.slice(0, start).trimEnd();
  const after = ctx.text.slice(end).trimStart();
  if (before.endsWith('(') && after.startsWith(')')) return text.slice(1, -1);
  // the whole right side of `=` (`const piece = <here>;`): only a comma binds looser, and it ends it too
  const assigned = /(^|[^=!<>])=$/.test(before) && (/^[;,)\]}]/.test(after) || /^[ \t]*\r?\n/.test(ctx.text.slice(end)));
  return assigned ? text.slice(1, -1) : text;
}

/** `(a) && (b)` starts and ends with parentheses but they are not one group. */
function wrapsWhole(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') {
      depth--;
      if (depth === 0 && i < text.length - 1) return false;
    }
  }
  return depth === 0;
}
