/**
 * Streaming tables (docs/migration-spec.md §5) as data: how reads of a Chat chunk map onto Responses
 * events inside a stream loop (S-TEXT, S-FINISH, S-USAGE), how `ChatCompletionStream` listeners
 * map onto `ResponseStream` events (S-HELPER), and the final-result methods (S-FINAL).
 */

/** The shape of a value read from a chunk while a chain is followed. */
export type ChunkShape = 'chunk' | 'chunk-choices' | 'chunk-choice' | 'delta' | 'text' | 'refusal' | 'finish' | 'chunk-usage' | 'usage-leaf' | 'tool-deltas';

export type ChunkStep =
  | { to: ChunkShape; usage?: string }
  | { report: 'no-equivalent-result' | 'legacy-functions' | 'stream-tool-calls' | 'not-yet'; detail: string };

export const INDEX0 = '#0';
export const ANY = '*';

export const CHUNK_STEPS: Readonly<Record<ChunkShape, Readonly<Record<string, ChunkStep>>>> = {
  chunk: {
    choices: { to: 'chunk-choices' },
    usage: { to: 'chunk-usage' },
    id: { report: 'not-yet', detail: 'chunk.id (the id arrives on response.created)' },
    model: { report: 'not-yet', detail: 'chunk.model (the model arrives on response.created)' },
    created: { report: 'not-yet', detail: 'chunk.created (created_at arrives on response.created)' },
    object: { report: 'no-equivalent-result', detail: 'chunk.object' },
    system_fingerprint: { report: 'no-equivalent-result', detail: 'system_fingerprint' },
    service_tier: { report: 'not-yet', detail: 'chunk.service_tier' },
  },
  'chunk-choices': {
    [INDEX0]: { to: 'chunk-choice' },
    [ANY]: { report: 'no-equivalent-result', detail: 'chunk.choices' },
  },
  'chunk-choice': {
    delta: { to: 'delta' },
    finish_reason: { to: 'finish' },
    logprobs: { report: 'no-equivalent-result', detail: 'logprobs' },
    index: { report: 'no-equivalent-result', detail: 'chunk.choices[0].index' },
  },
  delta: {
    content: { to: 'text' },
    refusal: { to: 'refusal' },
    role: { report: 'no-equivalent-result', detail: 'delta.role' },
    tool_calls: { report: 'stream-tool-calls', detail: 'delta.tool_calls' },
    function_call: { report: 'legacy-functions', detail: 'delta.function_call' },
  },
  'chunk-usage': {
    prompt_tokens: { to: 'usage-leaf', usage: 'input_tokens' },
    completion_tokens: { to: 'usage-leaf', usage: 'output_tokens' },
    total_tokens: { to: 'usage-leaf', usage: 'total_tokens' },
    prompt_tokens_details: { report: 'not-yet', detail: 'streamed usage details' },
    completion_tokens_details: { report: 'not-yet', detail: 'streamed usage details' },
  },
  text: {},
  refusal: {},
  finish: {},
  'usage-leaf': {},
  'tool-deltas': {},
};

/** Event conditions over a stream event `E` (S-TEXT, S-USAGE, S-FINISH, S-FAILED). */
export const EVENT_EXPRESSIONS = {
  text: "(E.type === 'response.output_text.delta' ? E.delta : undefined)",
  refusal: "(E.type === 'response.refusal.delta' ? E.delta : undefined)",
  /**
   * A read the program's types narrowed to a string (`if (c.choices[0]?.delta?.content)
   * f(c.choices[0].delta.content)`): the test before it now holds only on a delta event, so the
   * other arm never runs, and `''` keeps the type a string as the narrowing did.
   */
  textNarrowed: "(E.type === 'response.output_text.delta' ? E.delta : '')",
  refusalNarrowed: "(E.type === 'response.refusal.delta' ? E.delta : '')",
  usage: "(E.type === 'response.completed' || E.type === 'response.incomplete' ? E.response.usage : undefined)",
  usageGuard: "((E.type === 'response.completed' || E.type === 'response.incomplete') && E.response.usage)",
  usageNarrowed: 'E.response.usage',
  /** The Chat finish reason the terminal event stands for, null on every other event (like Chat chunks). */
  finishValue: "(E.type === 'response.completed' || E.type === 'response.incomplete' ? (E.response.status === 'incomplete' ? (E.response.incomplete_details?.reason === 'max_output_tokens' ? 'length' : 'content_filter') : E.response.output.some((i) => i.type === 'function_call') ? 'tool_calls' : 'stop') : null)",
  finishTruthy: "(E.type === 'response.completed' || E.type === 'response.incomplete')",
} as const;

/**
 * S-TEXT, statement form: `process.stdout.write(<text read> || '');` becomes
 * `if (<condition>) process.stdout.write(E.delta);`. The condition of each delta read over `E`.
 */
export const DELTA_CONDITIONS = {
  text: "E.type === 'response.output_text.delta'",
  refusal: "E.type === 'response.refusal.delta'",
} as const;

/**
 * The calls the statement form may skip on other events, where they received `''`: writing an
 * empty string to the process's own stdout/stderr puts nothing on it. Not `res.write('')` (an HTTP
 * response sends its headers on the first write, even an empty one) nor a function of the
 * program's own (`onToken('')` may count calls): their reads keep the expression form.
 */
export const EMPTY_WRITE_SINKS: ReadonlySet<string> = new Set(['process.stdout.write', 'process.stderr.write']);

/** S-FINISH comparisons over a stream event `E`. */
export const STREAM_FINISH_CONDITIONS: Readonly<Record<string, string>> = {
  stop: "(E.type === 'response.completed' && !E.response.output.some((i) => i.type === 'function_call'))",
  tool_calls: "(E.type === 'response.completed' && E.response.output.some((i) => i.type === 'function_call'))",
  length: "(E.type === 'response.incomplete' && E.response.incomplete_details?.reason === 'max_output_tokens')",
  content_filter: "(E.type === 'response.incomplete' && E.response.incomplete_details?.reason === 'content_filter')",
};

/** S-FAILED: the first lines of every rewritten stream loop (failures are yielded, not thrown). */
export const FAILED_GUARD = [
  "if (E.type === 'error') throw new Error(E.message);",
  "if (E.type === 'response.failed') throw new Error(E.response.error?.message ?? 'Response failed');",
] as const;

export interface ListenerRule {
  /** The ResponseStream event. */
  to: string;
  /** Chat listeners with positional arguments `(delta, snapshot)`: their names, in order. */
  positional?: string[];
  /** Field renames of the payload object (Chat field → Responses field). */
  fields?: Readonly<Record<string, string>>;
  /** Payload fields with no equivalent. */
  noEquivalent?: string[];
}

/** S-HELPER: `ChatCompletionStream` listener → `ResponseStream` listener. */
export const LISTENERS: Readonly<Record<string, ListenerRule | null>> = {
  content: { to: 'response.output_text.delta', positional: ['delta', 'snapshot'] },
  'content.delta': { to: 'response.output_text.delta', fields: { delta: 'delta', snapshot: 'snapshot' }, noEquivalent: ['parsed'] },
  'content.done': { to: 'response.output_text.done', fields: { content: 'text' }, noEquivalent: ['parsed'] },
  'refusal.delta': { to: 'response.refusal.delta', fields: { delta: 'delta' }, noEquivalent: ['snapshot'] },
  'refusal.done': { to: 'response.refusal.done', fields: { refusal: 'refusal' } },
  'tool_calls.function.arguments.delta': {
    to: 'response.function_call_arguments.delta',
    fields: { arguments_delta: 'delta', arguments: 'snapshot' },
    noEquivalent: ['name', 'index', 'parsed_arguments'],
  },
  connect: { to: 'connect' },
  end: { to: 'end' },
  error: { to: 'error' },
  abort: { to: 'abort' },
  // listeners with no Responses equivalent
  chunk: null, message: null, functionToolCall: null, functionToolCallResult: null, finalContent: null,
  finalMessage: null, finalChatCompletion: null, totalUsage: null, 'logprobs.content.delta': null,
  'logprobs.content.done': null, 'logprobs.refusal.delta': null, 'logprobs.refusal.done': null,
  'tool_calls.function.arguments.done': null, finalFunctionToolCall: null, finalFunctionToolCallResult: null,
};

/** S-FINAL: the helper's final-result methods. `shape` is what the awaited value is followed as. */
export const FINAL_METHODS: Readonly<Record<string, { shape: 'completion' | 'message' | 'content' | 'usage' } | null>> = {
  finalChatCompletion: { shape: 'completion' },
  finalMessage: { shape: 'message' },
  finalContent: { shape: 'content' },
  totalUsage: { shape: 'usage' },
  finalFunctionToolCall: null,
  finalFunctionToolCallResult: null,
  allChatCompletions: null,
};

/** Helper-stream members that behave the same on a ResponseStream. */
export const SAME_STREAM_MEMBERS = new Set(['abort', 'done', 'controller', 'ended', 'errored', 'aborted', 'off', 'once']);
