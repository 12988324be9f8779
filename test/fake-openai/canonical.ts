// Canonical form: one API-neutral shape for a Chat Completions request and for a Responses request,
// so that a Chat request and the Responses request a correct migration (docs/migration-spec.md §2, §3)
// produces canonicalise to deep-equal values. The fake model is a pure function of this form.
//
// Normalisations (each one mirrors a spec rule; anything else is carried verbatim in `extra`):
// - conversation: Responses `instructions` → leading `system` message (M-SYSTEM hoist), and the `developer` role ≡
//   `system` on both APIs (developer is the newer name of the same instruction role, and `instructions` stands for
//   either, so a hoisted developer message compares equal); string content ≡ one
//   text part; chat `text` ≡ `input_text`; chat `image_url {url, detail?}` ≡ `input_image {image_url, detail}` with
//   a missing detail meaning 'auto' (M-PART-IMAGE); chat `file {…}` ≡ `input_file` (M-PART-FILE); assistant content
//   ≡ one text part (text parts joined with '', M-ASSIST-TEXT; replayed `output_text` parts likewise); assistant
//   `tool_calls` ≡ `function_call` items (M-ASSIST-TOOLCALLS); role `tool` ≡ `function_call_output` (M-TOOL), or
//   `custom_tool_call_output` when it answers a custom tool call earlier in the history.
//   Item `id`/`status`, annotations, logprobs and SDK-only `parsed`/`parsed_arguments` are ignored (they are what
//   `toResponseInputItems(response.output)` replays, M-REPLAY). Chat per-message `name` is dropped (M-NAME).
// - limits/sampling: max_tokens | max_completion_tokens | max_output_tokens → `max_tokens`; temperature, top_p.
// - tools: {type:'function', name, description, parameters, strict} with EFFECTIVE strict (chat missing/null → false,
//   responses missing/null → true, T-STRICT) and a missing `parameters` → {type:'object', properties:{}} (T-PARAMS-KEY);
//   custom tools flattened; chat `web_search_options` → a `web_search` tool (R-WEBSEARCH).
// - tool_choice flattened (R-TOOLCHOICE); missing → 'auto' when tools exist, else null.
// - format: chat response_format / responses text.format, json_schema flattened, effective strict false when missing
//   on BOTH APIs (both API references document "Defaults to false"; the .d.ts files are silent).
// - verbosity, reasoning (chat reasoning_effort ≡ reasoning.effort), stream, stream_options (chat include_usage is
//   dropped, R-STREAMOPTS), EFFECTIVE store (chat missing → false, responses missing → true, T-STORE),
//   parallel_tool_calls (missing → true), include (chat logprobs:true ≡ 'message.output_text.logprobs';
//   'reasoning.encrypted_content' ignored: it only affects reasoning items, which this fake never produces, and the
//   spec adds it to every replay unit, M-REPLAY), top_logprobs (only with logprobs on chat, R-LOGPROBS).
// - R-SAME keys copied; chat-only keys dropped when inert (R-NOEQUIV: null, n:1, stop:[], logit_bias:{},
//   modalities:['text'], a penalty of 0), otherwise carried verbatim in `extra` like every unknown key.
import { has, isObject, str, type Json } from './util.js';

export type CanonicalPart =
  | { type: 'text'; text: string }
  | { type: 'image'; image_url: string | null; file_id: string | null; detail: string }
  | { type: 'file'; file_id: string | null; file_data: string | null; filename: string | null; file_url: string | null }
  | { type: 'refusal'; refusal: string }
  | { type: 'unknown'; value: unknown };

export type CanonicalItem =
  | { type: 'message'; role: string; content: CanonicalPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: CanonicalPart[] }
  | { type: 'custom_tool_call'; call_id: string; name: string; input: string }
  | { type: 'custom_tool_call_output'; call_id: string; output: CanonicalPart[] }
  | { type: 'unknown'; value: unknown };

export type CanonicalTool =
  | { type: 'function'; name: string; description: string | null; parameters: unknown; strict: boolean }
  | { type: 'custom'; name: string; description: string | null; format: unknown }
  | { type: 'web_search'; search_context_size: string; user_location: unknown; extra: Json }
  | { type: 'unknown'; value: unknown };

export type CanonicalFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string | null; description: string | null; schema: unknown; strict: boolean }
  | { type: 'unknown'; value: unknown };

export interface CanonicalRequest {
  model: unknown;
  input: CanonicalItem[];
  max_tokens: number | null;
  temperature: number | null;
  top_p: number | null;
  tools: CanonicalTool[];
  tool_choice: unknown;
  parallel_tool_calls: boolean;
  format: CanonicalFormat;
  verbosity: string | null;
  reasoning: Json | null;
  stream: boolean;
  stream_options: Json | null;
  store: boolean;
  include: string[];
  top_logprobs: number | null;
  metadata: unknown;
  user: unknown;
  service_tier: unknown;
  safety_identifier: unknown;
  prompt_cache_key: unknown;
  prompt_cache_retention: unknown;
  prompt_cache_options: unknown;
  moderation: unknown;
  /** Every other non-null key, verbatim (chat-only keys that are not inert, responses-only keys, vendor extras). */
  extra: Json;
}

const SAME_KEYS = [
  'metadata',
  'user',
  'service_tier',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'moderation',
] as const;

const EMPTY_PARAMETERS = { type: 'object', properties: {} };
const LOGPROBS_INCLUDE = 'message.output_text.logprobs';
const IGNORED_INCLUDES = new Set(['reasoning.encrypted_content']);

// ---------------------------------------------------------------------------------------------- parts

function chatPart(part: unknown): CanonicalPart {
  if (!isObject(part)) return { type: 'unknown', value: part };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text ?? '') };
    case 'image_url': {
      const img = isObject(part.image_url) ? part.image_url : {};
      return { type: 'image', image_url: str(img.url), file_id: null, detail: str(img.detail) ?? 'auto' };
    }
    case 'file': {
      const f = isObject(part.file) ? part.file : {};
      return { type: 'file', file_id: str(f.file_id), file_data: str(f.file_data), filename: str(f.filename), file_url: null };
    }
    case 'refusal':
      return { type: 'refusal', refusal: String(part.refusal ?? '') };
    default:
      return { type: 'unknown', value: part };
  }
}

function responsesPart(part: unknown): CanonicalPart {
  if (!isObject(part)) return { type: 'unknown', value: part };
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: String(part.text ?? '') };
    case 'input_image':
      return { type: 'image', image_url: str(part.image_url), file_id: str(part.file_id), detail: str(part.detail) ?? 'auto' };
    case 'input_file':
      return {
        type: 'file',
        file_id: str(part.file_id),
        file_data: str(part.file_data),
        filename: str(part.filename),
        file_url: str(part.file_url),
      };
    case 'refusal':
      return { type: 'refusal', refusal: String(part.refusal ?? '') };
    default:
      return { type: 'unknown', value: part };
  }
}

function contentParts(content: unknown, toPart: (p: unknown) => CanonicalPart): CanonicalPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (Array.isArray(content)) return content.map(toPart);
  if (content === null || content === undefined) return [];
  return [{ type: 'unknown', value: content }];
}

/** Assistant history is one joined text part (M-ASSIST-TEXT), followed by any refusal parts. */
function assistantContent(parts: CanonicalPart[], extraRefusal: string | null): CanonicalPart[] {
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  const rest = parts.filter((p) => p.type !== 'text');
  if (extraRefusal) rest.push({ type: 'refusal', refusal: extraRefusal });
  return [{ type: 'text', text }, ...rest];
}

// ---------------------------------------------------------------------------------------------- chat

function chatMessages(messages: unknown): CanonicalItem[] {
  if (!Array.isArray(messages)) return messages === undefined ? [] : [{ type: 'unknown', value: messages }];
  const items: CanonicalItem[] = [];
  const customCalls = new Set<string>(); // a tool message answering one of these answers a custom tool call
  for (const m of messages) {
    if (!isObject(m)) {
      items.push({ type: 'unknown', value: m });
      continue;
    }
    const role = m.role;
    if (role === 'system' || role === 'developer' || role === 'user') {
      items.push({ type: 'message', role: role === 'developer' ? 'system' : role, content: contentParts(m.content, chatPart) });
    } else if (role === 'assistant') {
      const toolCalls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      const content = assistantContent(contentParts(m.content, chatPart), str(m.refusal));
      const hasText = content.some((p) => p.type !== 'text' || p.text !== '');
      if (toolCalls.length === 0 || hasText) items.push({ type: 'message', role: 'assistant', content });
      for (const tc of toolCalls) {
        if (isObject(tc) && tc.type === 'function' && isObject(tc.function)) {
          items.push({
            type: 'function_call',
            call_id: String(tc.id ?? ''),
            name: String(tc.function.name ?? ''),
            arguments: String(tc.function.arguments ?? ''),
          });
        } else if (isObject(tc) && tc.type === 'custom' && isObject(tc.custom)) {
          customCalls.add(String(tc.id ?? ''));
          items.push({
            type: 'custom_tool_call',
            call_id: String(tc.id ?? ''),
            name: String(tc.custom.name ?? ''),
            input: String(tc.custom.input ?? ''),
          });
        } else {
          items.push({ type: 'unknown', value: tc });
        }
      }
      // Legacy function_call / audio history has no Responses form: keep it visible.
      if (has(m, 'function_call') && m.function_call !== null) items.push({ type: 'unknown', value: { function_call: m.function_call } });
      if (has(m, 'audio') && m.audio !== null) items.push({ type: 'unknown', value: { audio: m.audio } });
    } else if (role === 'tool') {
      const callId = String(m.tool_call_id ?? '');
      items.push({ type: customCalls.has(callId) ? 'custom_tool_call_output' : 'function_call_output', call_id: callId, output: contentParts(m.content, chatPart) });
    } else {
      items.push({ type: 'unknown', value: m });
    }
  }
  return items;
}

function chatTools(tools: unknown): CanonicalTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t): CanonicalTool => {
    if (isObject(t) && t.type === 'function' && isObject(t.function)) {
      const f = t.function;
      return {
        type: 'function',
        name: String(f.name ?? ''),
        description: str(f.description),
        parameters: f.parameters ?? EMPTY_PARAMETERS,
        strict: f.strict === true,
      };
    }
    if (isObject(t) && t.type === 'custom' && isObject(t.custom)) {
      const c = t.custom;
      return { type: 'custom', name: String(c.name ?? ''), description: str(c.description), format: customFormat(c.format) };
    }
    return { type: 'unknown', value: t };
  });
}

function customFormat(format: unknown): unknown {
  if (format === undefined || format === null) return { type: 'text' };
  if (isObject(format) && format.type === 'grammar' && isObject(format.grammar)) {
    return { type: 'grammar', definition: format.grammar.definition, syntax: format.grammar.syntax };
  }
  return format;
}

function chatWebSearch(options: Json): CanonicalTool {
  const { search_context_size, user_location, ...rest } = options;
  let location: unknown = user_location ?? null;
  if (isObject(user_location) && isObject(user_location.approximate)) {
    location = { type: user_location.type ?? 'approximate', ...user_location.approximate };
  }
  return { type: 'web_search', search_context_size: str(search_context_size) ?? 'medium', user_location: location, extra: rest };
}

function chatToolChoice(choice: unknown): unknown {
  if (!isObject(choice)) return choice;
  if (choice.type === 'function' && isObject(choice.function)) return { type: 'function', name: choice.function.name };
  if (choice.type === 'custom' && isObject(choice.custom)) return { type: 'custom', name: choice.custom.name };
  if (choice.type === 'allowed_tools' && isObject(choice.allowed_tools)) {
    const a = choice.allowed_tools;
    const tools = Array.isArray(a.tools)
      ? a.tools.map((t: unknown) => {
          if (isObject(t) && t.type === 'function' && isObject(t.function)) return { type: 'function', name: t.function.name };
          if (isObject(t) && t.type === 'custom' && isObject(t.custom)) return { type: 'custom', name: t.custom.name };
          return t;
        })
      : a.tools;
    return { type: 'allowed_tools', mode: a.mode, tools };
  }
  return choice;
}

function chatFormat(rf: unknown): CanonicalFormat {
  if (rf === undefined || rf === null) return { type: 'text' };
  if (!isObject(rf)) return { type: 'unknown', value: rf };
  if (rf.type === 'text') return { type: 'text' };
  if (rf.type === 'json_object') return { type: 'json_object' };
  if (rf.type === 'json_schema') {
    const js = isObject(rf.json_schema) ? rf.json_schema : {};
    return {
      type: 'json_schema',
      name: str(js.name),
      description: str(js.description),
      schema: js.schema ?? null,
      strict: js.strict === true,
    };
  }
  return { type: 'unknown', value: rf };
}

/** R-NOEQUIV inert values: dropped by a correct migration, so they must not make requests differ. */
function isInertChatOnly(key: string, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  switch (key) {
    case 'n':
      return value === 1;
    case 'stop':
      return Array.isArray(value) && value.length === 0;
    case 'logit_bias':
      return isObject(value) && Object.keys(value).length === 0;
    case 'modalities':
      return Array.isArray(value) && value.length === 1 && value[0] === 'text';
    case 'presence_penalty':
    case 'frequency_penalty':
      return value === 0; // the documented default: a zero term in the token's logit
    default:
      return false;
  }
}

function streamOptions(v: unknown): Json | null {
  if (!isObject(v)) return v === undefined || v === null ? null : { value: v };
  const out: Json = {};
  for (const [k, val] of Object.entries(v)) if (k !== 'include_usage' && val !== null && val !== undefined) out[k] = val;
  return Object.keys(out).length ? out : null;
}

function canonicalChat(body: Json): CanonicalRequest {
  const handled = new Set<string>([
    'model',
    'messages',
    'max_tokens',
    'max_completion_tokens',
    'temperature',
    'top_p',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'response_format',
    'verbosity',
    'reasoning_effort',
    'stream',
    'stream_options',
    'store',
    'logprobs',
    'top_logprobs',
    'web_search_options',
    ...SAME_KEYS,
  ]);
  const tools = chatTools(body.tools);
  if (isObject(body.web_search_options)) tools.push(chatWebSearch(body.web_search_options));
  const logprobs = body.logprobs === true;
  const extra: Json = {};
  for (const [k, v] of Object.entries(body)) {
    if (handled.has(k) || isInertChatOnly(k, v)) continue;
    extra[k] = v;
  }
  return {
    model: body.model ?? null,
    input: chatMessages(body.messages),
    max_tokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
    temperature: num(body.temperature),
    top_p: num(body.top_p),
    tools,
    tool_choice: body.tool_choice === undefined || body.tool_choice === null ? defaultToolChoice(tools) : chatToolChoice(body.tool_choice),
    parallel_tool_calls: body.parallel_tool_calls !== false,
    format: chatFormat(body.response_format),
    verbosity: str(body.verbosity),
    reasoning: body.reasoning_effort === undefined || body.reasoning_effort === null ? null : { effort: body.reasoning_effort },
    stream: body.stream === true,
    stream_options: streamOptions(body.stream_options),
    store: body.store === undefined || body.store === null ? false : body.store === true,
    include: logprobs ? [LOGPROBS_INCLUDE] : [],
    top_logprobs: logprobs ? num(body.top_logprobs) : null,
    ...same(body),
    extra,
  };
}

// ---------------------------------------------------------------------------------------------- responses

function responsesInput(input: unknown, instructions: unknown): CanonicalItem[] {
  const items: CanonicalItem[] = [];
  if (typeof instructions === 'string') items.push({ type: 'message', role: 'system', content: [{ type: 'text', text: instructions }] });
  else if (instructions !== undefined && instructions !== null) items.push({ type: 'unknown', value: { instructions } });
  if (typeof input === 'string') {
    items.push({ type: 'message', role: 'user', content: [{ type: 'text', text: input }] });
    return items;
  }
  if (!Array.isArray(input)) {
    if (input !== undefined && input !== null) items.push({ type: 'unknown', value: input });
    return items;
  }
  for (const it of input) {
    if (!isObject(it)) {
      items.push({ type: 'unknown', value: it });
      continue;
    }
    const type = it.type ?? (has(it, 'role') ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const given = String(it.role ?? '');
        const role = given === 'developer' ? 'system' : given;
        const parts = contentParts(it.content, responsesPart);
        items.push({ type: 'message', role, content: role === 'assistant' ? assistantContent(parts, null) : parts });
        break;
      }
      case 'function_call':
        items.push({ type: 'function_call', call_id: String(it.call_id ?? ''), name: String(it.name ?? ''), arguments: String(it.arguments ?? '') });
        break;
      case 'function_call_output':
        items.push({ type: 'function_call_output', call_id: String(it.call_id ?? ''), output: contentParts(it.output, responsesPart) });
        break;
      case 'custom_tool_call':
        items.push({ type: 'custom_tool_call', call_id: String(it.call_id ?? ''), name: String(it.name ?? ''), input: String(it.input ?? '') });
        break;
      case 'custom_tool_call_output':
        items.push({ type: 'custom_tool_call_output', call_id: String(it.call_id ?? ''), output: contentParts(it.output, responsesPart) });
        break;
      default:
        items.push({ type: 'unknown', value: it });
    }
  }
  return items;
}

function responsesTools(tools: unknown): CanonicalTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t): CanonicalTool => {
    if (isObject(t) && t.type === 'function' && !has(t, 'function')) {
      return {
        type: 'function',
        name: String(t.name ?? ''),
        description: str(t.description),
        parameters: t.parameters ?? EMPTY_PARAMETERS,
        strict: t.strict === undefined || t.strict === null ? true : t.strict === true,
      };
    }
    if (isObject(t) && t.type === 'custom' && !has(t, 'custom')) {
      return { type: 'custom', name: String(t.name ?? ''), description: str(t.description), format: t.format ?? { type: 'text' } };
    }
    if (isObject(t) && t.type === 'web_search') {
      const { type: _type, search_context_size, user_location, ...rest } = t;
      return { type: 'web_search', search_context_size: str(search_context_size) ?? 'medium', user_location: user_location ?? null, extra: rest };
    }
    return { type: 'unknown', value: t };
  });
}

function responsesFormat(text: unknown): CanonicalFormat {
  const f = isObject(text) ? text.format : undefined;
  if (f === undefined || f === null) return { type: 'text' };
  if (!isObject(f)) return { type: 'unknown', value: f };
  if (f.type === 'text') return { type: 'text' };
  if (f.type === 'json_object') return { type: 'json_object' };
  if (f.type === 'json_schema' && !has(f, 'json_schema')) {
    return { type: 'json_schema', name: str(f.name), description: str(f.description), schema: f.schema ?? null, strict: f.strict === true };
  }
  return { type: 'unknown', value: f };
}

function responsesReasoning(r: unknown): Json | null {
  if (r === undefined || r === null) return null;
  if (!isObject(r)) return { value: r };
  const out: Json = {};
  for (const [k, v] of Object.entries(r)) if (v !== null && v !== undefined) out[k] = v;
  return Object.keys(out).length ? out : null;
}

function canonicalResponses(body: Json): CanonicalRequest {
  const handled = new Set<string>([
    'model',
    'input',
    'instructions',
    'max_output_tokens',
    'temperature',
    'top_p',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'text',
    'reasoning',
    'stream',
    'stream_options',
    'store',
    'include',
    'top_logprobs',
    ...SAME_KEYS,
  ]);
  const tools = responsesTools(body.tools);
  const text = isObject(body.text) ? body.text : {};
  const extra: Json = {};
  for (const [k, v] of Object.entries(body)) {
    if (handled.has(k) || v === null || v === undefined) continue;
    extra[k] = v;
  }
  // Anything inside `text` besides format/verbosity is carried too.
  for (const [k, v] of Object.entries(text)) if (k !== 'format' && k !== 'verbosity' && v != null) extra[`text.${k}`] = v;
  const include = Array.isArray(body.include) ? body.include.map(String).filter((s) => !IGNORED_INCLUDES.has(s)) : [];
  return {
    model: body.model ?? null,
    input: responsesInput(body.input, body.instructions),
    max_tokens: num(body.max_output_tokens),
    temperature: num(body.temperature),
    top_p: num(body.top_p),
    tools,
    tool_choice: body.tool_choice === undefined || body.tool_choice === null ? defaultToolChoice(tools) : body.tool_choice,
    parallel_tool_calls: body.parallel_tool_calls !== false,
    format: responsesFormat(body.text),
    verbosity: str(text.verbosity),
    reasoning: responsesReasoning(body.reasoning),
    stream: body.stream === true,
    stream_options: streamOptions(body.stream_options),
    store: body.store === undefined || body.store === null ? true : body.store === true,
    include: [...new Set(include)].sort(),
    top_logprobs: include.includes(LOGPROBS_INCLUDE) ? num(body.top_logprobs) : null,
    ...same(body),
    extra,
  };
}

// ---------------------------------------------------------------------------------------------- shared

function num(v: unknown): number | null {
  return typeof v === 'number' ? v : null;
}

function defaultToolChoice(tools: CanonicalTool[]): unknown {
  return tools.length ? 'auto' : null;
}

function same(body: Json): Pick<CanonicalRequest, (typeof SAME_KEYS)[number]> {
  const out = {} as Record<(typeof SAME_KEYS)[number], unknown>;
  for (const k of SAME_KEYS) out[k] = body[k] ?? null;
  return out;
}

export function canonicalize(api: 'chat' | 'responses', body: unknown): CanonicalRequest {
  const b = isObject(body) ? body : { body };
  return api === 'chat' ? canonicalChat(b) : canonicalResponses(b);
}
