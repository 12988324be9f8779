/**
 * R- rules on a params object literal the scanner planned (top level, spread or branch): keys are
 * renamed or reshaped by the CHAT_PARAMS table, inert Chat-only keys dropped, `store: false`
 * appended and the leading system message hoisted into `instructions` when the plan says so.
 * The scanner has already proven every key here mappable; this only executes the table.
 */
import { ownEntry } from '../lib/rules/lookup.js';
import type { FormatEdit, RequestEdit } from '../lib/plan.js';
import { CHAT_PARAMS, LOGPROBS_INCLUDE } from '../lib/rules/request-params.js';
import { type Node, type TransformContext, findProp, flattenedProperties, propKey, props, stringLiteralValue, unwrapNode, valueOf } from './context.js';

export function rewriteRequest(ctx: TransformContext, edit: RequestEdit): void {
  const obj = ctx.nodeAt(edit.start, edit.end, 'ObjectExpression');
  const items = props(obj);
  const removed = new Set<Node>();
  const appends: string[] = [];
  const { editor } = ctx;

  const logprobs = findProp(obj, 'logprobs');
  const logprobsOff = logprobs && !isTrue(valueOf(logprobs)!);
  const format = findProp(obj, 'response_format');
  const verbosity = findProp(obj, 'verbosity');

  for (const p of items) {
    const key = propKey(p);
    const rule = key ? ownEntry(CHAT_PARAMS, key) : undefined;
    if (!key || !rule) continue;
    switch (rule.treatment) {
      case 'messages':
      case 'max-tokens':
        renameKey(ctx, p, rule.to!);
        break;
      case 'reasoning-effort':
        wrapValue(ctx, p, 'reasoning: { effort', ' }');
        break;
      case 'logprobs':
        if (logprobsOff) removed.add(p);
        else editor.replace(p.start, p.end, `include: [${[LOGPROBS_INCLUDE, ...(edit.addInclude ?? [])].map((i) => ctx.str(i)).join(', ')}]`);
        break;
      case 'top-logprobs':
        if (logprobsOff) removed.add(p);
        break;
      case 'stream-options':
        streamOptions(ctx, p, removed);
        break;
      case 'no-equivalent':
        removed.add(p); // the scanner only plans a site whose Chat-only keys are inert
        break;
      default:
        break;
    }
  }

  // R-RESPFMT + R-VERBOSITY: one `text` object
  if (format) {
    flattenFormat(ctx, valueOf(format)!);
    const tail = verbosity ? `, verbosity: ${ctx.source(verbosity.value as Node)} }` : ' }';
    wrapValue(ctx, format, 'text: { format', tail);
    if (verbosity) removed.add(verbosity);
  } else if (verbosity) {
    wrapValue(ctx, verbosity, 'text: { verbosity', ' }');
  }

  // M-SYSTEM: hoist the leading system message into instructions
  if (edit.hoistSystem) {
    const messagesProp = findProp(obj, 'messages');
    const array = valueOf(messagesProp);
    const first = array && unwrapNode((array.elements as Node[])[0]);
    const content = first && findProp(first, 'content');
    if (!messagesProp || !array || !first || !content) throw new Error('hoist planned but no leading system message found');
    editor.insertItem(items, items.indexOf(messagesProp), `instructions: ${ctx.source(content.value as Node)}`, obj.start + 1);
    editor.removeItem(array.elements as Node[], 0);
  }

  if (edit.addStore) appends.push('store: false');
  if (edit.addInclude?.length && !(logprobs && !logprobsOff)) appends.push(`include: [${edit.addInclude.map((i) => ctx.str(i)).join(', ')}]`);
  finishList(ctx, obj, items, removed, appends);
}

/** Remove the dropped items and append the new ones without the two fighting over a comma. */
function finishList(ctx: TransformContext, obj: Node, items: Node[], removed: Set<Node>, appends: string[]): void {
  const { editor } = ctx;
  const last = items[items.length - 1];
  const kept = items.filter((p) => !removed.has(p));
  if (last && removed.has(last) && appends.length && editor.commaAfter(last.end) === undefined) {
    // replace the removed last item by the first new one
    editor.replace(last.start, last.end, appends.shift()!);
    kept.push(last);
    removed.delete(last);
  }
  editor.removeItems(items, [...removed].map((p) => items.indexOf(p)));
  editor.insertItem(kept, kept.length, appends, obj.start + 1);
}

/**
 * `key: value` → `newKey: value`; a shorthand `{ messages }` becomes `input: messages` by an insert
 * before it, which leaves the value to a run-time conversion's own inserts (M-CONTENT-UNTYPED).
 */
function renameKey(ctx: TransformContext, p: Node, to: string): void {
  const key = p.key as Node;
  if (p.shorthand) ctx.editor.insert(p.start, `${to}: `);
  else ctx.editor.replace(key.start, key.end, to);
}

/** `key: value` → `<head>: value<tail>`, touching only the key and the end of the value. */
function wrapValue(ctx: TransformContext, p: Node, head: string, tail: string): void {
  const value = p.value as Node;
  if (p.shorthand) {
    ctx.editor.replace(p.start, p.end, `${head}: ${ctx.source(value)}${tail}`);
    return;
  }
  const key = p.key as Node;
  const keyEnd = p.computed ? ctx.text.indexOf(']', key.end) + 1 : key.end;
  ctx.editor.replace(p.start, keyEnd, head);
  ctx.editor.insert(value.end + closingParens(ctx, value), tail);
}

/** A parenthesised value ends after its `)`: keep the wrapper outside of it. */
function closingParens(ctx: TransformContext, value: Node): number {
  const extra = value.extra as { parenthesized?: boolean } | undefined;
  if (!extra?.parenthesized) return 0;
  const m = /^(\s*\))+/.exec(ctx.text.slice(value.end));
  return m ? m[0].length : 0;
}

/** `{ type: 'json_schema', json_schema: { name, schema } }` → `{ type: 'json_schema', name, schema }`. */
function flattenFormat(ctx: TransformContext, value: Node): void {
  if (value.type !== 'ObjectExpression') return; // a zod helper call or a local object (its own edit)
  if (stringLiteralValue(findProp(value, 'type')?.value as Node) !== 'json_schema') return;
  const inner = findProp(value, 'json_schema');
  if (!inner) return;
  const schema = valueOf(inner)!;
  // `json_schema: schema`, a const of the schema's own keys (the scan checked): spread it in
  if (schema.type === 'Identifier') ctx.editor.replace(inner.start, inner.end, `...${schema.name}`);
  else ctx.editor.replaceRange(flattenedProperties(ctx, inner, schema));
}

/** R-RESPFMT on a format object defined away from the call (V-LOCAL). */
export function rewriteFormat(ctx: TransformContext, edit: FormatEdit): void {
  flattenFormat(ctx, ctx.nodeAt(edit.start, edit.end, 'ObjectExpression'));
}

/** R-STREAMOPTS: drop include_usage; drop stream_options when nothing remains. */
function streamOptions(ctx: TransformContext, p: Node, removed: Set<Node>): void {
  const value = valueOf(p)!;
  if (value.type !== 'ObjectExpression') {
    removed.add(p); // null / undefined
    return;
  }
  const inner = props(value);
  const usage = findProp(value, 'include_usage');
  if (!usage) return;
  if (inner.length === 1) removed.add(p);
  else ctx.editor.removeItem(inner, inner.indexOf(usage));
}

function isTrue(n: Node): boolean {
  return n.type === 'BooleanLiteral' && n.value === true;
}
