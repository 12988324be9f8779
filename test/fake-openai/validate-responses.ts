// What POST /v1/responses rejects (HTTP 400), with the real API's wording where known (docs/migration-spec.md §2, §3, §8).
import { badRequest, missingParameter, unknownParameter } from './errors.js';
import { has, isObject, type Json } from './util.js';

/** Chat-only parameters: the Responses API answers "Unknown parameter: '<name>'." (R-NOEQUIV, R-LEGACYFN, …). */
export const CHAT_ONLY_PARAMS = [
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'response_format',
  'reasoning_effort',
  'verbosity',
  'logprobs',
  'functions',
  'function_call',
  'web_search_options',
  'modalities',
  'audio',
  'prediction',
] as const;

/** Our policy (stricter than the API, which defaults them): function tools must spell both keys out. */
const POLICY = ' (fake-openai policy: Responses function tools must set both `parameters` and `strict` explicitly, see docs/migration-spec.md R-TOOLS, R-STRICT, T-PARAMS-KEY, T-STRICT)';

/** Models the real API refuses the encrypted-reasoning include for (kept apart from the tool's own table on purpose). */
const DOES_NOT_REASON = /^(?:gpt-3\.5|gpt-4|chatgpt-)|-chat-latest$/;

const MESSAGE_KEYS = new Set(['type', 'role', 'content', 'id', 'status', 'phase']);
const INPUT_ROLES = new Set(['user', 'assistant', 'system', 'developer']);
const INPUT_PART_TYPES = new Set(['input_text', 'input_image', 'input_file']);
const ASSISTANT_PART_TYPES = new Set(['output_text', 'refusal']);

function oxfordList(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join(' ');
  return '';
}

function validateTools(tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((t: unknown, i: number) => {
    if (!isObject(t)) throw badRequest(`Invalid type for 'tools[${i}]': expected an object.`, `tools[${i}]`, 'invalid_type');
    if (t.type === 'function') {
      // Chat-shaped `{ type: 'function', function: { … } }`: the real API misses the flat name first.
      if (typeof t.name !== 'string') throw missingParameter(`tools[${i}].name`);
      if (has(t, 'function')) throw unknownParameter(`tools[${i}].function`);
      if (!has(t, 'parameters')) throw missingParameter(`tools[${i}].parameters`, POLICY);
      if (!has(t, 'strict')) throw missingParameter(`tools[${i}].strict`, POLICY);
    } else if (t.type === 'custom') {
      if (typeof t.name !== 'string') throw missingParameter(`tools[${i}].name`);
      if (has(t, 'custom')) throw unknownParameter(`tools[${i}].custom`);
    }
  });
}

function validateFormat(text: unknown): void {
  if (!isObject(text) || !isObject(text.format)) return;
  const f = text.format;
  if (f.type !== 'json_schema') return;
  if (has(f, 'json_schema')) throw unknownParameter('text.format.json_schema');
  if (typeof f.name !== 'string') throw missingParameter('text.format.name');
  if (!isObject(f.schema)) throw missingParameter('text.format.schema');
}

function validateInput(input: unknown): void {
  if (!Array.isArray(input)) return;
  const calls = new Map<string, boolean>(); // call_id → answered
  input.forEach((it: unknown, i: number) => {
    if (!isObject(it)) throw badRequest(`Invalid type for 'input[${i}]': expected an object.`, `input[${i}]`, 'invalid_type');
    const type = it.type ?? (has(it, 'role') ? 'message' : undefined);
    if (type === 'message') {
      const role = String(it.role);
      if (!INPUT_ROLES.has(role)) {
        throw badRequest(
          `Invalid value: '${role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
          `input[${i}].role`,
          'invalid_value',
        );
      }
      for (const key of Object.keys(it)) if (!MESSAGE_KEYS.has(key) && it[key] !== undefined) throw unknownParameter(`input[${i}].${key}`);
      if (Array.isArray(it.content)) {
        const allowed = role === 'assistant' ? ASSISTANT_PART_TYPES : INPUT_PART_TYPES;
        it.content.forEach((p: unknown, j: number) => {
          const pt = isObject(p) ? String(p.type) : typeof p;
          if (!allowed.has(pt)) {
            const list = oxfordList([...allowed].map((s) => `'${s}'`));
            throw badRequest(`Invalid value: '${pt}'. Supported values are: ${list}.`, `input[${i}].content[${j}]`, 'invalid_value');
          }
        });
      }
    } else if (type === 'function_call') {
      if (has(it, 'id') && !String(it.id).startsWith('fc')) {
        throw badRequest(`Invalid 'input[${i}].id': '${String(it.id)}'. Expected an ID that begins with 'fc'.`, `input[${i}].id`, 'invalid_value');
      }
      if (typeof it.call_id !== 'string' || it.call_id === '') throw missingParameter(`input[${i}].call_id`);
      if (typeof it.name !== 'string') throw missingParameter(`input[${i}].name`);
      if (typeof it.arguments !== 'string') throw missingParameter(`input[${i}].arguments`);
      calls.set(it.call_id, false);
    } else if (type === 'function_call_output') {
      if (typeof it.call_id !== 'string' || it.call_id === '') throw missingParameter(`input[${i}].call_id`);
      if (!calls.has(it.call_id)) throw badRequest(`No tool call found for function call output with call_id ${it.call_id}.`, 'input');
      if (!has(it, 'output')) throw missingParameter(`input[${i}].output`);
      calls.set(it.call_id, true);
    }
  });
  for (const [id, answered] of calls) if (!answered) throw badRequest(`No tool output found for function call ${id}.`, 'input');
}

function inputMentionsJson(input: unknown): boolean {
  if (typeof input === 'string') return /json/i.test(input);
  if (!Array.isArray(input)) return false;
  return input.some((it) => isObject(it) && (it.type ?? 'message') === 'message' && /json/i.test(partsText(it.content)));
}

export function validateResponses(body: Json): void {
  if (typeof body.model !== 'string' || body.model === '') throw missingParameter('model');
  for (const key of CHAT_ONLY_PARAMS) if (has(body, key)) throw unknownParameter(key);
  if (isObject(body.stream_options) && has(body.stream_options, 'include_usage')) throw unknownParameter('stream_options.include_usage');
  if (typeof body.max_output_tokens === 'number' && body.max_output_tokens < 16) {
    throw badRequest(
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${body.max_output_tokens} instead.`,
      'max_output_tokens',
      'integer_below_min_value',
    );
  }
  // reported for gpt-4o, gpt-4o-mini, gpt-4.1-mini and gpt-5-chat-latest (pydantic-ai #2865, #3326; draive #399)
  if (Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content') && DOES_NOT_REASON.test(body.model)) {
    throw badRequest('Encrypted content is not supported with this model.', 'include', null);
  }
  validateTools(body.tools);
  validateFormat(body.text);
  validateInput(body.input);
  // T-JSONWORD: only input messages count (not `instructions`), the strictest reading of the error text.
  if (isObject(body.text) && isObject(body.text.format) && body.text.format.type === 'json_object' && !inputMentionsJson(body.input)) {
    throw badRequest("Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.", 'input');
  }
}
