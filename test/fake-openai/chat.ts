// POST /v1/chat/completions: validation → canonical request → model → ChatCompletion JSON or chunk stream.
import type OpenAI from 'openai';
import { canonicalize } from './canonical.js';
import { modelFailed } from './errors.js';
import { FAIL_MESSAGE, runModel, type ModelOutput } from './model.js';
import { ChatSseWriter } from './sse.js';
import { CREATED, splitDeltas, splitFixed, type Json } from './util.js';
import { validateChat } from './validate-chat.js';
import type { HandlerContext, HandlerResult } from './handler.js';

type ChatCompletion = OpenAI.Chat.ChatCompletion;
type ChatCompletionMessage = OpenAI.Chat.ChatCompletionMessage;
type ChatCompletionChunk = OpenAI.Chat.ChatCompletionChunk;
type ChunkDelta = OpenAI.Chat.ChatCompletionChunk.Choice.Delta;
type ChunkFinish = OpenAI.Chat.ChatCompletionChunk.Choice['finish_reason'];
type CompletionUsage = OpenAI.CompletionUsage;

export const SYSTEM_FINGERPRINT = 'fp_fakeopenai';
/** Characters per streamed tool-call argument fragment. */
const ARGUMENT_FRAGMENT = 6;

function usage(out: ModelOutput): CompletionUsage {
  return {
    prompt_tokens: out.usage.input,
    completion_tokens: out.usage.output,
    total_tokens: out.usage.input + out.usage.output,
    prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function completion(id: string, model: string, out: ModelOutput): ChatCompletion {
  const message: ChatCompletionMessage = {
    role: 'assistant',
    content: out.kind === 'text' ? out.text : null,
    refusal: out.refusal,
    annotations: [],
  };
  if (out.toolCalls.length) {
    message.tool_calls = out.toolCalls.map((c) => ({ id: c.call_id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return {
    id,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: out.finish }],
    usage: usage(out),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

function stream(id: string, model: string, out: ModelOutput, includeUsage: boolean): string[] {
  const w = new ChatSseWriter();
  const header = { id, object: 'chat.completion.chunk', created: CREATED, model, service_tier: 'default', system_fingerprint: SYSTEM_FINGERPRINT } as const;
  const chunk = (delta: ChunkDelta, finish: ChunkFinish = null): void => {
    const c: ChatCompletionChunk = { ...header, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
    if (includeUsage) c.usage = null;
    w.chunk(c);
  };

  chunk({ role: 'assistant', content: out.kind === 'text' ? '' : null, refusal: null });
  if (out.kind === 'failed') {
    w.error({ message: FAIL_MESSAGE, type: 'server_error', param: null, code: 'server_error' });
    return w.frames; // the SDK throws on the error event; no [DONE]
  }
  if (out.kind === 'text') for (const piece of splitDeltas(out.text)) chunk({ content: piece });
  if (out.kind === 'refusal') for (const piece of splitDeltas(out.refusal ?? '')) chunk({ refusal: piece });
  out.toolCalls.forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.call_id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (const frag of splitFixed(c.arguments, ARGUMENT_FRAGMENT)) chunk({ tool_calls: [{ index, function: { arguments: frag } }] });
  });
  chunk({}, out.finish);
  if (includeUsage) {
    w.chunk({ ...header, choices: [], usage: usage(out) } satisfies ChatCompletionChunk);
  }
  w.done();
  return w.frames;
}

export function handleChat(body: Json, ctx: HandlerContext): HandlerResult {
  validateChat(body);
  const canonical = canonicalize('chat', body);
  const out = runModel(canonical);
  const id = `chatcmpl-${ctx.nextId()}`;
  const model = String(body.model);
  if (body.stream === true) {
    const opts = body.stream_options as { include_usage?: unknown } | null | undefined;
    return { status: 200, sse: stream(id, model, out, opts?.include_usage === true) };
  }
  if (out.kind === 'failed') throw modelFailed();
  return { status: 200, json: completion(id, model, out) };
}
