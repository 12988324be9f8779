/**
 * R-TOOLS / R-STRICT / T-PARAMS-KEY and R-TOOLCHOICE: nested Chat tool shapes flattened into the
 * Responses ones. `strict` keeps the Chat effective value (false unless it was literally true);
 * `parameters` is always present.
 */
import type { ToolChoiceEdit, ToolEdit } from '../lib/plan.js';
import { type Node, type TransformContext, findProp, flattenedProperties, props, stringLiteralValue, valueOf } from './context.js';

const EMPTY_PARAMETERS = "{ type: 'object', properties: {} }";

export function rewriteTool(ctx: TransformContext, edit: ToolEdit): void {
  const obj = ctx.nodeAt(edit.start, edit.end, 'ObjectExpression');
  const type = stringLiteralValue(findProp(obj, 'type')?.value as Node)!;
  const holder = findProp(obj, type)!;
  const inner = valueOf(holder)!;
  if (inner.type === 'Identifier') {
    // V-MAP over bare definitions the scan proved to hold parameters and no strict
    ctx.editor.replace(holder.start, holder.end, `...${ctx.source(inner)}, strict: false`);
    return;
  }
  const replacements: { start: number; end: number; text: string }[] = [];
  const extra: string[] = [];
  if (type === 'function') {
    const strict = findProp(inner, 'strict');
    const strictText = strictValue(ctx, strict);
    if (strict) replacements.push({ start: strict.start, end: strict.end, text: `strict: ${strictText}` });
    if (!findProp(inner, 'parameters')) extra.push(`parameters: ${EMPTY_PARAMETERS.replace(/'/g, ctx.quote)}`);
    if (!strict) extra.push(`strict: ${strictText}`);
  } else {
    // custom tool: a grammar format is flattened too (Shared.CustomToolInputFormat)
    const format = findProp(inner, 'format');
    const grammar = format && valueOf(format)!.type === 'ObjectExpression' ? findProp(valueOf(format)!, 'grammar') : undefined;
    if (grammar) replacements.push(flattenedProperties(ctx, grammar, valueOf(grammar)!));
  }
  ctx.editor.replaceRange(flattenedProperties(ctx, holder, inner, replacements, extra));
}

/** R-STRICT: `true` stays, false/null/absent → false, anything else `?? false`. */
function strictValue(ctx: TransformContext, strict: Node | undefined): string {
  if (!strict) return 'false';
  const v = strict.value as Node;
  if (v.type === 'BooleanLiteral') return v.value ? 'true' : 'false';
  if (v.type === 'NullLiteral' || (v.type === 'Identifier' && v.name === 'undefined')) return 'false';
  return `${ctx.source(v)} ?? false`;
}

export function rewriteToolChoice(ctx: TransformContext, edit: ToolChoiceEdit): void {
  const obj = ctx.nodeAt(edit.start, edit.end, 'ObjectExpression');
  const type = stringLiteralValue(findProp(obj, 'type')?.value as Node)!;
  const holder = findProp(obj, type)!;
  const inner = valueOf(holder)!;
  const replacements: { start: number; end: number; text: string }[] = [];
  if (type === 'allowed_tools') {
    const tools = valueOf(findProp(inner, 'tools'))!;
    for (const ref of (tools.elements as Node[]) ?? []) {
      const refType = stringLiteralValue(findProp(ref, 'type')?.value as Node);
      const nested = refType && findProp(ref, refType);
      if (nested && valueOf(nested)!.type === 'ObjectExpression') {
        replacements.push(flattenedProperties(ctx, nested, valueOf(nested)!));
      }
    }
  }
  ctx.editor.replaceRange(flattenedProperties(ctx, holder, inner, replacements));
  void props;
}
