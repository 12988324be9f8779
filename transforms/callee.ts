/**
 * A-CREATE / A-PARSE / A-STREAM / A-BETA: `X.chat.completions.create` → `X.responses.create`.
 * Only the `.chat.completions` part changes, so a chain split over lines keeps its layout.
 */
import type { CalleeEdit } from '../lib/plan.js';
import type { Node, TransformContext } from './context.js';

const MEMBER = ['MemberExpression', 'OptionalMemberExpression'];

export function rewriteCallee(ctx: TransformContext, edit: CalleeEdit): void {
  const callee = ctx.nodeAt(edit.start, edit.end, ...MEMBER);
  const completions = callee.object as Node; // X.chat.completions
  if (edit.receiverText !== undefined) {
    // `chat.completions` on a local chat resource → `client.responses`
    ctx.editor.replace(completions.start, completions.end, `${edit.receiverText}.responses`);
    return;
  }
  let chat = completions.object as Node; // X.chat
  let receiver = chat.object as Node;
  if (isNamed(receiver, 'beta')) {
    chat = receiver;
    receiver = chat.object as Node;
  }
  // `client?.chat.completions` keeps its `?.` (the call was skipped on a nullish client: §1.1)
  const between = ctx.text.slice(receiver.end, completions.end);
  const optional = /^\s*\)*\s*\?\./.test(between) ? '?.' : '.';
  // keep any closing parentheses of the receiver (`(await getClient()).chat…`)
  const close = /^(\s*\))*/.exec(between)?.[0] ?? '';
  ctx.editor.replace(receiver.end, completions.end, `${close}${optional}responses`);
}

function isNamed(node: Node, name: string): boolean {
  if (!MEMBER.includes(node.type)) return false;
  const prop = node.property as Node;
  return (!node.computed && prop.type === 'Identifier' && prop.name === name) || (prop.type === 'StringLiteral' && prop.value === name);
}
