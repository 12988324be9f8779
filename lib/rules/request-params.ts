/**
 * The request-parameter table (docs/migration-spec.md §2) as data. The scanner uses it to decide what a
 * params object needs; the request transform uses the same table to rewrite the keys.
 */

import type { RuleId } from './ids.js';

export type ParamTreatment =
  | 'keep' // R-SAME, R-MODEL, R-PARALLEL, R-STORE, R-STREAM: same name and shape
  | 'messages' // R-MESSAGES → input (+ instructions)
  | 'max-tokens' // R-MAXTOK → max_output_tokens
  | 'response-format' // R-RESPFMT → text.format
  | 'reasoning-effort' // R-REASONING → reasoning.effort
  | 'verbosity' // R-VERBOSITY → text.verbosity
  | 'logprobs' // R-LOGPROBS → include
  | 'top-logprobs' // kept with logprobs: true, dropped with logprobs: false
  | 'tools' // R-TOOLS
  | 'tool-choice' // R-TOOLCHOICE
  | 'web-search' // R-WEBSEARCH → tools entry
  | 'stream-options' // R-STREAMOPTS
  | 'no-equivalent' // R-NOEQUIV
  | 'legacy-functions'; // R-LEGACYFN

export interface ParamRule {
  treatment: ParamTreatment;
  rule: RuleId;
  /** New key name, for renames. */
  to?: string;
}

export const CHAT_PARAMS: Readonly<Record<string, ParamRule>> = {
  model: { treatment: 'keep', rule: 'R-MODEL' },
  messages: { treatment: 'messages', rule: 'R-MESSAGES', to: 'input' },
  max_tokens: { treatment: 'max-tokens', rule: 'R-MAXTOK', to: 'max_output_tokens' },
  max_completion_tokens: { treatment: 'max-tokens', rule: 'R-MAXTOK', to: 'max_output_tokens' },
  response_format: { treatment: 'response-format', rule: 'R-RESPFMT' },
  tools: { treatment: 'tools', rule: 'R-TOOLS' },
  tool_choice: { treatment: 'tool-choice', rule: 'R-TOOLCHOICE' },
  parallel_tool_calls: { treatment: 'keep', rule: 'R-PARALLEL' },
  store: { treatment: 'keep', rule: 'R-STORE' },
  reasoning_effort: { treatment: 'reasoning-effort', rule: 'R-REASONING' },
  verbosity: { treatment: 'verbosity', rule: 'R-VERBOSITY' },
  logprobs: { treatment: 'logprobs', rule: 'R-LOGPROBS' },
  top_logprobs: { treatment: 'top-logprobs', rule: 'R-LOGPROBS' },
  web_search_options: { treatment: 'web-search', rule: 'R-WEBSEARCH' },
  stream: { treatment: 'keep', rule: 'R-STREAM' },
  stream_options: { treatment: 'stream-options', rule: 'R-STREAMOPTS' },
  n: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  stop: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  seed: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  presence_penalty: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  frequency_penalty: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  logit_bias: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  prediction: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  modalities: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  audio: { treatment: 'no-equivalent', rule: 'R-NOEQUIV' },
  functions: { treatment: 'legacy-functions', rule: 'R-LEGACYFN' },
  function_call: { treatment: 'legacy-functions', rule: 'R-LEGACYFN' },
  temperature: { treatment: 'keep', rule: 'R-SAME' },
  top_p: { treatment: 'keep', rule: 'R-SAME' },
  metadata: { treatment: 'keep', rule: 'R-SAME' },
  user: { treatment: 'keep', rule: 'R-SAME' },
  service_tier: { treatment: 'keep', rule: 'R-SAME' },
  safety_identifier: { treatment: 'keep', rule: 'R-SAME' },
  prompt_cache_key: { treatment: 'keep', rule: 'R-SAME' },
  prompt_cache_retention: { treatment: 'keep', rule: 'R-SAME' },
  prompt_cache_options: { treatment: 'keep', rule: 'R-SAME' },
  moderation: { treatment: 'keep', rule: 'R-SAME' },
};

/** Keys that make a site tool-using (K-TOOLS). */
export const TOOL_KEYS = new Set(['tools', 'tool_choice', 'functions', 'function_call', 'parallel_tool_calls']);

/** The include entry that carries output-text logprobs (R-LOGPROBS). */
export const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/** `max_output_tokens` lower bound of the Responses API (T-MAXTOK-MIN). */
export const MIN_OUTPUT_TOKENS = 16;

/**
 * Model names Responses rejects (R-MODEL): the search-preview models (and gpt-5-search-api), the
 * audio models, and o1-mini / o1-preview ("The requested model 'o1-preview' is not supported with
 * the Responses API", 400; OpenAI's model pages mark o1-mini "not supported" for v1/responses).
 */
export const UNSUPPORTED_MODEL = /-search-preview|^gpt-5-search-api|^gpt-audio|-audio-preview|^o1-mini|^o1-preview/;
