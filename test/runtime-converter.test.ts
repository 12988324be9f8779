/**
 * The run-time message converter of M-CONTENT-UNTYPED (lib/runtime/converter.ts), on its own:
 * every Chat message shape (table-driven) through each rendering (TypeScript, JavaScript ESM,
 * CommonJS), the errors it throws, its items accepted by the fake server's Responses endpoint
 * where the history as it is gets the real API's 400, the TypeScript rendering type-checked on
 * openai 6 and 7, and the JavaScript renderings run by plain Node. Then where a run puts the
 * module (lib/runtime/placement.ts) and how it creates it (lib/apply.ts).
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { parse } from '@babel/parser';
import { parseAllowList } from '../lib/allow.js';
import { applyPlans } from '../lib/apply.js';
import { defaultOptions } from '../lib/options.js';
import { run } from '../lib/run.js';
import { scan } from '../lib/scan/index.js';
import { CONVERTER_HEADER, eraseTypes, isOwnConverter, renderConverter, type ConverterFlavour } from '../lib/runtime/converter.js';
import { startFakeOpenAI, type FakeServer } from './fake-openai/index.js';
import { REPO } from './helpers/fixtures.js';
import { typecheckTexts } from './helpers/typecheck.js';

type Convert = (messages: readonly unknown[]) => unknown[];

const TMP = path.join(REPO, 'test', 'tmp', `runtime-converter-${process.pid}`);

/** Each rendering written where Node reads it as that module system, and loaded. */
const RENDERINGS: { name: string; flavour: ConverterFlavour; dir: string; file: string; packageType?: string }[] = [
  { name: 'TypeScript', flavour: 'ts', dir: 'ts', file: 'to-responses-input.ts', packageType: 'module' },
  { name: 'JavaScript ESM (.mjs)', flavour: 'esm', dir: 'esm', file: 'to-responses-input.mjs' },
  { name: 'JavaScript ESM (.js, type module)', flavour: 'esm', dir: 'esm-js', file: 'to-responses-input.js', packageType: 'module' },
  { name: 'CommonJS (.cjs)', flavour: 'cjs', dir: 'cjs', file: 'to-responses-input.cjs', packageType: 'module' },
  { name: 'CommonJS (.js)', flavour: 'cjs', dir: 'cjs-js', file: 'to-responses-input.js', packageType: 'commonjs' },
];
const converters = new Map<string, Convert>();

before(async () => {
  rmSync(TMP, { recursive: true, force: true });
  for (const r of RENDERINGS) {
    const dir = path.join(TMP, r.dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(r.packageType ? { type: r.packageType } : {}));
    const file = path.join(dir, r.file);
    writeFileSync(file, renderConverter(r.flavour));
    const mod = r.flavour === 'cjs' ? createRequire(import.meta.url)(file) : await import(pathToFileURL(file).href);
    converters.set(r.name, (mod as { toResponsesInput: Convert }).toResponsesInput);
  }
});
after(() => rmSync(TMP, { recursive: true, force: true }));

const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

/** Chat message shape → the Responses input items (docs/migration-spec.md §3, as the transforms map literals). */
const SHAPES: { shape: string; messages: unknown[]; items: unknown[] }[] = [
  { shape: 'M-SYSTEM: system string, name dropped (M-NAME)', messages: [{ role: 'system', content: 'Be brief.', name: 'policy' }], items: [{ role: 'system', content: 'Be brief.' }] },
  { shape: 'developer with text parts (M-PART-TEXT)', messages: [{ role: 'developer', content: [{ type: 'text', text: 'One line.' }] }], items: [{ role: 'developer', content: [{ type: 'input_text', text: 'One line.' }] }] },
  { shape: 'M-USER: user string, name dropped', messages: [{ role: 'user', content: 'Hi', name: 'ada' }], items: [{ role: 'user', content: 'Hi' }] },
  {
    shape: 'user parts: text, image without and with detail (M-PART-IMAGE, T-DETAIL), file by id and by data (M-PART-FILE)',
    messages: [{
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image_url', image_url: { url: 'https://x.example/a.png' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'high' } },
        { type: 'file', file: { file_id: 'file-1' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
      ],
    }],
    items: [{
      role: 'user',
      content: [
        { type: 'input_text', text: 'Look' },
        { type: 'input_image', image_url: 'https://x.example/a.png', detail: 'auto' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'high' },
        { type: 'input_file', file_id: 'file-1' },
        { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
      ],
    }],
  },
  {
    shape: 'a part\'s prompt_cache_breakpoint is kept (same name and shape in both APIs)',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'long prefix', prompt_cache_breakpoint: { mode: 'explicit' } }] }],
    items: [{ role: 'user', content: [{ type: 'input_text', text: 'long prefix', prompt_cache_breakpoint: { mode: 'explicit' } }] }],
  },
  { shape: 'M-ASSIST-TEXT: assistant string, name dropped', messages: [{ role: 'assistant', content: 'Done.', name: 'bot', refusal: null, audio: null }], items: [{ role: 'assistant', content: 'Done.' }] },
  { shape: 'assistant text parts joined with \'\' (T-ASSIST-PARTS)', messages: [{ role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }], items: [{ role: 'assistant', content: 'ab' }] },
  { shape: 'assistant empty string kept', messages: [{ role: 'assistant', content: '' }], items: [{ role: 'assistant', content: '' }] },
  {
    shape: 'M-ASSIST-TOOLCALLS: null content, two calls → two function_call items, call_id from id, no id (T-CALLID)',
    messages: [{ role: 'assistant', content: null, tool_calls: [call('call_1', 'f', '{}'), call('call_2', 'g', '{"x":1}')] }],
    items: [
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call', call_id: 'call_2', name: 'g', arguments: '{"x":1}' },
    ],
  },
  {
    shape: 'assistant text and a call → the text item first',
    messages: [{ role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }], tool_calls: [call('call_3', 'lookup', '{}')] }],
    items: [{ role: 'assistant', content: 'Let me check.' }, { type: 'function_call', call_id: 'call_3', name: 'lookup', arguments: '{}' }],
  },
  { shape: 'assistant with empty tool_calls and text', messages: [{ role: 'assistant', content: 'ok', tool_calls: [] }], items: [{ role: 'assistant', content: 'ok' }] },
  { shape: 'M-TOOL: tool string → function_call_output', messages: [{ role: 'tool', tool_call_id: 'call_1', content: '42' }], items: [{ type: 'function_call_output', call_id: 'call_1', output: '42' }] },
  {
    shape: 'tool text parts → output input_text parts',
    messages: [{ role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '4' }, { type: 'text', text: '2' }] }],
    items: [{ type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: '4' }, { type: 'input_text', text: '2' }] }],
  },
  {
    shape: 'custom tool call and its reply → custom_tool_call, custom_tool_call_output',
    messages: [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'custom', custom: { name: 'run_sql', input: 'SELECT 1' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: '1' },
    ],
    items: [
      { type: 'custom_tool_call', call_id: 'call_9', name: 'run_sql', input: 'SELECT 1' },
      { type: 'custom_tool_call_output', call_id: 'call_9', output: '1' },
    ],
  },
  {
    shape: 'Responses items already in the history (a partial migration, M-REPLAY) are kept as they are',
    messages: [
      { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_5', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_5', output: 'done' },
      { role: 'user', content: [{ type: 'input_text', text: 'and now?' }, { type: 'input_image', image_url: 'https://x.example/b.png', detail: 'low' }] },
      { role: 'assistant', content: [{ type: 'output_text', text: 'Now ' }, { type: 'text', text: 'this.' }] },
    ],
    items: [
      { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_5', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_5', output: 'done' },
      { role: 'user', content: [{ type: 'input_text', text: 'and now?' }, { type: 'input_image', image_url: 'https://x.example/b.png', detail: 'low' }] },
      { role: 'assistant', content: 'Now this.' },
    ],
  },
  {
    shape: 'a Chat reply to a custom call kept as a Responses item',
    messages: [{ type: 'custom_tool_call', call_id: 'call_8', name: 'run_sql', input: 'SELECT 2' }, { role: 'tool', tool_call_id: 'call_8', content: '2' }],
    items: [{ type: 'custom_tool_call', call_id: 'call_8', name: 'run_sql', input: 'SELECT 2' }, { type: 'custom_tool_call_output', call_id: 'call_8', output: '2' }],
  },
  { shape: 'an empty history', messages: [], items: [] },
  {
    shape: 'Chat messages that carry a type of the program\'s own (Chat ignored it, and the id and date)',
    messages: [{ role: 'user', content: 'hi', type: 'text' }, { type: 'message', role: 'assistant', content: 'hello', id: 'm1', createdAt: 1 }, { type: 'message', role: 'user', content: [{ type: 'text', text: 'more' }] }],
    items: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: [{ type: 'input_text', text: 'more' }] }],
  },
  {
    shape: 'a Chat message whose type key names a Responses item (items have no role)',
    messages: [{ role: 'assistant', content: 'x', type: 'reasoning' }, { role: 'user', content: 'y', type: 'function_call_output' }],
    items: [{ role: 'assistant', content: 'x' }, { role: 'user', content: 'y' }],
  },
];

/** Shapes with no Responses equivalent: thrown, naming the message (never sent). */
const ERRORS: { shape: string; messages: unknown; message: RegExp }[] = [
  { shape: 'not an array', messages: 'hello', message: /^400 toResponsesInput: messages is 'hello', not an array of messages\.$/ },
  { shape: 'null message', messages: [{ role: 'user', content: 'a' }, null], message: /^400 toResponsesInput: messages\[1\] is null, not a message object\.$/ },
  { shape: 'a string message', messages: ['hi'], message: /^400 toResponsesInput: messages\[0\] is 'hi', not a message object\.$/ },
  { shape: 'M-FUNCTION: role function', messages: [{ role: 'function', name: 'f', content: '1' }], message: /^400 toResponsesInput: messages\[0\] has role 'function' \(a legacy function result\).*no call id \(M-FUNCTION\)\.$/ },
  { shape: 'M-FUNCTION: assistant function_call', messages: [{ role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }], message: /messages\[0\] is an assistant message with a legacy function_call/ },
  { shape: 'M-ASSIST-AUDIO', messages: [{ role: 'assistant', content: null, audio: { id: 'audio_1' } }], message: /messages\[0\] is an assistant message with audio, which has no Responses equivalent \(M-ASSIST-AUDIO\)/ },
  { shape: 'M-ASSIST-REFUSAL: refusal field', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, refusal: 'No.' }], message: /messages\[1\] is an assistant message with a refusal/ },
  { shape: 'M-ASSIST-REFUSAL: refusal part', messages: [{ role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'refusal', refusal: 'No.' }] }], message: /messages\[0\]\.content\[1\] is a refusal part/ },
  { shape: 'M-PART-AUDIO', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }], message: /messages\[0\]\.content\[0\] is an input_audio part.*\(M-PART-AUDIO\)/ },
  { shape: 'an unknown role', messages: [{ role: 'bot', content: 'x' }], message: /messages\[0\] has role 'bot', which the Responses API does not accept/ },
  { shape: 'no role', messages: [{ content: 'x' }], message: /messages\[0\] has role missing/ },
  { shape: 'an image in a system message', messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'u' } }] }], message: /messages\[0\]\.content\[0\] has type 'image_url', which is not a content part a system message can carry/ },
  { shape: 'user content null', messages: [{ role: 'user', content: null }], message: /messages\[0\]\.content is null, not a string or an array of content parts/ },
  { shape: 'image_url without url', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: 'u' }] }], message: /without an image_url\.url string/ },
  { shape: 'tool without tool_call_id', messages: [{ role: 'tool', content: '1' }], message: /messages\[0\] is a tool message without a tool_call_id string/ },
  { shape: 'tool with an image part', messages: [{ role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'u' } }] }], message: /messages\[0\]\.content\[0\] is not a text part/ },
  { shape: 'a tool call of another type', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'mystery' }] }], message: /messages\[0\]\.tool_calls\[0\] has type 'mystery'/ },
  { shape: 'a function call without arguments', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }] }], message: /tool_calls\[0\] is a function call without function\.name and function\.arguments strings/ },
  { shape: 'an assistant with neither content nor calls', messages: [{ role: 'assistant', content: null }], message: /messages\[0\] is an assistant message with neither content nor tool_calls/ },
  { shape: 'a type of the program\'s own without a Chat role', messages: [{ type: 'widget', role: 'robot', content: 'x' }], message: /messages\[0\] has type 'widget', which is neither a Chat message nor a Responses item this converter keeps/ },
  { shape: 'a Responses item type it does not keep', messages: [{ type: 'computer_call', call_id: 'c' }], message: /messages\[0\] has type 'computer_call', which is neither a Chat message nor a Responses item this converter keeps/ },
];

describe('toResponsesInput: every Chat message shape, in every rendering', () => {
  for (const r of RENDERINGS) {
    describe(r.name, () => {
      for (const t of SHAPES) {
        it(t.shape, () => {
          const convert = converters.get(r.name)!;
          assert.deepEqual(convert(t.messages), t.items);
        });
      }
      for (const t of ERRORS) {
        it(`throws: ${t.shape}`, () => {
          const convert = converters.get(r.name)!;
          // what the SDK threw for the API's 400: a BadRequestError, its status and body (err.status, err.error.message)
          assert.throws(() => convert(t.messages as unknown[]), (e: unknown) => {
            // a CommonJS module gets the SDK's CommonJS build, whose classes are its own
            const sdk = r.flavour === 'cjs' ? (createRequire(import.meta.url)('openai') as typeof OpenAI) : OpenAI;
            if (!(e instanceof sdk.BadRequestError) || !t.message.test(e.message)) return false;
            const raw = e.message.replace(/^400 /, '');
            return e.status === 400 && e.code === null && e.type === 'invalid_request_error' &&
              isDeepStrictEqual(e.error, { message: raw, type: 'invalid_request_error', param: /^toResponsesInput: (\S+) /.exec(raw)?.[1], code: null });
          });
        });
      }
      it('leaves its input alone and accepts a frozen array', () => {
        const convert = converters.get(r.name)!;
        const history = Object.freeze([Object.freeze({ role: 'user', content: 'Hi', name: 'ada' })]);
        assert.deepEqual(convert(history), [{ role: 'user', content: 'Hi' }]);
        assert.deepEqual(history, [{ role: 'user', content: 'Hi', name: 'ada' }]);
      });
    });
  }
});

describe('the renderings', () => {
  it('each starts with the header that marks it as the tool\'s own; a file without it is not', () => {
    for (const flavour of ['ts', 'esm', 'cjs'] as const) {
      const text = renderConverter(flavour);
      assert.ok(text.startsWith(`${CONVERTER_HEADER}\n`), flavour);
      assert.match(text, /M-CONTENT-UNTYPED/);
      assert.equal(isOwnConverter(text), true);
      assert.equal(isOwnConverter(`\uFEFF${text.replace(/\n/g, '\r\n')}`), true);
    }
    assert.equal(isOwnConverter('export function toResponsesInput(m) { return m; }\n'), false);
    assert.equal(isOwnConverter(`// a comment\n${CONVERTER_HEADER}\n`), false);
  });

  it('the JavaScript renderings are the TypeScript one with its types erased, and parse as plain JavaScript', () => {
    const esm = renderConverter('esm');
    const cjs = renderConverter('cjs');
    for (const [name, text, sourceType] of [['esm', esm, 'module'], ['cjs', cjs, 'script']] as const) {
      assert.doesNotThrow(() => parse(text, { sourceType }), name);
      assert.doesNotMatch(text, /^import type|: unknown\b|: string\b|\bas Response|interface Fields/m, name);
    }
    assert.match(esm, /^export function toResponsesInput\(messages\) \{$/m);
    assert.doesNotMatch(cjs, /^export /m);
    assert.match(cjs, /^'use strict';$/m);
    assert.match(cjs, /\nmodule\.exports = \{ toResponsesInput \};\n$/);
    // the same statements, line for line, once the TypeScript-only lines are gone
    const body = (text: string) => text.split('\n').filter((l) => !l.startsWith('//') && !/^(\/\* eslint|'use strict'|module\.exports|import type)/.test(l)).join('\n');
    const ts = renderConverter('ts');
    const erased = eraseTypes(ts.slice(ts.indexOf('import ')));
    // the SDK's error class, in each module system
    assert.match(esm, /^import \{ BadRequestError \} from 'openai';$/m);
    assert.match(cjs, /^const \{ BadRequestError \} = require\('openai'\);$/m);
    assert.equal(body(esm).trim(), body(erased).trim());
  });

  it('eraseTypes keeps layout and comments and refuses TypeScript syntax it does not handle', () => {
    assert.equal(eraseTypes('/** doc */\ninterface A { x: number }\n\n// keep\nexport function f(a: A, b: string[] = []): number {\n  return (a as { x: number }).x + b.length;\n}\n'),
      '// keep\nexport function f(a, b = []) {\n  return (a).x + b.length;\n}\n');
    assert.throws(() => eraseTypes('const a = b!;'), /NonNullExpression/);
    assert.throws(() => eraseTypes('enum E { A }'), /EnumDeclaration/);
  });

  it('the JavaScript renderings run under plain Node (no loader), ESM and CommonJS', () => {
    const script = (load: string) => `${load}\nconsole.log(JSON.stringify(toResponsesInput([{ role: 'user', name: 'ada', content: [{ type: 'text', text: 'Hi' }] }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }])));`;
    const expected = '[{"role":"user","content":[{"type":"input_text","text":"Hi"}]},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"ok"}]\n';
    const cases = [
      { dir: 'esm', main: 'main.mjs', load: "import { toResponsesInput } from './to-responses-input.mjs';" },
      { dir: 'esm-js', main: 'main.js', load: "import { toResponsesInput } from './to-responses-input.js';" },
      { dir: 'cjs', main: 'main.cjs', load: "const { toResponsesInput } = require('./to-responses-input.cjs');" },
      { dir: 'cjs-js', main: 'main.js', load: "const { toResponsesInput } = require('./to-responses-input.js');" },
    ];
    for (const c of cases) {
      writeFileSync(path.join(TMP, c.dir, c.main), script(c.load));
      const out = execFileSync(process.execPath, [c.main], { cwd: path.join(TMP, c.dir), encoding: 'utf8', env: { PATH: process.env.PATH } });
      assert.equal(out, expected, c.dir);
    }
  });
});

describe('the TypeScript rendering type-checks (strict) on openai 6 and 7', () => {
  const usage = [
    "import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
    "import type { ResponseInputItem } from 'openai/resources/responses/responses';",
    "import { toResponsesInput } from './to-responses-input.js';",
    'declare const typed: ChatCompletionMessageParam[];',
    'declare const frozen: readonly ChatCompletionMessageParam[];',
    'declare const untyped: any;',
    'declare const loose: Array<{ role: string; content: string; name?: string }>;',
    'export const input: ResponseInputItem[] = [...toResponsesInput(typed), ...toResponsesInput(frozen), ...toResponsesInput(untyped), ...toResponsesInput(loose)];',
    // corpus (postiz-app): on openai 7 an input that may hold a configuration_update item types
    // output_parsed as unknown, so the converter's items must not be typed as any input item
    "import OpenAI from 'openai';",
    "import { zodTextFormat } from 'openai/helpers/zod';",
    "import { z } from 'zod';",
    'declare const client: OpenAI;',
    'export async function parsedAnswer(): Promise<string> {',
    "  const r = await client.responses.parse({ model: 'gpt-4o-mini', input: [{ role: 'system', content: 'Be brief.' }, ...toResponsesInput(untyped)], text: { format: zodTextFormat(z.object({ answer: z.string() }), 'answer') } });",
    "  return r.output_parsed?.answer ?? '';",
    '}',
    '',
  ].join('\n');
  const entries = () => [
    { file: path.join(TMP, 'check', 'to-responses-input.ts'), text: renderConverter('ts') },
    { file: path.join(TMP, 'check', 'use.ts'), text: usage },
  ];
  const STRICTER = {
    exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true, noImplicitReturns: true,
    noFallthroughCasesInSwitch: true, noUnusedLocals: true, noUnusedParameters: true, verbatimModuleSyntax: true, isolatedDeclarations: true, declaration: true,
  };
  for (const sdk of ['openai6', 'openai7'] as const) {
    it(`${sdk}: NodeNext, and with the strictest flags`, async () => {
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk), []);
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk, STRICTER), []);
    });
    it(`${sdk}: bundler resolution, and CommonJS output`, async () => {
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk, { module: 'ESNext', moduleResolution: 'Bundler' }), []);
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk, { module: 'CommonJS', moduleResolution: 'Node10' }), []);
    });
  }
  it('the check is live: a wrong item type is an error', async () => {
    const broken = entries().map((e) => ({ ...e, text: e.text.replace("items.push({ role: 'assistant', content: text });", "items.push({ role: 'bot', content: text });") }));
    const errors = await typecheckTexts(TMP, broken, 'openai6');
    assert.ok(errors.some((e) => e.file === 'check/to-responses-input.ts' && /'"bot"'/.test(e.message)), JSON.stringify(errors));
  });
});

describe('against the fake OpenAI server', () => {
  let server: FakeServer;
  before(async () => {
    server = await startFakeOpenAI();
  });
  after(async () => server?.close());

  const HISTORY = [
    { role: 'system', content: 'You are a support agent.', name: 'policy' },
    { role: 'user', name: 'ada', content: [{ type: 'text', text: 'Where is order 42?' }, { type: 'image_url', image_url: { url: 'https://x.example/r.png' } }] },
    { role: 'assistant', content: null, tool_calls: [call('call_1', 'lookup_order', '{"id":42}'), { id: 'call_2', type: 'custom', custom: { name: 'run_sql', input: 'SELECT 1' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped"}' },
    { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '1' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'It has ' }, { type: 'text', text: 'shipped.' }], name: 'agent' },
    { role: 'user', content: 'Thanks, and order 43?' },
  ];

  async function expect400(p: Promise<unknown>, message: RegExp): Promise<void> {
    await assert.rejects(p, (e: unknown) => e instanceof OpenAI.APIError && e.status === 400 && message.test(e.message));
  }

  for (const r of RENDERINGS) {
    it(`${r.name}: the converted history is accepted and asks for what the Chat history asked for`, async () => {
      const key = `sk-converter-${r.dir}`;
      const client = new OpenAI({ baseURL: server.baseURL, apiKey: key });
      const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: HISTORY as never });
      const response = await client.responses.create({ model: 'gpt-4o-mini', input: converters.get(r.name)!(HISTORY) as never, store: false });
      assert.equal(response.output_text, chat.choices[0].message.content);
      const [a, b] = server.requests(key);
      assert.deepEqual([a.api, a.status, b.api, b.status], ['chat', 200, 'responses', 200]);
      assert.deepEqual(b.canonical, a.canonical);
    });
  }

  it('the history as it is gets the real API\'s 400s: a name (T-NAME), then the tool turns', async () => {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-converter-raw' });
    await expect400(client.responses.create({ model: 'gpt-4o-mini', input: HISTORY.slice(0, 2) as never }), /^400 Unknown parameter: 'input\[0\]\.name'\.$/);
    await expect400(client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Hi' }, { role: 'user', content: 'Hi', name: 'ada' }] as never }), /^400 Unknown parameter: 'input\[1\]\.name'\.$/);
    await expect400(client.responses.create({ model: 'gpt-4o-mini', input: HISTORY.slice(2, 4) as never }), /^400 Unknown parameter: 'input\[0\]\.tool_calls'\.$/);
    await expect400(client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'tool', tool_call_id: 'call_1', content: 'x' }] as never }), /^400 Invalid value: 'tool'\./);
  });
});

describe('where a run puts the module, and how it creates it', () => {
  const root = path.join(TMP, 'runs');
  const SITE = "import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function answer(history) {\n  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history });\n  return r.choices[0].message.content;\n}\n";
  const TS_SITE = "import OpenAI from 'openai';\nimport type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';\nimport { helper } from './helper';\nconst client = new OpenAI();\nexport async function answer(history: ChatCompletionMessageParam[]) {\n  helper();\n  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history });\n  return r.choices[0].message.content;\n}\n";

  function project(name: string, files: Record<string, string>): string {
    const dir = path.join(root, name);
    rmSync(dir, { recursive: true, force: true });
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    return dir;
  }
  const dry = (dir: string, paths: string[] = ['.'], extra = {}) => run(defaultOptions({ paths, cwd: dir, dryRun: true, format: 'json', ...extra }));
  const summary = async (dir: string, paths?: string[], extra?: object) => {
    const { report, changes } = await dry(dir, paths, extra);
    return {
      sites: report.sites.map((s) => `${s.file} ${s.status}${s.reasons.map((r) => ` ${r.code}${r.detail ? `:${r.detail}` : ''}`).join('')}`),
      created: changes.filter((c) => c.created).map((c) => c.rel),
      imports: changes.filter((c) => !c.created).flatMap((c) => c.after.split('\n').filter((l) => l.includes('toResponsesInput }'))),
    };
  };

  it('next to the source: src/ (with the package type deciding .js or .mjs), else the folder of main, else the package', async () => {
    assert.deepEqual(await summary(project('src', { 'package.json': '{"type":"module"}', 'src/api/chat.js': SITE })), {
      sites: ['src/api/chat.js migrated'], created: ['src/to-responses-input.js'], imports: ["import { toResponsesInput } from '../to-responses-input.js';"],
    });
    assert.deepEqual((await summary(project('mjs', { 'package.json': '{}', 'chat.mjs': SITE }))).created, ['to-responses-input.mjs']);
    assert.deepEqual((await summary(project('main', { 'package.json': '{"main":"lib/index.js","type":"module"}', 'lib/chat.js': SITE }))).created, ['lib/to-responses-input.js']);
    assert.deepEqual((await summary(project('main-dist', { 'package.json': '{"main":"dist/index.js","type":"module"}', 'dist/x.txt': '', 'chat.js': SITE }))).created, ['to-responses-input.js']);
  });

  it('TypeScript: the tsconfig rootDir or include folder, and the import specifier of the project (.js under NodeNext, the file\'s own style otherwise)', async () => {
    const tsconfig = (options: object, include?: string[]) => JSON.stringify({ compilerOptions: { strict: true, ...options }, ...(include ? { include } : {}) });
    const nodenext = await summary(project('ts-nodenext', { 'package.json': '{"type":"module"}', 'tsconfig.json': tsconfig({ module: 'NodeNext', rootDir: 'app' }), 'app/chat.ts': TS_SITE, 'app/helper.ts': 'export function helper() {}\n' }));
    assert.deepEqual(nodenext, { sites: ['app/chat.ts migrated'], created: ['app/to-responses-input.ts'], imports: ["import { toResponsesInput } from './to-responses-input.js';"] });
    const bundler = await summary(project('ts-bundler', { 'package.json': '{}', 'tsconfig.json': tsconfig({ module: 'ESNext', moduleResolution: 'Bundler' }, ['source/**/*']), 'source/chat.ts': TS_SITE, 'source/helper.ts': 'export function helper() {}\n' }));
    assert.deepEqual(bundler, { sites: ['source/chat.ts migrated'], created: ['source/to-responses-input.ts'], imports: ["import { toResponsesInput } from './to-responses-input';"] });
  });

  it('TypeScript, a file with no relative import of its own: the style of its package\'s other files, .ts only where the tsconfig allows it, else .js in a module package', async () => {
    // corpus review: valvadis/ai_devs (other files import '../x.js') and TAC-crawler (other files import '../x.ts', run by ts-node, no allowImportingTsExtensions)
    const BARE_SITE = TS_SITE.replace("import { helper } from './helper';\n", '').replace('  helper();\n', '');
    const style = async (name: string, options: object, other: string, type = 'module') => (await summary(project(name, {
      'package.json': JSON.stringify({ type }), 'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'ES2022', moduleResolution: 'Bundler', ...options } }),
      'src/service/chat.ts': BARE_SITE, 'src/task/run.ts': `import { answer } from '${other}';\nvoid answer;\n`,
    }))).imports;
    assert.deepEqual(await style('style-js', {}, '../service/chat.js'), ["import { toResponsesInput } from '../to-responses-input.js';"]);
    assert.deepEqual(await style('style-ts', {}, '../service/chat.ts'), ["import { toResponsesInput } from '../to-responses-input.js';"]);
    assert.deepEqual(await style('style-ts-allowed', { allowImportingTsExtensions: true, noEmit: true }, '../service/chat.ts'), ["import { toResponsesInput } from '../to-responses-input.ts';"]);
    assert.deepEqual(await style('style-none-cjs', {}, '../service/chat', 'commonjs'), ["import { toResponsesInput } from '../to-responses-input';"]);
  });

  it('one module per package, whatever the number of sites and packages; none for a site that is not migrated', async () => {
    const dir = project('monorepo', {
      'package.json': '{"private":true,"workspaces":["packages/*"]}',
      'packages/a/package.json': '{"type":"module"}', 'packages/a/src/one.js': SITE, 'packages/a/src/two.js': SITE,
      'packages/b/package.json': '{}', 'packages/b/chat.cjs': "const { OpenAI } = require('openai');\nconst client = new OpenAI();\nmodule.exports = async (h) => (await client.chat.completions.create({ model: 'm', messages: h })).choices[0].message.content;\n",
      'packages/c/package.json': '{"type":"module"}', 'packages/c/chat.js': SITE.replace("model: 'gpt-4o-mini',", "model: 'gpt-4o-mini', seed: 1,"),
    });
    const s = await summary(dir);
    assert.deepEqual(s.created, ['packages/a/src/to-responses-input.js', 'packages/b/to-responses-input.js']);
    assert.deepEqual(s.sites, [
      'packages/a/src/one.js migrated', 'packages/a/src/two.js migrated', 'packages/b/chat.cjs migrated', 'packages/c/chat.js manual no-equivalent-param:seed',
    ]);
    assert.deepEqual(s.imports, [
      "import { toResponsesInput } from './to-responses-input.js';", "import { toResponsesInput } from './to-responses-input.js';",
      "const { toResponsesInput } = require('./to-responses-input.js');",
    ]);
  });

  it('reported instead: outside the paths given, a foreign file, a file that cannot import the module, a name already used, no package.json', async () => {
    const outside = project('outside', { 'package.json': '{"type":"module"}', 'src/api/chat.js': SITE });
    assert.deepEqual((await summary(outside, ['src/api'])).sites, ['src/api/chat.js manual messages-not-local:the run-time converter module would be created at src/to-responses-input.js, outside the paths given; run the tool on the package to let it create it']);
    assert.deepEqual((await summary(outside, ['src/api/chat.js'])).created, [], 'a file given: only its own folder');
    const foreign = project('foreign', { 'package.json': '{"type":"module"}', 'chat.js': SITE, 'to-responses-input.d.ts': 'export {};\n' });
    assert.deepEqual((await summary(foreign)).sites, ['chat.js manual messages-not-local:to-responses-input.d.ts exists and was not written by migrate-responses, so the run-time converter cannot go there']);
    const mixed = project('mixed', { 'package.json': '{"type":"module"}', 'tsconfig.json': '{"compilerOptions":{"module":"NodeNext"}}', 'chat.ts': TS_SITE, 'helper.ts': 'export function helper() {}\n', 'script.js': SITE });
    assert.deepEqual(await summary(mixed), {
      sites: ['chat.ts migrated', "script.js manual messages-not-local:the package's run-time converter to-responses-input.ts is TypeScript, which this JavaScript (ES module) file cannot import"],
      created: ['to-responses-input.ts'], imports: ["import { toResponsesInput } from './to-responses-input.js';"],
    });
    const taken = project('taken', { 'package.json': '{"type":"module"}', 'chat.js': `${SITE}export function toResponsesInput(m) { return m; }\n` });
    assert.deepEqual((await summary(taken)).sites, ['chat.js manual messages-not-local:the name toResponsesInput is already used in this file']);
    const verbatim = project('verbatim-cjs', { 'package.json': '{}', 'tsconfig.json': '{"compilerOptions":{"module":"NodeNext","verbatimModuleSyntax":true}}', 'chat.ts': TS_SITE, 'helper.ts': 'export function helper() {}\n' });
    assert.deepEqual((await summary(verbatim)).sites, ['chat.ts manual messages-not-local:the package compiles TypeScript to CommonJS with verbatimModuleSyntax, where the generated ES module syntax of the run-time converter is an error']);
    // no require, but module.exports: CommonJS (runtime/c35)
    const cjsNoRequire = project('cjs-no-require', {
      'package.json': '{}',
      'chat.js': 'async function ask(client, h) {\n  return (await client.chat.completions.create({ model: \'gpt-4o-mini\', messages: h })).choices[0].message.content;\n}\nmodule.exports = { ask };\n',
      'main.js': "const OpenAI = require('openai');\nconst { ask } = require('./chat');\nask(new OpenAI(), []);\n",
    });
    assert.deepEqual(await summary(cjsNoRequire), { sites: ['chat.js migrated'], created: ['to-responses-input.js'], imports: ["const { toResponsesInput } = require('./to-responses-input.js');"] });
    // neither imports, requires nor exports: its module system is not known
    const neither = project('cjs-neither', { 'package.json': '{}', 'chat.js': 'async function ask(client, h) {\n  return (await client.chat.completions.create({ model: \'m\', messages: h })).choices[0].message.content;\n}\nask.call(null, null, []);\n' });
    assert.match((await summary(neither)).sites.join(), /messages-not-local:this file neither imports nor requires anything, so the import of the run-time converter could not be written in its module system/);
  });

  it('no package.json: the repository top holds the module (a script beside its README); outside a repository, reported', async () => {
    // corpus: Aymeric31/twitch-assistant-AI, one ESM chatbot.js and no package.json. The projects
    // live outside this repository, whose package.json would otherwise be theirs.
    const loose = mkdtempSync(path.join(os.tmpdir(), 'mr-no-package-'));
    try {
      const inRepository = (name: string, files: Record<string, string>) => {
        const dir = path.join(loose, name);
        for (const [rel, text] of Object.entries({ '.git/HEAD': 'ref: refs/heads/main\n', ...files })) {
          mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
          writeFileSync(path.join(dir, rel), text);
        }
        return dir;
      };
      const esm = inRepository('esm', { 'bot/chatbot.js': SITE });
      assert.deepEqual(await summary(esm), { sites: ['bot/chatbot.js migrated'], created: ['to-responses-input.js'], imports: ["import { toResponsesInput } from '../to-responses-input.js';"] });
      const cjs = inRepository('cjs', { 'chatbot.js': "const OpenAI = require('openai');\nconst client = new OpenAI();\nmodule.exports = async (h) => (await client.chat.completions.create({ model: 'm', messages: h })).choices[0].message.content;\n" });
      const made = await dry(cjs);
      assert.deepEqual(made.changes.filter((c) => c.created).map((c) => [c.rel, c.after]), [['to-responses-input.js', renderConverter('cjs')]]);
      const src = inRepository('src', { 'src/chat.js': SITE });
      assert.deepEqual((await summary(src, ['src'])).created, ['src/to-responses-input.js'], 'a src/ folder, as in a package');
      const bare = path.join(loose, 'bare');
      mkdirSync(bare);
      writeFileSync(path.join(bare, 'chat.js'), SITE);
      assert.deepEqual(await summary(bare), {
        sites: ['chat.js manual messages-not-local:neither a package.json nor a repository top (.git) above this file to hold the run-time converter module'], created: [], imports: [],
      });
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  });

  it('--no-runtime-conversion reports the site as before and creates nothing', async () => {
    const dir = project('off', { 'package.json': '{"type":"module"}', 'chat.js': SITE });
    assert.deepEqual(await summary(dir, ['.'], { runtimeConversion: false }), { sites: ['chat.js manual messages-not-local'], created: [], imports: [] });
  });

  it('write mode creates the module, and a second run reuses it and changes nothing', async () => {
    const dir = project('write', { 'package.json': '{"type":"module"}', 'src/a.js': SITE, 'src/b.js': SITE });
    const first = await run(defaultOptions({ paths: ['.'], cwd: dir, format: 'json', force: true }));
    assert.deepEqual(first.report.changedFiles, ['src/to-responses-input.js', 'src/a.js', 'src/b.js']);
    assert.equal(readFileSync(path.join(dir, 'src/to-responses-input.js'), 'utf8'), renderConverter('esm'));
    writeFileSync(path.join(dir, 'src/c.js'), SITE);
    const second = await run(defaultOptions({ paths: ['.'], cwd: dir, format: 'json', force: true }));
    assert.deepEqual(second.report.changedFiles, ['src/c.js']);
    assert.match(readFileSync(path.join(dir, 'src/c.js'), 'utf8'), /^import \{ toResponsesInput \} from '\.\/to-responses-input\.js';$/m);
    const third = await run(defaultOptions({ paths: ['.'], cwd: dir, format: 'json', force: true }));
    assert.deepEqual(third.report.changedFiles, []);
  });

  it('the dry-run diff shows the module as a new file', async () => {
    const dir = project('diff', { 'package.json': '{"type":"module"}', 'chat.js': SITE });
    const { diffs } = await run(defaultOptions({ paths: ['.'], cwd: dir, dryRun: true }));
    const patch = diffs.find((d) => d.file === 'to-responses-input.js')?.patch ?? '';
    assert.match(patch, /^--- \/dev\/null\t?\n\+\+\+ b\/to-responses-input\.js/m);
    assert.match(patch, new RegExp(`^@@ -0,0 \\+1,${renderConverter('esm').split('\n').length - 1} @@\\n\\+// Generated by migrate-responses`, 'm'));
  });

  it('a file that appears at the module path between scan and write: not overwritten, and the sites that import it are not written', async () => {
    const dir = project('race', { 'package.json': '{"type":"module"}', 'chat.js': SITE });
    const file = path.join(dir, 'chat.js');
    const result = scan({ candidates: [{ path: file, text: SITE }], cwd: dir, allow: parseAllowList([]), only: [], skip: [], runtimeConversion: true, roots: [dir] });
    assert.deepEqual(result.createdFiles.map((f) => path.relative(dir, f.file)), ['to-responses-input.js']);
    writeFileSync(path.join(dir, 'to-responses-input.js'), 'export const mine = 1;\n');
    const outcome = await applyPlans({ plans: result.plans, texts: new Map(), roots: [dir], cwd: dir, dryRun: false, markers: true, force: true, createdFiles: result.createdFiles });
    assert.deepEqual(outcome.errors.map((e) => `${e.file}: ${e.message}`), [
      'to-responses-input.js: not created: a file of that name appeared after the scan',
      'chat.js: left unchanged with its write set: to-responses-input.js failed',
    ]);
    assert.deepEqual(outcome.written, []);
    assert.equal(readFileSync(path.join(dir, 'to-responses-input.js'), 'utf8'), 'export const mine = 1;\n');
    assert.equal(readFileSync(file, 'utf8'), SITE);
    assert.deepEqual([...outcome.failed.values()], [{ code: 'write-failed', detail: 'to-responses-input.js: a file of that name appeared after the scan' }]);
    assert.equal(existsSync(path.join(dir, 'chat.js')), true);
  });
});
