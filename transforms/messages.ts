/**
 * M- rules on message literals the scanner planned: content parts get their Responses types
 * (`input_text`, `input_image` with a flat URL and a detail, `input_file` flattened), assistant
 * text parts are joined into a string, and `name` (rejected by the API) and null `refusal` /
 * `audio` keys are dropped.
 */
import type { MessagesEdit } from '../lib/plan.js';
import { type Node, type TransformContext, findProp, propKey, props, stringLiteralValue, innerText } from './context.js';

export function rewriteMessages(ctx: TransformContext, edit: MessagesEdit): void {
  if (edit.op === 'message') {
    rewriteMessage(ctx, ctx.nodeAt(edit.start, edit.end, 'ObjectExpression'));
    return;
  }
  const array = ctx.nodeAt(edit.start, edit.end, 'ArrayExpression');
  for (const el of array.elements as (Node | null)[]) {
    if (el?.type === 'ObjectExpression') rewriteMessage(ctx, el);
  }
}

function rewriteMessage(ctx: TransformContext, message: Node): void {
  const items = props(message);
  const role = stringLiteralValue(findProp(message, 'role')?.value as Node);
  for (const p of items) {
    const key = propKey(p);
    if (key === 'name') ctx.editor.removeItem(items, items.indexOf(p)); // M-NAME
    if ((key === 'refusal' || key === 'audio') && isNullish(p.value as Node)) ctx.editor.removeItem(items, items.indexOf(p));
  }
  const content = findProp(message, 'content');
  const value = content?.value as Node | undefined;
  if (!value || value.type !== 'ArrayExpression') return;
  const parts = (value.elements as (Node | null)[]).filter((e): e is Node => e?.type === 'ObjectExpression');
  if (role === 'assistant') {
    joinAssistantParts(ctx, value, parts);
    return;
  }
  for (const part of parts) rewritePart(ctx, part);
}

/** M-PART-TEXT, M-PART-IMAGE, M-PART-FILE. */
function rewritePart(ctx: TransformContext, part: Node): void {
  const typeProp = findProp(part, 'type');
  const typeNode = typeProp?.value as Node | undefined;
  const type = stringLiteralValue(typeNode);
  if (!typeNode) return;
  const setType = (to: string) => ctx.editor.replace(typeNode.start, typeNode.end, ctx.str(to));
  if (type === 'text') setType('input_text');
  if (type === 'image_url') {
    setType('input_image');
    const image = findProp(part, 'image_url')!;
    const v = image.value as Node;
    if (v.type === 'ObjectExpression') {
      const url = findProp(v, 'url')!.value as Node;
      const detail = findProp(v, 'detail')?.value as Node | undefined;
      ctx.editor.replace(image.start, image.end, `image_url: ${ctx.source(url)}, detail: ${detail ? ctx.source(detail) : ctx.str('auto')}`);
    } else {
      const expr = ctx.source(v);
      ctx.editor.replace(image.start, image.end, `image_url: ${expr}.url, detail: ${expr}.detail ?? ${ctx.str('auto')}`);
    }
  }
  if (type === 'file') {
    setType('input_file');
    const file = findProp(part, 'file')!;
    ctx.editor.replace(file.start, file.end, innerText(ctx, file.value as Node));
  }
}

/** M-ASSIST-TEXT: assistant history content is always one string. */
function joinAssistantParts(ctx: TransformContext, array: Node, parts: Node[]): void {
  const texts = parts.map((p) => findProp(p, 'text')?.value as Node | undefined);
  if (texts.some((t) => !t)) throw new Error('assistant content part without text');
  const sources = (texts as Node[]).map((t) => ctx.source(t));
  const joined = sources.length === 1 ? sources[0] : `[${sources.join(', ')}].join('')`;
  ctx.editor.replace(array.start, array.end, joined);
}

function isNullish(n: Node): boolean {
  return n.type === 'NullLiteral' || (n.type === 'Identifier' && n.name === 'undefined');
}
