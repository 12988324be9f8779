/**
 * The ordered registry of transforms: one per concern, each executing the plan edits of its ops.
 * Every transform works on the same parse of the file (one parse per file) and adds patches to
 * the same editor; the file is printed once, at the end.
 */
import type { Edit } from '../lib/plan.js';
import type { Reason } from '../lib/report/model.js';
import { rewriteCallee } from './callee.js';
import { TransformContext } from './context.js';
import { rewriteHelperCall } from './helpers.js';
import { addImports } from './imports.js';
import { insertMarkers } from './markers.js';
import { convertMessages, rewriteMessages, wrapRequest } from './messages.js';
import { assertParses } from './parser.js';
import { rewriteFormat, rewriteRequest } from './request.js';
import { rewriteChain, rewriteFinish, rewriteOperator, rewritePattern, rewriteRename, rewriteReplace, rewriteReplay } from './results.js';
import { insertStreamGuard, rewriteStreamRead } from './streams.js';
import { rewriteTool, rewriteToolChoice } from './tools.js';
import { rewriteType } from './types.js';

export interface Transform {
  name: string;
  description: string;
  ops: readonly Edit['op'][];
  apply(ctx: TransformContext, edit: Edit): void;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const as = <T extends Edit>(fn: (ctx: TransformContext, e: T) => void) => fn as (ctx: TransformContext, e: Edit) => void;

export const TRANSFORMS: readonly Transform[] = [
  { name: 'request', description: 'params keys renamed and reshaped (R- rules), store added, system message hoisted', ops: ['request'], apply: as(rewriteRequest) },
  { name: 'format', description: 'a response_format object defined in view, json_schema flattened (R-RESPFMT)', ops: ['format'], apply: as(rewriteFormat) },
  { name: 'messages', description: 'message content parts and keys (M- rules)', ops: ['messages', 'message'], apply: as(rewriteMessages) },
  { name: 'runtime-conversion', description: 'messages and tools from outside the code converted when the program runs (M-CONTENT-UNTYPED, R-TOOLS-UNTYPED)', ops: ['convert-messages'], apply: as(convertMessages) },
  { name: 'request-wrap', description: 'a converting request under its own .catch wrapped so the converter rejects its promise (M-CONTENT-UNTYPED)', ops: ['wrap-request'], apply: as(wrapRequest) },
  { name: 'tools', description: 'tool definitions flattened, strict and parameters explicit (R-TOOLS, R-STRICT)', ops: ['tool'], apply: as(rewriteTool) },
  { name: 'tool-choice', description: 'tool_choice shapes flattened (R-TOOLCHOICE)', ops: ['tool-choice'], apply: as(rewriteToolChoice) },
  { name: 'replay', description: 'assistant turns replayed as output items (M-REPLAY)', ops: ['replay'], apply: as(rewriteReplay) },
  { name: 'stream-reads', description: 'chunk reads as event expressions (S-TEXT, S-USAGE, S-FINISH)', ops: ['stream-read'], apply: as(rewriteStreamRead) },
  { name: 'stream-guard', description: 'failure guard at the top of stream loops (S-FAILED)', ops: ['stream-guard'], apply: as(insertStreamGuard) },
  { name: 'callee', description: 'chat.completions.<method> → responses.<method>', ops: ['callee'], apply: as(rewriteCallee) },
  { name: 'result-chains', description: 'result reads (O- rules)', ops: ['chain'], apply: as(rewriteChain) },
  { name: 'finish-reason', description: 'finish_reason comparisons (O-FINISH)', ops: ['finish'], apply: as(rewriteFinish) },
  { name: 'content-null', description: 'null checks on content (O-CONTENT-NULL)', ops: ['replace', 'operator'], apply: (ctx, e) => (e.op === 'operator' ? rewriteOperator(ctx, e) : rewriteReplace(ctx, e as never)) },
  { name: 'bindings', description: 'destructuring patterns (O-BIND) and renames', ops: ['pattern', 'rename'], apply: (ctx, e) => (e.op === 'pattern' ? rewritePattern(ctx, e) : rewriteRename(ctx, e as never)) },
  { name: 'types', description: 'Chat types on unit-local declarations (H-TYPES, M-TYPES)', ops: ['retype'], apply: as(rewriteType) },
  { name: 'helpers', description: 'zod and standard-schema helpers (H-ZODFORMAT, H-ZODFUNCTION)', ops: ['helper-call'], apply: as(rewriteHelperCall) },
];

export { TransformContext };

export interface MarkerRequest {
  statementStart: number;
  reasons: readonly Reason[];
}

export interface FileTransformResult {
  output: string;
  changed: boolean;
}

/**
 * Run every planned edit of one file, then the imports and markers, print once and re-parse.
 * Throws when an edit cannot be applied or the output does not parse; the caller rolls back.
 */
export function transformFile(
  file: string, text: string, edits: readonly Edit[], markers: readonly MarkerRequest[],
  /** A context parsed ahead of time for this very text (the helper thread parses while the scan runs). */
  prepared?: TransformContext,
  /** The name the file's package installs the SDK under, when it is not `openai` (an npm alias). */
  sdkName?: string,
): FileTransformResult {
  const ctx = prepared && prepared.file === file && prepared.text === text ? prepared : new TransformContext(file, text);
  if (sdkName) ctx.sdkName = sdkName;
  const unique = uniqueEdits(edits);
  ctx.convertedRanges = unique.filter((e) => e.op === 'convert-messages');
  for (const t of TRANSFORMS) {
    for (const edit of unique) if (t.ops.includes(edit.op)) t.apply(ctx, edit);
  }
  addImports(ctx);
  for (const m of markers) insertMarkers(ctx, m.statementStart, m.reasons);
  const output = ctx.editor.apply();
  if (output !== text) assertParses(file, output);
  return { output, changed: output !== text };
}

/**
 * Sites of one unit that share a declaration (a params object two calls take, a builder's
 * literal) each plan the same edit of it: it is applied once.
 */
function uniqueEdits(edits: readonly Edit[]): Edit[] {
  const seen = new Set<string>();
  return edits.filter((e) => {
    const key = JSON.stringify(e);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
