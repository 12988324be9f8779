/**
 * The rule registry: every MIGRATION-SPEC rule id this tool implements or checks, with a one-line
 * summary. `--list-rules` and the README's rule list are generated from it.
 */

export interface RuleInfo {
  id: string;
  summary: string;
}

export const RULES: readonly RuleInfo[] = [
  { id: 'A-CREATE', summary: 'chat.completions.create → responses.create (second argument kept)' },
  { id: 'A-PARSE', summary: 'chat.completions.parse → responses.parse' },
  { id: 'A-STREAM', summary: 'chat.completions.stream → responses.stream' },
  { id: 'A-RUNTOOLS', summary: 'chat.completions.runTools is reported (run-tools)' },
  { id: 'A-BETA', summary: 'beta.chat.completions.* maps like the GA method' },
  { id: 'A-HTTP', summary: 'raw HTTP to /chat/completions is reported (raw-http)' },
  { id: 'A-V3', summary: 'openai v3 createChatCompletion is reported (sdk-v3)' },
  { id: 'R-MESSAGES', summary: 'messages → input (+ instructions)' },
  { id: 'R-MAXTOK', summary: 'max_tokens / max_completion_tokens → max_output_tokens' },
  { id: 'R-RESPFMT', summary: 'response_format → text.format (json_schema flattened)' },
  { id: 'R-STORE', summary: 'store: false added unless the call sets store' },
  { id: 'R-REASONING', summary: 'reasoning_effort → reasoning.effort' },
  { id: 'R-VERBOSITY', summary: 'verbosity → text.verbosity' },
  { id: 'R-LOGPROBS', summary: 'logprobs: true → include logprobs; false/null dropped' },
  { id: 'R-STREAMOPTS', summary: 'stream_options.include_usage removed' },
  { id: 'R-NOEQUIV', summary: 'n, stop, seed, penalties, logit_bias…: inert values dropped, others reported' },
  { id: 'R-UNKNOWN', summary: 'keys outside both APIs are reported (unknown-param)' },
  { id: 'M-INPUT', summary: 'the messages array is kept as the input array' },
  { id: 'M-SYSTEM', summary: 'a single leading literal system/developer message is hoisted into instructions' },
  { id: 'M-PART-TEXT', summary: "content part { type: 'text' } → { type: 'input_text' }" },
  { id: 'M-PART-IMAGE', summary: "content part image_url → input_image with a flat URL and detail (default 'auto')" },
  { id: 'M-PART-FILE', summary: 'content part file → input_file, flattened' },
  { id: 'M-NAME', summary: 'per-message name dropped (the Responses API rejects it)' },
  { id: 'M-ASSIST-TEXT', summary: 'assistant text parts joined into one string' },
  { id: 'M-TYPES', summary: 'unit-local ChatCompletionMessageParam[] retyped to EasyInputMessage[]' },
  { id: 'O-CONTENT', summary: 'choices[0].message.content → output_text' },
  { id: 'O-CONTENT-NULL', summary: "null checks on content → checks for ''; content ?? x → output_text || x" },
  { id: 'O-PARSED', summary: 'choices[0].message.parsed → output_parsed' },
  { id: 'O-USAGE', summary: 'usage.prompt_tokens/completion_tokens → input_tokens/output_tokens' },
  { id: 'O-FINISH', summary: "finish_reason === '…' → status / incomplete_details checks" },
  { id: 'O-META', summary: 'created → created_at; object comparisons' },
  { id: 'O-CHOICES', summary: 'choices[0] collapses into the response; choices.length → output.length' },
  { id: 'O-BIND', summary: 'const { choices } = … → a fresh response binding' },
  { id: 'O-ESCAPE', summary: 'results that leave the function are reported (result-escapes)' },
  { id: 'H-PARSE', summary: 'parse results: message.parsed → output_parsed, failure semantics noted' },
  { id: 'H-ZODFORMAT', summary: 'zodResponseFormat → zodTextFormat under text.format' },
  { id: 'H-TYPES', summary: 'Chat types on unit-local declarations → Responses types' },
  { id: 'P-DEFAULT', summary: 'new OpenAI() without baseURL is OpenAI (OPENAI_BASE_URL assumption stated)' },
  { id: 'P-AZURE-V1', summary: 'Azure /openai/v1 base URL migrates, with a note' },
  { id: 'P-ALLOW', summary: '--allow-base-url origins and env:NAME entries migrate, with a note' },
  { id: 'G-UNIT', summary: 'sites sharing params, messages or results migrate together or not at all' },
];
