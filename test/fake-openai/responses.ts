// POST /v1/responses: validation → canonical request → model → Response JSON or event stream.
// The JSON never contains `output_text` (the SDK adds it, T-OUTTEXT-ABSENT).
import type OpenAI from 'openai';
import { canonicalize } from './canonical.js';
import { modelFailed } from './errors.js';
import { FAIL_MESSAGE, runModel, type ModelOutput } from './model.js';
import { ResponsesSseWriter } from './sse.js';
import { CREATED, isObject, splitDeltas, splitFixed, type Json } from './util.js';
import { validateResponses } from './validate-responses.js';
import type { HandlerContext, HandlerResult } from './handler.js';

type Response = OpenAI.Responses.Response;
type ResponseUsage = OpenAI.Responses.ResponseUsage;
type ResponseOutputItem = OpenAI.Responses.ResponseOutputItem;
type ResponseOutputMessage = OpenAI.Responses.ResponseOutputMessage;
type ResponseFunctionToolCall = OpenAI.Responses.ResponseFunctionToolCall;
type ResponseOutputText = OpenAI.Responses.ResponseOutputText;
type ResponseOutputRefusal = OpenAI.Responses.ResponseOutputRefusal;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type StreamEvent = DistributiveOmit<OpenAI.Responses.ResponseStreamEvent, 'sequence_number'>;

/** What the server sends: no `output_text`, and `usage: null` until the response is finished. */
export type WireResponse = Omit<Response, 'output_text' | 'usage'> & { usage: ResponseUsage | null; store: boolean };

const ARGUMENT_FRAGMENT = 6;

function usage(out: ModelOutput): ResponseUsage {
  return {
    input_tokens: out.usage.input,
    input_tokens_details: { cache_write_tokens: 0, cached_tokens: 0 },
    output_tokens: out.usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: out.usage.input + out.usage.output,
  };
}

type Phase = 'in_progress' | 'final';

function status(out: ModelOutput): NonNullable<Response['status']> {
  if (out.kind === 'failed') return 'failed';
  return out.finish === 'length' || out.finish === 'content_filter' ? 'incomplete' : 'completed';
}

function messagePart(out: ModelOutput, text: string): ResponseOutputText | ResponseOutputRefusal {
  return out.kind === 'refusal' ? { type: 'refusal', refusal: text } : { type: 'output_text', text, annotations: [], logprobs: [] };
}

function messageItem(out: ModelOutput, itemStatus: ResponseOutputMessage['status'], content: ResponseOutputMessage['content']): ResponseOutputMessage {
  return { id: out.message_id, type: 'message', status: itemStatus, role: 'assistant', content };
}

function callItem(c: ModelOutput['toolCalls'][number], itemStatus: 'in_progress' | 'completed', args: string): ResponseFunctionToolCall {
  return { id: c.item_id, type: 'function_call', status: itemStatus, arguments: args, call_id: c.call_id, name: c.name };
}

function finalOutput(out: ModelOutput): ResponseOutputItem[] {
  if (out.kind === 'failed') return [];
  if (out.kind === 'tool_calls') return out.toolCalls.map((c) => callItem(c, 'completed', c.arguments));
  const final = status(out) === 'incomplete' ? 'incomplete' : 'completed';
  return [messageItem(out, final, [messagePart(out, out.kind === 'refusal' ? (out.refusal ?? '') : out.text)])];
}

function buildResponse(id: string, body: Json, out: ModelOutput, phase: Phase): WireResponse {
  const text = isObject(body.text) ? body.text : {};
  const reasoning = isObject(body.reasoning) ? body.reasoning : {};
  const st = phase === 'final' ? status(out) : 'in_progress';
  const response: WireResponse = {
    id,
    object: 'response',
    created_at: CREATED,
    status: st,
    background: false,
    error: st === 'failed' ? { code: 'server_error', message: FAIL_MESSAGE } : null,
    incomplete_details:
      st === 'incomplete' ? { reason: out.finish === 'content_filter' ? 'content_filter' : 'max_output_tokens' } : null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    metadata: (body.metadata ?? {}) as Response['metadata'],
    model: String(body.model),
    output: phase === 'final' ? finalOutput(out) : [],
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: typeof body.previous_response_id === 'string' ? body.previous_response_id : null,
    reasoning: { effort: (reasoning.effort ?? null) as never, summary: (reasoning.summary ?? null) as never },
    service_tier: 'default',
    store: body.store !== false,
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    text: { format: (text.format ?? { type: 'text' }) as never, verbosity: (text.verbosity ?? 'medium') as never },
    tool_choice: (body.tool_choice ?? 'auto') as Response['tool_choice'],
    tools: (Array.isArray(body.tools) ? body.tools : []) as Response['tools'],
    top_logprobs: typeof body.top_logprobs === 'number' ? body.top_logprobs : 0,
    top_p: typeof body.top_p === 'number' ? body.top_p : 1,
    truncation: body.truncation === 'auto' ? 'auto' : 'disabled',
    usage: phase === 'final' ? usage(out) : null,
  };
  if (typeof body.user === 'string') response.user = body.user;
  return response;
}

function stream(id: string, body: Json, out: ModelOutput): string[] {
  const w = new ResponsesSseWriter();
  const emit = (e: StreamEvent): void => w.event(e);
  const asResponse = (r: WireResponse): Response => r as unknown as Response; // no output_text on the wire
  emit({ type: 'response.created', response: asResponse(buildResponse(id, body, out, 'in_progress')) });
  emit({ type: 'response.in_progress', response: asResponse(buildResponse(id, body, out, 'in_progress')) });

  if (out.kind === 'text' || out.kind === 'refusal') {
    const item_id = out.message_id;
    const output_index = 0;
    const content_index = 0;
    const full = out.kind === 'refusal' ? (out.refusal ?? '') : out.text;
    emit({ type: 'response.output_item.added', output_index, item: messageItem(out, 'in_progress', []) });
    emit({ type: 'response.content_part.added', item_id, output_index, content_index, part: messagePart(out, '') });
    for (const delta of splitDeltas(full)) {
      if (out.kind === 'refusal') emit({ type: 'response.refusal.delta', item_id, output_index, content_index, delta });
      else emit({ type: 'response.output_text.delta', item_id, output_index, content_index, delta, logprobs: [] });
    }
    if (out.kind === 'refusal') emit({ type: 'response.refusal.done', item_id, output_index, content_index, refusal: full });
    else emit({ type: 'response.output_text.done', item_id, output_index, content_index, text: full, logprobs: [] });
    emit({ type: 'response.content_part.done', item_id, output_index, content_index, part: messagePart(out, full) });
    emit({ type: 'response.output_item.done', output_index, item: finalOutput(out)[0] });
  }
  out.toolCalls.forEach((c, output_index) => {
    emit({ type: 'response.output_item.added', output_index, item: callItem(c, 'in_progress', '') });
    for (const delta of splitFixed(c.arguments, ARGUMENT_FRAGMENT)) {
      emit({ type: 'response.function_call_arguments.delta', item_id: c.item_id, output_index, delta });
    }
    // [V6] the done event carries `name`; [V7] dropped it (extra keys are harmless there).
    emit({ type: 'response.function_call_arguments.done', item_id: c.item_id, output_index, arguments: c.arguments, name: c.name });
    emit({ type: 'response.output_item.done', output_index, item: callItem(c, 'completed', c.arguments) });
  });

  const final = asResponse(buildResponse(id, body, out, 'final'));
  const st = status(out);
  if (st === 'failed') emit({ type: 'response.failed', response: final });
  else if (st === 'incomplete') emit({ type: 'response.incomplete', response: final });
  else emit({ type: 'response.completed', response: final });
  return w.frames;
}

export function handleResponses(body: Json, ctx: HandlerContext): HandlerResult {
  validateResponses(body);
  const canonical = canonicalize('responses', body);
  const out = runModel(canonical);
  const id = `resp_${ctx.nextId()}`;
  if (body.stream === true) return { status: 200, sse: stream(id, body, out) };
  if (out.kind === 'failed') throw modelFailed();
  return { status: 200, json: buildResponse(id, body, out, 'final') };
}
