/**
 * The rule registry: every rule id of docs/migration-spec.md the tool implements, with a one-line summary
 * and a before/after example. `--list-rules` and the README's rule list are generated from it,
 * and test/rules-examples.test.ts runs every example through the tool, so the README cannot say
 * something the tool does not do.
 *
 * An example is the body of `async function example(q: string)` in a module that has
 * `const client = new OpenAI()`; `imports` / `context` add lines above it (before and after).
 */

import type { RuleId } from './ids.js';

export interface RuleExample {
  before: string;
  after: string;
  /** Extra import lines of the before and after modules. */
  importsBefore?: string;
  importsAfter?: string;
  /** Module-level declarations both versions share (after the client). */
  context?: string;
  /** Run options the example needs (P-ALLOW). */
  allowBaseUrls?: string[];
  /** A reported site whose code is not valid against openai 6/7 (v3, vendor keys) is not type-checked. */
  skipTypecheck?: boolean;
}

export interface RuleInfo {
  id: RuleId;
  summary: string;
  /** Rules that only report (the site stays on Chat Completions) show the marker in `after`. */
  example?: RuleExample;
}

const marker = (code: string, message: string) => `// TODO(migrate-responses): ${code}: ${message}`;

export const RULES: readonly RuleInfo[] = [
  {
    id: 'A-CREATE', summary: 'chat.completions.create → responses.create (second argument kept)',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] }, { timeout: 10_000 });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false }, { timeout: 10_000 });\nreturn r.output_text;",
    },
  },
  {
    id: 'A-PARSE', summary: 'chat.completions.parse → responses.parse; message.parsed → output_parsed (H-PARSE)',
    example: {
      importsBefore: "import { zodResponseFormat } from 'openai/helpers/zod';\nimport { z } from 'zod';",
      importsAfter: "import { zodTextFormat } from 'openai/helpers/zod';\nimport { z } from 'zod';",
      context: 'const Answer = z.object({ answer: z.string() });',
      before: "const r = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], response_format: zodResponseFormat(Answer, 'answer') });\nreturn r.choices[0].message.parsed;",
      after: "const r = await client.responses.parse({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], text: { format: zodTextFormat(Answer, 'answer') }, store: false });\nreturn r.output_parsed;",
    },
  },
  {
    id: 'A-STREAM', summary: 'chat.completions.stream → responses.stream, listeners mapped (S-HELPER, S-FINAL)',
    example: {
      before: "const s = client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\ns.on('content', (delta) => process.stdout.write(delta));\nconst final = await s.finalChatCompletion();\nreturn final.choices[0].message.content;",
      after: "const s = client.responses.stream({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false }).on('response.failed', (event) => { throw new Error(event.response.error?.message ?? 'Response failed'); });\ns.on('response.output_text.delta', ({ delta }) => process.stdout.write(delta));\nconst final = await s.finalResponse();\nreturn final.output_text;",
    },
  },
  {
    id: 'A-RUNTOOLS', summary: 'chat.completions.runTools has no drop-in equivalent: reported (run-tools)',
    example: {
      before: "const runner = client.chat.completions.runTools({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], tools: [] });\nreturn runner.finalContent();",
      after: `${marker('run-tools', 'runTools has no drop-in Responses equivalent.')}\nconst runner = client.chat.completions.runTools({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], tools: [] });\nreturn runner.finalContent();`,
    },
  },
  {
    id: 'A-BETA', summary: 'beta.chat.completions.* (openai v4) maps like the GA method',
    example: {
      before: "const s = client.beta.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nconst final = await s.finalChatCompletion();\nreturn final.choices[0].message.content;",
      after: "const s = client.responses.stream({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false }).on('response.failed', (event) => { throw new Error(event.response.error?.message ?? 'Response failed'); });\nconst final = await s.finalResponse();\nreturn final.output_text;",
    },
  },
  {
    id: 'A-HTTP', summary: 'raw HTTP to /chat/completions is reported (raw-http)',
    example: {
      before: "const res = await fetch('https://api.openai.com/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] }) });\nreturn res.json();",
      after: `${marker('raw-http', 'Raw HTTP request to Chat Completions; body, parser and SSE handling must change together.')}\nconst res = await fetch('https://api.openai.com/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] }) });\nreturn res.json();`,
    },
  },
  {
    id: 'A-BATCH', summary: 'a batch of Chat Completions requests (batches.create with that endpoint) is reported (batch-api)',
    example: {
      before: "const batch = await client.batches.create({ input_file_id: q, endpoint: '/v1/chat/completions', completion_window: '24h' });\nreturn batch.id;",
      after: `${marker('batch-api', "Batch of Chat Completions requests (endpoint '/v1/chat/completions'; request lines not built in this file); the endpoint, every request line (url and body) and the reading of the output file must change together.")}\nconst batch = await client.batches.create({ input_file_id: q, endpoint: '/v1/chat/completions', completion_window: '24h' });\nreturn batch.id;`,
    },
  },
  {
    id: 'A-V3', summary: 'openai v3 createChatCompletion is reported (sdk-v3)',
    example: {
      importsBefore: "import { Configuration, OpenAIApi } from 'openai';",
      context: "const v3 = new OpenAIApi(new Configuration({ apiKey: 'sk' }));",
      skipTypecheck: true,
      before: "const r = await v3.createChatCompletion({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: q }] });\nreturn r.data.choices[0].message?.content;",
      after: "// TODO(migrate-responses): sdk-v3: openai v3 SDK call; upgrade the SDK first.\nconst r = await v3.createChatCompletion({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: q }] });\nreturn r.data.choices[0].message?.content;",
    },
  },
  {
    id: 'R-MESSAGES', summary: 'messages → input, kept as an array (M-INPUT); variable names untouched',
    example: {
      before: "const messages = [{ role: 'user' as const, content: q }];\nconst r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });\nreturn r.choices[0].message.content;",
      after: "const messages = [{ role: 'user' as const, content: q }];\nconst r = await client.responses.create({ model: 'gpt-4o-mini', input: messages, store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'M-SYSTEM', summary: 'a single leading literal system/developer message is hoisted into instructions (stateless calls only)',
    example: {
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [\n    { role: 'system', content: 'Answer in French.' },\n    { role: 'user', content: q },\n  ],\n});\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  instructions: 'Answer in French.',\n  input: [\n    { role: 'user', content: q },\n  ],\n  store: false,\n});\nreturn r.output_text;",
    },
  },
  {
    id: 'M-PART-IMAGE', summary: "content parts: text → input_text, image_url → input_image with a flat URL and detail ('auto' by default)",
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'text', text: q }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_text', text: q }, { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'auto' }] }], store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'M-NAME', summary: 'per-message name dropped (the Responses API rejects it; tsc does not)',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', name: 'ada', content: q }] });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'M-ASSIST-TEXT', summary: 'assistant text parts joined into one string',
    example: {
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [\n    { role: 'user', content: 'Say hi' },\n    { role: 'assistant', content: [{ type: 'text', text: 'Hi' }, { type: 'text', text: '!' }] },\n    { role: 'user', content: q },\n  ],\n});\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [\n    { role: 'user', content: 'Say hi' },\n    { role: 'assistant', content: ['Hi', '!'].join('') },\n    { role: 'user', content: q },\n  ],\n  store: false,\n});\nreturn r.output_text;",
    },
  },
  {
    id: 'M-PART-FILE', summary: 'content part file → input_file, flattened',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc123' } }, { type: 'text', text: q }] }] });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-abc123' }, { type: 'input_text', text: q }] }], store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'R-MAXTOK', summary: 'max_tokens / max_completion_tokens → max_output_tokens (a literal below 16 is reported)',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], max_tokens: 512 });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], max_output_tokens: 512, store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'R-RESPFMT', summary: 'response_format → text.format, json_schema flattened (merged with verbosity, R-VERBOSITY)',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], verbosity: 'low', response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: {} }, strict: true } } });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: {} }, strict: true }, verbosity: 'low' }, store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'R-REASONING', summary: 'reasoning_effort → reasoning.effort',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'o4-mini', messages: [{ role: 'user', content: q }], reasoning_effort: 'low' });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'o4-mini', input: [{ role: 'user', content: q }], reasoning: { effort: 'low' }, store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'R-VERBOSITY', summary: 'verbosity → text.verbosity, in the same text object as the format',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: q }], verbosity: 'low' });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-5-mini', input: [{ role: 'user', content: q }], text: { verbosity: 'low' }, store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'R-LOGPROBS', summary: "logprobs: true → include: ['message.output_text.logprobs']; false/null dropped with top_logprobs",
    example: {
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [{ role: 'user', content: q }],\n  logprobs: false,\n  top_logprobs: 2,\n});\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [{ role: 'user', content: q }],\n  store: false,\n});\nreturn r.output_text;",
    },
  },
  {
    id: 'R-STORE', summary: 'store: false added unless the call sets store (Responses stores by default)',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], store: true, metadata: { feature: 'faq' } });\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: true, metadata: { feature: 'faq' } });\nreturn r.output_text;",
    },
  },
  {
    id: 'R-NOEQUIV', summary: 'n, stop, seed, penalties, logit_bias…: inert values dropped, any other value reported',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], n: 1, stop: ['\\n'] });\nreturn r.choices[0].message.content;",
      after: `${marker('no-equivalent-param', 'Parameter stop has no Responses equivalent; dropping it changes behaviour.')}\nconst r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], n: 1, stop: ['\\n'] });\nreturn r.choices[0].message.content;`,
    },
  },
  {
    id: 'R-STREAMOPTS', summary: 'stream_options.include_usage removed (usage is on the terminal event)',
    example: {
      before: "const stream = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [{ role: 'user', content: q }],\n  stream: true,\n  stream_options: { include_usage: true },\n});\nlet tokens = 0;\nfor await (const chunk of stream) {\n  if (chunk.usage) tokens = chunk.usage.total_tokens;\n}\nreturn tokens;",
      after: "const stream = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [{ role: 'user', content: q }],\n  stream: true,\n  store: false,\n});\nlet tokens = 0;\nfor await (const chunk of stream) {\n  if (chunk.type === 'error') throw new Error(chunk.message);\n  if (chunk.type === 'response.failed') throw new Error(chunk.response.error?.message ?? 'Response failed');\n  if ((chunk.type === 'response.completed' || chunk.type === 'response.incomplete') && chunk.response.usage) tokens = chunk.response.usage.total_tokens;\n}\nreturn tokens;",
    },
  },
  {
    id: 'R-UNKNOWN', summary: 'keys outside both APIs are reported (unknown-param)',
    example: {
      skipTypecheck: true,
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], thinking: { type: 'enabled' } });\nreturn r.choices[0].message.content;",
      after: "// TODO(migrate-responses): unknown-param: Unknown request key thinking (vendor extension?).\nconst r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], thinking: { type: 'enabled' } });\nreturn r.choices[0].message.content;",
    },
  },
  {
    id: 'R-TOOLS', summary: 'tool definitions flattened; strict: false unless it was true (R-STRICT); parameters always present (T-PARAMS-KEY)',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], tools: [{ type: 'function', function: { name: 'now', description: 'Current time' } }], tool_choice: { type: 'function', function: { name: 'now' } } });\nreturn r.choices[0].message.tool_calls?.length ?? 0;",
      importsAfter: "import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses';",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], tools: [{ type: 'function', name: 'now', description: 'Current time', parameters: { type: 'object', properties: {} }, strict: false }], tool_choice: { type: 'function', name: 'now' }, store: false });\nreturn r.output.filter((i): i is ResponseFunctionToolCall => i.type === 'function_call').length ?? 0;",
    },
  },
  {
    // no example here: its rewrite also creates a file (README "Tools from outside the code", fixtures/runtime)
    id: 'R-TOOLS-UNTYPED', summary: 'tools from outside the code (a library\'s tool specs) → toResponsesTools(tools), converted when the program runs by a module written once per package; reported params-not-local:tools when it cannot be used or with --no-runtime-conversion',
  },
  {
    id: 'R-STRICT', summary: 'strict keeps its Chat effective value: true stays, false/null/absent → false, an expression → expr ?? false',
    example: {
      context: "const strictTools = process.env.STRICT_TOOLS === \"1\";",
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [{ role: 'user', content: q }],\n  tools: [\n    { type: 'function', function: { name: 'a', parameters: { type: 'object', properties: {} }, strict: true } },\n    { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} }, strict: strictTools } },\n  ],\n});\nreturn r.choices[0].finish_reason === 'tool_calls';",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [{ role: 'user', content: q }],\n  tools: [\n    { type: 'function', name: 'a', parameters: { type: 'object', properties: {} }, strict: true },\n    { type: 'function', name: 'b', parameters: { type: 'object', properties: {} }, strict: strictTools ?? false },\n  ],\n  store: false,\n});\nreturn (r.status === 'completed' && r.output.some((i) => i.type === 'function_call'));",
    },
  },
  {
    id: 'R-TOOLCHOICE', summary: 'tool_choice object shapes flattened; strings unchanged',
    example: {
      importsAfter: "import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses';",
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [{ role: 'user', content: q }],\n  tools: [{ type: 'function', function: { name: 'a', parameters: { type: 'object', properties: {} } } }],\n  tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'a' } }] } },\n});\nreturn r.choices[0].message.tool_calls?.[0]?.function.name;",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [{ role: 'user', content: q }],\n  tools: [{ type: 'function', name: 'a', parameters: { type: 'object', properties: {} }, strict: false }],\n  tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'a' }] },\n  store: false,\n});\nreturn r.output.find((i): i is ResponseFunctionToolCall => i.type === 'function_call')?.name;",
    },
  },
  {
    id: 'M-REPLAY', summary: 'pushing the assistant message → pushing toResponseInputItems(output), with the reasoning include for a reasoning model (T-REASONING-REPLAY); tool replies → function_call_output (M-TOOL)',
    example: {
      importsBefore: "import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
      importsAfter: "import type { ResponseFunctionToolCall, ResponseInputItem } from 'openai/resources/responses/responses';\nimport { toResponseInputItems } from 'openai/lib/responses/ResponseInputItems';",
      before: "const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: q }];\nconst tools = [{ type: 'function' as const, function: { name: 'now', parameters: { type: 'object', properties: {} } } }];\nlet r = await client.chat.completions.create({ model: 'o4-mini', messages, tools });\nwhile (r.choices[0].message.tool_calls?.length) {\n  messages.push(r.choices[0].message);\n  for (const tc of r.choices[0].message.tool_calls) {\n    messages.push({ role: 'tool', tool_call_id: tc.id, content: new Date(0).toISOString() });\n  }\n  r = await client.chat.completions.create({ model: 'o4-mini', messages, tools });\n}\nreturn r.choices[0].message.content;",
      after: "const messages: ResponseInputItem[] = [{ role: 'user', content: q }];\nconst tools = [{ type: 'function' as const, name: 'now', parameters: { type: 'object', properties: {} }, strict: false }];\nlet r = await client.responses.create({ model: 'o4-mini', input: messages, tools, store: false, include: ['reasoning.encrypted_content'] });\nwhile (r.output.filter((i): i is ResponseFunctionToolCall => i.type === 'function_call').length) {\n  messages.push(...toResponseInputItems(r.output));\n  for (const tc of r.output.filter((i): i is ResponseFunctionToolCall => i.type === 'function_call')) {\n    messages.push({ type: 'function_call_output', call_id: tc.call_id, output: new Date(0).toISOString() });\n  }\n  r = await client.responses.create({ model: 'o4-mini', input: messages, tools, store: false, include: ['reasoning.encrypted_content'] });\n}\nreturn r.output_text;",
    },
  },
  {
    id: 'M-TOOL', summary: "{ role: 'tool', tool_call_id, content } → { type: 'function_call_output', call_id, output }",
    example: {
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [\n    { role: 'user', content: q },\n    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'now', arguments: '{}' } }] },\n    { role: 'tool', tool_call_id: 'call_1', content: '12:00' },\n  ],\n  tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } }],\n});\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [\n    { role: 'user', content: q },\n    { type: 'function_call', call_id: 'call_1', name: 'now', arguments: '{}' },\n    { type: 'function_call_output', call_id: 'call_1', output: '12:00' },\n  ],\n  tools: [{ type: 'function', name: 'now', parameters: { type: 'object', properties: {} }, strict: false }],\n  store: false,\n});\nreturn r.output_text;",
    },
  },
  {
    id: 'M-ASSIST-TOOLCALLS', summary: 'a literal assistant turn with tool_calls → function_call items (call_id, never id)',
    example: {
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [\n    { role: 'user', content: q },\n    {\n      role: 'assistant',\n      content: 'Checking both.',\n      tool_calls: [\n        { id: 'call_a', type: 'function', function: { name: 'price', arguments: '{\"sku\":\"a\"}' } },\n        { id: 'call_b', type: 'function', function: { name: 'price', arguments: '{\"sku\":\"b\"}' } },\n      ],\n    },\n    { role: 'tool', tool_call_id: 'call_a', content: '3' },\n    { role: 'tool', tool_call_id: 'call_b', content: '5' },\n  ],\n});\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [\n    { role: 'user', content: q },\n    { role: 'assistant', content: 'Checking both.' },\n    { type: 'function_call', call_id: 'call_a', name: 'price', arguments: '{\"sku\":\"a\"}' },\n    { type: 'function_call', call_id: 'call_b', name: 'price', arguments: '{\"sku\":\"b\"}' },\n    { type: 'function_call_output', call_id: 'call_a', output: '3' },\n    { type: 'function_call_output', call_id: 'call_b', output: '5' },\n  ],\n  store: false,\n});\nreturn r.output_text;",
    },
  },
  {
    id: 'M-TYPES', summary: 'unit-local ChatCompletionMessageParam[] → EasyInputMessage[] (or ResponseInputItem[] with tool items)',
    example: {
      importsBefore: "import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
      importsAfter: "import type { EasyInputMessage } from 'openai/resources/responses/responses';",
      before: "const history: ChatCompletionMessageParam[] = [{ role: 'user', content: q }];\nconst r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history });\nreturn r.choices[0].message.content;",
      after: "const history: EasyInputMessage[] = [{ role: 'user', content: q }];\nconst r = await client.responses.create({ model: 'gpt-4o-mini', input: history, store: false });\nreturn r.output_text;",
    },
  },
  {
    // no example here: its rewrite also creates a file (README "Messages from outside the code", fixtures/runtime)
    id: 'M-CONTENT-UNTYPED', summary: 'messages from outside the code, not proven plain role messages → toResponsesInput(messages), converted when the program runs by a module written once per package; reported messages-not-local when it cannot be used or with --no-runtime-conversion',
  },
  {
    id: 'O-CONTENT', summary: 'choices[0].message.content in all its spellings → output_text',
    example: {
      before: "const { choices } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nreturn choices[0]?.message?.content ?? '';",
      after: "const response = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nreturn response.output_text ?? '';",
    },
  },
  {
    id: 'O-CONTENT-NULL', summary: "null checks on content → checks for ''; content ?? x → output_text || x; content?.… that answers otherwise on '' → (output_text || undefined)?.…; JSON.parse(content) of a request that may get no text (tools, structured output) → JSON.parse(output_text || 'null')",
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nif (r.choices[0].message.content === null) return 'nothing';\nreturn r.choices[0].message.content ?? 'nothing';",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nif (r.output_text === '') return 'nothing';\nreturn r.output_text || 'nothing';",
    },
  },
  {
    id: 'O-PARSED', summary: 'choices[0].message.parsed → output_parsed',
    example: {
      before: "return client.chat.completions\n  .parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object', properties: { a: { type: 'string' } } } } } })\n  .then((c) => c.choices[0].message.parsed);",
      after: "return client.responses\n  .parse({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], text: { format: { type: 'json_schema', name: 'a', schema: { type: 'object', properties: { a: { type: 'string' } } } } }, store: false })\n  .then((c) => c.output_parsed);",
    },
  },
  {
    id: 'O-USAGE', summary: 'usage.prompt_tokens / completion_tokens / details → input_tokens / output_tokens / details',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nreturn (r.usage?.prompt_tokens ?? 0) + (r.usage?.completion_tokens ?? 0);",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nreturn (r.usage?.input_tokens ?? 0) + (r.usage?.output_tokens ?? 0);",
    },
  },
  {
    id: 'O-FINISH', summary: "finish_reason === '…' → status / incomplete_details checks; other reads reported",
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], max_tokens: 64 });\nif (r.choices[0].finish_reason === 'length') return 'truncated';\nreturn r.choices[0].message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], max_output_tokens: 64, store: false });\nif (r.status === 'incomplete' && r.incomplete_details?.reason === 'max_output_tokens') return 'truncated';\nreturn r.output_text;",
    },
  },
  {
    id: 'O-META', summary: "created → created_at; object === 'chat.completion' → 'response'; 'choices' in r → 'output' in r",
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nif (r.object !== 'chat.completion') throw new Error('unexpected object');\nreturn new Date(r.created * 1000);",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nif (r.object !== 'response') throw new Error('unexpected object');\nreturn new Date(r.created_at * 1000);",
    },
  },
  {
    id: 'O-ROLE', summary: "message.role → the literal 'assistant' (in a template, its text); reported when the request is the read's root",
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nconst m = r.choices[0].message;\nreturn `${m.role}: ${m.content}`;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nconst m = r;\nreturn `assistant: ${m.output_text}`;",
    },
  },
  {
    id: 'O-CHOICES', summary: 'choices[0] collapses into the response; choices.length → output.length; iterating choices is reported',
    example: {
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nif (!r.choices.length) return '';\nconst [choice] = r.choices;\nreturn choice.message.content;",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nif (!r.output.length) return '';\nconst choice = r;\nreturn choice.output_text;",
    },
  },
  {
    id: 'O-BIND', summary: 'const { choices } = await … → a fresh response binding; let r reassigned by sites of the unit is followed',
    example: {
      before: "const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] }).withResponse();\nconsole.log(response.headers.get('x-request-id'));\nreturn data.choices[0].message.content;",
      after: "const { data, response } = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false }).withResponse();\nconsole.log(response.headers.get('x-request-id'));\nreturn data.output_text;",
    },
  },
  {
    id: 'O-TOOLCALLS', summary: "message.tool_calls → output.filter(function_call), tool_calls?.[0] → output.find(function_call); tc.id → call_id, tc.function.name/arguments → name/arguments",
    example: {
      importsAfter: "import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses';",
      before: "const r = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [{ role: 'user', content: q }],\n  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } } } }],\n});\nfor (const tc of r.choices[0].message.tool_calls ?? []) {\n  if (tc.type === 'function') console.log(tc.id, tc.function.name, tc.function.arguments);\n}",
      after: "const r = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [{ role: 'user', content: q }],\n  tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } }, strict: false }],\n  store: false,\n});\nfor (const tc of r.output.filter((i): i is ResponseFunctionToolCall => i.type === 'function_call')) {\n  if (tc.type === 'function_call') console.log(tc.call_id, tc.name, tc.arguments);\n}",
    },
  },
  {
    id: 'O-ESCAPE', summary: 'a result that leaves the function (returned, stored, spread, passed on) is reported',
    example: {
      before: "return client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });",
      after: `${marker('result-escapes', 'The Chat result leaves this code (return: example: exported from a published package (its callers live elsewhere) (O-ESCAPE.ts)); its consumers must change too.')}\nreturn client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });`,
    },
  },
  {
    id: 'H-ZODFORMAT', summary: 'zodResponseFormat → zodTextFormat under text.format (import renamed)',
    example: {
      importsBefore: "import { zodResponseFormat } from 'openai/helpers/zod';\nimport { z } from 'zod';",
      importsAfter: "import { zodTextFormat } from 'openai/helpers/zod';\nimport { z } from 'zod';",
      context: "const Verdict = z.object({ ok: z.boolean() });",
      before: "const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], response_format: zodResponseFormat(Verdict, 'verdict') });\nreturn Verdict.parse(JSON.parse(r.choices[0].message.content ?? '{}'));",
      after: "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], text: { format: zodTextFormat(Verdict, 'verdict') }, store: false });\nreturn Verdict.parse(JSON.parse(r.output_text || '{}'));",
    },
  },
  {
    id: 'H-ZODFUNCTION', summary: 'zodFunction → zodResponsesFunction',
    example: {
      importsBefore: "import { zodFunction } from 'openai/helpers/zod';\nimport { z } from 'zod';",
      importsAfter: "import { zodResponsesFunction } from 'openai/helpers/zod';\nimport { z } from 'zod';\nimport type { ParsedResponseFunctionToolCall } from 'openai/resources/responses/responses';",
      before: "const r = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], tools: [zodFunction({ name: 'lookup', parameters: z.object({ id: z.string() }) })] });\nconst call = r.choices[0].message.tool_calls?.[0];\nreturn call?.type === 'function' ? call.function.parsed_arguments : undefined;",
      after: "const r = await client.responses.parse({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], tools: [zodResponsesFunction({ name: 'lookup', parameters: z.object({ id: z.string() }) })], store: false });\nconst call = r.output.find((i): i is ParsedResponseFunctionToolCall => i.type === 'function_call');\nreturn call?.type === 'function_call' ? call.parsed_arguments : undefined;",
    },
  },
  {
    id: 'H-TYPES', summary: 'Chat types on unit-local declarations → Responses types (named import from openai/resources/responses/responses)',
    example: {
      importsBefore: "import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';",
      importsAfter: "import type { ResponseCreateParamsNonStreaming, Response } from 'openai/resources/responses/responses';",
      before: "const params: ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] };\nconst r: ChatCompletion = await client.chat.completions.create(params);\nreturn r.choices[0].message.content;",
      after: "const params: ResponseCreateParamsNonStreaming = { model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false };\nconst r: Response = await client.responses.create(params);\nreturn r.output_text;",
    },
  },
  {
    id: 'S-TEXT', summary: "stream loops: delta content → the output_text.delta event, with the S-FAILED guard first; a statement process.stdout.write(delta ?? '') or text += delta ?? '' (a local string) → if (ev.type === 'response.output_text.delta') process.stdout.write(ev.delta) / text += ev.delta",
    example: {
      before: "const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true });\nlet out = '';\nfor await (const chunk of stream) {\n  out += chunk.choices[0]?.delta?.content ?? '';\n}\nreturn out;",
      after: "const stream = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], stream: true, store: false });\nlet out = '';\nfor await (const chunk of stream) {\n  if (chunk.type === 'error') throw new Error(chunk.message);\n  if (chunk.type === 'response.failed') throw new Error(chunk.response.error?.message ?? 'Response failed');\n  if (chunk.type === 'response.output_text.delta') out += chunk.delta;\n}\nreturn out;",
    },
  },
  {
    id: 'S-FAILED', summary: "every rewritten stream loop throws on error / response.failed events, as Chat streams threw; a helper stream read through listeners and final results gets a listener that throws on response.failed ('error' listeners and final results see it)",
    example: {
      before: "const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true });\ntry {\n  for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');\n} catch (err) {\n  console.error('stream failed:', (err as Error).message);\n}",
      after: "const stream = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], stream: true, store: false });\ntry {\n  for await (const chunk of stream) {\n    if (chunk.type === 'error') throw new Error(chunk.message);\n    if (chunk.type === 'response.failed') throw new Error(chunk.response.error?.message ?? 'Response failed');\n    if (chunk.type === 'response.output_text.delta') process.stdout.write(chunk.delta);\n  }\n} catch (err) {\n  console.error('stream failed:', (err as Error).message);\n}",
    },
  },
  {
    id: 'S-FINISH', summary: 'finish_reason in a stream loop → terminal-event checks',
    example: {
      before: "const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], max_tokens: 64, stream: true });\nlet truncated = false;\nfor await (const chunk of stream) {\n  if (chunk.choices[0]?.finish_reason === 'length') truncated = true;\n}\nreturn truncated;",
      after: "const stream = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], max_output_tokens: 64, stream: true, store: false });\nlet truncated = false;\nfor await (const chunk of stream) {\n  if (chunk.type === 'error') throw new Error(chunk.message);\n  if (chunk.type === 'response.failed') throw new Error(chunk.response.error?.message ?? 'Response failed');\n  if (chunk.type === 'response.incomplete' && chunk.response.incomplete_details?.reason === 'max_output_tokens') truncated = true;\n}\nreturn truncated;",
    },
  },
  {
    id: 'S-USAGE', summary: 'chunk.usage → the usage of response.completed / response.incomplete',
    example: {
      before: "const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true, stream_options: { include_usage: true } });\nlet prompt = 0;\nfor await (const chunk of stream) {\n  prompt = chunk.usage?.prompt_tokens ?? prompt;\n}\nreturn prompt;",
      after: "const stream = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], stream: true, store: false });\nlet prompt = 0;\nfor await (const chunk of stream) {\n  if (chunk.type === 'error') throw new Error(chunk.message);\n  if (chunk.type === 'response.failed') throw new Error(chunk.response.error?.message ?? 'Response failed');\n  prompt = (chunk.type === 'response.completed' || chunk.type === 'response.incomplete' ? chunk.response.usage : undefined)?.input_tokens ?? prompt;\n}\nreturn prompt;",
    },
  },
  {
    id: 'S-HELPER', summary: 'ChatCompletionStream listeners → ResponseStream events',
    example: {
      before: "const s = client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\ns.on('content', (delta, snapshot) => console.log(delta.length, snapshot.length));\ns.on('content.done', ({ content }) => console.log(content));\nawait s.done();",
      after: "const s = client.responses.stream({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false }).on('response.failed', (event) => { throw new Error(event.response.error?.message ?? 'Response failed'); });\ns.on('response.output_text.delta', ({ delta, snapshot }) => console.log(delta.length, snapshot.length));\ns.on('response.output_text.done', ({ text: content }) => console.log(content));\nawait s.done();",
    },
  },
  {
    id: 'S-FINAL', summary: 'finalChatCompletion / finalContent / totalUsage → finalResponse()',
    example: {
      before: "const s = client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream_options: { include_usage: true } });\nconst text = await s.finalContent();\nconst usage = await s.totalUsage();\nreturn `${text ?? ''} (${usage.prompt_tokens} + ${usage.completion_tokens})`;",
      after: "const s = client.responses.stream({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false }).on('response.failed', (event) => { throw new Error(event.response.error?.message ?? 'Response failed'); });\nconst text = (await s.finalResponse()).output_text;\nconst usage = (await s.finalResponse()).usage!;\nreturn `${text ?? ''} (${usage.input_tokens} + ${usage.output_tokens})`;",
    },
  },
  {
    id: 'S-TOOLARGS', summary: 'a canonical local tool-call delta accumulation → the finished function_call items',
    example: {
      before: "const stream = await client.chat.completions.create({\n  model: 'gpt-4o-mini',\n  messages: [{ role: 'user', content: q }],\n  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } } } }],\n  stream: true,\n});\nconst calls: { id: string; name: string; args: string }[] = [];\nfor await (const chunk of stream) {\n  for (const tc of chunk.choices[0]?.delta?.tool_calls ?? []) {\n    if (tc.id) calls[tc.index] = { id: tc.id, name: tc.function?.name ?? '', args: '' };\n    const call = calls[tc.index];\n    if (call) call.args += tc.function?.arguments ?? '';\n  }\n}\nreturn calls.map((c) => `${c.name}(${c.args})`);",
      after: "const stream = await client.responses.create({\n  model: 'gpt-4o-mini',\n  input: [{ role: 'user', content: q }],\n  tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } }, strict: false }],\n  stream: true,\n  store: false,\n});\nconst calls: { id: string; name: string; args: string }[] = [];\nfor await (const chunk of stream) {\n  if (chunk.type === 'error') throw new Error(chunk.message);\n  if (chunk.type === 'response.failed') throw new Error(chunk.response.error?.message ?? 'Response failed');\n  if (chunk.type === 'response.output_item.done' && chunk.item.type === 'function_call') calls.push({ id: chunk.item.call_id, name: chunk.item.name, args: chunk.item.arguments });\n}\nreturn calls.map((c) => `${c.name}(${c.args})`);",
    },
  },
  {
    id: 'S-HANDOFF', summary: 'a stream returned, passed on, tee()d or turned into a ReadableStream is reported',
    example: {
      before: "const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true });\nreturn new Response(stream.toReadableStream());",
      after: "// TODO(migrate-responses): stream-handoff: Stream is consumed elsewhere (toReadableStream) and expects Chat chunks.\nconst stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true });\nreturn new Response(stream.toReadableStream());",
    },
  },
  {
    id: 'P-DEFAULT', summary: 'new OpenAI() without baseURL is OpenAI (the OPENAI_BASE_URL assumption is stated once per run)',
    example: {
      context: "const configured = new OpenAI({ apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1' });",
      before: "const r = await configured.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nreturn r.choices[0].message.content;",
      after: "const r = await configured.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'P-AZURE-V1', summary: 'an Azure /openai/v1 base URL whose Azure host is in view (or vouched for with --allow-base-url env:NAME) migrates, with a note; AzureOpenAI and deployments URLs are reported',
    example: {
      context: "const azure = new OpenAI({ baseURL: 'https://contoso.openai.azure.com/openai/v1/', apiKey: process.env.AZURE_OPENAI_API_KEY });",
      before: "const r = await azure.chat.completions.create({ model: 'my-gpt-4o-deployment', messages: [{ role: 'user', content: q }] });\nreturn r.choices[0].message.content;",
      after: "const r = await azure.responses.create({ model: 'my-gpt-4o-deployment', input: [{ role: 'user', content: q }], store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'P-ALLOW', summary: '--allow-base-url origins and env:NAME entries migrate, with a note',
    example: {
      context: "const gateway = new OpenAI({ baseURL: 'https://llm-gateway.example.com/v1' });",
      allowBaseUrls: ["https://llm-gateway.example.com"],
      before: "const r = await gateway.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\nreturn r.choices[0].message.content;",
      after: "const r = await gateway.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\nreturn r.output_text;",
    },
  },
  {
    id: 'W-INJECTED', summary: 'an injected client (a constructor or function parameter, an options key) is proven when every call or construction of its holder in view passes a proven client',
    example: {
      before: "const ask = async (ai: OpenAI) => {\n  const r = await ai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\n  return r.choices[0].message.content;\n};\nreturn ask(client);",
      after: "const ask = async (ai: OpenAI) => {\n  const r = await ai.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\n  return r.output_text;\n};\nreturn ask(client);",
    },
  },
  {
    id: 'G-UNIT', summary: 'sites sharing params, messages, tools or results migrate together or not at all',
    example: {
      before: "const messages = [{ role: 'user' as const, content: q }];\nconst first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });\nconsole.log(first.choices[0].message.content);\nreturn client.chat.completions.create({ model: 'gpt-4o-mini', messages });",
      after: "const messages = [{ role: 'user' as const, content: q }];\n// TODO(migrate-responses): unit-blocked: Blocked by another site in the same unit.\nconst first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });\nconsole.log(first.choices[0].message.content);\n// TODO(migrate-responses): result-escapes: The Chat result leaves this code (return: example: exported from a published package (its callers live elsewhere) (G-UNIT.ts)); its consumers must change too.\nreturn client.chat.completions.create({ model: 'gpt-4o-mini', messages });",
    },
  },
];
