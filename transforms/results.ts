/**
 * O- rules on the reads the scanner followed: read chains (`r.choices[0].message.content` →
 * `r.output_text`), finish-reason comparisons, null checks on content, O-BIND patterns. Each edit
 * carries the exact Responses links; this module only writes them.
 */
import type { ChainEdit, FinishEdit, OperatorEdit, PatternEdit, RenameEdit, ReplaceEdit } from '../lib/plan.js';
import { FINISH_CONDITIONS } from '../lib/rules/results.js';
import type { TransformContext } from './context.js';

/** `root<chat chain>` → `root<responses links>`; the root's own text (and parentheses) is kept. */
export function rewriteChain(ctx: TransformContext, edit: ChainEdit): void {
  const tail = edit.tail.map((l) => `${l.optional ? '?.' : '.'}${l.name}${l.nonNull ? '!' : ''}`).join('');
  if (edit.rootText !== undefined) {
    ctx.editor.replace(edit.start, edit.end, `${edit.rootText}${tail}`);
    return;
  }
  const rootEnd = afterParens(ctx, edit.rootEnd, edit.end);
  ctx.editor.replace(rootEnd, edit.end, tail);
}

/** Skip the closing parentheses that wrap a root (`(await x).choices`). */
function afterParens(ctx: TransformContext, from: number, limit: number): number {
  const m = /^(\s*\))*/.exec(ctx.text.slice(from, limit));
  return from + (m ? m[0].length : 0);
}

export function rewriteFinish(ctx: TransformContext, edit: FinishEdit): void {
  const rootSource = edit.rootText ?? ctx.text.slice(edit.rootStart, edit.rootEnd);
  const root = /^[\w$.]+$/.test(rootSource) ? rootSource : `(${rootSource})`;
  const condition = FINISH_CONDITIONS[edit.value].replaceAll('R.', `${root}.`).replace(/'/g, ctx.quote);
  ctx.editor.replace(edit.start, edit.end, edit.negate ? `!(${condition})` : `(${condition})`);
}

export function rewriteRename(ctx: TransformContext, edit: RenameEdit): void {
  ctx.editor.replace(edit.start, edit.end, edit.to);
}

export function rewriteReplace(ctx: TransformContext, edit: ReplaceEdit): void {
  ctx.editor.replace(edit.start, edit.end, edit.text.replace(/'/g, ctx.quote));
}

/** `a ?? b` → `a || b`: only the operator token changes. */
export function rewriteOperator(ctx: TransformContext, edit: OperatorEdit): void {
  const node = ctx.nodeAt(edit.start, edit.end, 'LogicalExpression');
  const left = node.left as { end: number };
  const right = node.right as { start: number };
  const between = ctx.text.slice(left.end, right.start);
  const at = between.indexOf('??');
  if (at === -1) throw new Error('no ?? operator to rewrite');
  ctx.editor.replace(left.end + at, left.end + at + 2, edit.to);
}

export function rewritePattern(ctx: TransformContext, edit: PatternEdit): void {
  ctx.editor.replace(edit.start, edit.end, edit.text);
}
