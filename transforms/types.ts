/** H-TYPES / M-TYPES: a Chat type reference on a unit-local declaration → its Responses type. */
import type { RetypeEdit } from '../lib/plan.js';
import type { TransformContext } from './context.js';

export function rewriteType(ctx: TransformContext, edit: RetypeEdit): void {
  const from = ctx.text.slice(edit.start, edit.end);
  ctx.editor.replace(edit.start, edit.end, edit.to);
  if (/^[\w$]+$/.test(from)) ctx.released.add(from);
  if (edit.importName && edit.importFrom) ctx.requireImport({ name: edit.importName, module: edit.importFrom, typeOnly: true });
}
