/**
 * Reason codes (docs/migration-spec.md §9) as data: the message template, the suggested manual fix and the
 * spec rules that raise it. `{detail}` in a template is replaced by the reason's detail.
 * SARIF rules, `--list-rules` and the README are generated from this table.
 */

import type { PatternId, RuleId } from './ids.js';

export interface ReasonCodeInfo {
  code: string;
  /** Template; `{detail}` is the part after the colon (host, param name, how…). */
  message: string;
  /**
   * Template for a detail that names a value and says why (`params: typed Params, the program's
   * own type (input.ts)`): `{name}` and `{why}`, so the sentence reads around the name.
   */
  qualified?: string;
  fix: string;
  /** Spec rules that produce this code. */
  rules: readonly (RuleId | PatternId)[];
  /** A reason attached to a file rather than a site. */
  fileLevel?: boolean;
}

const TABLE = [
  { code: 'provider-not-openai', rules: ['P-NONOPENAI', 'P-PROVIDER-OPT'],
    message: 'Client targets {detail}; Responses support there is unknown.',
    fix: 'Keep Chat Completions, or confirm the vendor supports /responses and pass the origin to --allow-base-url.' },
  { code: 'provider-unknown', rules: ['P-RUNTIME', 'P-INJECTED', 'P-SUBCLASS', 'P-OPTS-SPREAD', 'P-MODEL-HINT', 'P-KEY-HINT', 'P-UNION', 'P-UNRESOLVED'],
    message: 'Cannot prove this client reaches OpenAI ({detail}).',
    fix: 'Split the OpenAI path from other providers; allow-list env:NAME; or add a runtime switch on the base URL.' },
  { code: 'azure-legacy', rules: ['P-AZURE-LEGACY', 'H-AZURE'],
    message: 'Azure client uses the deployments API shape; /responses is not deployment-routed.',
    fix: "Use new OpenAI({ baseURL: 'https://<resource>.openai.azure.com/openai/v1/' }) with the deployment name as model, then re-run." },
  { code: 'sdk-v3', rules: ['P-V3', 'A-V3'],
    message: 'openai v3 SDK call; upgrade the SDK first.',
    fix: 'Upgrade to openai >= 6 (v3 to v4 migration), then re-run.' },
  { code: 'wrapper-client', rules: ['P-WRAPPER'],
    message: 'Call goes through a wrapper that only implements Chat Completions.',
    fix: 'Keep it, or replace the wrapper with responses.parse + zodTextFormat.' },
  { code: 'raw-http', rules: ['A-HTTP', 'P-RAWHTTP'],
    message: 'Raw HTTP request to Chat Completions; body, parser and SSE handling must change together.',
    fix: 'Switch to the SDK, or rewrite URL, body, parser and SSE handling by hand.' },
  // Added by this tool (docs/migration-spec.md §9, A-BATCH): the Batch API queues Chat requests written as JSON lines.
  { code: 'batch-api', rules: ['A-BATCH'],
    message: 'Batch of Chat Completions requests ({detail}); the endpoint, every request line (url and body) and the reading of the output file must change together.',
    fix: "Set endpoint: '/v1/responses', write each line with url '/v1/responses' and a Responses body (docs/migration-spec.md §2–3), and read each output line's response.body as a Response (§4)." },
  { code: 'receiver-not-client', rules: ['A-CREATE'],
    message: 'Cannot reach `responses` from this receiver ({detail}).',
    fix: 'Pass the client instead of client.chat, and call the method directly.' },
  { code: 'no-equivalent-param', rules: ['R-NOEQUIV', 'R-LOGPROBS', 'R-MAXTOK', 'R-RESPFMT', 'H-ZODFORMAT'],
    message: 'Parameter {detail} has no Responses equivalent; dropping it changes behaviour.',
    fix: 'Decide whether the behaviour change is acceptable, then remove it by hand and re-run.' },
  { code: 'unknown-param', rules: ['R-UNKNOWN'],
    message: 'Unknown request key {detail} (vendor extension?).',
    fix: 'Check the provider; remove the key for OpenAI.' },
  { code: 'n-greater-than-one', rules: ['R-NOEQUIV'],
    message: 'Responses returns one generation; n={detail} needs N requests.',
    fix: 'Issue N parallel responses.create calls and rebuild the choices list.' },
  { code: 'model-not-supported', rules: ['R-MODEL'],
    message: 'Model {detail} is not available in the Responses API.',
    fix: 'Keep this call on Chat Completions, or move it to a model the Responses API serves (for a search-preview model: a general model with the web_search tool, R-WEBSEARCH).' },
  { code: 'max-tokens-below-minimum', rules: ['T-MAXTOK-MIN'],
    message: 'max_output_tokens must be >= 16 (was {detail}).',
    fix: 'Raise the limit, or truncate the output in code.' },
  { code: 'legacy-functions', rules: ['R-LEGACYFN', 'M-FUNCTION'],
    message: 'Legacy function calling has no call ids.',
    fix: 'Convert to tools (R-LEGACYFN mapping), thread a call_id through history, then re-run.' },
  { code: 'run-tools', rules: ['H-RUNTOOLS', 'A-RUNTOOLS'],
    message: 'runTools has no drop-in Responses equivalent.',
    fix: 'Write the tool loop by hand (P29), or use ResponsesToolRunner (openai 7).' },
  { code: 'params-not-local', rules: ['R-RESPFMT', 'R-TOOLS', 'R-TOOLS-UNTYPED', 'R-TOOLCHOICE', 'R-WEBSEARCH', 'R-STREAMOPTS'],
    message: '{detail} is built outside this unit; its shape must change.',
    qualified: '{name} is built outside this unit ({why}); its shape must change.',
    fix: 'Convert the builder to the Responses shape (docs/migration-spec.md §2), then re-run.' },
  { code: 'messages-not-local', rules: ['M-INPUT', 'M-CONTENT-UNTYPED'],
    message: 'Messages are built elsewhere and may contain parts/tool turns that must change shape ({detail}).',
    fix: 'Let the run-time conversion apply (M-CONTENT-UNTYPED: fix what the detail names; it is off with --no-runtime-conversion), convert the builder to ResponseInputItem[] (docs/migration-spec.md §3), or narrow its type to string-content roles.' },
  { code: 'opaque-spread', rules: ['V-SPREAD'],
    message: 'Spread {detail} may inject Chat-only keys.',
    fix: 'Inline or type the spread source, then re-run.' },
  { code: 'dynamic-stream-flag', rules: ['S-DETECT'],
    message: 'Cannot tell whether this call streams ({detail}).',
    fix: 'Split into a streaming and a non-streaming call.' },
  { code: 'no-equivalent-content', rules: ['M-PART-AUDIO', 'M-ASSIST-AUDIO', 'M-ASSIST-REFUSAL'],
    message: 'Message content {detail} has no Responses input form.',
    fix: 'Remove or transcribe it; keep this call on Chat Completions.' },
  { code: 'tool-kind-unknown', rules: ['M-TOOL'],
    message: 'Cannot tell whether this tool output answers a function or a custom tool.',
    fix: 'Emit function_call_output or custom_tool_call_output by hand.' },
  { code: 'result-escapes', rules: ['O-ESCAPE'],
    message: 'The Chat result leaves this code ({detail}); its consumers must change too.',
    fix: 'Migrate the consumers (docs/migration-spec.md §4), or build the old shape from Response in an adapter.' },
  { code: 'no-equivalent-result', rules: ['O-NOEQUIV', 'S-HELPER', 'S-FINAL'],
    message: '{detail} has no Responses equivalent.',
    fix: 'Rewrite that logic by hand (see the rule cited).' },
  { code: 'raw-response-body', rules: ['H-RAW'],
    message: 'Raw JSON has no output_text.',
    fix: 'Read output[] items, or use .withResponse().' },
  { code: 'stream-handoff', rules: ['S-HANDOFF'],
    message: 'Stream is consumed elsewhere ({detail}) and expects Chat chunks.',
    fix: 'Migrate the consumer to Responses events (docs/migration-spec.md §5) together with this call.' },
  { code: 'stream-tool-calls', rules: ['S-TOOLARGS'],
    message: 'Streaming tool-call assembly must be rewritten around item_id.',
    fix: 'Use the S-TOOLARGS snippet.' },
  { code: 'parse-error-semantics', rules: ['H-PARSE'],
    message: 'responses.parse does not throw on incomplete output.',
    fix: 'Check status / output_parsed === null instead.' },
  { code: 'unit-blocked', rules: ['G-UNIT'],
    message: 'Blocked by {detail} in the same unit.',
    fix: "Fix the sibling's reasons." },
  // Added by this tool (docs/migration-spec.md §9, T-REASONING-REPLAY): the API rejects the reasoning include for
  // models that do not reason (400 "Encrypted content is not supported with this model"), and a reasoning model
  // needs it to replay its output with store: false; the model decides, and it is not in view.
  { code: 'replay-model-unknown', rules: ['T-REASONING-REPLAY', 'T-STORE'],
    message: "This call replays its output with store: false: a reasoning model needs include: ['reasoning.encrypted_content'], and the API rejects that include for other models; which model the call uses cannot be told ({detail}).",
    fix: "Name the model with a literal (or a const), or migrate by hand: send the include only to a reasoning model." },
  // Added by this tool (docs/migration-spec.md §9): a shape the mapping covers, whose rewrite this version does not implement yet.
  { code: 'not-supported-yet', rules: [],
    message: 'The rewrite for {detail} is not implemented yet; the site is left as it is.',
    fix: 'Migrate this site by hand following the rule cited (docs/migration-spec.md), or wait for a later version.' },
  // Added by this tool (docs/migration-spec.md §9): a line the rewrite changes is under a // @ts-expect-error.
  { code: 'ts-expect-error', rules: ['G-ATOMIC'],
    message: 'A // @ts-expect-error governs a line the {detail} rewrite changes: whether the error it expects remains cannot be told, and an unused directive fails tsc (TS2578).',
    fix: 'Check what the directive silences; remove or move it (or fix the error it expects), then run the tool again.' },
  // Added by this tool (docs/migration-spec.md §9): analysing this one site threw; the site is listed instead of lost.
  { code: 'scanner-error', rules: ['G-ATOMIC'],
    message: 'The scanner failed on this site ({detail}); it was left as it is.',
    fix: 'Report the bug with a snippet of the call, and migrate this site by hand meanwhile.' },
  // Added by this tool (docs/migration-spec.md §9): the planned rewrite threw or produced code that does not parse.
  { code: 'transform-failed', rules: ['G-ATOMIC'],
    message: 'The rewrite failed ({detail}); the file, and every file of the sites tied to it (a unit, a group), was left as it was.',
    fix: 'Report the bug with the file, and migrate this site by hand meanwhile.' },
  // Added by this tool (docs/migration-spec.md §9): a file of the site's write set could not be written; none of them was.
  { code: 'write-failed', rules: ['G-UNIT', 'W-ALL-OR-NOTHING'],
    message: 'Its files could not be written ({detail}); every file of its write set was left as it was.',
    fix: 'Resolve the cause named (a file edited since the scan, a read-only file, a path outside those given, an interrupted run) and run the tool again.' },
  { code: 'test-mock', rules: ['N04'], fileLevel: true,
    message: 'Test doubles still target chat.completions.',
    fix: 'Update mocks to responses.create and the Responses result shape.' },
  // Added by this tool: a component file (.vue, .svelte, .astro) the scanner does not parse.
  { code: 'not-scanned', rules: [], fileLevel: true,
    message: 'This component file mentions Chat Completions, and the tool does not parse component files: its calls are neither checked nor migrated.',
    fix: 'Migrate the calls in its script block by hand, or move them into a .ts/.js module the tool scans.' },
] as const satisfies readonly ReasonCodeInfo[];

/** A reason code of the table: the scanner cannot raise one that is not there. */
export type ReasonCode = (typeof TABLE)[number]['code'];

/** A reason raised by the scanner: the code and the detail after the colon (`provider-unknown:injected`). */
export interface ReasonRef {
  code: ReasonCode;
  detail?: string;
}

export const REASON_CODES: readonly (ReasonCodeInfo & { code: ReasonCode })[] = TABLE;

const BY_CODE = new Map<string, ReasonCodeInfo>(REASON_CODES.map((r) => [r.code, r]));

/** The table's entry for a code read back from a report (a string), if it is one. */
export function reasonInfo(code: string): ReasonCodeInfo | undefined {
  return BY_CODE.get(code);
}

/**
 * Fill a reason's message template. Without a detail, the `{detail}` slot and its brackets go.
 * Total on purpose: it runs while the report is built, where a throw would lose the whole run.
 */
export function reasonMessage(code: ReasonCode, detail?: string): string {
  const info = BY_CODE.get(code);
  const named = info?.qualified && detail !== undefined ? /^([\w$.[\]]+): ([^]+)$/.exec(detail) : null;
  if (named) return info!.qualified!.replaceAll('{name}', named[1]).replaceAll('{why}', named[2]);
  const template = info?.message ?? `${code} ({detail})`;
  if (detail !== undefined) return template.replaceAll('{detail}', detail);
  return template.replace(/ \(\{detail\}\)/g, '').replaceAll('{detail}', 'this');
}
