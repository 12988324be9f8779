/**
 * G-IMPORTS: the only imports the codemod adds are SDK ones. Merged into an existing import of the
 * same module when there is one, never duplicated; `require` in CommonJS files; type imports are
 * `import type` and are skipped in JavaScript.
 */
import path from 'node:path';
import { type ImportRequest, type Node, type TransformContext } from './context.js';

type Request = ImportRequest & { replaces?: string };

export function addImports(ctx: TransformContext): void {
  const freed = releaseUnused(ctx);
  const isJs = /\.(c|m)?jsx?$/.test(path.extname(ctx.file));
  const program = (ctx.root.get().node as Node).program as Node;
  const body = program.body as Node[];
  const imports = body.filter((s) => s.type === 'ImportDeclaration');
  const semi = usesSemicolons(ctx, body);
  const pending = new Map<string, string[]>(); // new declarations by module and kind
  for (const request of ctx.imports as Request[]) {
    if (request.typeOnly && isJs) continue;
    if (imports.length || !isJs || !isCommonJs(ctx, body)) {
      esm(ctx, imports, request, pending);
    } else {
      commonjs(ctx, body, request, pending, semi);
    }
  }
  const render = ([key, names]: [string, string[]]) => {
    const [kind, module] = key.split('\u0000');
    if (kind === 'require') return `const { ${names.join(', ')} } = require(${ctx.str(module)})${semi ? ';' : ''}`;
    return `import ${kind === 'type' ? 'type ' : ''}{ ${names.join(', ')} } from ${ctx.str(module)}${semi ? ';' : ''}`;
  };
  const entries = [...pending.entries()];
  const eol = ctx.editor.eol;
  // a type import takes the line of the Chat type import it replaces; the others go after the last import
  const typeLines = freed.length ? entries.filter(([k]) => k.startsWith('type')).map(render) : [];
  const otherLines = entries.filter(([k]) => !(freed.length && k.startsWith('type'))).map(render);
  const anchor = lastOf(body, (s) => s.type === 'ImportDeclaration' || isRequireStatement(s));
  const anchorFreed = anchor && freed.find((r) => r.start <= anchor.start && anchor.end <= r.end);
  freed.forEach((r, i) => {
    let text = i === 0 ? typeLines.map((l) => `${l}${eol}`).join('') : '';
    if (r === anchorFreed) text += otherLines.map((l) => `${l}${eol}`).join('');
    if (r.inline && text.endsWith(eol)) text = text.slice(0, -eol.length);
    // the comment that ended the replaced import's line ends the first line that replaces it
    if (text && r.trailing) {
      const cut = text.includes(eol) ? text.indexOf(eol) : text.length;
      text = `${text.slice(0, cut)}${r.trailing}${text.slice(cut)}`;
    }
    ctx.editor.replace(r.start, r.end, text);
  });
  if (anchorFreed || !otherLines.length) return;
  if (anchor) ctx.editor.insert(endOfLine(ctx, anchor.end), `${eol}${otherLines.join(eol)}`);
  else ctx.editor.insert(topInsertionPoint(ctx, body), `${otherLines.join(eol)}${eol}`);
}

/** The file's style: most top-level statements end with a semicolon. */
function usesSemicolons(ctx: TransformContext, body: Node[]): boolean {
  let withSemi = 0;
  let without = 0;
  for (const s of body) {
    if (!['ImportDeclaration', 'VariableDeclaration', 'ExpressionStatement', 'ExportNamedDeclaration', 'ExportDefaultDeclaration'].includes(s.type)) continue;
    if (s.type.startsWith('Export') && (s.declaration as Node | undefined)?.type?.match(/Function|Class/)) continue;
    if (ctx.text[s.end - 1] === ';') withSemi++;
    else without++;
  }
  return withSemi >= without;
}

function esm(ctx: TransformContext, imports: Node[], request: Request, pending: Map<string, string[]>): void {
  const same = imports.filter((d) => sameModule((d.source as Node).value as string, request.module));
  const imported = (d: Node, name: string) => (d.specifiers as Node[]).some((s) => s.type === 'ImportSpecifier' && importedName(s) === name);
  if (same.some((d) => imported(d, request.name))) return; // never add an import that exists
  if (request.replaces) {
    for (const d of same) {
      const spec = (d.specifiers as Node[]).find((s) => s.type === 'ImportSpecifier' && importedName(s) === request.replaces && !isAliased(s));
      if (spec && !stillUsed(ctx, request.replaces, spec)) {
        ctx.editor.replace(spec.start, spec.end, ctx.text.slice(spec.start, spec.end).replace(request.replaces, request.name));
        return;
      }
    }
  }
  const wantType = request.typeOnly;
  const target = same.find((d) => (d.importKind === 'type') === wantType && (d.specifiers as Node[]).some((s) => s.type === 'ImportSpecifier'));
  if (target) {
    const specs = (target.specifiers as Node[]).filter((s) => s.type === 'ImportSpecifier');
    const last = specs[specs.length - 1];
    ctx.editor.insert(last.end, `, ${request.name}`);
    return;
  }
  const key = `${wantType ? 'type' : 'value'}\u0000${request.module}`;
  pending.set(key, [...(pending.get(key) ?? []), request.name]);
}

function commonjs(ctx: TransformContext, body: Node[], request: Request, pending: Map<string, string[]>, _semi: boolean): void {
  for (const s of body) {
    if (s.type !== 'VariableDeclaration') continue;
    for (const d of s.declarations as Node[]) {
      const init = d.init as Node | undefined;
      const id = d.id as Node;
      if (!init || !isRequireOf(init, request.module) || id.type !== 'ObjectPattern') continue;
      const names = (id.properties as Node[]).map((p) => ((p.key as Node)?.name as string) ?? '');
      if (names.includes(request.name)) return;
      const propsList = id.properties as Node[];
      const replaced = request.replaces && propsList.find((p) => (p.key as Node)?.name === request.replaces && p.shorthand);
      if (replaced && !stillUsed(ctx, request.replaces!, replaced)) {
        ctx.editor.replace(replaced.start, replaced.end, request.name);
        return;
      }
      ctx.editor.insert(propsList[propsList.length - 1].end, `, ${request.name}`);
      return;
    }
  }
  const key = `require\u0000${request.module}`;
  pending.set(key, [...(pending.get(key) ?? []), request.name]);
}

/** An import declaration that goes, with the text around it that goes with it. */
interface Freed {
  start: number;
  end: number;
  /** The comments after it on its line (from the blank before them), kept when a line replaces it. */
  trailing?: string;
  /** Code precedes it on its line: the line break stays, so a replacement brings none. */
  inline?: boolean;
}

/**
 * Remove the import of a name the rewrite no longer uses (e.g. ChatCompletionCreateParams after a
 * retype). A declaration alone on its line goes with its line (and the comments that end it, even
 * a block comment that runs on); code before or after it on the same line stays (G-TRIVIA).
 */
function releaseUnused(ctx: TransformContext): Freed[] {
  const freed: Freed[] = [];
  if (!ctx.released.size) return freed;
  const program = (ctx.root.get().node as Node).program as Node;
  for (const decl of program.body as Node[]) {
    if (decl.type !== 'ImportDeclaration') continue;
    const specs = decl.specifiers as Node[];
    // a named import, or the default/namespace of an `import type` (`import type OpenAI from 'openai'`
    // whose only use was a retyped `OpenAI.Chat.…`: left, it fails noUnusedLocals)
    const releasable = (s: Node) => s.type === 'ImportSpecifier' || (decl.importKind === 'type' && (s.type === 'ImportDefaultSpecifier' || s.type === 'ImportNamespaceSpecifier'));
    const drop = specs.filter((s) => releasable(s) && ctx.released.has((s.local as Node).name as string) && !stillUsed(ctx, (s.local as Node).name as string, s));
    if (!drop.length) continue;
    if (drop.length === specs.length) {
      const text = ctx.text;
      const after = endOfLine(ctx, decl.end);
      const inline = ctx.editor.indentAt(decl.start) === undefined;
      const start = inline ? decl.start : ctx.editor.lineStart(decl.start);
      if (after < text.length && text[after] !== '\n' && text[after] !== '\r') {
        // code follows on the line: it stays, where the declaration was
        let end = decl.end;
        while (text[end] === ' ' || text[end] === '\t') end++;
        freed.push({ start, end });
        continue;
      }
      const eolLength = inline ? 0 : text.startsWith('\r\n', after) ? 2 : after < text.length ? 1 : 0;
      const trailing = text.slice(decl.end, after).trimEnd();
      freed.push({ start, end: after + eolLength, ...(trailing ? { trailing } : {}), ...(inline ? { inline } : {}) });
    } else {
      ctx.editor.removeItems(specs, drop.map((s) => specs.indexOf(s)));
    }
  }
  return freed;
}

function importedName(spec: Node): string {
  const imported = spec.imported as Node;
  return (imported.name as string) ?? (imported.value as string);
}

function isAliased(spec: Node): boolean {
  return importedName(spec) !== ((spec.local as Node).name as string);
}

/** Is the identifier still referenced outside the import and outside the text being replaced? */
function stillUsed(ctx: TransformContext, name: string, declaration: Node): boolean {
  return ctx.bindingsNamed(name).some((n) => {
    if (n.start >= declaration.start && n.end <= declaration.end) return false;
    if (ctx.editor.touches(n.start, n.end)) return false; // renamed by another edit
    return true;
  });
}

function sameModule(a: string, b: string): boolean {
  const norm = (m: string) => m.replace(/\.(m?js|cjs)$/, '');
  return norm(a) === norm(b);
}

/**
 * The file's code (not its comments) names `require`, or assigns `module.exports` / `exports.x` at
 * its top: it is CommonJS (lib/runtime/placement.ts reads the same).
 */
function isCommonJs(ctx: TransformContext, body: Node[]): boolean {
  if (ctx.bindingsNamed('require').length > 0) return true;
  return body.some((s) => {
    const e = s.type === 'ExpressionStatement' ? (s.expression as Node) : undefined;
    if (!e || e.type !== 'AssignmentExpression' || e.operator !== '=') return false;
    const left = e.left as Node;
    return /^(module\.exports|exports)\b/.test(ctx.text.slice(left.start as number, left.end as number).replace(/\s+/g, ''));
  });
}

function isRequireOf(n: Node, module: string): boolean {
  return n.type === 'CallExpression' && (n.callee as Node).type === 'Identifier' && (n.callee as Node).name === 'require' &&
    (n.arguments as Node[])[0]?.type === 'StringLiteral' && sameModule((n.arguments as Node[])[0].value as string, module);
}

function isRequireStatement(s: Node): boolean {
  if (s.type !== 'VariableDeclaration') return false;
  return (s.declarations as Node[]).some((d) => {
    const init = d.init as Node | undefined;
    return Boolean(init && init.type === 'CallExpression' && (init.callee as Node).type === 'Identifier' && (init.callee as Node).name === 'require');
  });
}

function lastOf(body: Node[], pred: (n: Node) => boolean): Node | undefined {
  let found: Node | undefined;
  for (const s of body) if (pred(s)) found = s;
  return found;
}

/**
 * Where a line added after the statement ending at `end` goes (G-TRIVIA): after the comments that
 * end its line (`import { z } from 'zod'; // note`, a block comment, even one that runs over
 * several lines), so no comment moves onto the new line. When code follows those comments on the
 * same line, they lead that code and stay with it: the new line goes right after the statement.
 */
function endOfLine(ctx: TransformContext, end: number): number {
  const text = ctx.text;
  let i = end;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text.startsWith('//', i)) {
      i = ctx.editor.lineEnd(i);
      return text[i - 1] === '\r' ? i - 1 : i;
    }
    if (!text.startsWith('/*', i)) break;
    const close = text.indexOf('*/', i + 2);
    if (close === -1) return end;
    i = close + 2;
  }
  return i === text.length || text[i] === '\n' || text[i] === '\r' ? i : end;
}

/** After a shebang and leading directives (`'use strict'`), else at the start. */
function topInsertionPoint(ctx: TransformContext, body: Node[]): number {
  const program = (ctx.root.get().node as Node).program as Node;
  const directives = (program.directives as Node[] | undefined) ?? [];
  if (directives.length) {
    const end = directives[directives.length - 1].end;
    return ctx.text.indexOf('\n', end) + 1 || end;
  }
  if (ctx.text.startsWith('#!')) return ctx.text.indexOf('\n') + 1;
  void body;
  return 0;
}
