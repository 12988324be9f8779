// The fake OpenAI server, exercised through the REAL `openai` SDK (6.x): both APIs must give the same
// observable answers for equivalent requests (docs/migration-spec.md §2–§5), and reject what the real API rejects.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { LengthFinishReasonError } from 'openai/core/error';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { toResponseInputItems } from 'openai/lib/responses/ResponseInputItems';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseFunctionToolCall, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { z } from 'zod';
import { canonicalize, startFakeOpenAI, type FakeServer, type RecordedRequest } from './fake-openai/index.js';

const MODEL = 'gpt-4o-mini';
let server: FakeServer;
let keyNo = 0;

/** A fresh API key (= an isolated "program") and a default-configured client for it. */
function program(): { key: string; client: OpenAI } {
  const key = `sk-test-${++keyNo}`;
  return { key, client: new OpenAI({ baseURL: server.baseURL, apiKey: key }) };
}

const canonicals = (key: string): unknown[] => server.requests(key).map((r: RecordedRequest) => r.canonical);

/** Sends an arbitrary (possibly ill-typed) body, the way a wrong migration would. */
const rawResponses = (client: OpenAI, body: Record<string, unknown>) => client.responses.create(body as never);
const rawChat = (client: OpenAI, body: Record<string, unknown>) => client.chat.completions.create(body as never);

async function expect400(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof OpenAI.APIError, `expected APIError, got ${String(e)}`);
    assert.equal(e.status, 400);
    assert.equal(e.type, 'invalid_request_error');
    assert.match(e.message, message);
    return true;
  });
}

before(async () => {
  server = await startFakeOpenAI();
});
after(async () => {
  await server.close();
});

// ------------------------------------------------------------------------------------------------ text

describe('non-streaming text', () => {
  it('answers an equivalent Chat / Responses pair identically, with equal canonical requests', async () => {
    const a = program();
    const b = program();
    const chat = await a.client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Tell me about the weather today' },
      ],
      max_tokens: 200,
      temperature: 0.2,
    });
    const resp = await b.client.responses.create({
      model: MODEL,
      instructions: 'You are terse.',
      input: [{ role: 'user', content: 'Tell me about the weather today' }],
      max_output_tokens: 200,
      temperature: 0.2,
      store: false,
    });
    assert.equal(chat.choices[0].message.content, 'Echo: Tell me about the weather today (deterministic fake reply)');
    assert.equal(resp.output_text, chat.choices[0].message.content);
    assert.equal(chat.choices[0].finish_reason, 'stop');
    assert.equal(resp.status, 'completed');
    assert.deepEqual(
      [resp.usage?.input_tokens, resp.usage?.output_tokens, resp.usage?.total_tokens],
      [chat.usage?.prompt_tokens, chat.usage?.completion_tokens, chat.usage?.total_tokens],
    );
    assert.equal(chat.usage?.prompt_tokens, 9); // "You are terse." + "Tell me about the weather today"
    assert.equal(chat.id, 'chatcmpl-1');
    assert.equal(resp.id, 'resp_1');
    assert.equal(chat.created, 1700000000);
    assert.equal(resp.created_at, 1700000000);
    assert.ok(chat.system_fingerprint);
    assert.deepEqual(canonicals(a.key), canonicals(b.key));
    assert.equal(server.requests(a.key)[0].api, 'chat');
    assert.equal(server.requests(b.key)[0].api, 'responses');
  });

  it('serves unmodified programs that configure new OpenAI() from OPENAI_BASE_URL / OPENAI_API_KEY', async () => {
    const run = async (key: string, body: string): Promise<string> => {
      const src = `import OpenAI from 'openai';\nconst client = new OpenAI();\n${body}`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', src], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { ...process.env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: key },
      });
      return stdout;
    };
    const original = `const r = await client.chat.completions.create({ model: '${MODEL}', messages: [{ role: 'user', content: 'from a child process' }] });\nconsole.log(r.choices[0].message.content);`;
    const migrated = `const r = await client.responses.create({ model: '${MODEL}', input: [{ role: 'user', content: 'from a child process' }], store: false });\nconsole.log(r.output_text);`;
    const [outA, outB] = await Promise.all([run('sk-child-a', original), run('sk-child-b', migrated)]);
    assert.equal(outA, 'Echo: from a child process (deterministic fake reply)\n');
    assert.equal(outB, outA);
    assert.deepEqual(canonicals('sk-child-a'), canonicals('sk-child-b'));
  });

  it('never sends output_text in the Responses JSON (T-OUTTEXT-ABSENT)', async () => {
    const { client } = program();
    const raw = await client.responses.create({ model: MODEL, input: 'hello json-less world', store: false }).asResponse();
    const json = (await raw.json()) as Record<string, unknown>;
    assert.equal('output_text' in json, false);
    assert.equal(json.object, 'response');
  });

  it('string input ≡ one user message; ids count per key and per API; reset() forgets', async () => {
    const a = program();
    const b = program();
    await a.client.responses.create({ model: MODEL, input: 'same words here', store: false });
    await b.client.responses.create({ model: MODEL, input: [{ role: 'user', content: [{ type: 'input_text', text: 'same words here' }] }], store: false });
    const second = await a.client.responses.create({ model: MODEL, input: 'again', store: false });
    assert.equal(second.id, 'resp_2');
    assert.deepEqual(canonicals(a.key)[0], canonicals(b.key)[0]);
    assert.equal(server.requests(a.key).length, 2);
    const c = program();
    server.reset();
    assert.equal(server.requests().length, 0);
    const again = await c.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
    assert.equal(again.id, 'chatcmpl-1');
  });

  it('answers unknown routes with a 404 in the API error shape', async () => {
    const { client, key } = program();
    await assert.rejects(client.post('/embeddingz', { body: {} }), (e: unknown) => {
      assert.ok(e instanceof OpenAI.NotFoundError);
      assert.match(e.message, /Invalid URL \(POST \/v1\/embeddingz\)/);
      return true;
    });
    assert.equal(server.requests(key)[0].status, 404);
  });
});

// ------------------------------------------------------------------------------------------------ canonical form

describe('canonical form', () => {
  const msgs = [{ role: 'user', content: 'hi' }];

  it('differs when the EFFECTIVE store differs (chat missing → false, responses missing → true)', () => {
    const chat = canonicalize('chat', { model: MODEL, messages: msgs });
    const respNoStore = canonicalize('responses', { model: MODEL, input: msgs });
    const respStoreFalse = canonicalize('responses', { model: MODEL, input: msgs, store: false });
    assert.equal(chat.store, false);
    assert.equal(respNoStore.store, true);
    assert.notDeepEqual(chat, respNoStore);
    assert.deepEqual(chat, respStoreFalse);
  });

  it('a Chat tool reply answers a custom tool call as custom_tool_call_output when that call is earlier in the history (M-TOOL)', () => {
    const calls = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'sql', input: 'SELECT 1' } }, { id: 'c2', type: 'function', function: { name: 'f', arguments: '{}' } }] };
    const chat = canonicalize('chat', { model: MODEL, messages: [...msgs, calls, { role: 'tool', tool_call_id: 'c1', content: '1' }, { role: 'tool', tool_call_id: 'c2', content: '2' }] });
    assert.deepEqual(chat.input.slice(3).map((i) => i.type), ['custom_tool_call_output', 'function_call_output']);
    const responses = canonicalize('responses', {
      model: MODEL, store: false,
      input: [...msgs, { type: 'custom_tool_call', call_id: 'c1', name: 'sql', input: 'SELECT 1' }, { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{}' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: '1' }, { type: 'function_call_output', call_id: 'c2', output: '2' }],
    });
    assert.deepEqual(chat, responses);
  });

  it('differs when the EFFECTIVE strict differs (chat missing → false, responses missing → true)', () => {
    const chat = canonicalize('chat', { model: MODEL, messages: msgs, tools: [{ type: 'function', function: { name: 'f' } }] });
    const respNoStrict = canonicalize('responses', { model: MODEL, input: msgs, store: false, tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} } }] });
    const respStrictFalse = canonicalize('responses', {
      model: MODEL,
      input: msgs,
      store: false,
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false }],
    });
    assert.notDeepEqual(chat, respNoStrict);
    assert.deepEqual(chat, respStrictFalse); // also: missing chat parameters ≡ the empty object schema
    // json_schema formats default to non-strict on both APIs.
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    assert.deepEqual(
      canonicalize('chat', { model: MODEL, messages: msgs, response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } }).format,
      canonicalize('responses', { model: MODEL, input: msgs, text: { format: { type: 'json_schema', name: 'x', schema } } }).format,
    );
  });

  it('normalises the §3 message mapping and the §2 renames', () => {
    const chat = canonicalize('chat', {
      model: MODEL,
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'rules' }] },
        { role: 'user', name: 'ann', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:x' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '42' },
        { role: 'assistant', content: [{ type: 'text', text: 'the ' }, { type: 'text', text: 'answer' }] },
      ],
      max_completion_tokens: 50,
      reasoning_effort: 'low',
      verbosity: 'low',
      response_format: { type: 'json_object' },
      logprobs: true,
      top_logprobs: 2,
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: { type: 'function', function: { name: 'f' } },
      n: 1,
      stop: [],
      metadata: { a: '1' },
    });
    const resp = canonicalize('responses', {
      model: MODEL,
      input: [
        { role: 'developer', content: 'rules' },
        { role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'data:x', detail: 'auto' }] },
        { type: 'function_call', id: 'fc_9', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' },
        { type: 'function_call_output', call_id: 'call_1', output: '42' },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'the answer', annotations: [] }] },
      ],
      max_output_tokens: 50,
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      include: ['message.output_text.logprobs', 'reasoning.encrypted_content'],
      top_logprobs: 2,
      stream: true,
      tool_choice: { type: 'function', name: 'f' },
      store: false,
      metadata: { a: '1' },
    });
    assert.deepEqual(chat, resp);
  });

  it('carries non-inert chat-only and unknown keys verbatim, so a difference shows', () => {
    const base = { model: MODEL, messages: msgs };
    assert.deepEqual(canonicalize('chat', { ...base, n: 2, seed: 7, thinking: { budget: 1 } }).extra, { n: 2, seed: 7, thinking: { budget: 1 } });
    assert.deepEqual(canonicalize('chat', { ...base, n: 1, stop: null, logit_bias: {}, modalities: ['text'] }).extra, {});
    assert.deepEqual(canonicalize('responses', { model: MODEL, input: msgs, truncation: 'auto' }).extra, { truncation: 'auto' });
  });
});

// ------------------------------------------------------------------------------------------------ streaming

describe('streaming text', () => {
  const question = 'Describe the streaming protocol in detail';
  const expected = `Echo: ${question} (deterministic fake reply)`;

  it('raw stream: true on both APIs assembles the same text', async () => {
    const a = program();
    const b = program();
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const c of await a.client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: question }],
      stream: true,
      stream_options: { include_usage: true },
    })) {
      chunks.push(c);
    }
    const chatText = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    assert.equal(chatText, expected);
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.ok(chunks.filter((c) => c.choices[0]?.delta?.content).length >= 5);
    assert.equal(chunks.at(-2)?.choices[0].finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1)?.choices, []); // the include_usage chunk
    assert.equal(chunks.at(-1)?.usage?.completion_tokens, 10);
    assert.ok(chunks.every((c) => c.id === 'chatcmpl-1' && c.object === 'chat.completion.chunk'));

    const events: ResponseStreamEvent[] = [];
    for await (const ev of await b.client.responses.create({ model: MODEL, input: [{ role: 'user', content: question }], stream: true, store: false })) {
      events.push(ev);
    }
    let text = '';
    for (const ev of events) if (ev.type === 'response.output_text.delta') text += ev.delta;
    assert.equal(text, chatText);
    const types = events.map((e) => e.type);
    assert.deepEqual(types.slice(0, 4), ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    assert.deepEqual(types.slice(-4), ['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    assert.deepEqual(
      events.map((e) => e.sequence_number),
      events.map((_, i) => i),
    );
    const done = events.at(-1);
    assert.ok(done?.type === 'response.completed');
    assert.equal(done.response.usage?.output_tokens, 10);
    assert.equal('output_text' in done.response, false); // T-OUTTEXT-ABSENT on raw events
    // Stream flag and include_usage aside, the requests are equivalent.
    assert.deepEqual(canonicals(a.key), canonicals(b.key));
  });

  it('the SSE framing: chat has data-only frames ending in [DONE]; responses frames carry event: lines', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.baseURL}${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-raw', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ type: r.headers.get('content-type'), text: await r.text() }));
    const chat = await post('/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    assert.match(chat.type ?? '', /text\/event-stream/);
    assert.ok(chat.text.endsWith('data: [DONE]\n\n'));
    assert.ok(!chat.text.includes('event:'));
    const resp = await post('/responses', { model: MODEL, input: 'hi', stream: true });
    const frames = resp.text.trim().split('\n\n');
    for (const f of frames) {
      const [ev, data] = f.split('\n');
      assert.match(ev, /^event: response\./);
      assert.equal(ev.slice('event: '.length), JSON.parse(data.slice('data: '.length)).type);
    }
    assert.ok(!resp.text.includes('[DONE]'));
  });

  it('chat.completions.stream() and responses.stream() helpers accept the streams', async () => {
    const a = program();
    const b = program();
    const chatStream = a.client.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: question }] });
    let chatDeltas = 0;
    chatStream.on('content', () => chatDeltas++);
    const finalChat = await chatStream.finalChatCompletion();

    const respStream = b.client.responses.stream({ model: MODEL, input: [{ role: 'user', content: question }], store: false });
    let respDeltas = 0;
    let snapshot = '';
    respStream.on('response.output_text.delta', (e) => {
      respDeltas++;
      snapshot = e.snapshot;
    });
    const finalResp = await respStream.finalResponse();

    assert.equal(finalChat.choices[0].message.content, expected);
    assert.equal(finalResp.output_text, expected);
    assert.equal(snapshot, expected);
    assert.ok(chatDeltas > 3);
    assert.equal(respDeltas, chatDeltas);
    assert.equal(finalResp.usage?.output_tokens, 10);
    assert.equal(finalChat.usage, undefined); // no include_usage: no usage chunk
    assert.deepEqual(canonicals(a.key), canonicals(b.key));
  });
});

// ------------------------------------------------------------------------------------------------ tools

const weatherParams = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer' },
  },
  required: ['city'],
};
const chatTools: ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: weatherParams } },
  { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] }, strict: true } },
];
const respTools: FunctionTool[] = [
  { type: 'function', name: 'get_weather', description: 'Weather', parameters: weatherParams, strict: false },
  { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] }, strict: true },
];

describe('tool calls', () => {
  it('calls the named tools with identical call ids and arguments, then answers the tool output identically', async () => {
    const a = program();
    const b = program();
    const question = 'Use get_weather and get_time for Paris please';
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
    const input: ResponseInputItem[] = [{ role: 'user', content: question }];

    const c1 = await a.client.chat.completions.create({ model: MODEL, messages, tools: chatTools });
    const r1 = await b.client.responses.create({ model: MODEL, input, tools: respTools, store: false });
    const chatCalls = c1.choices[0].message.tool_calls ?? [];
    const respCalls = r1.output.filter((i): i is ResponseFunctionToolCall => i.type === 'function_call');
    assert.equal(c1.choices[0].finish_reason, 'tool_calls');
    assert.equal(c1.choices[0].message.content, null);
    assert.equal(r1.output_text, '');
    assert.equal(chatCalls.length, 2);
    assert.deepEqual(
      respCalls.map((c) => [c.call_id, c.name, c.arguments]),
      chatCalls.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : [])),
    );
    assert.match(respCalls[0].call_id, /^call_/);
    assert.match(respCalls[0].id ?? '', /^fc_/);
    // Non-strict: required props only; strict: every prop.
    assert.deepEqual(JSON.parse(respCalls[0].arguments), { city: 'city-1' });
    assert.deepEqual(JSON.parse(respCalls[1].arguments), { zone: 'zone-1' });

    messages.push(c1.choices[0].message);
    for (const tc of chatCalls) messages.push({ role: 'tool', tool_call_id: tc.id, content: `result of ${tc.id}` });
    input.push(...toResponseInputItems(r1.output));
    for (const tc of respCalls) input.push({ type: 'function_call_output', call_id: tc.call_id, output: `result of ${tc.call_id}` });

    const c2 = await a.client.chat.completions.create({ model: MODEL, messages, tools: chatTools });
    const r2 = await b.client.responses.create({ model: MODEL, input, tools: respTools, store: false });
    assert.equal(c2.choices[0].message.content, `Tool results: result of ${chatCalls[0].id}; result of ${chatCalls[1].id}`);
    assert.equal(r2.output_text, c2.choices[0].message.content);
    assert.deepEqual(canonicals(a.key), canonicals(b.key));
  });

  it('honours forced, required and none tool_choice, and parallel_tool_calls: false', async () => {
    const { client } = program();
    const forced = await client.responses.create({
      model: MODEL,
      input: 'no tool named here',
      tools: respTools,
      tool_choice: { type: 'function', name: 'get_time' },
      store: false,
    });
    assert.deepEqual(forced.output.map((o) => (o.type === 'function_call' ? o.name : o.type)), ['get_time']);
    const required = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'anything' }], tools: chatTools, tool_choice: 'required' });
    assert.equal(required.choices[0].message.tool_calls?.[0].type === 'function' && required.choices[0].message.tool_calls[0].function.name, 'get_weather');
    const none = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'get_weather' }], tools: chatTools, tool_choice: 'none' });
    assert.equal(none.choices[0].finish_reason, 'stop');
    const single = await client.responses.create({ model: MODEL, input: 'get_weather get_time', tools: respTools, parallel_tool_calls: false, store: false });
    assert.equal(single.output.length, 1);
    const noMatch = await client.responses.create({ model: MODEL, input: 'just chatting', tools: respTools, store: false });
    assert.equal(noMatch.output_text, 'Echo: just chatting (deterministic fake reply)');
  });

  it('streams tool calls that both helpers assemble to the same calls', async () => {
    const a = program();
    const b = program();
    const chatStream = a.client.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'call get_weather now' }], tools: chatTools });
    const argDeltas: string[] = [];
    chatStream.on('tool_calls.function.arguments.delta', (e) => argDeltas.push(e.arguments_delta));
    const finalChat = await chatStream.finalChatCompletion();

    const respStream = b.client.responses.stream({ model: MODEL, input: [{ role: 'user', content: 'call get_weather now' }], tools: respTools, store: false });
    const events: ResponseStreamEvent[] = [];
    for await (const ev of respStream) events.push(ev);
    const finalResp = await respStream.finalResponse();

    const chatCall = finalChat.choices[0].message.tool_calls?.[0];
    const respCall = finalResp.output[0];
    assert.ok(chatCall?.type === 'function' && respCall.type === 'function_call');
    assert.deepEqual([respCall.call_id, respCall.name, respCall.arguments], [chatCall.id, chatCall.function.name, chatCall.function.arguments]);
    assert.ok(argDeltas.length > 1);
    assert.equal(argDeltas.join(''), chatCall.function.arguments);
    assert.deepEqual(
      [...new Set(events.map((e) => e.type))],
      [
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
      ],
    );
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    assert.ok(deltas.every((e) => e.item_id === respCall.id));
    assert.equal(finalChat.choices[0].finish_reason, 'tool_calls');
  });
});

// ------------------------------------------------------------------------------------------------ structured output

describe('structured output', () => {
  const Answer = z.object({ city: z.string(), temperature: z.number(), sunny: z.boolean(), tags: z.array(z.string()), unit: z.enum(['c', 'f']) });

  it('chat.completions.parse + zodResponseFormat ≡ responses.parse + zodTextFormat', async () => {
    const a = program();
    const b = program();
    const c = await a.client.chat.completions.parse({
      model: MODEL,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      response_format: zodResponseFormat(Answer, 'answer'),
    });
    const r = await b.client.responses.parse({
      model: MODEL,
      input: [{ role: 'user', content: 'Weather in Oslo?' }],
      text: { format: zodTextFormat(Answer, 'answer') },
      store: false,
    });
    const expected = { city: 'city-1', temperature: 1, sunny: true, tags: ['tags-1'], unit: 'c' };
    assert.deepEqual(c.choices[0].message.parsed, expected);
    assert.deepEqual(r.output_parsed, expected);
    assert.deepEqual(canonicals(a.key), canonicals(b.key));
  });

  it('json_object answers {"answer": …} when the input mentions json', async () => {
    const { client } = program();
    const r = await client.responses.create({ model: MODEL, input: 'reply in json', text: { format: { type: 'json_object' } }, store: false });
    assert.deepEqual(JSON.parse(r.output_text), { answer: 'Echo: reply in json (deterministic fake reply)' });
  });
});

// ------------------------------------------------------------------------------------------------ finish conditions

describe('finish conditions', () => {
  const long = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');

  it('cuts the answer at the token limit on both APIs (length / incomplete)', async () => {
    const a = program();
    const b = program();
    const c = await a.client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: long }], max_completion_tokens: 16 });
    const r = await b.client.responses.create({ model: MODEL, input: [{ role: 'user', content: long }], max_output_tokens: 16, store: false });
    assert.equal(c.choices[0].finish_reason, 'length');
    assert.equal(r.status, 'incomplete');
    assert.equal(r.incomplete_details?.reason, 'max_output_tokens');
    assert.equal(r.output_text, c.choices[0].message.content);
    assert.equal(r.output_text.split(' ').length, 16);
    assert.equal(c.usage?.completion_tokens, 16);
    assert.deepEqual(canonicals(a.key), canonicals(b.key));

    const chatParse = a.client.chat.completions.parse({ model: MODEL, messages: [{ role: 'user', content: long }], max_tokens: 16 });
    await assert.rejects(chatParse, LengthFinishReasonError);
    const events: ResponseStreamEvent[] = [];
    for await (const ev of await b.client.responses.create({ model: MODEL, input: long, max_output_tokens: 16, stream: true, store: false })) events.push(ev);
    assert.equal(events.at(-1)?.type, 'response.incomplete');
  });

  it('[[content_filter]] and [[refuse]] map to content_filter / refusal on both APIs', async () => {
    const { client } = program();
    const cf = 'please [[content_filter]] this';
    const c = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: cf }] });
    const r = await client.responses.create({ model: MODEL, input: cf, store: false });
    assert.equal(c.choices[0].finish_reason, 'content_filter');
    assert.equal(r.status, 'incomplete');
    assert.equal(r.incomplete_details?.reason, 'content_filter');
    assert.equal(r.output_text, c.choices[0].message.content);

    const rf = 'do something bad [[refuse]]';
    const c2 = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: rf }] });
    const r2 = await client.responses.create({ model: MODEL, input: rf, store: false });
    assert.equal(c2.choices[0].message.content, null);
    const refusal = r2.output.flatMap((i) => (i.type === 'message' ? i.content : [])).find((p) => p.type === 'refusal');
    assert.ok(refusal?.type === 'refusal');
    assert.equal(refusal.refusal, c2.choices[0].message.refusal);
    assert.equal(r2.output_text, '');

    const s = client.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: rf }] });
    const rs = client.responses.stream({ model: MODEL, input: rf, store: false });
    let refusalDelta = '';
    rs.on('response.refusal.delta', (e) => (refusalDelta += e.delta));
    assert.equal((await s.finalChatCompletion()).choices[0].message.refusal, c2.choices[0].message.refusal);
    await rs.finalResponse();
    assert.equal(refusalDelta, c2.choices[0].message.refusal);
  });

  it('[[fail]]: the Chat stream throws, the Responses stream yields response.failed; non-stream is a 500 on both, not retried', async () => {
    const { client, key } = program();
    const input = 'this will [[fail]] now';
    await assert.rejects(
      (async () => {
        for await (const _ of await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: input }], stream: true })) {
          // consume
        }
      })(),
      (e: unknown) => e instanceof OpenAI.APIError && /The model failed/.test(e.message),
    );
    await assert.rejects(client.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: input }] }).finalChatCompletion(), /The model failed/);

    const events: ResponseStreamEvent[] = [];
    for await (const ev of await client.responses.create({ model: MODEL, input, stream: true, store: false })) events.push(ev);
    const last = events.at(-1);
    assert.ok(last?.type === 'response.failed');
    assert.deepEqual(last.response.error, { code: 'server_error', message: 'The model failed' });
    assert.equal(last.response.status, 'failed');
    const helper = await client.responses.stream({ model: MODEL, input, store: false }).finalResponse();
    assert.equal(helper.status, 'failed');

    const before = server.requests(key).length;
    for (const p of [
      client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: input }] }),
      client.responses.create({ model: MODEL, input, store: false }),
    ]) {
      await assert.rejects(p, (e: unknown) => e instanceof OpenAI.InternalServerError && e.status === 500 && /The model failed/.test(e.message));
    }
    assert.equal(server.requests(key).length, before + 2);
  });
});

// ------------------------------------------------------------------------------------------------ rejections

describe('rejections (HTTP 400 through the SDK)', () => {
  const user = [{ role: 'user', content: 'hello' }];
  const base = { model: MODEL, input: user, store: false };

  it('rejects every Chat-only parameter on /v1/responses as an unknown parameter', async () => {
    const { client, key } = program();
    const values: Record<string, unknown> = {
      messages: user,
      max_tokens: 100,
      max_completion_tokens: 100,
      n: 1,
      stop: ['x'],
      seed: 1,
      presence_penalty: 0.5,
      frequency_penalty: 0.5,
      logit_bias: { '1': 1 },
      response_format: { type: 'text' },
      reasoning_effort: 'low',
      verbosity: 'low',
      logprobs: true,
      functions: [{ name: 'f', parameters: {} }],
      function_call: 'auto',
      web_search_options: {},
      modalities: ['text'],
      audio: { voice: 'alloy', format: 'mp3' },
      prediction: { type: 'content', content: 'x' },
    };
    for (const [k, v] of Object.entries(values)) {
      await expect400(rawResponses(client, { ...base, [k]: v }), new RegExp(`Unknown parameter: '${k}'`));
    }
    await expect400(rawResponses(client, { ...base, stream: true, stream_options: { include_usage: true } }), /Unknown parameter: 'stream_options.include_usage'/);
    assert.ok(server.requests(key).every((r) => r.status === 400 && r.error));
  });

  it('rejects wrong input items on /v1/responses', async () => {
    const { client } = program();
    const call = { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' };
    const cases: Array<[unknown[], RegExp]> = [
      [[{ role: 'user', content: 'hi', name: 'ann' }], /Unknown parameter: 'input\[0\]\.name'/],
      [[{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'input_text', text: 'x' }] }], /Invalid value: 'input_text'\. Supported values are: 'output_text' and 'refusal'/],
      [[{ role: 'user', content: [{ type: 'text', text: 'x' }] }], /Invalid value: 'text'/],
      [[call, { role: 'tool', tool_call_id: 'call_1', content: '42' }], /Invalid value: 'tool'/],
      [[{ ...call, id: 'call_1' }, { type: 'function_call_output', call_id: 'call_1', output: '1' }], /Expected an ID that begins with 'fc'/],
      [[call, { type: 'function_call_output', output: '1' }], /Missing required parameter: 'input\[1\]\.call_id'/],
      [[call, { type: 'function_call_output', call_id: 'call_2', output: '1' }], /No tool call found for function call output with call_id call_2/],
      [[call], /No tool output found for function call call_1/],
    ];
    for (const [input, re] of cases) await expect400(rawResponses(client, { ...base, input }), re);
  });

  it('rejects chat-shaped or under-specified tools and formats on /v1/responses', async () => {
    const { client } = program();
    const params = { type: 'object', properties: {} };
    await expect400(rawResponses(client, { ...base, tools: [{ type: 'function', function: { name: 'f', parameters: params } }] }), /Missing required parameter: 'tools\[0\]\.name'/);
    await expect400(rawResponses(client, { ...base, tools: [{ type: 'function', name: 'f', strict: false }] }), /'tools\[0\]\.parameters'.*policy/);
    await expect400(rawResponses(client, { ...base, tools: [{ type: 'function', name: 'f', parameters: params }] }), /'tools\[0\]\.strict'.*policy/);
    await expect400(
      rawResponses(client, { ...base, text: { format: { type: 'json_schema', json_schema: { name: 'x', schema: params } } } }),
      /Unknown parameter: 'text\.format\.json_schema'/,
    );
    await expect400(rawResponses(client, { ...base, text: { format: { type: 'json_schema', name: 'x' } } }), /Missing required parameter: 'text\.format\.schema'/);
    await expect400(rawResponses(client, { ...base, max_output_tokens: 15 }), /Expected a value >= 16, but got 15/);
    await expect400(
      rawResponses(client, { ...base, instructions: 'answer in json', text: { format: { type: 'json_object' } } }),
      /must contain the word 'json'/,
    );
    await expect400(rawResponses(client, { input: 'hi' }), /Missing required parameter: 'model'/);
  });

  it('rejects what Chat Completions rejects on /v1/chat/completions', async () => {
    const { client } = program();
    const b = { model: MODEL, messages: user };
    await expect400(rawChat(client, { ...b, response_format: { type: 'json_object' } }), /must contain the word 'json'/);
    await expect400(rawChat(client, { ...b, messages: [...user, { role: 'tool', tool_call_id: 'call_1', content: 'x' }] }), /must be a response to a preceeding message with 'tool_calls'/);
    await expect400(rawChat(client, { ...b, messages: [{ role: 'user', content: 42 }] }), /Invalid type for 'messages\[0\]\.content': expected one of a string or array of objects, but got an integer instead/);
    await expect400(rawChat(client, { ...b, messages: [{ role: 'user', content: { text: 'x' } }] }), /but got an object instead/);
    await expect400(
      rawChat(client, {
        ...b,
        messages: [...user, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'call_9', content: 'x' }],
      }),
      /'tool_call_id' of 'call_9' not found/,
    );
    for (const k of ['input', 'instructions', 'max_output_tokens', 'text']) {
      await expect400(rawChat(client, { ...b, [k]: k === 'max_output_tokens' ? 100 : k === 'text' ? { verbosity: 'low' } : 'x' }), new RegExp(`Unrecognized request argument supplied: ${k}`));
    }
    await expect400(rawChat(client, { messages: user }), /you must provide a model parameter/);
  });
});
