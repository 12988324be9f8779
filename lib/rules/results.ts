/**
 * The result-read table (docs/migration-spec.md §4) as data: how each step of a read chain over a Chat
 * result maps onto the Responses result. A chain is followed step by step from the value the call
 * returns; a step that is not in the table is reported, never guessed.
 *
 * `choices[0]` and `message` have no Responses counterpart: they collapse into the response
 * itself (O-CHOICES), so `r.choices[0].message.content` becomes `r.output_text`.
 */

import type { RuleId } from './ids.js';

/** The Chat shape a value has while a chain is followed. */
export type Shape =
  | 'completion' | 'choices' | 'choice' | 'message' | 'usage' | 'prompt-details' | 'completion-details'
  | 'content' | 'parsed' | 'finish-reason' | 'leaf' | 'created' | 'object' | 'id' | 'role'
  | 'tool-calls' | 'tool-call' | 'tool-call-function' | 'tool-call-type';

/**
 * The Responses link that stands for "the function_call items of output" (O-TOOLCALLS); the
 * transform writes it as a `.filter(…)` with a type predicate in TypeScript.
 */
export const TOOL_CALLS_FILTER = '#function_calls';

export type Step =
  /** Follow to another shape; `path` is what this step contributes to the Responses chain. */
  | { to: Shape; path: string[]; rule?: RuleId; note?: string }
  /** No equivalent: report `no-equivalent-result:<detail>`. */
  | { report: 'no-equivalent-result' | 'legacy-functions' | 'not-yet'; detail: string };

/** `[0]` / `.at(0)` / `[first] =` are spelled INDEX0 in the table. */
export const INDEX0 = '#0';
/** Anything else under `choices` (`[i]`, `.map`, iteration). */
export const ANY = '*';

export const RESULT_STEPS: Readonly<Record<Shape, Readonly<Record<string, Step>>>> = {
  completion: {
    choices: { to: 'choices', path: [] },
    usage: { to: 'usage', path: ['usage'], rule: 'O-USAGE' },
    id: { to: 'id', path: ['id'], rule: 'O-META' },
    model: { to: 'leaf', path: ['model'], rule: 'O-META' },
    service_tier: { to: 'leaf', path: ['service_tier'], rule: 'O-META' },
    _request_id: { to: 'leaf', path: ['_request_id'], rule: 'H-RAW' },
    created: { to: 'created', path: ['created_at'], rule: 'O-META' },
    object: { to: 'object', path: ['object'], rule: 'O-META' },
    system_fingerprint: { report: 'no-equivalent-result', detail: 'system_fingerprint' },
  },
  choices: {
    [INDEX0]: { to: 'choice', path: [], rule: 'O-CHOICES' },
    length: { to: 'leaf', path: ['output', 'length'], rule: 'O-CHOICES', note: 'choices.length became output.length, which counts every output item (reasoning, messages, tool calls).' },
    [ANY]: { report: 'no-equivalent-result', detail: 'choices' },
  },
  choice: {
    message: { to: 'message', path: [] },
    finish_reason: { to: 'finish-reason', path: [] },
    logprobs: { report: 'no-equivalent-result', detail: 'logprobs' },
    index: { report: 'no-equivalent-result', detail: 'choices[0].index' },
  },
  message: {
    content: { to: 'content', path: ['output_text'], rule: 'O-CONTENT' },
    parsed: { to: 'parsed', path: ['output_parsed'], rule: 'O-PARSED' },
    role: { to: 'role', path: [], rule: 'O-ROLE' },
    refusal: { report: 'not-yet', detail: 'message.refusal (O-REFUSAL: the refusal part of the message output item)' },
    annotations: { report: 'not-yet', detail: 'message.annotations (O-ANNOTATIONS: the url_citation annotations of the output_text parts)' },
    audio: { report: 'no-equivalent-result', detail: 'message.audio' },
    function_call: { report: 'legacy-functions', detail: 'message.function_call' },
    tool_calls: { to: 'tool-calls', path: ['output', TOOL_CALLS_FILTER], rule: 'O-TOOLCALLS' },
  },
  'tool-calls': {
    length: { to: 'leaf', path: ['length'], rule: 'O-TOOLCALLS' },
    [INDEX0]: { to: 'tool-call', path: ['#0'], rule: 'O-TOOLCALLS' },
    [ANY]: { report: 'not-yet', detail: 'indexing tool_calls other than [0]' },
  },
  'tool-call': {
    id: { to: 'leaf', path: ['call_id'], rule: 'O-TOOLCALLS' },
    type: { to: 'tool-call-type', path: ['type'], rule: 'O-TOOLCALLS' },
    function: { to: 'tool-call-function', path: [], rule: 'O-TOOLCALLS' },
    custom: { report: 'not-yet', detail: 'custom tool calls (custom_tool_call items)' },
  },
  'tool-call-function': {
    name: { to: 'leaf', path: ['name'], rule: 'O-TOOLCALLS' },
    arguments: { to: 'leaf', path: ['arguments'], rule: 'O-TOOLCALLS' },
    parsed_arguments: { to: 'leaf', path: ['parsed_arguments'], rule: 'H-ZODFUNCTION' },
  },
  'tool-call-type': {},
  usage: {
    prompt_tokens: { to: 'leaf', path: ['input_tokens'], rule: 'O-USAGE' },
    completion_tokens: { to: 'leaf', path: ['output_tokens'], rule: 'O-USAGE' },
    total_tokens: { to: 'leaf', path: ['total_tokens'], rule: 'O-USAGE' },
    prompt_tokens_details: { to: 'prompt-details', path: ['input_tokens_details'], rule: 'O-USAGE' },
    completion_tokens_details: { to: 'completion-details', path: ['output_tokens_details'], rule: 'O-USAGE' },
  },
  'prompt-details': {
    cached_tokens: { to: 'leaf', path: ['cached_tokens'], rule: 'O-USAGE' },
    audio_tokens: { report: 'no-equivalent-result', detail: 'usage.prompt_tokens_details.audio_tokens' },
  },
  'completion-details': {
    reasoning_tokens: { to: 'leaf', path: ['reasoning_tokens'], rule: 'O-USAGE' },
    audio_tokens: { report: 'no-equivalent-result', detail: 'usage.completion_tokens_details.audio_tokens' },
    accepted_prediction_tokens: { report: 'no-equivalent-result', detail: 'usage.completion_tokens_details.accepted_prediction_tokens' },
    rejected_prediction_tokens: { report: 'no-equivalent-result', detail: 'usage.completion_tokens_details.rejected_prediction_tokens' },
  },
  content: {},
  parsed: {},
  'finish-reason': {},
  leaf: {},
  created: {},
  object: {},
  id: {},
  role: {},
};

/** Shapes whose value is an object with no Responses counterpart of the same shape. */
export const OBJECT_SHAPES = new Set<Shape>(['completion', 'choices', 'choice', 'message', 'usage', 'prompt-details', 'completion-details', 'tool-calls', 'tool-call', 'tool-call-function']);

/** Array methods whose callback receives each element (tool calls iterated with `.map`, `.forEach`…). */
export const ELEMENT_CALLBACK_METHODS = new Set(['map', 'forEach', 'filter', 'find', 'some', 'every', 'flatMap']);

/** O-FINISH: the Chat finish reasons that have a Responses condition. */
export const FINISH_VALUES = ['stop', 'length', 'content_filter', 'tool_calls'] as const;

/** O-FINISH conditions over a response expression `R`. */
export const FINISH_CONDITIONS: Readonly<Record<(typeof FINISH_VALUES)[number], string>> = {
  stop: "R.status === 'completed' && !R.output.some((i) => i.type === 'function_call')",
  tool_calls: "R.status === 'completed' && R.output.some((i) => i.type === 'function_call')",
  length: "R.status === 'incomplete' && R.incomplete_details?.reason === 'max_output_tokens'",
  content_filter: "R.status === 'incomplete' && R.incomplete_details?.reason === 'content_filter'",
};

/**
 * What a string property or method gives on `''` (O-CONTENT-NULL through an optional chain):
 * `content?.trim() ?? ''` gives '' for a null content and for an empty `output_text` alike.
 * `replace`/`replaceAll` give '' only when their pattern is a non-empty string (a RegExp may match
 * the empty string); anything not listed is not known to keep the test's answer.
 */
export const ON_EMPTY_STRING: ReadonlyMap<string, { value: '' | 0; call: boolean }> = new Map<string, { value: '' | 0; call: boolean }>([
  ['length', { value: 0, call: false }],
  ...['trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'toString', 'valueOf', 'normalize', 'slice', 'substring', 'substr', 'replace', 'replaceAll']
    .map((name): [string, { value: '' | 0; call: boolean }] => [name, { value: '', call: true }]),
]);

/** Chat types and their Responses replacements (H-TYPES), with where the replacement comes from. */
export const TYPE_RENAMES: Readonly<Record<string, { to: string | null; module: string }>> = {
  ChatCompletion: { to: 'Response', module: 'openai/resources/responses/responses' },
  ParsedChatCompletion: { to: 'ParsedResponse', module: 'openai/resources/responses/responses' },
  ChatCompletionCreateParams: { to: 'ResponseCreateParams', module: 'openai/resources/responses/responses' },
  ChatCompletionCreateParamsBase: { to: 'ResponseCreateParamsBase', module: 'openai/resources/responses/responses' },
  ChatCompletionCreateParamsNonStreaming: { to: 'ResponseCreateParamsNonStreaming', module: 'openai/resources/responses/responses' },
  ChatCompletionCreateParamsStreaming: { to: 'ResponseCreateParamsStreaming', module: 'openai/resources/responses/responses' },
  CompletionUsage: { to: 'ResponseUsage', module: 'openai/resources/responses/responses' },
  ChatCompletionMessageToolCall: { to: 'ResponseFunctionToolCall', module: 'openai/resources/responses/responses' },
  ChatCompletionMessageFunctionToolCall: { to: 'ResponseFunctionToolCall', module: 'openai/resources/responses/responses' },
  ChatCompletionTool: { to: 'Tool', module: 'openai/resources/responses/responses' },
  ChatCompletionFunctionTool: { to: 'FunctionTool', module: 'openai/resources/responses/responses' },
  ChatCompletionMessageParam: { to: 'ResponseInputItem', module: 'openai/resources/responses/responses' },
  ChatCompletionChunk: { to: 'ResponseStreamEvent', module: 'openai/resources/responses/responses' },
  ChatCompletionStream: { to: 'ResponseStream', module: 'openai/lib/responses/ResponseStream' },
  ChatCompletionMessage: { to: null, module: '' },
};

/** Where the replay helper lives (M-REPLAY, G-IMPORTS). */
export const REPLAY_HELPER = { name: 'toResponseInputItems', module: 'openai/lib/responses/ResponseInputItems' } as const;
/** The include entry a replay unit needs with store: false (T-REASONING-REPLAY). */
export const REASONING_INCLUDE = 'reasoning.encrypted_content';

/** Notes shared by every site they apply to. */
export const REPLAY_NOTE = "The assistant turn is replayed with toResponseInputItems(output), and include: ['reasoning.encrypted_content'] is sent, so reasoning items survive store: false.";
export const REPLAY_PLAIN_NOTE = (model: string) =>
  `The assistant turn is replayed with toResponseInputItems(output); ${model} makes no reasoning items, so no reasoning include is sent (the API rejects it for this model). If you switch to a reasoning model, add include: ['reasoning.encrypted_content'].`;
export const REPLAY_STORED_NOTE = 'The assistant turn is replayed with toResponseInputItems(output); the call sets store: true, so replayed reasoning items are found by id and no reasoning include is sent.';
export const PARSE_NOTE = 'responses.parse() does not throw on incomplete output: output_parsed is null unless status is completed.';
