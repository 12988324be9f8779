/**
 * H-ZODFORMAT / H-ZODFUNCTION / H-STANDARD: `zodResponseFormat(…)` → `zodTextFormat(…)`. The
 * import is renamed when the old helper is no longer used in the file, else the new one is added.
 */
import type { HelperCallEdit } from '../lib/plan.js';
import type { Node, TransformContext } from './context.js';

export function rewriteHelperCall(ctx: TransformContext, edit: HelperCallEdit): void {
  const callee = ctx.nodeAt(edit.start, edit.end);
  if (callee.type === 'Identifier') {
    ctx.editor.replace(callee.start, callee.end, edit.to);
    ctx.requireImport({ name: edit.to, module: edit.module, typeOnly: false, replaces: edit.from } as never);
    return;
  }
  // helpers.zodResponseFormat(…): a namespace import only needs the member renamed
  const property = callee.property as Node;
  ctx.editor.replace(property.start, property.end, edit.to);
}
