/**
 * A completions resource exported as a const (`export const chat = openai.chat.completions`) and
 * called through it, in its module or in one that imports it (`chat.create(…)`): W-FOLLOW through
 * exports and imports. It is followed when every use of the const in the project is a direct call
 * of `create`, `parse` or `stream` in a file this pass looks for sites in; those calls are then the
 * sites, one unit (W-ALL-OR-NOTHING), and the const becomes `openai.responses` with them. Anything
 * else (another use, a file not analysed, a published package's export, a typed const) stops it,
 * and the place it leaves stays listed (receiver-not-client).
 */
import path from 'node:path';
import { ts, accessName, climbWrappers, isAccess } from './ast.js';
import { constUses } from './callers.js';
import { locationOf, type ScanContext } from './context.js';
import { syntaxErrors } from './project.js';

const RESOURCE_METHODS = new Set(['create', 'parse', 'stream']);

export type ResourceCalls = { calls: ts.CallExpression[] } | { stop: string };

/**
 * Asked once per const and pass: by its hand-out and by every call through it (each answer walks
 * every file that names the const). A pass has its own context, program and files.
 */
const answers = new WeakMap<ScanContext, Map<ts.VariableDeclaration, ResourceCalls>>();

export function resourceCalls(decl: ts.VariableDeclaration, ctx: ScanContext): ResourceCalls {
  let known = answers.get(ctx);
  if (!known) answers.set(ctx, (known = new Map()));
  let answer = known.get(decl);
  if (!answer) known.set(decl, (answer = followResource(decl, ctx)));
  return answer;
}

function followResource(decl: ts.VariableDeclaration, ctx: ScanContext): ResourceCalls {
  if (!ts.isIdentifier(decl.name)) return { stop: 'it is destructured' };
  const name = decl.name.text;
  if (decl.type) return { stop: `${name} is declared with a type (${locationOf(ctx, decl)})` };
  const uses = constUses(decl as ts.VariableDeclaration & { name: ts.Identifier }, ctx);
  if ('stop' in uses) return uses;
  const calls: ts.CallExpression[] = [];
  for (const use of uses.uses) {
    const call = methodCall(use);
    if (!call) return { stop: `${name} is used other than called (${locationOf(ctx, use)})` };
    const file = use.getSourceFile();
    if (!ctx.analysedFiles?.has(path.normalize(file.fileName)) || syntaxErrors(file).length) {
      return { stop: `${name} is called in a file not scanned for sites (${locationOf(ctx, use)})` };
    }
    calls.push(call);
  }
  if (!calls.length) return { stop: `${name} has no caller in view (${locationOf(ctx, decl)})` };
  return { calls };
}

/** `x.create(…)` / `x.parse(…)` / `x.stream(…)` with `x` this use. */
function methodCall(use: ts.Identifier): ts.CallExpression | undefined {
  const holder = climbWrappers(use);
  const access = holder.parent;
  if (!isAccess(access) || access.expression !== holder || !RESOURCE_METHODS.has(accessName(access) ?? '')) return undefined;
  const outer = climbWrappers(access);
  const call = outer.parent;
  return ts.isCallExpression(call) && call.expression === outer ? call : undefined;
}
