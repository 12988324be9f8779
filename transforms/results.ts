/**
 * O- rules on the reads the scanner followed: read chains (`r.choices[0].message.content` →
 * `r.output_text`), finish-reason comparisons, null checks on content, O-BIND patterns. Each edit
 * carries the exact Responses links; this module only writes them.
 */
import path from 'node:path';
import type { ChainEdit, ChainLink, FinishEdit, OperatorEdit, PatternEdit, RenameEdit, ReplaceEdit, ReplayEdit } from '../lib/plan.js';
import { FINISH_CONDITIONS, INDEX0, REPLAY_HELPER, TOOL_CALLS_FILTER } from '../lib/rules/results.js';
import { bare, type TransformContext } from './context.js';

const RESPONSES_TYPES = 'openai/resources/responses/responses';

/** One Responses link: `.name`, `?.name`, `[0]`, or the function-call filter of O-TOOLCALLS. */
function renderLink(ctx: TransformContext, link: ChainLink): string {
  const bang = link.nonNull ? '!' : '';
  if (link.name === INDEX0) return `${link.optional ? '?.' : ''}[0]${bang}`;
  if (link.name.startsWith(TOOL_CALLS_FILTER)) return `${link.optional ? '?.' : '.'}${functionCalls(ctx, link, 'filter')}${bang}`;
  return `${link.optional ? '?.' : '.'}${link.name}${bang}`;
}

/** `filter(…)` / `find(…)` over output items, with a type predicate in TypeScript (imported). */
function functionCalls(ctx: TransformContext, link: ChainLink, method: 'filter' | 'find'): string {
  const q = ctx.quote;
  if (isJavaScript(ctx.file)) return `${method}((i) => i.type === ${q}function_call${q})`;
  const type = link.name.includes(':parsed') ? 'ParsedResponseFunctionToolCall' : 'ResponseFunctionToolCall';
  ctx.requireImport({ name: type, module: RESPONSES_TYPES, typeOnly: true });
  // a result the program typed `any` gives the callback no contextual type: it names its own
  if (link.name.includes(':any')) {
    ctx.requireImport({ name: 'ResponseOutputItem', module: RESPONSES_TYPES, typeOnly: true });
    return `${method}((i: ResponseOutputItem): i is ${type} => i.type === ${q}function_call${q})`;
  }
  return `${method}((i): i is ${type} => i.type === ${q}function_call${q})`;
}

/**
 * O-TOOLCALLS, the first tool call (`tool_calls?.[0]`): `output.find(…)` rather than
 * `output.filter(…)?.[0]`, the same value (the first function_call item, or undefined). The filtered
 * array is never nullish, so the `?.` said nothing. In TypeScript a plain `[0]` (`tool_calls![0]`,
 * or after a check of `tool_calls`) was typed as the call itself, and `find` would add
 * `| undefined`: the filter form stays there, as it does wherever the array itself is used.
 */
function renderLinks(ctx: TransformContext, links: readonly ChainLink[]): string {
  let out = '';
  for (let i = 0; i < links.length; i++) {
    const link = links[i];
    const next = links[i + 1];
    if (link.name.startsWith(TOOL_CALLS_FILTER) && next?.name === INDEX0 && (next.optional || next.nonNull || isJavaScript(ctx.file))) {
      out += `${link.optional ? '?.' : '.'}${functionCalls(ctx, link, 'find')}${next.nonNull ? '!' : ''}`;
      i++;
      // `tool_calls?.[0].function.arguments`: the `?.` cut the whole chain short when there was no
      // call; find gives undefined there, so the read after it needs its own `?.`
      const after = links[i + 1];
      if (next.optional && after && !after.optional) {
        out += renderLink(ctx, { ...after, optional: true });
        i++;
      }
      continue;
    }
    // a read on the filtered array (`tool_calls?.length`): the array is never nullish, so `?.` says nothing
    const afterFilter = i > 0 && links[i - 1].name.startsWith(TOOL_CALLS_FILTER);
    out += renderLink(ctx, afterFilter && link.optional ? { ...link, optional: false } : link);
  }
  return out;
}

function isJavaScript(file: string): boolean {
  return /^\.(c|m)?jsx?$/.test(path.extname(file));
}

/** `root<chat chain>` → `root<responses links>`; the root's own text (and parentheses) is kept. */
export function rewriteChain(ctx: TransformContext, edit: ChainEdit): void {
  // links that collapse into one (`tool_calls![0]!.function!` → `find(…)!`) keep one `!`: the
  // tail's last, or the one the source writes right after the chain
  let tail = renderLinks(ctx, edit.tail).replace(/!{2,}/g, '!');
  if (tail.endsWith('!') && ctx.text[edit.end] === '!' && ctx.text[edit.end + 1] !== '=' && !edit.appendLength) tail = tail.slice(0, -1);
  tail += edit.appendLength ? '.length' : '';
  // `content!` asserted what `output_text` always is: the `!` goes (a reviewer would stop at it)
  let end = edit.end;
  if (edit.neverNullish) {
    tail = tail.replace(/!$/, '');
    if (ctx.text[end] === '!' && ctx.text[end + 1] !== '=') end += 1;
  }
  if (edit.rootText !== undefined) {
    ctx.editor.replace(edit.start, end, `${edit.rootText}${tail}`);
    return;
  }
  const rootEnd = afterParens(ctx, edit.rootEnd, edit.end);
  ctx.editor.replace(rootEnd, end, tail);
}

/** Skip the closing parentheses that wrap a root (`(await x).choices`). */
function afterParens(ctx: TransformContext, from: number, limit: number): number {
  const m = /^(\s*\))*/.exec(ctx.text.slice(from, limit));
  return from + (m ? m[0].length : 0);
}

/** M-REPLAY: `history.push(<message>)` → `history.push(...toResponseInputItems(<response>.output))`. */
export function rewriteReplay(ctx: TransformContext, edit: ReplayEdit): void {
  const rootSource = edit.rootText ?? ctx.text.slice(edit.rootStart, edit.rootEnd);
  const root = /^[\w$.]+$/.test(rootSource) ? rootSource : `(${rootSource})`;
  ctx.editor.replace(edit.start, edit.end, `...${REPLAY_HELPER.name}(${root}.output)`);
  ctx.requireImport({ name: REPLAY_HELPER.name, module: REPLAY_HELPER.module, typeOnly: false });
}

export function rewriteFinish(ctx: TransformContext, edit: FinishEdit): void {
  const rootSource = edit.rootText ?? ctx.text.slice(edit.rootStart, edit.rootEnd);
  const root = /^[\w$.]+$/.test(rootSource) ? rootSource : `(${rootSource})`;
  const condition = FINISH_CONDITIONS[edit.value].replaceAll('R.', `${root}.`).replace(/'/g, ctx.quote);
  ctx.editor.replace(edit.start, edit.end, bare(ctx, edit.start, edit.end, edit.negate ? `!(${condition})` : `(${condition})`));
}

export function rewriteRename(ctx: TransformContext, edit: RenameEdit): void {
  ctx.editor.replace(edit.start, edit.end, edit.to);
}

export function rewriteReplace(ctx: TransformContext, edit: ReplaceEdit): void {
  ctx.editor.replace(edit.start, edit.end, edit.text.replace(/'/g, ctx.quote));
  for (const name of edit.releases ?? []) ctx.released.add(name);
}

/**
 * `a ?? b` → `a || b`: only the operator token changes, and parentheses come around it where it is
 * an operand of another `??` (`a ?? b ?? c`), which may not be mixed with `||` unparenthesised.
 */
export function rewriteOperator(ctx: TransformContext, edit: OperatorEdit): void {
  const node = ctx.nodeAt(edit.start, edit.end, 'LogicalExpression');
  const left = node.left as { end: number };
  const right = node.right as { start: number };
  const between = ctx.text.slice(left.end, right.start);
  const at = between.indexOf('??');
  if (at === -1) throw new Error('no ?? operator to rewrite');
  ctx.editor.replace(left.end + at, left.end + at + 2, edit.to);
  const parenthesized = (node.extra as { parenthesized?: boolean } | undefined)?.parenthesized;
  const nextToNullish = /\?\?\s*$/.test(ctx.text.slice(0, node.start as number)) || /^\s*\?\?/.test(ctx.text.slice(node.end as number));
  if (!parenthesized && nextToNullish) {
    ctx.editor.insert(node.start as number, '(');
    ctx.editor.insert(node.end as number, ')');
  }
}

export function rewritePattern(ctx: TransformContext, edit: PatternEdit): void {
  ctx.editor.replace(edit.start, edit.end, edit.text);
}
