// What POST /v1/chat/completions rejects (HTTP 400), with the real API's wording where known.
import { badRequest, missingParameter } from './errors.js';
import { has, isObject, type Json } from './util.js';

/** Responses-only parameters; Chat answers "Unrecognized request argument supplied: <name>". */
export const RESPONSES_ONLY_PARAMS = [
  'input',
  'instructions',
  'max_output_tokens',
  'text',
  'previous_response_id',
  'conversation',
  'include',
  'truncation',
  'background',
  'reasoning',
  'prompt',
  'context_management',
] as const;

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** How the API names a JSON value's type in its errors. */
function jsonKind(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  if (typeof value === 'boolean') return 'a boolean';
  return 'an object';
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join(' ');
  return '';
}

export function validateChat(body: Json): void {
  if (typeof body.model !== 'string' || body.model === '') throw badRequest('you must provide a model parameter');
  for (const key of RESPONSES_ONLY_PARAMS) {
    if (has(body, key)) throw badRequest(`Unrecognized request argument supplied: ${key}`);
  }
  if (!has(body, 'messages')) throw missingParameter('messages');
  const messages = body.messages;
  if (!Array.isArray(messages)) throw badRequest("Invalid type for 'messages': expected an array.", 'messages', 'invalid_type');
  if (messages.length === 0) {
    throw badRequest("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  }

  // Tool replies must answer the tool_calls of the assistant message right before them, and every call needs a reply.
  let pending: Set<string> | null = null;
  const unanswered = (i: number): void => {
    if (pending && pending.size) {
      throw badRequest(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
        `messages.[${i}].role`,
      );
    }
  };
  messages.forEach((m: unknown, i: number) => {
    if (!isObject(m)) throw badRequest(`Invalid type for 'messages[${i}]': expected an object.`, `messages.[${i}]`, 'invalid_type');
    if (!ROLES.has(String(m.role))) {
      throw badRequest(
        `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${i}].role`,
        'invalid_value',
      );
    }
    const content = m.content;
    if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) {
      throw badRequest(
        `Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${jsonKind(content)} instead.`,
        `messages[${i}].content`,
        'invalid_type',
      );
    }
    if (m.role === 'tool') {
      const id = String(m.tool_call_id ?? '');
      if (!pending) {
        throw badRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      }
      if (!pending.has(id)) {
        throw badRequest(`Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, `messages.[${i}].tool_call_id`);
      }
      pending.delete(id);
      return;
    }
    unanswered(i);
    pending = null;
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length) {
      pending = new Set(m.tool_calls.map((tc: unknown) => String(isObject(tc) ? tc.id : '')));
    }
  });
  unanswered(messages.length);

  const tools = Array.isArray(body.tools) ? body.tools : [];
  tools.forEach((t: unknown, i: number) => {
    if (isObject(t) && t.type === 'function' && !isObject(t.function)) throw missingParameter(`tools[${i}].function`);
  });

  const rf = body.response_format;
  if (isObject(rf) && rf.type === 'json_object' && !messages.some((m) => isObject(m) && /json/i.test(messageText(m.content)))) {
    throw badRequest("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", 'messages');
  }
  if (isObject(rf) && rf.type === 'json_schema') {
    if (!isObject(rf.json_schema)) throw missingParameter('response_format.json_schema');
    if (typeof rf.json_schema.name !== 'string') throw missingParameter('response_format.json_schema.name');
  }
}
