/**
 * S- rules: chunk reads inside a stream loop written as event expressions, and the S-FAILED guard
 * lines at the start of the loop body. The scanner chose every expression kind; this writes it.
 */
import type { StreamGuardEdit, StreamReadEdit } from '../lib/plan.js';
import { DELTA_CONDITIONS, EVENT_EXPRESSIONS, FAILED_GUARD, STREAM_FINISH_CONDITIONS } from '../lib/rules/streams.js';
import { bare, type Node, type TransformContext } from './context.js';

function over(ctx: TransformContext, template: string, event: string): string {
  return template.replaceAll('E.', `${event}.`).replace(/'/g, ctx.quote);
}

export function rewriteStreamRead(ctx: TransformContext, edit: StreamReadEdit): void {
  const root = ctx.text.slice(edit.rootStart, edit.rootEnd);
  const event = /^[\w$]+$/.test(root) ? root : `(${root})`;
  const tail = (edit.tail ?? []).map((l) => `${l.optional ? '?.' : '.'}${l.name}${l.nonNull ? '!' : ''}`).join('');
  let text: string;
  switch (edit.kind) {
    case 'collapse': text = root; break;
    case 'finishCompare': {
      const cond = over(ctx, STREAM_FINISH_CONDITIONS[edit.value!], event);
      text = edit.negate ? `!${cond}` : cond;
      break;
    }
    case 'textWrite':
    case 'refusalWrite': {
      // `if (<event is a delta>) <callee>(<event>.delta, <other arguments>)`: the call's own text around the argument kept
      if (edit.argStart === undefined || edit.argEnd === undefined) throw new Error(`${edit.kind} without its argument range`);
      const cond = over(ctx, DELTA_CONDITIONS[edit.kind === 'textWrite' ? 'text' : 'refusal'], event);
      const call = `${ctx.text.slice(edit.start, edit.argStart)}${event}.delta${ctx.text.slice(edit.argEnd, edit.end)}`;
      ctx.editor.replace(edit.start, edit.end, `if (${cond}) ${call}`);
      return;
    }
    case 'usageNarrowed': text = `${over(ctx, EVENT_EXPRESSIONS.usageNarrowed, event)}${tail}`; break;
    case 'usage': text = `${over(ctx, EVENT_EXPRESSIONS.usage, event)}${tail}`; break;
    default: text = over(ctx, EVENT_EXPRESSIONS[edit.kind], event);
  }
  ctx.editor.replace(edit.start, edit.end, bare(ctx, edit.start, edit.end, text));
}

/** S-FAILED: two lines at the top of the loop body, indented like the body. */
export function insertStreamGuard(ctx: TransformContext, edit: StreamGuardEdit): void {
  const { editor } = ctx;
  const lines = FAILED_GUARD.map((l) => over(ctx, l, edit.variable));
  const body = ctx.nodeAt(edit.start, edit.end);
  if (body.type === 'BlockStatement') {
    const first = (body.body as Node[])[0];
    const indent = first ? editor.indentAt(first.start) : undefined;
    if (first && indent !== undefined) {
      editor.insert(editor.lineStart(withOwnLineComments(ctx, body, first)), lines.map((l) => `${indent}${l}${editor.eol}`).join(''));
      return;
    }
    const base = editor.indentAt(ctx.text.lastIndexOf('\n', body.start) + 1) ?? '';
    const lineIndent = /^[ \t]*/.exec(ctx.text.slice(editor.lineStart(body.start)))![0] ?? base;
    editor.insert(body.start + 1, `${editor.eol}${lines.map((l) => `${lineIndent}  ${l}${editor.eol}`).join('')}${first ? `${lineIndent}  ` : lineIndent}`);
    return;
  }
  // a single statement: wrap it in a block (two insertions, so edits inside the statement still apply)
  const lineIndent = /^[ \t]*/.exec(ctx.text.slice(editor.lineStart(body.start)))![0];
  const inner = `${lineIndent}  `;
  editor.insert(body.start, `{${editor.eol}${lines.map((l) => `${inner}${l}${editor.eol}`).join('')}${inner}`);
  editor.insert(body.end, `${editor.eol}${lineIndent}}`);
}

/**
 * Where the first statement of a block starts, the comments on lines of their own just above it
 * included: they speak of that statement, and the guard lines go above them (G-TRIVIA). A comment
 * on the line of the opening brace is not one of them.
 */
function withOwnLineComments(ctx: TransformContext, body: Node, first: Node): number {
  const { editor } = ctx;
  const comments = (first.leadingComments as Node[] | undefined | null) ?? [];
  const own = comments.find((c) => c.start > body.start && editor.lineStart(c.start) > editor.lineStart(body.start) && editor.indentAt(c.start) !== undefined);
  return own ? own.start : first.start;
}
