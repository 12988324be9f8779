/**
 * The dense profile: a synthetic SDK-heavy monorepo, modelled on the proportions of a real agents
 * framework (1,004 source files, 591 of them mentioning `openai`, one real chat call). About half
 * of the files mention `openai` (imports of `openai` and `openai/resources/…` types in client and
 * type modules, imports of a workspace package named `…-openai`, comments and strings), file sizes
 * are realistic (mostly 2–20 kB, a few 50–200 kB, big test files), and only about 0.3% of files
 * hold a real Chat Completions call.
 *
 * Layout: npm workspaces (`packages/*`, `examples/*`); packages import each other by name (through
 * package.json `exports`, no node_modules) and through `paths` of `tsconfig.base.json`, which every
 * package's and example's tsconfig.json extends; barrels with `export *` at each package and area;
 * the umbrella package re-exports two others (`export *` of `export *`). With `rootTsconfig` a
 * root tsconfig.json (extending the base) switches the tool's type-aware mode on; without it the
 * tree is otherwise byte-for-byte the same (the random draws do not depend on it), which is the
 * honest import-tracking variant.
 *
 * Deterministic for a given seed. Generated code never mentions `openai`, `OpenAI`, `OPENAI`,
 * `completions` or `createChatCompletion` (the tool's prefilter words) outside the files drawn to
 * mention them; this is checked while writing.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rng } from './rng.js';

export interface DenseSpec {
  dir: string;
  /** Source files to write (node_modules not counted). */
  files: number;
  /** Write a root tsconfig.json (type-aware mode). */
  rootTsconfig: boolean;
  /** Target fraction of files that mention `openai` (0.3–0.6 is realistic); default 0.5. */
  mentionRatio?: number;
  /** Fraction of files with a real Chat Completions call; default 0.003 (at least one). */
  siteRatio?: number;
  seed?: number;
}

export interface DenseStats {
  profile: 'dense';
  files: number;
  /** Files whose text contains `openai`. */
  mentioning: number;
  /** Files the tool's prefilter lets through (openai | OpenAI | OPENAI | completions | createChatCompletion). */
  candidates: number;
  /** Files the parse floor parses (openai | completions). */
  parseFloorCandidates: number;
  withSites: number;
  bytes: number;
  /** Files by size: under 2 kB, 2–20 kB, 20–50 kB, 50 kB and more. */
  sizes: { under2k: number; from2kTo20k: number; from20kTo50k: number; over50k: number };
  largestBytes: number;
  nodeModulesFiles: number;
  rootTsconfig: boolean;
}

const SCOPE = '@dense';
const PREFILTER = /completions|openai|OpenAI|OPENAI|createChatCompletion/;
const PARSE_FLOOR = /openai|completions/;

const NOUNS = ['agent', 'tool', 'handoff', 'guardrail', 'session', 'trace', 'span', 'memory', 'runner', 'stream', 'event', 'model', 'prompt', 'schema', 'usage', 'item', 'turn', 'context', 'policy', 'approval', 'output', 'input', 'result', 'state', 'message', 'step', 'task', 'batch', 'cache', 'store', 'queue', 'retry', 'budget', 'filter', 'plan', 'graph', 'node', 'edge', 'shell', 'workspace'];
const SUFFIXES = ['Executor', 'Registry', 'Builder', 'Resolver', 'Serializer', 'Parser', 'Adapter', 'Manager', 'Store', 'Queue', 'Scheduler', 'Validator', 'Formatter', 'Mapper', 'Loader', 'Tracker', 'Handler', 'Factory', 'Planner', 'Collector'];
const AREAS = ['runner', 'tools', 'handoffs', 'guardrails', 'tracing', 'memory', 'sessions', 'streaming', 'models', 'items', 'events', 'sandbox', 'mcp', 'utils', 'errors', 'config', 'usage', 'context', 'policy', 'schema', 'lifecycle', 'approvals', 'outputs', 'prompts'];
const TOPICS = ['function-calling', 'structured-outputs', 'streaming-responses', 'realtime', 'text', 'reasoning', 'conversation-state', 'tools-web-search', 'agents', 'evals'];
const EXAMPLES = ['basic', 'agent-patterns', 'tools', 'memory', 'sandbox', 'mcp', 'handoffs', 'customer-service', 'research-bot', 'financial-research', 'model-providers', 'nextjs', 'realtime-demo', 'ai-sdk', 'connectors', 'standard-schema'];
const DOC_TOPICS = ['agents', 'config', 'context', 'guardrails', 'handoffs', 'human-in-the-loop', 'models', 'results', 'running-agents', 'streaming', 'tools', 'tracing', 'voice-agents', 'sessions'];

type Rand = () => number;
type Role = 'core' | 'provider' | 'extensions' | 'realtime' | 'umbrella' | 'example' | 'docs';
type Kind = 'src' | 'test' | 'example' | 'doc' | 'tsx' | 'script';

interface Unit {
  /** Path relative to the tree root. */
  rel: string;
  role: Role;
  kind: Kind;
  /** Folder of the package / example this file belongs to, relative to the root. */
  pkgDir: string;
  /** Area folder inside src (src and test files of packages). */
  area?: string;
  /** Identifier stem, unique in the tree: ToolExecutor412. */
  T: string;
  noun: string;
  mention: boolean;
  site?: number;
}

interface PackageDef {
  name: string;
  role: Role;
  /** Share of all files. */
  share: number;
  /** Share of the package's files that are tests. */
  tests: number;
  /** Relative probability of mentioning openai (scaled to the target ratio). */
  mention: number;
  /** Resolved through `paths` of tsconfig.base.json (else by workspace name only). */
  paths: boolean;
  deps: string[];
}

const PACKAGES: PackageDef[] = [
  { name: 'agents-core', role: 'core', share: 0.34, tests: 0.55, mention: 0.2, paths: true, deps: [] },
  { name: 'agents-openai', role: 'provider', share: 0.06, tests: 0.45, mention: 1, paths: true, deps: ['agents-core'] },
  { name: 'agents-extensions', role: 'extensions', share: 0.08, tests: 0.4, mention: 0.75, paths: false, deps: ['agents-core', 'agents-openai'] },
  { name: 'agents-realtime', role: 'realtime', share: 0.05, tests: 0.4, mention: 0.6, paths: false, deps: ['agents-core'] },
  { name: 'agents', role: 'umbrella', share: 0.02, tests: 0.3, mention: 0.9, paths: true, deps: ['agents-core', 'agents-openai', 'agents-realtime'] },
];
/** The rest: examples (small apps) and docs snippets (tiny files). */
const EXAMPLE_SHARE = 0.3;
const EXAMPLE_MENTION = 0.85;
const DOCS_MENTION = 0.9;

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const logUniform = (r: Rand, lo: number, hi: number) => Math.round(lo * (hi / lo) ** r());

/** Target size in bytes, by kind of file. */
function targetSize(r: Rand, kind: Kind): number {
  const x = r();
  switch (kind) {
    case 'doc':
      return logUniform(r, 400, 2500);
    case 'example':
    case 'tsx':
      return x < 0.7 ? logUniform(r, 1000, 8000) : logUniform(r, 8000, 20000);
    case 'script':
      return logUniform(r, 800, 6000);
    case 'src':
      return x < 0.8 ? logUniform(r, 2000, 20000) : x < 0.95 ? logUniform(r, 20000, 50000) : logUniform(r, 50000, 120000);
    case 'test':
      return x < 0.6 ? logUniform(r, 2000, 20000) : x < 0.85 ? logUniform(r, 20000, 50000) : logUniform(r, 50000, 200000);
  }
}

// ---------------------------------------------------------------------------------------------
// Code blocks. None of them contains a prefilter word unless it is a mention or a site.

function typesBlock(u: Unit): string {
  const { T, noun } = u;
  return `export interface ${T}Record {
  id: string;
  kind: '${noun}' | 'system' | 'external';
  weight: number;
  tags: string[];
  createdAt: string;
}

export type ${T}Event =
  | { type: '${noun}_started'; id: string; at: number }
  | { type: '${noun}_updated'; id: string; delta: string }
  | { type: '${noun}_finished'; id: string; result: unknown }
  | { type: '${noun}_failed'; id: string; error: Error };

/**
 * Options accepted by {@link run${T}}.
 */
export interface ${T}Options {
  /** The ${noun} this run belongs to. */
  ${noun}Id: string;
  maxAttempts?: number;
  timeoutMs?: number;
  metadata?: Record<string, string>;
  signal?: AbortSignal;
  onEvent?: (event: ${T}Event) => void;
}

export interface ${T}Summary {
  count: number;
  attempts: number;
  elapsedMs: number;
}

/** Runs the ${noun} pipeline over a batch of records. */
export async function run${T}(records: readonly ${T}Record[], options: ${T}Options): Promise<${T}Summary> {
  const started = Date.now();
  const seen = new Map<string, number>();
  let attempts = 0;
  for (const record of records) {
    if (options.signal?.aborted) {
      throw new Error(\`run${T} aborted after \${attempts} attempts\`);
    }
    const key = \`\${record.kind}:\${record.id}\`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    options.onEvent?.({ type: '${noun}_updated', id: record.id, delta: String(record.weight) });
    attempts++;
    if (options.maxAttempts !== undefined && attempts >= options.maxAttempts) break;
  }
  return { count: seen.size, attempts, elapsedMs: Date.now() - started };
}
`;
}

function functionBlock(r: Rand, u: Unit, k: number, calls: string[]): string {
  const { T, noun } = u;
  const verb = pick(r, ['normalize', 'merge', 'score', 'collect', 'partition', 'dedupe', 'rank', 'summarize']);
  const threshold = (r() * 5).toFixed(2);
  const call = calls.length && r() < 0.5 ? `\n  const upstream = await ${pick(r, calls)}([], options as never);\n  if (upstream.count > 0) attempts += upstream.attempts;` : '';
  return `/**
 * ${cap(verb)}s ${noun} records whose weight passes ${threshold}, keeping the first of each id.
 * Records that arrive after the deadline are reported and dropped.
 */
export async function ${verb}${T}${k}(records: readonly ${T}Record[], options: ${T}Options): Promise<${T}Summary> {
  const started = Date.now();
  const deadline = started + (options.timeoutMs ?? ${1000 + Math.floor(r() * 9000)});
  const kept = new Map<string, ${T}Record>();
  let attempts = 0;${call}
  for (const record of records) {
    attempts++;
    if (Date.now() > deadline) {
      options.onEvent?.({ type: '${noun}_failed', id: record.id, error: new Error('deadline') });
      continue;
    }
    if (record.weight < ${threshold} || kept.has(record.id)) continue;
    const tags = record.tags.filter((t) => t.length > 0 && !t.startsWith('_'));
    kept.set(record.id, { ...record, tags, weight: Math.round(record.weight * ${Math.floor(r() * 90) + 10}) / 100 });
  }
  try {
    options.onEvent?.({ type: '${noun}_finished', id: options.${noun}Id, result: [...kept.keys()] });
  } catch (error) {
    options.onEvent?.({ type: '${noun}_failed', id: options.${noun}Id, error: error as Error });
  }
  return { count: kept.size, attempts, elapsedMs: Date.now() - started };
}
`;
}

function classBlock(r: Rand, u: Unit, k: number): string {
  const { T, noun } = u;
  const suffix = pick(r, SUFFIXES);
  return `export class ${T}${suffix}${k} {
  readonly #entries = new Map<string, ${T}Record>();
  #version = 0;

  constructor(private readonly options: ${T}Options) {}

  add(record: ${T}Record): this {
    if (this.#entries.has(record.id)) {
      this.options.onEvent?.({ type: '${noun}_updated', id: record.id, delta: 'replaced' });
    }
    this.#entries.set(record.id, record);
    this.#version++;
    return this;
  }

  remove(id: string): boolean {
    const removed = this.#entries.delete(id);
    if (removed) this.#version++;
    return removed;
  }

  get size(): number {
    return this.#entries.size;
  }

  *values(): IterableIterator<${T}Record> {
    yield* this.#entries.values();
  }

  heaviest(limit = ${1 + Math.floor(r() * 20)}): ${T}Record[] {
    return [...this.#entries.values()].sort((a, b) => b.weight - a.weight).slice(0, limit);
  }

  toJSON(): Record<string, unknown> {
    return { version: this.#version, entries: [...this.#entries.keys()], ${noun}Id: this.options.${noun}Id };
  }
}
`;
}

function switchBlock(u: Unit, k: number): string {
  const { T, noun } = u;
  return `export function describe${T}Event${k}(event: ${T}Event): string {
  switch (event.type) {
    case '${noun}_started':
      return \`started \${event.id} at \${new Date(event.at).toISOString()}\`;
    case '${noun}_updated':
      return \`updated \${event.id}: \${event.delta.slice(0, 80)}\`;
    case '${noun}_finished':
      return \`finished \${event.id}\`;
    case '${noun}_failed':
      return \`failed \${event.id}: \${event.error.message}\`;
    default:
      return 'unknown event';
  }
}
`;
}

function tableBlock(r: Rand, u: Unit, k: number): string {
  const { T, noun } = u;
  const rows: string[] = [];
  const n = 8 + Math.floor(r() * 30);
  for (let i = 0; i < n; i++) {
    const id = Math.floor(r() * 0xffffffff).toString(16).padStart(8, '0');
    const tags = Array.from({ length: 1 + Math.floor(r() * 3) }, () => `'${pick(r, NOUNS)}'`).join(', ');
    rows.push(`  { id: '${noun}_${id}', kind: '${r() < 0.7 ? noun : 'system'}', weight: ${(r() * 10).toFixed(3)}, tags: [${tags}], createdAt: '2024-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}T0${Math.floor(r() * 9)}:00:00Z' },`);
  }
  return `export const ${T.toUpperCase()}_FIXTURES_${k}: ${T}Record[] = [\n${rows.join('\n')}\n];\n`;
}

function testBlock(r: Rand, u: Unit, k: number, table: string | undefined): string {
  const { T, noun } = u;
  const n = 1 + Math.floor(r() * 8);
  const source = table ?? '[]';
  return `describe('run${T} ${k}', () => {
  it('keeps every ${noun} record once', async () => {
    const records = ${source}.slice(0, ${n});
    const result = await run${T}(records, { ${noun}Id: '${noun}-${k}' });
    expect(result.count).toBeLessThanOrEqual(records.length);
    expect(result).toMatchObject({ attempts: records.length });
  });

  it('reports progress events', async () => {
    const events: ${T}Event[] = [];
    const onEvent = vi.fn((event: ${T}Event) => events.push(event));
    await run${T}(${source}, { ${noun}Id: '${noun}-${k}', onEvent });
    expect(onEvent).toHaveBeenCalledTimes(events.length);
    expect(events.every((e) => e.type === '${noun}_updated')).toBe(true);
  });

  it('stops at maxAttempts', async () => {
    const result = await run${T}(${source}, { ${noun}Id: '${noun}-${k}', maxAttempts: ${n} });
    expect(result.attempts).toBeLessThanOrEqual(${n});
  });
});
`;
}

// ---------------------------------------------------------------------------------------------
// Mentions of openai (never a call site) and the real call sites.

/** Modules other packages import by workspace name. */
interface ByName {
  extensions: Unit[];
}

interface Snippet {
  imports: string[];
  body?: string;
}

/** The record type of a file: its own in package modules and tests, an inline one elsewhere. */
function recordType(u: Unit): string {
  return u.kind === 'src' || u.kind === 'test' ? `${u.T}Record` : '{ id: string; kind: string }';
}

function mentionTypes(r: Rand, u: Unit, k: number): Snippet {
  const { T, noun } = u;
  const Rec = recordType(u);
  const x = r();
  if (x < 0.5) {
    return {
      imports: [`import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';`],
      body: `/** Converts ${noun} records to the message shape of the provider. */
export function to${T}Messages${k}(records: readonly ${Rec}[]): ChatCompletionMessageParam[] {
  return records.map((record) => ({ role: 'user' as const, content: \`\${record.kind}: \${record.id}\` }));
}

export const ${noun}Tools${T}${k}: ChatCompletionTool[] = [
  { type: 'function', function: { name: '${noun}_lookup', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } },
];
`,
    };
  }
  if (x < 0.8) {
    return {
      imports: [`import type { ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';`],
      body: `export function to${T}InputItems${k}(records: readonly ${Rec}[]): ResponseInputItem[] {
  return records.map((record) => ({ role: 'user' as const, content: record.id }));
}

export function count${T}Outputs${k}(items: readonly ResponseOutputItem[]): number {
  return items.filter((item) => item.type === 'message').length;
}
`,
    };
  }
  return {
    imports: [`import type { ChatModel } from 'openai/resources/shared';`],
    body: `export const ${T.toUpperCase()}_DEFAULT_MODEL_${k}: ChatModel = 'gpt-4.1-mini';\n`,
  };
}

/** `import OpenAI from 'openai'`: client and type modules only. */
function mentionClient(r: Rand, u: Unit, k: number): Snippet {
  const { T } = u;
  if (r() < 0.5) {
    return {
      imports: [`import OpenAI from 'openai';`],
      body: `/** A client with this package's defaults; the key comes from the environment. */
export function create${T}Client${k}(apiKey = process.env.OPENAI_API_KEY): OpenAI {
  return new OpenAI({ apiKey, maxRetries: ${Math.floor(r() * 4)}, timeout: ${(10 + Math.floor(r() * 50)) * 1000} });
}
`,
    };
  }
  return {
    imports: [`import OpenAI from 'openai';`],
    body: `export type ${T}ClientLike${k} = Pick<OpenAI, 'responses' | 'models' | 'files'>;

export interface ${T}ClientOptions${k} {
  client?: OpenAI;
  organization?: string;
  project?: string;
}
`,
  };
}

function mentionWorkspace(r: Rand, u: Unit, k: number): Snippet {
  const { T } = u;
  if (r() < 0.5) {
    return {
      imports: [`import { OpenAIProvider } from '${SCOPE}/agents-openai';`],
      body: `export function ${T.toLowerCase()}Provider${k}(): OpenAIProvider {
  return new OpenAIProvider();
}
`,
    };
  }
  return {
    imports: [`import { setDefaultOpenAIClient, getDefaultOpenAIClient } from '${SCOPE}/agents-openai';`],
    body: `export function reuse${T}Client${k}(): void {
  setDefaultOpenAIClient(getDefaultOpenAIClient());
}
`,
  };
}

function mentionComment(r: Rand): Snippet {
  const topic = pick(r, TOPICS);
  return {
    imports: [],
    body: r() < 0.5
      ? `// Mirrors the provider's behaviour: https://platform.openai.com/docs/guides/${topic}\n`
      : `/**\n * The field names follow the provider's API reference.\n * @see https://platform.openai.com/docs/api-reference/${topic}\n */\n`,
  };
}

function mentionString(r: Rand, u: Unit, k: number): Snippet {
  const { T, noun } = u;
  const x = r();
  const asConst = u.kind === 'script' ? '' : ' as const';
  const body = x < 0.4
    ? `export const ${T.toUpperCase()}_LOGGER_SCOPE_${k} = 'dense-agents:openai:${noun}';\n`
    : x < 0.7
      ? `export const ${T.toUpperCase()}_PROVIDER_${k} = { provider: 'openai', model: 'gpt-4.1', ${noun}Limit: ${Math.floor(r() * 100)} }${asConst};\n`
      : `export const ${T.toUpperCase()}_ENDPOINT_${k} = 'wss://api.openai.com/v1/realtime?intent=${noun}';\n`;
  return { imports: [], body };
}

const SITE_TEMPLATES: { roles: Role[]; make: (n: number) => Snippet }[] = [
  {
    // a model adapter with an injected client (the framework's own chat model)
    roles: ['provider'],
    make: (n) => ({
      imports: [`import OpenAI from 'openai';`, `import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';`],
      body: `export class ChatCompletionsModel${n} {
  readonly #client: OpenAI;

  constructor(client: OpenAI, private readonly model = 'gpt-4.1-mini') {
    this.#client = client;
  }

  async getResponse(input: string, history: ChatCompletionMessageParam[] = []): Promise<string> {
    const messages: ChatCompletionMessageParam[] = [...history, { role: 'user', content: input }];
    const response = await this.#client.chat.completions.create({ model: this.model, messages, temperature: 0.2 });
    return response.choices[0]?.message?.content ?? '';
  }
}
`,
    }),
  },
  {
    // an example with its own client
    roles: ['example'],
    make: (n) => ({
      imports: [`import OpenAI from 'openai';`],
      body: `const client${n} = new OpenAI();

export async function ask${n}(question: string): Promise<string> {
  const completion = await client${n}.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: question },
    ],
  });
  return completion.choices[0]?.message?.content ?? '';
}
`,
    }),
  },
  {
    // the client comes from another workspace package, by name, through its barrel
    roles: ['extensions'],
    make: (n) => ({
      imports: [`import { getDefaultOpenAIClient } from '${SCOPE}/agents-openai';`],
      body: `export async function summarize${n}(text: string): Promise<string> {
  const client = getDefaultOpenAIClient();
  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: \`Summarize: \${text}\` }] });
  return r.choices[0]?.message?.content ?? '';
}
`,
    }),
  },
  {
    // streaming, the client through the umbrella package (export * of export *)
    roles: ['example'],
    make: (n) => ({
      imports: [`import { getDefaultOpenAIClient } from '${SCOPE}/agents';`],
      body: `export async function streamAnswer${n}(question: string): Promise<string> {
  const stream = await getDefaultOpenAIClient().chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: question }],
    stream: true,
  });
  let out = '';
  for await (const chunk of stream) out += chunk.choices[0]?.delta?.content ?? '';
  return out;
}
`,
    }),
  },
];

// ---------------------------------------------------------------------------------------------
// Fixed files: the anchors every package builds on.

function anchors(): Record<string, string> {
  const core = `packages/agents-core/src`;
  const provider = `packages/agents-openai/src`;
  return {
    [`${core}/agent.ts`]: `export interface Tool {
  name: string;
  description: string;
  invoke(input: string): Promise<string>;
}

export interface AgentConfig {
  name: string;
  instructions: string;
  model?: string;
  tools?: Tool[];
  handoffs?: Agent[];
}

export interface Model {
  getResponse(input: string): Promise<string>;
}

export interface ModelProvider {
  getModel(name?: string): Model;
}

export class Agent {
  constructor(readonly config: AgentConfig) {}

  get name(): string {
    return this.config.name;
  }

  clone(patch: Partial<AgentConfig>): Agent {
    return new Agent({ ...this.config, ...patch });
  }
}

export function tool(definition: Tool): Tool {
  return definition;
}

export async function run(agent: Agent, input: string): Promise<{ finalOutput: string }> {
  return { finalOutput: \`\${agent.name}: \${input}\` };
}
`,
    [`${core}/shims/shims-node.ts`]: `export const runtime = { name: 'node', version: process.versions.node } as const;\n`,
    [`${provider}/provider.ts`]: `import OpenAI from 'openai';
import type { Model, ModelProvider } from '${SCOPE}/agents-core';
import { ResponsesModel } from './openaiResponsesModel';

let defaultClient: OpenAI | undefined;

export function setDefaultOpenAIClient(client: OpenAI): void {
  defaultClient = client;
}

export function getDefaultOpenAIClient(): OpenAI {
  return (defaultClient ??= new OpenAI());
}

export class OpenAIProvider implements ModelProvider {
  constructor(private readonly client: OpenAI = getDefaultOpenAIClient()) {}

  getModel(name = 'gpt-4.1'): Model {
    return new ResponsesModel(this.client, name);
  }
}
`,
    [`${provider}/openaiResponsesModel.ts`]: `import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { Model } from '${SCOPE}/agents-core';

export class ResponsesModel implements Model {
  constructor(readonly client: OpenAI, readonly model: string) {}

  async getResponse(input: string): Promise<string> {
    const items: ResponseInputItem[] = [{ role: 'user', content: input }];
    const response = await this.client.responses.create({ model: this.model, input: items });
    return response.output_text;
  }
}
`,
    [`packages/agents-realtime/src/session.ts`]: `import { Agent } from '${SCOPE}/agents-core';

export const DEFAULT_REALTIME_URL = 'wss://api.openai.com/v1/realtime';

export class RealtimeSession {
  constructor(readonly agent: Agent, readonly url = DEFAULT_REALTIME_URL) {}
}
`,
    [`packages/agents/src/realtime/index.ts`]: `export * from '${SCOPE}/agents-realtime';\n`,
  };
}

// ---------------------------------------------------------------------------------------------

export function generateDense(spec: DenseSpec): DenseStats {
  const r = rng(spec.seed ?? 42);
  const mentionTarget = spec.mentionRatio ?? 0.5;
  const fixed = anchors();
  const fixedCount = Object.keys(fixed).length;
  const units: Unit[] = [];
  let serial = 0;
  const usedNames = new Set<string>();
  const stem = () => {
    for (;;) {
      const name = `${cap(pick(r, NOUNS))}${pick(r, SUFFIXES)}`;
      const T = `${name}${serial++}`;
      if (!usedNames.has(T)) {
        usedNames.add(T);
        return T;
      }
    }
  };

  // how many files each part gets; the fixed files and barrels are counted in their package
  const budget = Math.max(60, spec.files) - fixedCount;
  const counts = PACKAGES.map((p) => Math.max(4, Math.round(budget * p.share)));
  const docsCount = Math.max(4, Math.round(budget * 0.14));
  const examplesCount = Math.max(4, budget - counts.reduce((a, b) => a + b, 0) - docsCount);

  // scale the relative mention rates so that the expected ratio is the target
  const expected = (PACKAGES.reduce((a, p, i) => a + counts[i] * p.mention, 0) + examplesCount * EXAMPLE_MENTION + docsCount * DOCS_MENTION) / budget;
  const scale = mentionTarget / expected;
  const mentions = (rate: number) => r() < Math.min(1, rate * scale);

  const barrels = new Map<string, string[]>(); // barrel file → modules it re-exports
  for (const [i, p] of PACKAGES.entries()) {
    const pkgDir = `packages/${p.name}`;
    const tests = Math.round(counts[i] * p.tests);
    const areaCount = Math.max(1, Math.round((counts[i] - tests) / 16));
    const areas = Array.from({ length: areaCount }, (_, a) => (a < AREAS.length ? AREAS[a] : `${AREAS[a % AREAS.length]}${Math.floor(a / AREAS.length)}`));
    // barrels: src/index.ts and one per area (counted as files of the package)
    const srcModules = counts[i] - tests - areas.length - 1;
    for (let m = 0; m < Math.max(1, srcModules); m++) {
      const area = areas[m % areas.length];
      const T = stem();
      const noun = NOUNS[serial % NOUNS.length];
      units.push({ rel: `${pkgDir}/src/${area}/${T[0].toLowerCase()}${T.slice(1)}.ts`, role: p.role, kind: 'src', pkgDir, area, T, noun, mention: mentions(p.mention) });
    }
    const srcUnits = units.filter((u) => u.pkgDir === pkgDir && u.kind === 'src');
    for (let t = 0; t < tests; t++) {
      const target = srcUnits[t % srcUnits.length];
      const T = stem();
      units.push({ rel: `${pkgDir}/test/${target.area}/${T[0].toLowerCase()}${T.slice(1)}.test.ts`, role: p.role, kind: 'test', pkgDir, area: target.area, T: target.T, noun: target.noun, mention: mentions(p.mention) });
    }
    for (const area of areas) barrels.set(`${pkgDir}/src/${area}/index.ts`, srcUnits.filter((u) => u.area === area).map((u) => `./${path.basename(u.rel, '.ts')}`));
    barrels.set(`${pkgDir}/src/index.ts`, areas.map((a) => `./${a}/index`));
  }
  for (let e = 0; e < examplesCount; e++) {
    const ex = EXAMPLES[e % EXAMPLES.length];
    const x = r();
    const kind: Kind = ex === 'nextjs' || ex === 'realtime-demo' ? 'tsx' : x < 0.06 ? 'script' : 'example';
    const T = stem();
    const base = `${T[0].toLowerCase()}${T.slice(1)}`;
    units.push({ rel: `examples/${ex}/${kind === 'tsx' ? `app/${base}.tsx` : kind === 'script' ? `scripts/${base}.mjs` : `${base}.ts`}`, role: 'example', kind, pkgDir: `examples/${ex}`, T, noun: NOUNS[serial % NOUNS.length], mention: mentions(EXAMPLE_MENTION) });
  }
  for (let d = 0; d < docsCount; d++) {
    const topic = DOC_TOPICS[d % DOC_TOPICS.length];
    const T = stem();
    units.push({ rel: `examples/docs/${topic}/${T[0].toLowerCase()}${T.slice(1)}.ts`, role: 'docs', kind: 'doc', pkgDir: 'examples/docs', T, noun: NOUNS[serial % NOUNS.length], mention: mentions(DOCS_MENTION) });
  }

  // real call sites, evenly spread over the files of the roles each template fits
  const siteCount = Math.max(1, Math.round(spec.files * (spec.siteRatio ?? 0.003)));
  for (let s = 0; s < siteCount; s++) {
    const t = SITE_TEMPLATES[s % SITE_TEMPLATES.length];
    const eligible = units.filter((u) => t.roles.includes(u.role) && (u.kind === 'src' || u.kind === 'example') && u.site === undefined);
    const slot = eligible[Math.floor(((Math.floor(s / SITE_TEMPLATES.length) + 0.5) * eligible.length) / Math.ceil(siteCount / SITE_TEMPLATES.length)) % eligible.length];
    slot.site = s;
    slot.mention = true;
  }

  // ---- write
  rmSync(spec.dir, { recursive: true, force: true });
  const stats: DenseStats = {
    profile: 'dense', files: 0, mentioning: 0, candidates: 0, parseFloorCandidates: 0, withSites: 0, bytes: 0,
    sizes: { under2k: 0, from2kTo20k: 0, from20kTo50k: 0, over50k: 0 }, largestBytes: 0, nodeModulesFiles: 0, rootTsconfig: spec.rootTsconfig,
  };
  const writeRaw = (rel: string, text: string) => {
    const file = path.join(spec.dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  const writeSource = (rel: string, text: string, mention: boolean, site: boolean) => {
    if (!mention && PREFILTER.test(text)) throw new Error(`generator bug: ${rel} was drawn not to mention openai but does`);
    writeRaw(rel, text);
    stats.files++;
    stats.bytes += text.length;
    if (text.includes('openai')) stats.mentioning++;
    if (PREFILTER.test(text)) stats.candidates++;
    if (PARSE_FLOOR.test(text)) stats.parseFloorCandidates++;
    if (site) stats.withSites++;
    const n = text.length;
    if (n < 2000) stats.sizes.under2k++;
    else if (n < 20000) stats.sizes.from2kTo20k++;
    else if (n < 50000) stats.sizes.from20kTo50k++;
    else stats.sizes.over50k++;
    stats.largestBytes = Math.max(stats.largestBytes, n);
  };

  for (const [rel, text] of Object.entries(fixed)) writeSource(rel, text, true, false);
  for (const [rel, mods] of barrels) {
    const extra = rel === 'packages/agents-core/src/index.ts' ? [`export * from './agent';`] : rel === 'packages/agents-openai/src/index.ts' ? [`export * from './provider';`, `export * from './openaiResponsesModel';`] : rel === 'packages/agents/src/index.ts' ? [`export * from '${SCOPE}/agents-core';`, `export * from '${SCOPE}/agents-openai';`] : rel === 'packages/agents-realtime/src/index.ts' ? [`export * from './session';`] : [];
    const text = `${[...extra, ...mods.map((m) => `export * from '${m}';`)].join('\n')}\n`;
    writeSource(rel, text, true, false);
  }

  const byName: ByName = { extensions: units.filter((u) => u.role === 'extensions' && u.kind === 'src') };
  const byPkg = new Map<string, Unit[]>();
  for (const u of units) {
    const list = byPkg.get(u.pkgDir) ?? [];
    list.push(u);
    byPkg.set(u.pkgDir, list);
  }
  for (const u of units) {
    const text = sourceFile(r, u, byPkg.get(u.pkgDir) ?? [], byName);
    writeSource(u.rel, text, u.mention, u.site !== undefined);
  }

  // configuration: workspace, packages, tsconfigs
  writeRaw('package.json', `${JSON.stringify({ name: 'dense-agents', private: true, type: 'module', workspaces: ['packages/*', 'examples/*'], devDependencies: { typescript: '^5.9.0', vitest: '^3.0.0' } }, null, 2)}\n`);
  const basePaths: Record<string, string[]> = {};
  for (const p of PACKAGES.filter((q) => q.paths)) {
    basePaths[`${SCOPE}/${p.name}`] = [`./packages/${p.name}/src/index.ts`];
    basePaths[`${SCOPE}/${p.name}/*`] = [`./packages/${p.name}/src/*`];
  }
  writeRaw('tsconfig.base.json', `${JSON.stringify({
    compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, esModuleInterop: true, skipLibCheck: true, noEmit: true, types: [], paths: basePaths },
  }, null, 2)}\n`);
  if (spec.rootTsconfig) writeRaw('tsconfig.json', `${JSON.stringify({ extends: './tsconfig.base.json', include: ['packages/*/src', 'packages/*/test', 'examples'] }, null, 2)}\n`);
  for (const p of PACKAGES) {
    const dir = `packages/${p.name}`;
    // packages resolved through paths publish dist (paths are how the source is found); the others export their source
    const exp = (sub: string) => (p.paths ? { types: `./dist/${sub}.d.ts`, import: `./dist/${sub}.mjs` } : { types: `./src/${sub}.ts`, default: `./src/${sub}.ts` });
    const deps: Record<string, string> = { openai: '^6.0.0' };
    for (const d of p.deps) deps[`${SCOPE}/${d}`] = 'workspace:*';
    writeRaw(`${dir}/package.json`, `${JSON.stringify({ name: `${SCOPE}/${p.name}`, version: '0.1.0', type: 'module', exports: { '.': exp('index'), './*': exp('*/index') }, dependencies: deps }, null, 2)}\n`);
    const own = p.role === 'core' ? { paths: { [`${SCOPE}/agents-core`]: ['./src/index.ts'], [`${SCOPE}/agents-core/_shims`]: ['./src/shims/shims-node.ts'], [`${SCOPE}/agents-core/*`]: ['./src/*'] } } : {};
    writeRaw(`${dir}/tsconfig.json`, `${JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { rootDir: '.', outDir: './dist', ...own }, include: ['src', 'test'] }, null, 2)}\n`);
  }
  for (const ex of new Set(units.filter((u) => u.role === 'example' || u.role === 'docs').map((u) => u.pkgDir))) {
    writeRaw(`${ex}/package.json`, `${JSON.stringify({ name: `dense-example-${path.basename(ex)}`, private: true, type: 'module', dependencies: { [`${SCOPE}/agents`]: 'workspace:*', openai: '^6.0.0', zod: '^3.25.0' } }, null, 2)}\n`);
    writeRaw(`${ex}/tsconfig.json`, `${JSON.stringify({ extends: '../../tsconfig.base.json', include: ['.'] }, null, 2)}\n`);
  }
  writeRaw('.gitignore', 'node_modules/\ndist/\n');
  // an installed dependency that mentions openai: never scanned
  for (let i = 0; i < 40; i++) {
    writeRaw(`node_modules/fake-sdk/lib/m${i}.js`, `const OpenAI = require('openai');\nmodule.exports = () => new OpenAI().chat.completions.create({ model: 'x', messages: [] });\n`);
    stats.nodeModulesFiles++;
  }
  return stats;
}

/** One generated file: header, mentions and site, then blocks up to its drawn size. */
function sourceFile(r: Rand, u: Unit, siblings: Unit[], all: ByName): string {
  const size = targetSize(r, u.kind);
  const imports: string[] = [];
  const pre: string[] = [];
  const blocks: string[] = [];
  const calls: string[] = [];

  if (u.kind === 'src' || u.kind === 'test') {
    if (u.kind === 'test') {
      imports.push(`import { describe, expect, it, vi } from 'vitest';`);
      const srcRel = siblings.find((s) => s.kind === 'src' && s.T === u.T)?.rel ?? '';
      const fromTest = path.posix.relative(path.posix.dirname(u.rel), srcRel).replace(/\.ts$/, '');
      imports.push(`import { run${u.T}, type ${u.T}Event, type ${u.T}Record } from '${fromTest}';`);
    } else {
      // a few imports of earlier modules: relative, through the package's paths alias, or by package name
      const earlier = siblings.filter((s) => s.kind === 'src' && s !== u && s.T !== u.T);
      const n = Math.floor(r() * 4);
      for (let i = 0; i < n && earlier.length; i++) {
        const s = pick(r, earlier);
        const name = `run${s.T}`;
        if (calls.includes(name)) continue;
        calls.push(name);
        const x = r();
        let spec = path.posix.relative(path.posix.dirname(u.rel), s.rel).replace(/\.ts$/, '');
        if (!spec.startsWith('.')) spec = `./${spec}`;
        if (u.role === 'core' && x < 0.3) spec = `${SCOPE}/agents-core/${s.area}`;
        else if (x < 0.2) spec = `${spec}.js`;
        imports.push(`import { ${name} } from '${spec}';`);
      }
      if (u.role !== 'core' && r() < 0.5) {
        imports.push(`import { Agent, type AgentConfig } from '${SCOPE}/agents-core';`);
        blocks.push(`export function ${u.T.toLowerCase()}Agent(config: Partial<AgentConfig> = {}): Agent {\n  return new Agent({ name: '${u.noun}', instructions: 'Handle ${u.noun} requests.', ...config });\n}\n`);
      }
      if (u.role === 'core' && r() < 0.1) imports.push(`import { runtime } from '${SCOPE}/agents-core/_shims';`);
      if ((u.role === 'extensions' || u.role === 'umbrella') && r() < 0.2) {
        imports.push(`import { RealtimeSession } from '${SCOPE}/agents-realtime';`);
        blocks.push(`export function ${u.T.toLowerCase()}Session(agent: Agent): RealtimeSession {\n  return new RealtimeSession(agent);\n}\n`);
        if (!imports.some((i) => i.includes('{ Agent,'))) imports.push(`import { Agent } from '${SCOPE}/agents-core';`);
      }
    }
  } else if (u.kind === 'example' || u.kind === 'doc') {
    imports.push(`import { Agent, run, tool } from '${SCOPE}/agents';`);
    if (r() < 0.3) {
      imports.push(`import { z } from 'zod';`);
      pre.push(`export const ${u.noun}Input${u.T} = z.object({ id: z.string(), note: z.string().optional() });\n`);
    }
    if (r() < 0.15 && all.extensions.length) {
      // by workspace name only (no paths entry), through the package's barrels
      const e = pick(r, all.extensions);
      imports.push(`import { run${e.T} } from '${SCOPE}/agents-extensions';`);
      pre.push(`export const ${u.noun}Extension${u.T} = run${e.T};\n`);
    }
    pre.push(`const agent = new Agent({\n  name: '${cap(u.noun)} assistant',\n  instructions: 'You help with ${u.noun} questions. Keep answers short.',\n  tools: [\n    tool({ name: 'lookup_${u.noun}', description: 'Look a ${u.noun} up by id.', invoke: async (id) => \`${u.noun} \${id}\` }),\n  ],\n});\n`);
    pre.push(`export async function main${u.T}(): Promise<void> {\n  const result = await run(agent, 'What is the status of ${u.noun} ${Math.floor(r() * 1000)}?');\n  console.log(result.finalOutput);\n}\n`);
  } else if (u.kind === 'tsx') {
    imports.push(`import { useState } from 'react';`, `import { Agent, run } from '${SCOPE}/agents';`);
  } else {
    imports.push(`import { readFile } from 'node:fs/promises';`);
  }

  if (u.mention && u.site === undefined) {
    const count = 1 + Math.floor(r() * r() * 3);
    for (let m = 0; m < count; m++) {
      const x = r();
      const mayClient = u.role === 'provider' || u.role === 'example' || u.role === 'docs' || (u.role === 'extensions' && u.kind === 'src');
      const mayWorkspace = u.role !== 'core' && u.role !== 'provider' && u.role !== 'realtime' && u.kind !== 'script';
      let s: Snippet;
      if (u.kind === 'script') s = x < 0.5 ? mentionComment(r) : mentionString(r, u, m);
      else if (x < 0.3 && mayClient) s = mentionClient(r, u, m);
      else if (x < 0.5 && u.kind !== 'tsx' && (u.role !== 'core' || r() < 0.5)) s = mentionTypes(r, u, m);
      else if (x < 0.65 && mayWorkspace) s = mentionWorkspace(r, u, m);
      else if (x < 0.85) s = mentionComment(r);
      else s = mentionString(r, u, m);
      for (const i of s.imports) if (!imports.includes(i)) imports.push(i);
      if (s.body) blocks.push(s.body);
    }
  }
  if (u.site !== undefined) {
    const t = SITE_TEMPLATES[u.site % SITE_TEMPLATES.length].make(u.site);
    for (const i of t.imports) if (!imports.includes(i)) imports.push(i);
    if (t.body) blocks.push(t.body);
  }

  let text = `${imports.join('\n')}\n\n`;
  if (u.kind === 'src') text += typesBlock(u);
  if (u.kind === 'tsx') {
    text += `export function ${u.T}Panel({ title }: { title: string }) {\n  const [answer, setAnswer] = useState('');\n  const agent = new Agent({ name: '${u.noun}', instructions: 'Answer in one line.' });\n  return (\n    <section className="panel">\n      <h2 onClick={async () => setAnswer((await run(agent, title)).finalOutput)}>{title}</h2>\n      <p>{answer}</p>\n    </section>\n  );\n}\n`;
  }
  text += pre.join('\n');
  // mentions and the site go at a random place among the generated blocks
  const placed = [...blocks];
  const extra: string[] = [];
  let k = 0;
  let table: string | undefined;
  let length = text.length + placed.reduce((a, b) => a + b.length, 0);
  while (length < size) {
    let b: string;
    const x = r();
    if (u.kind === 'test') {
      if (!table || x < 0.25) {
        b = tableBlock(r, u, k);
        table = `${u.T.toUpperCase()}_FIXTURES_${k}`;
      } else b = testBlock(r, u, k, table);
    } else if (u.kind === 'script') {
      b = `export async function load${u.T}${k}(file) {\n  const text = await readFile(file, 'utf8');\n  return text.split('\\n').filter((line) => line.trim() && !line.startsWith('#')).map((line, i) => ({ line: i + 1, value: line.trim() }));\n}\n`;
    } else if (u.kind === 'example' || u.kind === 'doc' || u.kind === 'tsx') {
      b = x < 0.5 ? `export async function ${u.noun}Step${u.T}${k}(input: string): Promise<string> {\n  const result = await run(agent${u.kind === 'tsx' ? `${k}` : ''}, \`${cap(u.noun)} step ${k}: \${input}\`);\n  return result.finalOutput.trim();\n}\n` : `export const ${u.noun}Prompt${u.T}${k} = [\n  'You are a careful ${u.noun} assistant.',\n  'Step ${k}: check the ${pick(r, NOUNS)} before answering.',\n  'Never invent a ${pick(r, NOUNS)} id.',\n].join('\\n');\n`;
      if (u.kind === 'tsx' && x < 0.5) b = `const agent${k} = new Agent({ name: '${u.noun}-${k}', instructions: 'Step ${k}.' });\n${b}`;
    } else {
      b = x < 0.35 ? functionBlock(r, u, k, calls) : x < 0.6 ? classBlock(r, u, k) : x < 0.8 ? switchBlock(u, k) : tableBlock(r, u, k);
    }
    extra.push(b);
    length += b.length + 1;
    k++;
  }
  for (const b of placed) extra.splice(Math.floor(r() * (extra.length + 1)), 0, b);
  if (u.kind === 'src' && u.role === 'core' && imports.some((i) => i.includes('_shims'))) extra.push(`export const ${u.T.toLowerCase()}Runtime = runtime.name;\n`);
  text += (text.endsWith('\n\n') || text.endsWith('}\n') ? '' : '\n') + extra.join('\n');
  return text;
}
