/** H-TYPES / M-TYPES: a Chat type reference on a unit-local declaration → its Responses type. */
import type { RetypeEdit } from '../lib/plan.js';
import type { TransformContext } from './context.js';
import { escapeRegExp } from '../lib/regexp.js';

export function rewriteType(ctx: TransformContext, edit: RetypeEdit): void {
  const from = ctx.text.slice(edit.start, edit.end);
  const local = edit.importName && edit.importFrom ? localName(ctx, edit.importName, edit.importFrom) : edit.to;
  ctx.editor.replace(edit.start, edit.end, local);
  // `ChatCompletionChunk`, or the import it is read through (`OpenAI.Chat.Completions.ChatCompletionChunk`)
  const head = from.split('.')[0].trim();
  if (/^[\w$]+$/.test(head)) ctx.released.add(head);
  if (edit.importName && edit.importFrom) {
    ctx.requireImport({ name: local === edit.importName ? edit.importName : `${edit.importName} as ${local}`, module: edit.importFrom, typeOnly: true });
  }
}

/**
 * The name the imported type goes by in this file: its own, unless the file already uses that name
 * for something else (a Next.js route's `Promise<Response>` and `new Response(…)` are the fetch
 * Response, which a type import of the SDK's `Response` would shadow), then `OpenAI<name>`.
 */
function localName(ctx: TransformContext, name: string, module: string): string {
  // the code's names, not a comment's words
  if (!ctx.bindingsNamed(name).length) return name;
  const text = ctx.text;
  const imported = new RegExp(`import\\s+type\\s*\\{[^}]*(?<![\\w$])${escapeRegExp(name)}(?![\\w$]|\\s+as\\b)[^}]*\\}\\s*from\\s*['"]${escapeRegExp(module)}['"]`).test(text);
  return imported ? name : `OpenAI${name}`;
}
