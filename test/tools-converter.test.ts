/**
 * The run-time tools converter (R-TOOLS-UNTYPED, lib/runtime/tools-converter.ts): every Chat tool
 * shape in every rendering, the errors it throws, its TypeScript rendering type-checked on openai 6
 * and 7, the converted tools against the fake OpenAI server, and what a run does with tools out of
 * view (converted, or reported with why).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { parse } from '@babel/parser';
import { defaultOptions } from '../lib/options.js';
import { run } from '../lib/run.js';
import { isOwnModule, renderModule, type ConverterFlavour } from '../lib/runtime/converter.js';
import { TOOLS_CONVERTER } from '../lib/runtime/tools-converter.js';
import { startFakeOpenAI, type FakeServer } from './fake-openai/index.js';
import { REPO } from './helpers/fixtures.js';
import { typecheckTexts } from './helpers/typecheck.js';

type Convert = (tools: unknown) => unknown;

const TMP = path.join(REPO, 'test', 'tmp', `tools-converter-${process.pid}`);

const RENDERINGS: { name: string; flavour: ConverterFlavour; dir: string; file: string; packageType: string }[] = [
  { name: 'TypeScript', flavour: 'ts', dir: 'ts', file: 'to-responses-tools.ts', packageType: 'module' },
  { name: 'JavaScript ESM (.mjs)', flavour: 'esm', dir: 'esm', file: 'to-responses-tools.mjs', packageType: 'commonjs' },
  { name: 'CommonJS (.js)', flavour: 'cjs', dir: 'cjs', file: 'to-responses-tools.js', packageType: 'commonjs' },
];
const converters = new Map<string, Convert>();

before(async () => {
  rmSync(TMP, { recursive: true, force: true });
  for (const r of RENDERINGS) {
    const dir = path.join(TMP, r.dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: r.packageType }));
    const file = path.join(dir, r.file);
    writeFileSync(file, renderModule(TOOLS_CONVERTER, r.flavour));
    const mod = r.flavour === 'cjs' ? createRequire(import.meta.url)(file) : await import(pathToFileURL(file).href);
    converters.set(r.name, (mod as { toResponsesTools: Convert }).toResponsesTools);
  }
});
after(() => rmSync(TMP, { recursive: true, force: true }));

const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const EMPTY = { type: 'object', properties: {} };

/** Chat tools → Responses tools (R-TOOLS, R-STRICT, T-PARAMS-KEY, as the transforms map literals). */
const SHAPES: { shape: string; tools: unknown; out: unknown }[] = [
  { shape: 'no tools: undefined', tools: undefined, out: undefined },
  { shape: 'no tools: null', tools: null, out: undefined },
  { shape: 'an empty array', tools: [], out: [] },
  { shape: 'a name only: empty parameters schema, strict false', tools: [{ type: 'function', function: { name: 'now' } }], out: [{ type: 'function', name: 'now', parameters: EMPTY, strict: false }] },
  {
    shape: 'description and parameters kept, strict true kept',
    tools: [{ type: 'function', function: { name: 'weather', description: 'Weather now', parameters: SCHEMA, strict: true } }],
    out: [{ type: 'function', name: 'weather', description: 'Weather now', parameters: SCHEMA, strict: true }],
  },
  {
    shape: 'strict false and null become false',
    tools: [{ type: 'function', function: { name: 'a', parameters: SCHEMA, strict: false } }, { type: 'function', function: { name: 'b', parameters: SCHEMA, strict: null } }],
    out: [{ type: 'function', name: 'a', parameters: SCHEMA, strict: false }, { type: 'function', name: 'b', parameters: SCHEMA, strict: false }],
  },
  {
    shape: 'keys Chat did not read are not sent',
    tools: [{ type: 'function', function: { name: 'a', parameters: SCHEMA, examples: [] }, execute: 'a function of the library' }],
    out: [{ type: 'function', name: 'a', parameters: SCHEMA, strict: false }],
  },
];

const ERRORS: { shape: string; tools: unknown; message: RegExp }[] = [
  { shape: 'a custom tool (its calls are not read)', tools: [{ type: 'custom', custom: { name: 'run_sql' } }], message: /tools\[0\] is a custom tool/ },
  { shape: 'a Responses tool (Chat rejected it)', tools: [{ type: 'function', name: 'now', parameters: EMPTY }], message: /tools\[0\] is not a Chat function tool/ },
  { shape: 'another type', tools: [{ type: 'web_search' }], message: /tools\[0\] is not a Chat function tool/ },
  { shape: 'a string element', tools: ['now'], message: /tools\[0\] is 'now', not a tool definition/ },
  { shape: 'a missing element', tools: [undefined], message: /tools\[0\] is missing, not a tool definition/ },
  { shape: 'not an array', tools: { now: {} }, message: /tools is an object, not an array of tool definitions/ },
];

describe('toResponsesTools: every Chat tool shape, in every rendering', () => {
  for (const r of RENDERINGS) {
    describe(r.name, () => {
      for (const t of SHAPES) it(t.shape, () => assert.deepEqual(converters.get(r.name)!(t.tools), t.out));
      for (const t of ERRORS) {
        it(`throws: ${t.shape}`, () => {
          assert.throws(() => converters.get(r.name)!(t.tools), (e: unknown) => {
            const sdk = r.flavour === 'cjs' ? (createRequire(import.meta.url)('openai') as typeof OpenAI) : OpenAI;
            if (!(e instanceof sdk.BadRequestError) || !t.message.test(e.message)) return false;
            const raw = e.message.replace(/^400 /, '');
            return e.status === 400 && isDeepStrictEqual(e.error, { message: raw, type: 'invalid_request_error', param: /^toResponsesTools: (\S+) /.exec(raw)?.[1], code: null });
          });
        });
      }
      it('leaves its input alone and accepts frozen definitions', () => {
        const tools = Object.freeze([Object.freeze({ type: 'function', function: Object.freeze({ name: 'now' }) })]);
        assert.deepEqual(converters.get(r.name)!(tools), [{ type: 'function', name: 'now', parameters: EMPTY, strict: false }]);
        assert.deepEqual(tools, [{ type: 'function', function: { name: 'now' } }]);
      });
    });
  }

  it('each rendering starts with its own header, which the messages converter\'s does not match', () => {
    for (const flavour of ['ts', 'esm', 'cjs'] as const) {
      const text = renderModule(TOOLS_CONVERTER, flavour);
      assert.ok(isOwnModule(TOOLS_CONVERTER, text), flavour);
      assert.doesNotThrow(() => parse(text, { sourceType: 'module', plugins: flavour === 'ts' ? ['typescript'] : [] }));
    }
    assert.equal(isOwnModule(TOOLS_CONVERTER, '// Generated by migrate-responses (rule M-CONTENT-UNTYPED). Do not edit.\n'), false);
  });

  it('the JavaScript renderings run under plain Node (no loader)', () => {
    const script = (load: string) => `${load}\nconsole.log(JSON.stringify(toResponsesTools([{ type: 'function', function: { name: 'now' } }])));`;
    for (const c of [{ dir: 'esm', main: 'main.mjs', load: "import { toResponsesTools } from './to-responses-tools.mjs';" }, { dir: 'cjs', main: 'main.js', load: "const { toResponsesTools } = require('./to-responses-tools.js');" }]) {
      writeFileSync(path.join(TMP, c.dir, c.main), script(c.load));
      const out = execFileSync(process.execPath, [c.main], { cwd: path.join(TMP, c.dir), encoding: 'utf8', env: { PATH: process.env.PATH } });
      assert.equal(out, '[{"type":"function","name":"now","parameters":{"type":"object","properties":{}},"strict":false}]\n', c.dir);
    }
  });
});

describe('the TypeScript rendering type-checks (strict) on openai 6 and 7', () => {
  const usage = [
    "import OpenAI from 'openai';",
    "import type { ChatCompletionTool } from 'openai/resources/chat/completions';",
    "import type { Tool } from 'openai/resources/responses/responses';",
    "import { toResponsesTools } from './to-responses-tools.js';",
    'declare const client: OpenAI;',
    'declare const typed: ChatCompletionTool[];',
    'declare const frozen: readonly ChatCompletionTool[];',
    'declare const maybe: ChatCompletionTool[] | undefined;',
    'declare const untyped: any;',
    // a value that is an array gives an array, so a tools key takes it under exactOptionalPropertyTypes
    'export const tools: Tool[] = [...toResponsesTools(typed), ...toResponsesTools(frozen), ...toResponsesTools(untyped)];',
    'export const optional: Tool[] | undefined = toResponsesTools(maybe);',
    'export async function ask(): Promise<string> {',
    "  const r = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hi', tools: toResponsesTools(typed), store: false });",
    "  const s = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hi', tools: toResponsesTools(untyped), store: false });",
    '  return r.output_text + s.output_text;',
    '}',
    '',
  ].join('\n');
  const entries = () => [
    { file: path.join(TMP, 'check', 'to-responses-tools.ts'), text: renderModule(TOOLS_CONVERTER, 'ts') },
    { file: path.join(TMP, 'check', 'use.ts'), text: usage },
  ];
  const STRICTER = {
    exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true, noImplicitReturns: true,
    noUnusedLocals: true, noUnusedParameters: true, verbatimModuleSyntax: true, isolatedDeclarations: true, declaration: true,
  };
  for (const sdk of ['openai6', 'openai7'] as const) {
    it(`${sdk}: NodeNext, with the strictest flags, bundler resolution and CommonJS output`, async () => {
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk), []);
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk, STRICTER), []);
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk, { module: 'ESNext', moduleResolution: 'Bundler' }), []);
      assert.deepEqual(await typecheckTexts(TMP, entries(), sdk, { module: 'CommonJS', moduleResolution: 'Node10' }), []);
    });
  }
  it('the check is live: a wrong tool type is an error', async () => {
    const broken = entries().map((e) => ({ ...e, text: e.text.replace("type: 'function',\n    name:", "type: 'fn',\n    name:") }));
    const errors = await typecheckTexts(TMP, broken, 'openai6');
    assert.ok(errors.some((e) => e.file === 'check/to-responses-tools.ts' && /'"fn"'/.test(e.message)), JSON.stringify(errors));
  });
});

describe('against the fake OpenAI server', () => {
  let server: FakeServer;
  before(async () => {
    server = await startFakeOpenAI();
  });
  after(async () => server?.close());

  const TOOLS = [
    { type: 'function', function: { name: 'now' } },
    { type: 'function', function: { name: 'weather', description: 'Weather now', parameters: SCHEMA, strict: true } },
    { type: 'function', function: { name: 'lookup', parameters: SCHEMA, strict: null } },
  ];

  for (const r of RENDERINGS) {
    it(`${r.name}: the converted tools are accepted and ask for what the Chat tools asked for, a tool call included`, async () => {
      const key = `sk-tools-${r.dir}`;
      const client = new OpenAI({ baseURL: server.baseURL, apiKey: key });
      const content = 'What is the weather in Paris?';
      const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], tools: TOOLS as never });
      const response = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content }], tools: converters.get(r.name)!(TOOLS) as never, store: false });
      const call = response.output.find((i) => i.type === 'function_call');
      const chatCall = chat.choices[0].message.tool_calls?.[0];
      assert.equal(call?.type === 'function_call' && call.name, chatCall?.type === 'function' && chatCall.function.name);
      const [a, b] = server.requests(key);
      assert.deepEqual([a.api, a.status, b.api, b.status], ['chat', 200, 'responses', 200]);
      assert.deepEqual(b.canonical, a.canonical);
    });
  }

  it('the Chat tools as they are get the API\'s 400', async () => {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-tools-raw' });
    await assert.rejects(client.responses.create({ model: 'gpt-4o-mini', input: 'Hi', tools: TOOLS as never }), (e: unknown) => e instanceof OpenAI.APIError && e.status === 400);
  });
});

describe('a run: tools out of view are converted where the request is made, or reported with why', () => {
  const root = path.join(TMP, 'runs');
  function project(name: string, files: Record<string, string>): string {
    const dir = path.join(root, name);
    rmSync(dir, { recursive: true, force: true });
    for (const [rel, text] of Object.entries({ 'package.json': '{"private":true,"type":"module"}', ...files })) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    return dir;
  }
  const summary = async (dir: string, extra: object = {}) => {
    const { report, changes } = await run(defaultOptions({ paths: ['.'], cwd: dir, dryRun: true, format: 'json', ...extra }));
    return {
      sites: report.sites.map((s) => `${s.file} ${s.status}${s.reasons.map((r) => ` ${r.code}${r.detail ? `:${r.detail}` : ''}`).join('')}`),
      created: changes.filter((c) => c.created).map((c) => c.rel),
      lines: changes.filter((c) => !c.created).flatMap((c) => c.after.split('\n').filter((l) => /toResponsesTools|tools[,:]/.test(l)).map((l) => l.trim())),
    };
  };
  const SITE = (tools: string, after = '', content = "'Hi'") => `import OpenAI from 'openai';\nimport { registry } from './registry.js';\nconst client = new OpenAI();\nexport async function ask(q) {\n  ${tools}\n  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: ${content} }], tools })${after};\n  return r?.choices[0].message.content;\n}\n`;

  it('a shorthand { tools } gets its key, and the module is created once per package beside the messages converter\'s place', async () => {
    const dir = project('shorthand', { 'src/ask.js': SITE('const tools = registry.specs();'), 'src/registry.js': 'export const registry = { specs: () => [] };\n' });
    assert.deepEqual(await summary(dir), {
      sites: ['src/ask.js migrated'],
      created: ['src/to-responses-tools.js'],
      lines: ["import { toResponsesTools } from './to-responses-tools.js';", "const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Hi' }], tools: toResponsesTools(tools), store: false });"],
    });
  });

  it('the parsing helpers keep tools out of view reported: Chat\'s parse() threw on tools that are not strict function tools, and both parse arguments with a tool\'s own parser', async () => {
    const dir = project('parse', { 'src/ask.js': SITE('const tools = registry.specs();').replace('chat.completions.create', 'chat.completions.parse').replace('message.content', 'message.parsed'), 'src/registry.js': 'export const registry = { specs: () => [] };\n' });
    assert.deepEqual((await summary(dir)).sites, ['src/ask.js manual params-not-local:tools']);
    const streamed = project('stream-helper', {
      'src/ask.js': "import OpenAI from 'openai';\nimport { registry } from './registry.js';\nconst client = new OpenAI();\nexport async function ask() {\n  const stream = client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], tools: registry.specs() });\n  const final = await stream.finalChatCompletion();\n  return final.choices[0].message.content;\n}\n",
      'src/registry.js': 'export const registry = { specs: () => [] };\n',
    });
    assert.deepEqual((await summary(streamed)).sites, ['src/ask.js manual params-not-local:tools']);
  });

  it('--no-runtime-conversion reports the tools as before and creates nothing', async () => {
    const dir = project('off', { 'src/ask.js': SITE('const tools = registry.specs();'), 'src/registry.js': 'export const registry = { specs: () => [] };\n' });
    assert.deepEqual(await summary(dir, { runtimeConversion: false }), { sites: ['src/ask.js manual params-not-local:tools'], created: [], lines: [] });
  });

  it('a request under its own .catch is wrapped so that the converter\'s throw rejects its promise; one whose other arguments may throw is reported', async () => {
    const wrapped = project('wrapped', { 'src/ask.js': SITE('const tools = registry.specs();', '.catch(() => null)'), 'src/registry.js': 'export const registry = { specs: () => [] };\n' });
    const s = await summary(wrapped);
    assert.deepEqual(s.sites, ['src/ask.js migrated']);
    assert.match(s.lines[1], /^const r = await \(async \(\) => client\.responses\.create\(.*tools: toResponsesTools\(tools\), store: false \}\)\)\(\)\.catch\(\(\) => null\);$/);
    const blocked = project('blocked', { 'src/ask.js': SITE('const tools = registry.specs();', '.catch(() => null)', 'String(q)'), 'src/registry.js': 'export const registry = { specs: () => [] };\n' });
    const b = await summary(blocked);
    assert.match(b.sites.join(), /^src\/ask\.js manual params-not-local:tools: the run-time converter would throw before the request's \.catch\(…\), which received the API's rejection of such tools, and the request cannot be wrapped to reject instead: /);
    assert.deepEqual(b.created, []);
  });

  it('a file that holds the name already, or a foreign module at its place, is reported', async () => {
    const taken = project('taken', { 'src/ask.js': `${SITE('const tools = registry.specs();')}export function toResponsesTools(t) { return t; }\n`, 'src/registry.js': 'export const registry = { specs: () => [] };\n' });
    assert.deepEqual((await summary(taken)).sites, ['src/ask.js manual params-not-local:tools: the name toResponsesTools is already used in this file']);
    const foreign = project('foreign', { 'src/ask.js': SITE('const tools = registry.specs();'), 'src/registry.js': 'export const registry = { specs: () => [] };\n', 'src/to-responses-tools.js': 'export const toResponsesTools = (t) => t;\n' });
    assert.deepEqual((await summary(foreign)).sites, ['src/ask.js manual params-not-local:tools: src/to-responses-tools.js exists and was not written by migrate-responses, so the run-time converter cannot go there']);
  });
});
