/**
 * M- rules on message literals the scanner planned: content parts get their Responses types
 * (`input_text`, `input_image` with a flat URL and a detail, `input_file` flattened), assistant
 * text parts are joined into a string, and `name` (rejected by the API) and null `refusal` /
 * `audio` keys are dropped.
 */
import type { ConvertEdit, MessagesEdit, WrapRequestEdit } from '../lib/plan.js';
import { CONVERTER_NAME, TOOLS_CONVERTER_NAME } from '../lib/runtime/names.js';
import { type Node, type TransformContext, findProp, flattenedProperties, propKey, props, stringLiteralValue, unwrapNode, valueOf } from './context.js';

export function rewriteMessages(ctx: TransformContext, edit: MessagesEdit): void {
  if (edit.op === 'message') {
    const message = ctx.nodeAt(edit.start, edit.end, 'ObjectExpression');
    if (!converted(ctx, message)) rewriteMessage(ctx, message);
    return;
  }
  const array = ctx.nodeAt(edit.start, edit.end, 'ArrayExpression');
  for (const el of array.elements as (Node | null)[]) {
    if (el && !converted(ctx, el) && unwrapNode(el).type === 'ObjectExpression') rewriteMessage(ctx, unwrapNode(el));
  }
}

/** A message the run-time converter takes whole (M-CONTENT-UNTYPED): it is converted when the program runs. */
function converted(ctx: TransformContext, message: Node): boolean {
  return ctx.convertedRanges.some((r) => r.start <= message.start && message.end <= r.end);
}

function rewriteMessage(ctx: TransformContext, message: Node): void {
  const items = props(message);
  const role = stringLiteralValue(findProp(message, 'role')?.value as Node);
  if (role === 'tool' || findProp(message, 'tool_call_id')) return rewriteToolReply(ctx, message);
  if (findProp(message, 'tool_calls')) return expandAssistantToolCalls(ctx, message);
  // M-NAME: `name` goes; so do null `refusal` / `audio`, which input messages do not take
  const dropped = items.filter((p) => {
    const key = propKey(p);
    return key === 'name' || ((key === 'refusal' || key === 'audio') && isNullish(p.value as Node));
  });
  ctx.editor.removeItems(items, dropped.map((p) => items.indexOf(p)));
  const content = findProp(message, 'content');
  const value = valueOf(content);
  if (!value || value.type !== 'ArrayExpression') return;
  const parts = (value.elements as (Node | null)[]).map((e) => e && unwrapNode(e)).filter((e): e is Node => e?.type === 'ObjectExpression');
  if (role === 'assistant') {
    joinAssistantParts(ctx, value, parts);
    return;
  }
  for (const part of parts) rewritePart(ctx, part);
}

/** M-TOOL: `{ role: 'tool', tool_call_id, content }` → `{ type: 'function_call_output', call_id, output }`. */
function rewriteToolReply(ctx: TransformContext, message: Node): void {
  const role = findProp(message, 'role');
  if (role) ctx.editor.replace(role.start, role.end, `type: ${ctx.str('function_call_output')}`);
  renameProp(ctx, findProp(message, 'tool_call_id')!, 'call_id');
  const content = findProp(message, 'content')!;
  renameProp(ctx, content, 'output');
  const value = valueOf(content)!;
  if (value.type === 'ArrayExpression') {
    for (const part of value.elements as Node[]) {
      const type = valueOf(findProp(part, 'type'));
      if (type) ctx.editor.replace(type.start, type.end, ctx.str('input_text'));
    }
  }
}

function renameProp(ctx: TransformContext, p: Node, to: string): void {
  if (p.shorthand) ctx.editor.replace(p.start, p.end, `${to}: ${ctx.source(p.value as Node)}`);
  else ctx.editor.replace((p.key as Node).start, (p.key as Node).end, to);
}

/** M-ASSIST-TOOLCALLS: the assistant turn becomes its text (if any), then one function_call item per call. */
function expandAssistantToolCalls(ctx: TransformContext, message: Node): void {
  const content = findProp(message, 'content')?.value as Node | undefined;
  const hasText = content && !(content.type === 'NullLiteral' || (content.type === 'StringLiteral' && content.value === '') || (content.type === 'Identifier' && content.name === 'undefined'));
  const items: string[] = [];
  if (hasText) items.push(`{ role: ${ctx.str('assistant')}, content: ${ctx.source(content!)} }`);
  for (const call of valueOf(findProp(message, 'tool_calls'))!.elements as Node[]) {
    const fn = valueOf(findProp(unwrapNode(call), 'function'))!;
    const id = ctx.source(findProp(unwrapNode(call), 'id')!.value as Node);
    const name = ctx.source(findProp(fn, 'name')!.value as Node);
    const args = ctx.source(findProp(fn, 'arguments')!.value as Node);
    items.push(`{ type: ${ctx.str('function_call')}, call_id: ${id}, name: ${name}, arguments: ${args} }`);
  }
  const indent = ctx.editor.indentAt(message.start);
  ctx.editor.replace(message.start, message.end, items.join(indent !== undefined ? `,${ctx.editor.eol}${indent}` : ', '));
}

/** M-PART-TEXT, M-PART-IMAGE, M-PART-FILE. */
function rewritePart(ctx: TransformContext, part: Node): void {
  const typeProp = findProp(part, 'type');
  const typeNode = valueOf(typeProp);
  const type = stringLiteralValue(typeNode);
  if (!typeNode) return;
  const setType = (to: string) => ctx.editor.replace(typeNode.start, typeNode.end, ctx.str(to));
  if (type === 'text') setType('input_text');
  if (type === 'image_url') {
    setType('input_image');
    const image = findProp(part, 'image_url')!;
    const v = valueOf(image)!;
    if (v.type === 'ObjectExpression') {
      // `image_url: { url, detail }` → `image_url: url, detail` (detail 'auto' when absent), comments kept
      const url = findProp(v, 'url')!;
      const key = url.shorthand ? { start: url.start, end: url.end, text: `image_url: ${ctx.source(url.value as Node)}` } : { start: (url.key as Node).start, end: (url.key as Node).end, text: 'image_url' };
      // Responses requires a detail: one that may be undefined (`detail: img.detail`) falls back to 'auto' (T-DETAIL)
      const detail = findProp(v, 'detail');
      const extra = detail ? [] : [`detail: ${ctx.str('auto')}`];
      const keys = [key];
      if (detail && stringLiteralValue(valueOf(detail)) === undefined) {
        const value = ctx.source(detail.value as Node);
        keys.push({ start: detail.start, end: detail.end, text: `detail: ${value} ?? ${ctx.str('auto')}` });
      }
      ctx.editor.replaceRange(flattenedProperties(ctx, image, v, keys, extra));
    } else {
      const expr = ctx.source(v);
      ctx.editor.replace(image.start, image.end, `image_url: ${expr}.url, detail: ${expr}.detail ?? ${ctx.str('auto')}`);
    }
  }
  if (type === 'file') {
    setType('input_file');
    const file = findProp(part, 'file')!;
    ctx.editor.replaceRange(flattenedProperties(ctx, file, valueOf(file)!));
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

/**
 * M-CONTENT-UNTYPED: `x` → `toResponsesInput(x)`, one element `e` → `...toResponsesInput([e])`, and
 * the import of the package's converter module. The value is opaque (no other edit inside it); a
 * shorthand `{ messages }`, which the request transform turns into `input: messages` by an insert
 * before it, becomes `input: toResponsesInput(messages)`. R-TOOLS-UNTYPED: tools alike with
 * `toResponsesTools`; a shorthand `{ tools }`, whose key stays, becomes `tools: toResponsesTools(tools)`.
 */
export function convertMessages(ctx: TransformContext, edit: ConvertEdit): void {
  if (!edit.module) throw new Error('run-time conversion planned without its module');
  ctx.nodeAt(edit.start, edit.end); // the plan anchors an expression of this file
  const name = edit.of === 'tools' ? TOOLS_CONVERTER_NAME : CONVERTER_NAME;
  // The call is written around the value, not over it: the value's own rewrites (a result read in
  // it, `{ role: reply.role, … }`) stay theirs (probe of module structure: overlapping edits).
  // The only element of an array literal: `toResponsesInput([e])` in the array's place, not `[...toResponsesInput([e])]`
  const array = edit.element ? onlyElementBrackets(ctx.text, edit.start, edit.end) : undefined;
  const [open, close] = array ? [`${name}([`, '])'] : edit.element ? [`...${name}([`, '])'] : [`${name}(`, ')'];
  const key = edit.shorthand ? `${ctx.text.slice(edit.start, edit.end)}: ` : '';
  ctx.editor.replace(array ? array.start : edit.start, edit.start, key + open);
  if (array) ctx.editor.replace(edit.end, array.end, close);
  else ctx.editor.insertClosing(edit.end, close);
  ctx.requireImport({ name, module: edit.module, typeOnly: false });
}

/** `(async () => <call>)()`: see WrapRequestEdit. */
export function wrapRequest(ctx: TransformContext, edit: WrapRequestEdit): void {
  ctx.nodeAt(edit.start, edit.end, 'CallExpression', 'OptionalCallExpression'); // the plan anchors the request call
  ctx.editor.insert(edit.start, `${edit.leadingSemicolon ? ';' : ''}(async () => `);
  ctx.editor.insert(edit.end, ')()');
}

/** `[ e ]` or `[ e, ]` around the range, with nothing but white space between (a comment stays where it is). */
function onlyElementBrackets(text: string, start: number, end: number): { start: number; end: number } | undefined {
  let i = start - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  if (text[i] !== '[') return undefined;
  let j = end;
  while (j < text.length && /\s/.test(text[j])) j++;
  if (text[j] === ',') j++;
  while (j < text.length && /\s/.test(text[j])) j++;
  return text[j] === ']' ? { start: i, end: j + 1 } : undefined;
}

function isNullish(n: Node): boolean {
  return n.type === 'NullLiteral' || (n.type === 'Identifier' && n.name === 'undefined');
}
