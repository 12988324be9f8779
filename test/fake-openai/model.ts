// The deterministic fake "model": a pure function of a CanonicalRequest. Because both APIs canonicalise to
// the same value for equivalent requests, a Chat request and its migrated Responses request get the same answer
// (same text, same tool calls and call ids, same token counts, same finish condition).
import type { CanonicalItem, CanonicalPart, CanonicalRequest, CanonicalTool } from './canonical.js';
import { countWords, firstWords, isObject, shortHash, type Json } from './util.js';

export const FAIL_MESSAGE = 'The model failed';
export const REFUSAL_TEXT = "I'm sorry, but I cannot help with that request.";

/** Triggers recognised in the last user message text. */
export const TRIGGERS = { contentFilter: '[[content_filter]]', fail: '[[fail]]', refuse: '[[refuse]]' } as const;

/** Words kept when `[[content_filter]]` stops the answer. */
const CONTENT_FILTER_WORDS = 3;

export interface ToolCall {
  call_id: string;
  /** Responses output item id (`fc_…`). */
  item_id: string;
  name: string;
  arguments: string;
}

export type Finish = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface ModelOutput {
  kind: 'text' | 'refusal' | 'tool_calls' | 'failed';
  /** Message text (after any cut); '' for refusals, tool calls and failures. */
  text: string;
  refusal: string | null;
  toolCalls: ToolCall[];
  finish: Finish;
  /** Responses message item id (`msg_…`). */
  message_id: string;
  usage: { input: number; output: number };
}

// ---------------------------------------------------------------------------------------------- helpers

const textOf = (parts: CanonicalPart[]): string => parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');

/** Words in the canonical input: message texts, call names/arguments, tool outputs. */
export function inputTokens(items: CanonicalItem[]): number {
  let n = 0;
  for (const it of items) {
    if (it.type === 'message') n += countWords(textOf(it.content)) + it.content.filter((p) => p.type === 'refusal').length;
    else if (it.type === 'function_call') n += countWords(`${it.name} ${it.arguments}`);
    else if (it.type === 'function_call_output' || it.type === 'custom_tool_call_output') n += countWords(textOf(it.output));
    else if (it.type === 'custom_tool_call') n += countWords(`${it.name} ${it.input}`);
  }
  return n;
}

function lastUser(items: CanonicalItem[]): (CanonicalItem & { type: 'message' }) | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.type === 'message' && it.role === 'user') return it;
  }
  return null;
}

/** JSON Schema → a deterministic instance: strings `<prop>-1`, numbers 1, booleans true, enums their first value. */
export function sampleFromSchema(schema: unknown, strict: boolean, prop = 'value', root: unknown = schema, depth = 0): unknown {
  if (depth > 12 || !isObject(schema)) return `${prop}-1`;
  if (typeof schema.$ref === 'string') return sampleFromSchema(resolveRef(root, schema.$ref), strict, prop, root, depth + 1);
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length) {
      const pick = branches.find((b) => !(isObject(b) && b.type === 'null')) ?? branches[0];
      return sampleFromSchema(pick, strict, prop, root, depth + 1);
    }
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? type[0];
  if (type === undefined && isObject(schema.properties)) type = 'object';
  switch (type) {
    case 'string':
      return `${prop}-1`;
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [sampleFromSchema(schema.items, strict, prop, root, depth + 1)];
    case 'object': {
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
      const out: Json = {};
      for (const [name, sub] of Object.entries(props)) {
        if (strict || required.includes(name)) out[name] = sampleFromSchema(sub, strict, name, root, depth + 1);
      }
      return out;
    }
    default:
      return `${prop}-1`;
  }
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const seg of ref.slice(1).split('/').filter(Boolean)) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

function functionTools(tools: CanonicalTool[]): Array<CanonicalTool & { type: 'function' }> {
  return tools.filter((t): t is CanonicalTool & { type: 'function' } => t.type === 'function');
}

/** Which tools to call for the last user message, per tool_choice. */
function selectTools(req: CanonicalRequest, userText: string): Array<CanonicalTool & { type: 'function' }> {
  let candidates = functionTools(req.tools);
  let choice = req.tool_choice;
  if (isObject(choice) && choice.type === 'allowed_tools') {
    const allowed = new Set(
      (Array.isArray(choice.tools) ? choice.tools : []).flatMap((t) => (isObject(t) && typeof t.name === 'string' ? [t.name] : [])),
    );
    candidates = candidates.filter((t) => allowed.has(t.name));
    choice = choice.mode;
  }
  if (choice === 'none' || candidates.length === 0) return [];
  if (isObject(choice) && choice.type === 'function') return candidates.filter((t) => t.name === choice.name).slice(0, 1);
  if (choice === 'required') return candidates.slice(0, 1);
  // 'auto' (or anything else): the tools whose names appear as words in the user text.
  const words = new Set(userText.split(/[^A-Za-z0-9_-]+/).filter(Boolean));
  const picked = candidates.filter((t) => words.has(t.name));
  return req.parallel_tool_calls ? picked : picked.slice(0, 1);
}

function answerBody(req: CanonicalRequest): string {
  const items = req.input;
  const trailing: string[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.type !== 'function_call_output' && it.type !== 'custom_tool_call_output') break;
    trailing.unshift(textOf(it.output));
  }
  if (trailing.length) return `Tool results: ${trailing.join('; ')}`;
  const user = lastUser(items);
  if (!user) return 'Hello from the fake model, there was no user message to echo.';
  const images = user.content.filter((p) => p.type === 'image').length;
  const files = user.content.filter((p) => p.type === 'file').length;
  const attachments = images || files ? ` (attachments: ${images} image(s), ${files} file(s))` : '';
  return `Echo: ${textOf(user.content)}${attachments} (deterministic fake reply)`;
}

function formatAnswer(req: CanonicalRequest, body: string): string {
  const f = req.format;
  if (f.type === 'json_object') return JSON.stringify({ answer: body });
  if (f.type === 'json_schema') return JSON.stringify(sampleFromSchema(f.schema, f.strict, 'answer'));
  return body;
}

// ---------------------------------------------------------------------------------------------- model

export function runModel(req: CanonicalRequest): ModelOutput {
  const hash = shortHash({ model: req.model, input: req.input });
  const input = inputTokens(req.input);
  const base = { message_id: `msg_${hash}`, toolCalls: [] as ToolCall[], refusal: null as string | null };
  const last = req.input[req.input.length - 1];
  const userTurn = last?.type === 'message' && last.role === 'user' ? last : null;
  const userText = userTurn ? textOf(userTurn.content) : '';

  if (userTurn && userText.includes(TRIGGERS.fail)) {
    return { ...base, kind: 'failed', text: '', finish: 'stop', usage: { input, output: 0 } };
  }
  if (userTurn && userText.includes(TRIGGERS.refuse)) {
    return { ...base, kind: 'refusal', text: '', refusal: REFUSAL_TEXT, finish: 'stop', usage: { input, output: countWords(REFUSAL_TEXT) } };
  }
  if (userTurn && req.tools.length) {
    const picked = selectTools(req, userText);
    if (picked.length) {
      const toolCalls = picked.map((t, i) => ({
        call_id: `call_${hash}_${i}`,
        item_id: `fc_${hash}_${i}`,
        name: t.name,
        arguments: JSON.stringify(sampleFromSchema(t.parameters, t.strict, t.name)),
      }));
      const output = toolCalls.reduce((n, c) => n + countWords(c.arguments), 0);
      // a forced tool (a named function, or 'required') finishes with 'stop' in Chat, tool calls and all
      // (OpenAI's function-calling guide; vllm-project/vllm#49496 mirrors it for named choices)
      const forced = req.tool_choice !== 'auto' && req.tool_choice !== null;
      return { ...base, kind: 'tool_calls', text: '', toolCalls, finish: forced ? 'stop' : 'tool_calls', usage: { input, output } };
    }
  }

  const full = formatAnswer(req, answerBody(req));
  let text = full;
  let finish: Finish = 'stop';
  if (userTurn && userText.includes(TRIGGERS.contentFilter)) {
    text = firstWords(full, Math.min(CONTENT_FILTER_WORDS, req.max_tokens ?? Infinity));
    finish = 'content_filter';
  } else if (req.max_tokens !== null && countWords(full) > req.max_tokens) {
    text = firstWords(full, req.max_tokens);
    finish = 'length';
  }
  return { ...base, kind: 'text', text, finish, usage: { input, output: countWords(text) } };
}
