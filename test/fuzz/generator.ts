/**
 * A seeded, grammar-based generator of small Chat Completions programs built from the shapes of
 * docs/migration-spec.md §10 (the pattern catalogue). `generateProgram(seed)` is a pure function of the
 * seed: the same seed always gives the same files, byte for byte (no Math.random, no clock).
 *
 * Every program is meant to be valid Chat Completions code for openai 6 (`.ts` files type-check
 * under strict mode; `.cjs` files are plain JavaScript). `sites` is the exact number of Chat
 * Completions call sites (A-CREATE / A-PARSE / A-STREAM) the program contains, which is what the
 * report must list. Non-targets (N01, N02, N03, N06, N07) may be mixed in; they count for nothing.
 *
 * `expected` says, per function or method that holds sites, how many it holds and what the report
 * must say about them: the provider (exact, from the client's construction: P-DEFAULT,
 * P-OPENAI-HOST, P-NONOPENAI, P-RUNTIME, P-INJECTED; for an injected client, from what a second
 * module of callers passes, W-INJECTED), the status when it is certain (`ignored` under
 * the opt-out comment, `manual` when a shape forces a reason), and the reasons a shape forces
 * (a reflective read of the result, the result returned or passed on…). Reasons that depend on
 * interactions the generator does not model are not predicted; what is predicted is exact.
 *
 * Three random streams: the first draws every choice the generator made before the shapes of issue 11
 * (reflective reads, mixin heritage, getters, private members, `.bind`, path aliases and workspace
 * packages) and of issue 12 (injected clients filled by a module of callers: a constructor
 * parameter, a function parameter, an options object; see callersModule); those shapes draw from
 * the second, so a seed that draws none of them gives the same program as before. The third
 * decides first whether the seed gives a follow program (issue 12, `followProgram`: several
 * modules of one package, the completion or stream returned to callers, passed to helpers and
 * consumers, and the W-EDGE cases, a plugin loader that imports the package's modules by a
 * computed path among them) and draws all its choices; the other seeds give the same program as
 * before it.
 */

import path from 'node:path';

// ---------------------------------------------------------------------------------------------
// PRNG (mulberry32 over a mixed seed)

export class Rng {
  private state: number;

  constructor(seed: number) {
    let s = (Math.imul(seed | 0, 0x9e3779b1) ^ 0x85ebca6b) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x7feb352d) >>> 0;
    this.state = (s ^ (s >>> 15)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((n, [, w]) => n + w, 0);
    let x = this.next() * total;
    for (const [v, w] of items) {
      if ((x -= w) < 0) return v;
    }
    return items[items.length - 1][0];
  }

  /** Up to `max` distinct items, in a random order. */
  some<T>(items: readonly T[], max: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    const n = this.int(Math.min(max, pool.length) + 1);
    for (let i = 0; i < n; i++) out.push(pool.splice(this.int(pool.length), 1)[0]);
    return out;
  }
}

/**
 * The second stream in `classic` mode: every draw takes its first or "no" answer, which is the
 * choice the generator made before the second stream existed, so the program is the one the
 * regression seeds were recorded with.
 */
class ClassicRng extends Rng {
  constructor() {
    super(0);
  }

  override int(): number {
    return 0;
  }

  override bool(): boolean {
    return false;
  }

  override pick<T>(items: readonly T[]): T {
    return items[0];
  }

  override weighted<T>(items: readonly (readonly [T, number])[]): T {
    return items[0][0];
  }
}

// ---------------------------------------------------------------------------------------------
// Formatting style and a tiny expression printer

export interface Style {
  indent: string;
  semi: boolean;
  quote: "'" | '"';
  trailingComma: boolean;
  eol: '\n' | '\r\n';
}

/** Raw code, an object literal or an array literal. */
type X = string | Obj | Arr;
interface Obj { t: 'obj'; entries: Entry[]; multi?: boolean }
interface Arr { t: 'arr'; items: X[]; multi?: boolean }
type Entry =
  | { k: 'prop'; key: string; v: X }
  | { k: 'short'; key: string }
  | { k: 'spread'; v: X }
  | { k: 'comment'; text: string };

const obj = (entries: Entry[], multi?: boolean): Obj => ({ t: 'obj', entries, multi });
const arr = (items: X[], multi?: boolean): Arr => ({ t: 'arr', items, multi });
const prop = (key: string, v: X): Entry => ({ k: 'prop', key, v });
const short = (key: string): Entry => ({ k: 'short', key });
const spread = (v: X): Entry => ({ k: 'spread', v });

class Printer {
  constructor(private readonly st: Style, private readonly rng: Rng) {}

  ind(depth: number): string {
    return this.st.indent.repeat(depth);
  }

  /** A string literal in the chosen quote style. */
  str(text: string): string {
    const q = this.st.quote;
    const body = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').split(q).join(`\\${q}`);
    return `${q}${body}${q}`;
  }

  /** Prints `x` as if it started on a line indented `depth` levels. */
  print(x: X, depth: number): string {
    if (typeof x === 'string') return x;
    if (x.t === 'arr') {
      if (x.items.length === 0) return '[]';
      const multi = x.multi ?? (x.items.length > 1 && this.rng.bool(0.35));
      if (!multi) return `[${x.items.map((i) => this.print(i, depth)).join(', ')}]`;
      const lines = x.items.map((i) => `${this.ind(depth + 1)}${this.print(i, depth + 1)}`);
      return `[\n${lines.join(',\n')}${this.st.trailingComma ? ',' : ''}\n${this.ind(depth)}]`;
    }
    const entries = x.entries;
    const multi = x.multi ?? (entries.length > 2 && this.rng.bool(0.3));
    if (!multi) {
      const shown = entries.filter((e) => e.k !== 'comment');
      if (shown.length === 0) return '{}';
      return `{ ${shown.map((e) => this.entry(e, depth)).join(', ')} }`;
    }
    if (entries.length === 0) return '{}';
    const out: string[] = [];
    const last = entries.map((e) => e.k !== 'comment').lastIndexOf(true);
    entries.forEach((e, i) => {
      const text = this.entry(e, depth + 1);
      const comma = e.k === 'comment' ? '' : i < last || this.st.trailingComma ? ',' : '';
      out.push(`${this.ind(depth + 1)}${text}${comma}`);
    });
    return `{\n${out.join('\n')}\n${this.ind(depth)}}`;
  }

  private entry(e: Entry, depth: number): string {
    switch (e.k) {
      case 'prop': return `${e.key}: ${this.print(e.v, depth)}`;
      case 'short': return e.key;
      case 'spread': return `...${this.print(e.v, depth)}`;
      case 'comment': return `// ${e.text}`;
    }
  }
}

/** Lines of code with an indentation depth each; statements get the style's terminator. */
class Writer {
  readonly lines: string[] = [];
  depth = 0;

  constructor(private readonly p: Printer, private readonly st: Style) {}

  /** A line that is not a statement end (block heads, closing braces, comments). */
  line(text: string): void {
    this.lines.push(text === '' ? '' : `${this.p.ind(this.depth)}${text}`);
  }

  stmt(text: string): void {
    this.line(`${text}${this.st.semi ? ';' : ''}`);
  }

  open(head: string): void {
    this.line(`${head} {`);
    this.depth++;
  }

  close(tail = ''): void {
    this.depth--;
    this.line(`}${tail}`);
  }

  blank(): void {
    if (this.lines.length && this.lines[this.lines.length - 1] !== '') this.lines.push('');
  }
}

// ---------------------------------------------------------------------------------------------
// Program context

type ClientHost =
  | 'module' // const client = new OpenAI(…) at module level
  | 'exported' // export const client = new OpenAI(…) in client.ts, imported by the main file (TS only)
  | 'exported-default' // export default new OpenAI(…) in client.ts (TS only)
  | 'class-field' // class field initialiser (this.client)
  | 'class-ctor' // assigned in the constructor (this.client)
  | 'injected-param' // a function parameter
  | 'injected-ctor'; // a constructor parameter stored on this

type Import = 'default' | 'alias' | 'cjs-alias' | 'cjs-default';
type BaseUrl = 'none' | 'openai' | 'vendor' | 'env';
type Spelling = 'dot' | 'split' | 'optional' | 'element';

interface Ctx {
  rng: Rng;
  /** The second stream (the shapes of issue 11; see the header). */
  x: Rng;
  /** Reasons the block being written forces on its sites (code or code:detail). */
  forced: string[];
  st: Style;
  p: Printer;
  ts: boolean;
  cjs: boolean;
  host: ClientHost;
  classMode: boolean;
  injected: boolean;
  /** The client expression inside a function body. */
  clientRef: string;
  /** The client's class name as imported (for `new` and for injected parameter types). */
  className: string;
  typeImports: Set<string>;
  zod: boolean;
  /** Module-level statements (already printed, one string per line, depth 0). */
  prelude: string[];
  preludeNames: Set<string>;
  shapes: Set<string>;
  model: string;
  /** The completions resource the client module exports for the calls made through it (W-FOLLOW). */
  exportedResource?: string;
}

interface Block {
  name: string;
  params: [string, string][];
  body: (w: Writer) => void;
  sites: number;
  /** Reasons forced on the block's sites, filled while its body is written. */
  forced: string[];
  /** Written under `// migrate-responses-ignore`. */
  ignored?: boolean;
  /** The call does not go through the client directly: the provider is not predicted. */
  providerUnchecked?: boolean;
  /** How the call reaches `create` when not directly. */
  receiver?: string;
}

/** A reason every site of the block being written must carry. */
function force(ctx: Ctx, reason: string): void {
  if (!ctx.forced.includes(reason)) ctx.forced.push(reason);
}

const CHAT_TYPES = 'openai/resources/chat/completions';

function shape(ctx: Ctx, name: string): void {
  ctx.shapes.add(name);
}

/** A statement at module level, printed once per name. */
function addPrelude(ctx: Ctx, name: string, build: (w: Writer) => void): void {
  if (ctx.preludeNames.has(name)) return;
  ctx.preludeNames.add(name);
  const w = new Writer(ctx.p, ctx.st);
  build(w);
  ctx.prelude.push(...w.lines, '');
}

function typeRef(ctx: Ctx, name: string): string {
  ctx.typeImports.add(name);
  return name;
}

/** `: T` in TypeScript, nothing in JavaScript. */
function ann(ctx: Ctx, type: string): string {
  return ctx.ts ? `: ${type}` : '';
}

// ---------------------------------------------------------------------------------------------
// Call sites

function callee(ctx: Ctx, method: 'create' | 'parse' | 'stream', depth: number): { head: string; argDepth: number } {
  const spelling = ctx.rng.weighted<Spelling>([['dot', 5], ['split', 2], ['optional', 1.5], ['element', 1]]);
  shape(ctx, `call:${spelling}`);
  const ref = ctx.clientRef;
  switch (spelling) {
    case 'dot': return { head: `${ref}.chat.completions.${method}(`, argDepth: depth };
    case 'split': return { head: `${ref}.chat.completions\n${ctx.p.ind(depth + 1)}.${method}(`, argDepth: depth + 1 };
    case 'optional': return { head: `${ref}?.chat.completions.${method}(`, argDepth: depth };
    case 'element': {
      const s = (x: string) => ctx.p.str(x);
      return { head: `${ref}[${s('chat')}][${s('completions')}][${s(method)}](`, argDepth: depth };
    }
  }
}

/** `<client>.chat.completions.<method>(<arg>)` printed at `depth`. */
function call(ctx: Ctx, method: 'create' | 'parse' | 'stream', arg: X, depth: number): string {
  const { head, argDepth } = callee(ctx, method, depth);
  return `${head}${ctx.p.print(arg, argDepth)})`;
}

// ---------------------------------------------------------------------------------------------
// Params, messages

type Purpose = 'create' | 'stream' | 'helper' | 'parse' | 'tools';

const NUMERIC_KEYS = ['temperature', 'max_tokens', 'max_completion_tokens', 'top_p', 'seed', 'n'] as const;

function numericValue(ctx: Ctx, key: string): string {
  switch (key) {
    case 'temperature': return ctx.rng.pick(['0', '0.2', '1']);
    case 'max_tokens': return ctx.rng.weighted([['256', 6], ['1024', 3], ['8', 1]]);
    case 'max_completion_tokens': return ctx.rng.pick(['512', '2048']);
    case 'top_p': return '0.9';
    case 'seed': return '42';
    case 'n': return ctx.rng.weighted([['2', 3], ['1', 1]]);
    default: return '1';
  }
}

function jsonSchemaFormat(ctx: Ctx): Obj {
  const s = (x: string) => ctx.p.str(x);
  const schema = obj([
    prop('type', s('object')),
    prop('properties', obj([prop('answer', obj([prop('type', s('string'))]))])),
    prop('required', arr([s('answer')])),
    prop('additionalProperties', 'false'),
  ]);
  const inner: Entry[] = [prop('name', s('answer')), prop('schema', schema)];
  if (ctx.rng.bool(0.6)) inner.push(prop('strict', 'true'));
  return obj([prop('type', s('json_schema')), prop('json_schema', obj(inner))]);
}

/** Extra request keys from the safe and unsafe sets, never repeating a key already used. */
function extraKeys(ctx: Ctx, purpose: Purpose, used: Set<string>): Entry[] {
  const s = (x: string) => ctx.p.str(x);
  const rng = ctx.rng;
  const out: Entry[] = [];
  const pool: [string, number][] = [
    ['temperature', 3], ['max_tokens', 2], ['max_completion_tokens', 2], ['reasoning_effort', 1.5],
    ['verbosity', 1], ['store', 1], ['metadata', 1], ['top_p', 0.5], ['user', 0.5],
    ['n', 0.7], ['stop', 0.7], ['seed', 0.7], ['logit_bias', 0.5],
  ];
  if (purpose !== 'parse') pool.push(['response_format_json_object', 1], ['response_format_json_schema', 1]);
  const count = rng.weighted([[0, 3], [1, 4], [2, 3], [3, 1.5]]);
  for (let i = 0; i < count; i++) {
    const key = rng.weighted(pool);
    const base = key.startsWith('response_format') ? 'response_format' : key;
    if (used.has(base)) continue;
    used.add(base);
    shape(ctx, `param:${key}`);
    switch (key) {
      case 'reasoning_effort': out.push(prop(key, s(rng.pick(['low', 'medium', 'minimal', 'high'])))); break;
      case 'verbosity': out.push(prop(key, s(rng.pick(['low', 'medium', 'high'])))); break;
      case 'store': out.push(prop(key, rng.pick(['true', 'false']))); break;
      case 'metadata': out.push(prop(key, obj([prop('app', s('fuzz')), prop('run', s(String(rng.int(9))))]))); break;
      case 'user': out.push(prop(key, s('user-1234'))); break;
      case 'stop': out.push(prop(key, rng.bool() ? s('END') : arr([s('###'), s('END')]))); break;
      case 'logit_bias': out.push(prop(key, obj([prop(s('50256'), '-100')]))); break;
      case 'response_format_json_object': out.push(prop('response_format', obj([prop('type', s('json_object'))]))); break;
      case 'response_format_json_schema': out.push(prop('response_format', jsonSchemaFormat(ctx))); break;
      default: out.push(prop(key, numericValue(ctx, key)));
    }
  }
  return out;
}

/** `...(flag ? { A } : { B })` over numeric keys not used elsewhere. */
function conditionalSpread(ctx: Ctx, flag: string, used: Set<string>): Entry | undefined {
  const free = NUMERIC_KEYS.filter((k) => !used.has(k));
  if (free.length < 1) return undefined;
  const branch = (): Obj => {
    const keys = ctx.rng.some(free, 2);
    if (keys.length === 0) keys.push(free[0]);
    return obj(keys.map((k) => prop(k, numericValue(ctx, k))), false);
  };
  const a = branch();
  const b = ctx.rng.bool(0.2) ? obj([], false) : branch();
  for (const e of [...a.entries, ...b.entries]) if (e.k === 'prop') used.add(e.key);
  shape(ctx, 'params:conditional-spread');
  return spread(`(${flag} ? ${ctx.p.print(a, 0)} : ${ctx.p.print(b, 0)})`);
}

interface MsgPlan {
  /** The `messages` entry of the params object. */
  entry: Entry;
  /** Statements before the call (local array and pushes). */
  setup: (w: Writer) => void;
}

function userContent(ctx: Ctx, params: [string, string][], json: boolean): X {
  const s = (x: string) => ctx.p.str(x);
  const rng = ctx.rng;
  const text: string = json
    ? rng.bool() ? '`Answer in JSON: ${q}`' : s('Reply with a JSON object.')
    : rng.weighted([['q', 5], ['`Question: ${q}`', 2], [s('Say hello.'), 1]]);
  if (!rng.bool(0.2)) return text;
  shape(ctx, 'messages:image-parts');
  let url = s('https://example.com/cat.png');
  if (rng.bool()) {
    params.push(['imageUrl', 'string']);
    url = 'imageUrl';
  }
  const image: Entry[] = [prop('url', url)];
  if (rng.bool()) image.push(prop('detail', s(rng.pick(['low', 'high', 'auto']))));
  return arr([
    obj([prop('type', s('text')), prop('text', text)]),
    obj([prop('type', s('image_url')), prop('image_url', obj(image))]),
  ]);
}

function messageList(ctx: Ctx, params: [string, string][], json: boolean): X[] {
  const s = (x: string) => ctx.p.str(x);
  const rng = ctx.rng;
  const items: X[] = [];
  if (rng.bool(0.55)) {
    shape(ctx, 'messages:system');
    const role = rng.weighted([['system', 4], ['developer', 1]]);
    const content = json ? s('You answer in JSON.') : s(rng.pick(['You are terse.', 'Be helpful.', "Answer in one sentence, don't ramble."]));
    items.push(obj([prop('role', s(role)), prop('content', content)]));
  }
  if (rng.bool(0.15)) {
    shape(ctx, 'messages:history');
    items.push(obj([prop('role', s('user')), prop('content', s('Hi'))]));
    items.push(obj([prop('role', s('assistant')), prop('content', s('Hello! How can I help?'))]));
  }
  const user: Entry[] = [prop('role', s('user')), prop('content', userContent(ctx, params, json))];
  if (rng.bool(0.15)) {
    shape(ctx, 'messages:name');
    user.push(prop('name', s('alice')));
  }
  items.push(obj(user));
  return items;
}

function messagesPlan(ctx: Ctx, params: [string, string][], json: boolean, allowLocal = true): MsgPlan {
  const rng = ctx.rng;
  const items = messageList(ctx, params, json);
  if (!allowLocal || rng.bool(0.6)) {
    shape(ctx, 'messages:inline');
    return { entry: prop('messages', arr(items, items.length > 1 ? rng.bool(0.6) : false)), setup: () => {} };
  }
  shape(ctx, 'messages:local-push');
  const name = rng.pick(['messages', 'messages', 'history', 'msgs']);
  const type = ctx.ts ? `: ${typeRef(ctx, 'ChatCompletionMessageParam')}[]` : '';
  const first = rng.int(items.length);
  const initial = items.slice(0, first);
  const pushed = items.slice(first);
  return {
    entry: name === 'messages' && rng.bool(0.7) ? short('messages') : prop('messages', name),
    setup: (w) => {
      w.stmt(`const ${name}${type} = ${ctx.p.print(arr(initial), w.depth)}`);
      for (const m of pushed) w.stmt(`${name}.push(${ctx.p.print(m, w.depth)})`);
    },
  };
}

function modelEntry(ctx: Ctx): Entry {
  const rng = ctx.rng;
  const form = rng.weighted([['literal', 6], ['const', 2], ['short', 1]]);
  if (form === 'literal') return prop('model', ctx.p.str(rng.pick(['gpt-4o-mini', 'gpt-4.1', 'gpt-5-mini', 'o4-mini'])));
  addPrelude(ctx, 'model', (w) => w.stmt(`const model = ${ctx.p.str(ctx.model)}`));
  return form === 'short' ? short('model') : prop('model', 'model');
}

interface ParamsPlan {
  /** The argument of the call: the object literal, or the name of a local params const. */
  arg: X;
  setup: (w: Writer) => void;
  used: Set<string>;
}

/**
 * The params object: inline, or a local const (typed in TS). `fixed` are the purpose's own
 * entries (stream flag, tools, response_format from a zod helper, …).
 */
function paramsPlan(ctx: Ctx, purpose: Purpose, params: [string, string][], fixed: Entry[], opts: { allowLocal?: boolean; json?: boolean } = {}): ParamsPlan {
  const rng = ctx.rng;
  const used = new Set<string>(fixed.flatMap((e) => (e.k === 'prop' ? [e.key] : [])));
  const extras = extraKeys(ctx, purpose, used);
  const json = opts.json ?? extras.some((e) => e.k === 'prop' && e.key === 'response_format');
  const msgs = messagesPlan(ctx, params, json);
  const entries: Entry[] = [modelEntry(ctx), msgs.entry, ...extras, ...fixed];
  if (rng.bool(0.2)) {
    params.push(['brief', 'boolean']);
    const sp = conditionalSpread(ctx, 'brief', used);
    if (sp) entries.splice(2 + rng.int(entries.length - 1), 0, sp);
  }
  if (rng.bool(0.05)) {
    shape(ctx, 'params:opaque-spread');
    params.push(['extra', '{ temperature?: number }']);
    entries.push(spread('extra'));
  }
  if (rng.bool(0.1)) {
    shape(ctx, 'params:comment');
    entries.splice(1 + rng.int(entries.length), 0, { k: 'comment', text: rng.pick(['stream: true,', 'TODO: tune this', 'n: 3,']) });
  }
  const literal = obj(entries, entries.length > 2 ? rng.bool(0.75) : rng.bool(0.2));
  const local = opts.allowLocal !== false && (purpose === 'create' || purpose === 'stream') && rng.bool(0.25);
  if (!local) {
    shape(ctx, 'params:inline');
    return { arg: literal, setup: msgs.setup, used };
  }
  literal.multi = true;
  const name = rng.pick(['params', 'request', 'body']);
  const type = ctx.ts ? `: ${typeRef(ctx, purpose === 'stream' ? 'ChatCompletionCreateParamsStreaming' : 'ChatCompletionCreateParamsNonStreaming')}` : '';
  if (ctx.x.bool(0.3)) {
    // V-BUILDER (second stream: classic programs stay as recorded): a local function returns
    // the params; its one call gives them to the site
    shape(ctx, 'params:builder');
    const builder = ctx.x.pick(['buildParams', 'makeRequest', 'requestFor']);
    return {
      arg: name,
      used,
      setup: (w) => {
        msgs.setup(w);
        w.open(`function ${builder}()${type}`);
        w.stmt(`return ${ctx.p.print(literal, w.depth)}`);
        w.close();
        w.stmt(`const ${name} = ${builder}()`);
      },
    };
  }
  shape(ctx, 'params:local');
  return {
    arg: name,
    used,
    setup: (w) => {
      msgs.setup(w);
      w.stmt(`const ${name}${type} = ${ctx.p.print(literal, w.depth)}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Result reads

const RESULT_NAMES = ['r', 'res', 'completion', 'result', 'response'] as const;

/** The content read in its spellings, on `<v>.choices[0]` (or on `choices[0]` when destructured). */
function contentRead(ctx: Ctx, base: string): { expr: string; nullable: boolean } {
  const forms: [string, number][] = [
    ['plain', 3], ['optional', 2], ['nullish-empty', 2], ['nullish-x', 1], ['trim', 1],
  ];
  if (ctx.ts) forms.push(['bang', 1]);
  const f = ctx.rng.weighted(forms);
  shape(ctx, `read:content-${f}`);
  const s = (x: string) => ctx.p.str(x);
  switch (f) {
    case 'optional': return { expr: `${base}?.message?.content`, nullable: true };
    case 'nullish-empty': return { expr: `${base}.message.content ?? ''`.replace("''", s('')), nullable: false };
    case 'nullish-x': return { expr: `${base}.message.content ?? ${s('n/a')}`, nullable: false };
    case 'trim': return { expr: `${base}.message.content?.trim()`, nullable: true };
    case 'bang': return { expr: `${base.replace(/\[0\]$/, '[0]!')}.message.content`, nullable: true };
    default: return { expr: `${base}.message.content`, nullable: true };
  }
}

let localCounter = 0;
function fresh(prefix: string): string {
  return `${prefix}${localCounter++}`;
}

/** Reads on a non-streaming result bound to `v`; ends with a return. */
function resultReads(ctx: Ctx, w: Writer, v: string, opts: { tools?: boolean } = {}): void {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  const n = rng.weighted([[0, 2], [1, 4], [2, 3], [3, 1]]);
  // a reflective read (second stream) goes before the read it is drawn for, or last
  const reflectAt = ctx.x.bool(0.16) ? ctx.x.int(n + 1) : -1;
  for (let i = 0; i < n; i++) {
    if (i === reflectAt) reflectiveRead(ctx, w, v);
    const kind = rng.weighted([
      ['content', 3], ['null-check', 1.5], ['usage', 2], ['finish', 2], ['alias', 1.5], ['meta', 0.7],
      ['choices-length', 0.5], ['console-whole', 0.3], ['tool-calls', opts.tools ? 3 : 0],
    ]);
    shape(ctx, `read:${kind}`);
    switch (kind) {
      case 'content': {
        const { expr } = contentRead(ctx, `${v}.choices[0]`);
        if (rng.bool()) w.stmt(`console.log(${expr})`);
        else w.stmt(`const ${fresh('text')} = ${expr}`);
        break;
      }
      case 'null-check': {
        const op = rng.pick(['===', '!==', '==']);
        w.stmt(`if (${v}.choices[0].message.content ${op} ${op === '==' ? 'undefined' : 'null'}) console.log(${s('no text')})`);
        break;
      }
      case 'usage': {
        const form = rng.int(4);
        if (form === 0) w.stmt(`console.log(${v}.usage?.prompt_tokens ?? 0, ${v}.usage?.completion_tokens ?? 0)`);
        else if (form === 1) w.stmt(`const ${fresh('tokens')} = ${v}.usage?.total_tokens ?? 0`);
        else if (form === 2) w.stmt(`if (${v}.usage) console.log(${v}.usage.total_tokens)`);
        else w.stmt(`const ${fresh('cached')} = ${v}.usage?.prompt_tokens_details?.cached_tokens ?? 0`);
        break;
      }
      case 'finish': {
        const value = rng.pick(['length', 'stop', 'content_filter', ...(opts.tools ? ['tool_calls'] : [])]);
        const op = rng.weighted([['===', 3], ['!==', 1]]);
        if (rng.bool()) w.stmt(`if (${v}.choices[0].finish_reason ${op} ${s(value)}) console.warn(${s(`finish: ${value}`)})`);
        else w.stmt(`const ${fresh('done')} = ${v}.choices[0].finish_reason ${op} ${s(value)}`);
        break;
      }
      case 'alias': {
        const m = fresh('msg');
        w.stmt(`const ${m} = ${v}.choices[0].message`);
        // a reflective test of the message through its alias (second stream): reported with the
        // message's path, as the same test on `${v}.choices[0].message` would be
        const reflect = ctx.x.bool(0.2) ? ctx.x.weighted([['in', 2], ['has-own', 2], ['keys', 1]]) : undefined;
        if (reflect) shape(ctx, `reflect-message:${reflect}`);
        const key = s(ctx.x.pick(['tool_calls', 'refusal', 'content']));
        if (reflect === 'in') {
          force(ctx, 'no-equivalent-result:reflection on choices[0].message');
          w.stmt(`if (${key} in ${m}) console.log(${s('has it')})`);
        } else if (reflect === 'has-own') {
          force(ctx, 'no-equivalent-result:choices[0].message.hasOwnProperty');
          w.stmt(`if (${m}.hasOwnProperty(${key})) console.log(${s('has it')})`);
        } else if (reflect === 'keys') {
          force(ctx, 'result-escapes:argument');
          w.stmt(`console.log(Object.keys(${m}))`);
        }
        w.stmt(`console.log(${m}.content${rng.bool() ? '?.length' : ''})`);
        break;
      }
      case 'meta': {
        w.stmt(`console.log(${v}.id, ${v}.model${rng.bool() ? `, ${v}.created` : ''})`);
        break;
      }
      case 'choices-length': {
        w.stmt(`if (${v}.choices.length === 0) console.log(${s('empty')})`);
        break;
      }
      case 'console-whole': {
        w.stmt(`console.log(${v})`);
        break;
      }
      case 'tool-calls': {
        if (rng.bool()) {
          w.stmt(`console.log(${v}.choices[0].message.tool_calls?.length ?? 0)`);
        } else {
          const tc = rng.pick(['tc', 'call', 'toolCall']);
          w.open(`for (const ${tc} of ${v}.choices[0].message.tool_calls ?? [])`);
          w.stmt(`if (${tc}.type === ${s('function')}) console.log(${tc}.function.name, ${tc}.function.arguments)`);
          w.close();
        }
        break;
      }
    }
  }
  if (reflectAt === n) reflectiveRead(ctx, w, v);
  if (ctx.x.bool(0.04)) {
    // a read named like a member of Object.prototype (the 31-file crash read rules tables with such
    // names): no equivalent, reported with its path
    const form = ctx.x.pick(['message-constructor', 'usage-toString', 'valueOf'] as const);
    shape(ctx, `read:proto-${form}`);
    if (form === 'message-constructor') {
      force(ctx, 'no-equivalent-result:choices[0].message.constructor');
      w.stmt(`console.log(${v}.choices[0].message.constructor.name)`);
    } else if (form === 'usage-toString') {
      force(ctx, 'no-equivalent-result:usage.toString');
      w.stmt(`console.log(${v}.usage?.toString())`);
    } else {
      force(ctx, 'no-equivalent-result:valueOf');
      w.stmt(`console.log(${v}.valueOf() === ${v})`);
    }
  }
  const end = rng.weighted([
    ['return-content', 6], ['return-whole', 0.6], ['pass', 0.6], ['none', 1],
  ]);
  shape(ctx, `end:${end}`);
  if (end === 'return-content') w.stmt(`return ${contentRead(ctx, `${v}.choices[0]`).expr}`);
  else if (end === 'return-whole') {
    force(ctx, 'result-escapes:return');
    w.stmt(`return ${v}`);
  } else if (end === 'pass') {
    force(ctx, 'result-escapes:argument');
    addPrelude(ctx, 'record', (pw) => {
      pw.open(`function record(value${ann(ctx, 'unknown')})${ann(ctx, 'void')}`);
      // the JSON text is used, not only logged (a logged JSON.stringify is a log, O-ESCAPE)
      pw.stmt('console.log(JSON.stringify(value).length)');
      pw.close();
    });
    w.stmt(`record(${v})`);
  }
}

type Reflective = 'has-own' | 'has-own-call' | 'has-own-static' | 'in' | 'keys' | 'for-in' | 'instanceof';

/**
 * A reflective read of the whole result (issue 11: real provider classes test `hasOwnProperty`
 * before reading `choices`). Its answer changes with the shape, so the site is manual: a method the
 * result table does not know is `no-equivalent-result:<name>` (O-NOEQUIV), `in` (but for
 * `'choices' in r`, O-META), `for…in` and `instanceof` are `no-equivalent-result:reflection on result`, and the result handed to a function
 * (`Object.keys(r)`, `Object.prototype.hasOwnProperty.call(r, …)`) escapes (O-ESCAPE, `argument`).
 */
function reflectiveRead(ctx: Ctx, w: Writer, v: string): void {
  const x = ctx.x;
  const s = (t: string) => ctx.p.str(t);
  const form = x.weighted<Reflective>([
    ['has-own', 3], ['has-own-call', 1.5], ['has-own-static', 0.7], ['in', 2], ['keys', 1], ['for-in', 0.7], ['instanceof', 0.7],
  ]);
  shape(ctx, `reflect:${form}`);
  const rawKey = x.weighted([['choices', 4], ['usage', 1], ['id', 1]]);
  const key = s(rawKey);
  const fail = (test: string) => {
    if (x.bool(0.6)) w.stmt(`if (${test}) throw new Error(${s('unexpected response')})`);
    else w.stmt(`if (${test}) console.warn(${s('unexpected response')})`);
  };
  switch (form) {
    case 'has-own':
      force(ctx, 'no-equivalent-result:hasOwnProperty');
      fail(`!${v}.hasOwnProperty(${key})`);
      break;
    case 'has-own-call':
      force(ctx, 'result-escapes:argument');
      fail(`!Object.prototype.hasOwnProperty.call(${v}, ${key})`);
      break;
    case 'has-own-static':
      force(ctx, 'result-escapes:argument');
      fail(`!Object.hasOwn(${v}, ${key})`);
      break;
    case 'in':
      // `'choices' in r` is true of every completion: it becomes `'output' in r` (O-META)
      if (rawKey !== 'choices') force(ctx, 'no-equivalent-result:reflection on result');
      fail(`!(${key} in ${v})`);
      break;
    case 'keys':
      force(ctx, 'result-escapes:argument');
      if (x.bool()) w.stmt(`console.log(Object.keys(${v}).length)`);
      else fail(`Object.keys(${v}).length === 0`);
      break;
    case 'for-in': {
      force(ctx, 'no-equivalent-result:reflection on result');
      const k = fresh('key');
      w.open(`for (const ${k} in ${v})`);
      w.stmt(`console.log(${k})`);
      w.close();
      break;
    }
    case 'instanceof':
      force(ctx, 'no-equivalent-result:reflection on result');
      fail(`!(${v} instanceof Object)`);
      break;
  }
}

/**
 * A reflective test of a stream chunk, first thing in the loop (second stream). The loop variable
 * used otherwise than by a read is handed off (S-TEXT: `stream-handoff`, `reflect` for `in`,
 * `argument` when passed to a function); a method the chunk table does not know has no equivalent.
 * Not `own`: the loop iterates a stream the site handed off, so its reads are not the site's.
 */
function chunkReflectiveRead(ctx: Ctx, w: Writer, ev: string, own = true): void {
  const x = ctx.x;
  const expect = (reason: string) => {
    if (own) force(ctx, reason);
  };
  const s = (t: string) => ctx.p.str(t);
  const form = x.weighted([['in', 2], ['has-own', 2], ['has-own-static', 1]]);
  shape(ctx, `reflect-chunk:${form}`);
  const key = s(x.weighted([['choices', 3], ['usage', 1]]));
  if (form === 'in') {
    expect('stream-handoff:reflect');
    w.stmt(`if (!(${key} in ${ev})) continue`);
  } else if (form === 'has-own') {
    expect('no-equivalent-result');
    w.stmt(`if (!${ev}.hasOwnProperty(${key})) continue`);
  } else {
    expect('stream-handoff:argument');
    w.stmt(`if (!Object.hasOwn(${ev}, ${key})) continue`);
  }
}

// ---------------------------------------------------------------------------------------------
// Blocks: one function (or method) each, holding one site (two for the P29 loop and two turns)

function createBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const params: [string, string][] = [['q', 'string']];
  const plan = paramsPlan(ctx, 'create', params, []);
  const binding = rng.weighted([['const', 6], ['let', 1], ['let-later', 0.6], ['destructure', 1.2], ['then', 1.2], ['return-await', 0.5]]);
  const ignore = rng.bool(0.04);
  shape(ctx, `bind:${binding}`);
  const block: Block = {
    name, params, sites: 1, forced: [], ignored: ignore,
    body: (w) => {
      plan.setup(w);
      // how the call reaches `create` (second stream): through an alias of a resource, or indirectly
      const receiver = ignore ? 'direct' : receiverForm(ctx);
      if (receiver !== 'direct') {
        shape(ctx, `receiver:${receiver}`);
        block.receiver = receiver;
      }
      if (receiver === 'bind' || receiver === 'call' || receiver === 'detached-call') {
        // A-CREATE: a method called indirectly is reported receiver-not-client
        force(ctx, 'receiver-not-client');
        block.providerUnchecked = true;
      }
      // the opt-out comment goes on the line above the statement holding the call
      const optOut = () => {
        if (!ignore) return;
        shape(ctx, 'opt-out:ignore');
        w.line('// migrate-responses-ignore');
      };
      if (binding !== 'let-later') optOut();
      let c = receiver === 'direct' ? call(ctx, 'create', plan.arg, w.depth) : receiverCall(ctx, w, receiver, plan.arg);
      if (ctx.x.bool(0.08)) {
        // errors rethrown from the request promise: the result is the same
        shape(ctx, 'promise:catch-rethrow');
        c = `${c}.catch((e) => {\n${ctx.p.ind(w.depth + 1)}throw new Error(${ctx.ts ? '(e as Error)' : 'e'}.message)${ctx.st.semi ? ';' : ''}\n${ctx.p.ind(w.depth)}})`;
      }
      switch (binding) {
        case 'destructure': {
          w.stmt(`const { choices } = await ${c}`);
          if (rng.bool(0.4)) w.stmt(`if (choices[0].finish_reason === ${ctx.p.str('length')}) console.warn(${ctx.p.str('cut')})`);
          w.stmt(`return ${contentRead(ctx, 'choices[0]').expr}`);
          break;
        }
        case 'then': {
          const arg = rng.pick(['res', 'c', 'out']);
          const read = contentRead(ctx, `${arg}.choices[0]`).expr;
          const oneLine = rng.bool();
          const head = oneLine ? `${c}.then((${arg}) =>` : `${c}\n${ctx.p.ind(w.depth + 1)}.then((${arg}) =>`;
          // a consumer with a body that tests the result reflectively first (second stream)
          // or a consumer with a body: the reads of a const binding, or a reflective test first
          const form = ctx.x.weighted([['expression', 6], ['block', 1.5], ['reflect', 2], ['reflect-await', 1]]);
          if (form === 'expression') {
            w.stmt(`return ${head} ${read})`);
            break;
          }
          shape(ctx, `then:${form}`);
          const text = form === 'reflect-await' ? fresh('text') : '';
          const caught = ctx.x.bool(0.3);
          if (caught) shape(ctx, 'then:catch');
          w.open(`${text ? `const ${text} = await ` : 'return '}${head}`);
          if (form === 'block') resultReads(ctx, w, arg);
          else {
            reflectiveRead(ctx, w, arg);
            w.stmt(`return ${read}`);
          }
          w.depth--;
          w.stmt(`})${caught ? '.catch(() => null)' : ''}`);
          if (text) w.stmt(`return ${text}`);
          break;
        }
        case 'return-await': {
          shape(ctx, 'end:return-whole');
          force(ctx, 'result-escapes:return');
          w.stmt(`return await ${c}`);
          break;
        }
        case 'let-later': {
          // O-BIND: `let r; r = await …`
          const v = rng.pick(RESULT_NAMES);
          w.stmt(`let ${v}`);
          optOut();
          w.stmt(`${v} = await ${c}`);
          resultReads(ctx, w, v);
          break;
        }
        default: {
          const v = rng.pick(RESULT_NAMES);
          if (receiver === 'direct' && !ignore && ctx.x.bool(0.08)) {
            // the request promise handed to a timing wrapper (P21): the result is out of view
            shape(ctx, 'promise:measured');
            force(ctx, 'result-escapes:argument');
            measurePrelude(ctx);
            w.stmt(`${binding} ${v} = await measure(${c})`);
            if (ctx.x.bool()) w.stmt(`if (!${v}.output.hasOwnProperty(${ctx.p.str('choices')}) || ${v}.output.choices.length === 0) return null`);
            w.stmt(`return ${v}.output.choices[0].message.content`);
            break;
          }
          // a type assertion on the result (TypeScript): to its Chat type, retyped and followed;
          // a read through `as any`, reported (result-escapes:cast)
          const cast = ctx.ts && !ignore ? ctx.x.weighted([['none', 14], ['chat-type', 1], ['any-read', 0.6]]) : 'none';
          if (cast === 'chat-type') {
            shape(ctx, 'cast:chat-type');
            w.stmt(`${binding} ${v} = (await ${c}) as ${typeRef(ctx, 'ChatCompletion')}`);
            resultReads(ctx, w, v);
            break;
          }
          if (cast === 'any-read') {
            shape(ctx, 'cast:any-read');
            force(ctx, 'result-escapes:cast');
            w.stmt(`${binding} ${v} = await ${c}`);
            w.stmt(`return (${v} as any).choices[0].message.content as string | null`);
            break;
          }
          if (binding === 'const' && receiver === 'direct' && !ignore && ctx.x.bool(0.06)) {
            // awaited together with other work (W-FOLLOW through Promise.all): only its name is followed
            shape(ctx, 'promise:all-beside-other-work');
            w.stmt(`const [${v}, ${fresh('size')}] = await Promise.all([${c}, Promise.resolve(q.length)])`);
            resultReads(ctx, w, v);
            break;
          }
          w.stmt(`${binding} ${v} = await ${c}`);
          resultReads(ctx, w, v);
        }
      }
    },
  };
  return block;
}

/** `measure(promise)`: times a request, as performance monitors of multi-provider apps do. */
function measurePrelude(ctx: Ctx): void {
  addPrelude(ctx, 'measure', (w) => {
    w.open(`async function measure${ctx.ts ? '<T>' : ''}(promise${ann(ctx, 'Promise<T>')})${ann(ctx, 'Promise<{ output: T; duration: number }>')}`);
    w.stmt('const start = Date.now()');
    w.stmt('const output = await promise');
    w.stmt('return { output, duration: Date.now() - start }');
    w.close();
  });
}

type Receiver = 'direct' | 'chat-alias' | 'completions-alias' | 'completions-destructure' | 'exported-resource' | 'bind' | 'call' | 'detached-call';

function receiverForm(ctx: Ctx): Receiver {
  // the client module also exports its completions resource, imported next to the client (W-FOLLOW)
  if (ctx.host === 'exported' && !ctx.cjs && ctx.x.bool(0.2)) return 'exported-resource';
  if (!ctx.x.bool(0.1)) return 'direct';
  // the indirect forms are JavaScript only: on an overloaded method TypeScript's bind/call keep
  // the last overload (a union with Stream), so typed code that reads `choices` does not compile
  return ctx.x.weighted<Receiver>([
    ['chat-alias', 2], ['completions-alias', 2], ['completions-destructure', 1],
    ['bind', ctx.cjs ? 1.5 : 0], ['call', ctx.cjs ? 1 : 0], ['detached-call', ctx.cjs ? 1 : 0],
  ]);
}

/** The call through a resource alias or indirectly; the alias or bound method is declared first. */
function receiverCall(ctx: Ctx, w: Writer, form: Receiver, arg: X): string {
  const ref = ctx.clientRef;
  const args = ctx.p.print(arg, w.depth);
  switch (form) {
    case 'chat-alias': {
      const chat = fresh('chat');
      w.stmt(`const ${chat} = ${ref}.chat`);
      return `${chat}.completions.create(${args})`;
    }
    case 'completions-alias': {
      const completions = fresh('completions');
      w.stmt(`const ${completions} = ${ref}.chat.completions`);
      return `${completions}.create(${args})`;
    }
    case 'completions-destructure':
      w.stmt(`const { completions } = ${ref}.chat`);
      return `completions.create(${args})`;
    case 'exported-resource':
      ctx.exportedResource ??= `${ref}Completions`;
      return `${ctx.exportedResource}.create(${args})`;
    case 'bind': {
      const create = fresh('create');
      w.stmt(`const ${create} = ${ref}.chat.completions.create.bind(${ref}.chat.completions)`);
      return `${create}(${args})`;
    }
    case 'call':
      return `${ref}.chat.completions.create.call(${ref}.chat.completions, ${args})`;
    case 'detached-call':
      w.stmt(`const { create } = ${ref}.chat.completions`);
      return `create.call(${ref}.chat.completions, ${args})`;
    default:
      return call(ctx, 'create', arg, w.depth);
  }
}

function streamBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  const params: [string, string][] = [['q', 'string']];
  const fixed: Entry[] = [prop('stream', 'true')];
  const includeUsage = rng.bool(0.35);
  if (includeUsage) {
    shape(ctx, 'stream:include_usage');
    fixed.push(prop('stream_options', obj([prop('include_usage', 'true')])));
  }
  const plan = paramsPlan(ctx, 'stream', params, fixed);
  const readUsage = rng.bool(includeUsage ? 0.8 : 0.15);
  const readFinish = rng.bool(0.35);
  const inline = typeof plan.arg !== 'string' && rng.bool(0.3);
  const ev = rng.pick(['chunk', 'ev', 'part', 'event']);
  return {
    name, params, sites: 1, forced: [],
    body: (w) => {
      plan.setup(w);
      if (ctx.x.bool(0.06)) {
        // the stream itself returned (a provider's #streamChat handed out with .bind): S-HANDOFF
        shape(ctx, 'stream:returned');
        force(ctx, 'stream-handoff:return');
        w.stmt(`return ${ctx.x.bool() ? 'await ' : ''}${call(ctx, 'create', plan.arg, w.depth)}`);
        return;
      }
      let source: string;
      let measured = false;
      if (inline) {
        shape(ctx, 'stream:for-await-inline');
        source = `await ${call(ctx, 'create', plan.arg, w.depth)}`;
      } else {
        source = rng.pick(['stream', 'completion', 'sse']);
        if (ctx.x.bool(0.08)) {
          // the stream promise handed to a timing wrapper: the stream is out of view (S-HANDOFF)
          shape(ctx, 'stream:measured');
          // W-FOLLOW goes into measure(): the stream is stored in its result (`store`), or, when
          // another block calls measure() too, it is also called with another value (`argument: …`)
          force(ctx, 'stream-handoff');
          measured = true;
          measurePrelude(ctx);
          w.stmt(`const measured = await measure(${call(ctx, 'create', plan.arg, w.depth)})`);
          w.stmt(`const ${source} = measured.output`);
        } else w.stmt(`const ${source} = await ${call(ctx, 'create', plan.arg, w.depth)}`);
      }
      w.stmt(`let out = ${s('')}`);
      if (readUsage) w.stmt('let total = 0');
      if (readFinish) w.stmt('let truncated = false');
      // a loop that counts its iterations (second stream): once per event after the rewrite
      const counter = ctx.x.bool(0.15) ? ctx.x.pick(['unguarded', 'guarded', 'unread'] as const) : undefined;
      if (counter) {
        shape(ctx, `stream:counter-${counter}`);
        w.stmt('let seen = 0');
      }
      // a call on every chunk (second stream): once per event after the rewrite; a console call and a
      // write of the text with a '' fallback are kept, a callback is reported unless a test guards it
      const effect = ctx.x.bool(0.12) ? ctx.x.pick(['log', 'callback', 'guarded-callback', 'write-const'] as const) : undefined;
      if (effect) shape(ctx, `stream:effect-${effect}`);
      if (effect === 'callback' || effect === 'guarded-callback') {
        addPrelude(ctx, 'notify', (pw) => {
          pw.open(ctx.ts ? 'function notify(piece: string): void' : 'function notify(piece)');
          pw.stmt('void piece');
          pw.close();
        });
        if (effect === 'callback' && !measured) force(ctx, 'no-equivalent-result');
      }
      w.open(`for await (const ${ev} of ${source})`);
      if (counter === 'guarded') w.stmt(`if (${ev}.choices[0]?.delta?.content) seen++`);
      else if (counter) w.stmt('seen++');
      if (effect === 'log') w.stmt(`console.log(${ev}.choices[0]?.delta?.content ?? ${s('')})`);
      else if (effect === 'callback') w.stmt(`notify(${ev}.choices[0]?.delta?.content ?? ${s('')})`);
      else if (effect === 'guarded-callback') w.stmt(`if (${ev}.choices[0]?.delta?.content) notify(${ev}.choices[0].delta.content)`);
      else if (effect === 'write-const') {
        w.stmt(`const piece = ${ev}.choices[0]?.delta?.content || ${s('')}`);
        w.stmt('process.stdout.write(piece)');
      }
      // (the loop over a stream handed off is not the site's own: its reads are not the site's)
      if (ctx.x.bool(0.12)) chunkReflectiveRead(ctx, w, ev, !measured);
      const text = rng.weighted([['nullish', 3], ['or', 1], ['alias', 1], ['write', 1]]);
      shape(ctx, `stream:text-${text}`);
      if (text === 'nullish') w.stmt(`out += ${ev}.choices[0]?.delta?.content ?? ${s('')}`);
      else if (text === 'or') w.stmt(`out += ${ev}.choices[0]?.delta?.content || ${s('')}`);
      else if (text === 'alias') {
        w.stmt(`const delta = ${ev}.choices[0]?.delta`);
        // a reflective test of the delta through its alias (second stream)
        const reflect = ctx.x.bool(0.25) ? ctx.x.pick(['in', 'has-own'] as const) : undefined;
        if (reflect) shape(ctx, `reflect-delta:${reflect}`);
        const expect = (reason: string) => {
          if (!measured) force(ctx, reason);
        };
        if (reflect === 'in') {
          expect('no-equivalent-result:chunk.choices[0].delta');
          w.stmt(`if (delta && ${s('refusal')} in delta) continue`);
        } else if (reflect === 'has-own') {
          expect('no-equivalent-result:chunk.choices[0].delta.hasOwnProperty');
          w.stmt(`if (!delta?.hasOwnProperty(${s('content')})) continue`);
        }
        w.stmt(`out += delta?.content ?? ${s('')}`);
      } else {
        w.stmt(`process.stdout.write(${ev}.choices[0]?.delta?.content ?? ${s('')})`);
        w.stmt(`out += ${ev}.choices[0]?.delta?.content ?? ${s('')}`);
      }
      if (readUsage) {
        shape(ctx, 'stream:usage');
        if (rng.bool()) w.stmt(`if (${ev}.usage) total = ${ev}.usage.total_tokens`);
        else w.stmt(`total += ${ev}.usage?.completion_tokens ?? 0`);
      }
      if (readFinish) {
        shape(ctx, 'stream:finish');
        w.stmt(`if (${ev}.choices[0]?.finish_reason === ${s(rng.pick(['length', 'content_filter']))}) truncated = true`);
      }
      w.close();
      if (readUsage || readFinish) w.stmt(`console.log(${[readUsage ? 'total' : '', readFinish ? 'truncated' : ''].filter(Boolean).join(', ')})`);
      if (counter === 'guarded' || counter === 'unguarded') w.stmt('console.log(seen)');
      if (counter === 'unguarded' && !measured) force(ctx, 'no-equivalent-result:seen counts stream loop iterations (Responses sends more events than Chat sends chunks)');
      w.stmt('return out');
    },
  };
}

function helperStreamBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  const params: [string, string][] = [['q', 'string']];
  const plan = paramsPlan(ctx, 'helper', params, [], { allowLocal: false });
  const form = rng.weighted([['on-final', 3], ['for-await', 2], ['final-content', 1]]);
  shape(ctx, `helper:${form}`);
  return {
    name, params, sites: 1, forced: [],
    body: (w) => {
      plan.setup(w);
      const v = rng.pick(['stream', 's', 'runner']);
      w.stmt(`const ${v} = ${call(ctx, 'stream', plan.arg, w.depth)}`);
      if (form === 'on-final') {
        if (rng.bool()) w.stmt(`${v}.on(${s('content')}, (delta) => process.stdout.write(delta))`);
        else {
          w.open(`${v}.on(${s('content')}, (delta, snapshot) =>`);
          w.stmt('console.log(delta.length, snapshot.length)');
          w.close(')' + (ctx.st.semi ? ';' : ''));
        }
        if (ctx.x.bool(0.3)) payloadListener(ctx, w, v);
        const f = rng.pick(['final', 'done', 'completion']);
        w.stmt(`const ${f} = await ${v}.finalChatCompletion()`);
        // the final completion is a Chat result like any other (S-FINAL)
        if (ctx.x.bool(0.15)) reflectiveRead(ctx, w, f);
        w.stmt(`return ${contentRead(ctx, `${f}.choices[0]`).expr}`);
      } else if (form === 'for-await') {
        w.stmt(`let text = ${s('')}`);
        w.open(`for await (const chunk of ${v})`);
        if (ctx.x.bool(0.12)) chunkReflectiveRead(ctx, w, 'chunk');
        w.stmt(`text += chunk.choices[0]?.delta?.content ?? ${s('')}`);
        w.close();
        w.stmt('return text');
      } else {
        w.stmt(`return await ${v}.finalContent()`);
      }
    },
  };
}

/**
 * A listener with a payload object (second stream): `content.delta` read as `e.delta` /
 * `e.snapshot`, `content.done` destructured; rarely a payload read with a name of
 * Object.prototype, which has no equivalent (no-equivalent-result:<event>.<name>).
 */
function payloadListener(ctx: Ctx, w: Writer, v: string): void {
  const x = ctx.x;
  const s = (t: string) => ctx.p.str(t);
  const proto = x.bool(0.2);
  if (x.bool()) {
    shape(ctx, `listener:content.delta${proto ? '-proto' : ''}`);
    if (proto) force(ctx, 'no-equivalent-result:content.delta.constructor');
    w.stmt(`${v}.on(${s('content.delta')}, (e) => console.log(e.delta, e.snapshot.length${proto ? ', e.constructor.name' : ''}))`);
  } else {
    shape(ctx, `listener:content.done${proto ? '-proto' : ''}`);
    if (proto) force(ctx, 'no-equivalent-result:content.done.toString');
    w.stmt(`${v}.on(${s('content.done')}, ({ content${proto ? ', toString' : ''} }) => console.log(content.length${proto ? ', toString' : ''}))`);
  }
}

function parseBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  ctx.zod = true;
  const schema = rng.pick(['Answer', 'Recipe', 'Verdict']);
  addPrelude(ctx, `schema:${schema}`, (w) => {
    const fields: Record<string, string> = {
      Answer: 'answer: z.string(), confidence: z.number()',
      Recipe: 'title: z.string(), servings: z.number()',
      Verdict: 'ok: z.boolean(), reasons: z.array(z.string())',
    };
    w.stmt(`const ${schema} = z.object({ ${fields[schema]} })`);
  });
  const field = { Answer: 'answer', Recipe: 'title', Verdict: 'ok' }[schema];
  const params: [string, string][] = [['q', 'string']];
  const fixed = [prop('response_format', `zodResponseFormat(${schema}, ${s(schema.toLowerCase())})`)];
  const plan = paramsPlan(ctx, 'parse', params, fixed, { allowLocal: false, json: true });
  return {
    name, params, sites: 1, forced: [],
    body: (w) => {
      plan.setup(w);
      const v = rng.pick(['r', 'completion', 'parsed']);
      w.stmt(`const ${v} = await ${call(ctx, 'parse', plan.arg, w.depth)}`);
      if (ctx.x.bool(0.12)) reflectiveRead(ctx, w, v);
      const form = rng.weighted([['plain', 2], ['bang', ctx.ts ? 1 : 0], ['optional', 1]]);
      shape(ctx, `parse:read-${form}`);
      const read = form === 'bang' ? `${v}.choices[0]!.message.parsed` : form === 'optional' ? `${v}.choices[0]?.message?.parsed` : `${v}.choices[0].message.parsed`;
      const out = fresh('value');
      w.stmt(`const ${out} = ${read}`);
      if (rng.bool(0.3)) w.stmt(`if (${v}.choices[0].finish_reason === ${s('length')}) console.warn(${s('cut')})`);
      w.stmt(`return ${out}?.${field}`);
    },
  };
}

function toolDef(ctx: Ctx, name: string): Obj {
  const s = (x: string) => ctx.p.str(x);
  const fn: Entry[] = [prop('name', s(name))];
  if (ctx.rng.bool(0.8)) fn.push(prop('description', s(name === 'get_weather' ? 'Current weather for a city' : 'Look up a product by id')));
  if (ctx.rng.bool(0.85)) {
    const field = name === 'get_weather' ? 'city' : 'id';
    fn.push(prop('parameters', obj([
      prop('type', s('object')),
      prop('properties', obj([prop(field, obj([prop('type', s('string'))]))])),
      prop('required', arr([s(field)])),
    ])));
  } else shape(ctx, 'tools:no-parameters');
  if (ctx.rng.bool(0.2)) fn.push(prop('strict', ctx.rng.pick(['true', 'false'])));
  return obj([prop('type', s('function')), prop('function', obj(fn, true))], true);
}

function toolsValue(ctx: Ctx, names: string[]): X {
  if (ctx.rng.bool(0.15)) {
    // one const per definition, the array of them written at the call (H-ZODFUNCTION's habit, issue 12)
    shape(ctx, 'tools:held-definitions');
    const ids = names.map((n) => `${n === 'get_weather' ? 'weather' : 'product'}Tool`);
    names.forEach((n, i) => addPrelude(ctx, ids[i], (w) => {
      w.stmt(`const ${ids[i]}${ann(ctx, typeRef(ctx, 'ChatCompletionTool'))} = ${ctx.p.print(toolDef(ctx, n), 0)}`);
    }));
    return arr(ids);
  }
  if (ctx.ts && ctx.x.bool(0.15)) {
    // tool definitions typed with the program's own interface (H-TYPES): reshaped, they would no
    // longer fit it, so every site that passes them is reported (second stream: other seeds unchanged)
    shape(ctx, 'tools:own-type');
    force(ctx, 'params-not-local:tools');
    const id = `ownTools${names.length}${names[0] === 'get_weather' ? 'W' : 'P'}`;
    addPrelude(ctx, 'ToolDef', (w) => {
      w.stmt('interface ToolDef { type: \'function\'; function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean } }');
    });
    addPrelude(ctx, id, (w) => {
      w.stmt(`const ${id}: ToolDef[] = ${ctx.p.print(arr(names.map((n) => toolDef(ctx, n)), true), 0)}`);
    });
    return id;
  }
  if (ctx.x.bool(0.1)) {
    // definitions a registry builds when the program runs (a library's tool specs): converted at
    // the request by the package's to-responses-tools module (R-TOOLS-UNTYPED; second stream)
    shape(ctx, 'tools:registry');
    addPrelude(ctx, 'toolRegistry', (w) => {
      const defs = ctx.p.print(arr(['get_weather', 'lookup_product'].map((n) => toolDef(ctx, n)), true), 0);
      w.stmt(`const toolRegistry = { specs()${ann(ctx, `${typeRef(ctx, 'ChatCompletionTool')}[]`)} { return ${defs}; } }`);
    });
    return 'toolRegistry.specs()';
  }
  if (ctx.rng.bool(0.35)) {
    shape(ctx, 'tools:local');
    const id = `tools${names.length}${names[0] === 'get_weather' ? 'W' : 'P'}`;
    addPrelude(ctx, id, (w) => {
      w.stmt(`const ${id}${ann(ctx, `${typeRef(ctx, 'ChatCompletionTool')}[]`)} = ${ctx.p.print(arr(names.map((n) => toolDef(ctx, n)), true), 0)}`);
    });
    return id;
  }
  shape(ctx, 'tools:inline');
  return arr(names.map((n) => toolDef(ctx, n)), true);
}

function toolChoice(ctx: Ctx, names: string[]): X | undefined {
  const s = (x: string) => ctx.p.str(x);
  const form = ctx.rng.weighted([['none', 2], ['auto', 1.5], ['required', 1], ['off', 0.5], ['named', 1.5]]);
  if (form === 'none') return undefined;
  shape(ctx, `tools:choice-${form}`);
  if (form === 'named') return obj([prop('type', s('function')), prop('function', obj([prop('name', s(names[0]))]))]);
  return s(form === 'off' ? 'none' : form);
}

function toolsBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const params: [string, string][] = [['q', 'string']];
  const names = rng.bool(0.3) ? ['get_weather', 'lookup_product'] : [rng.pick(['get_weather', 'lookup_product'])];
  // the tools value may force a reason on this block's site (tools:own-type)
  const forced: string[] = [];
  const outer = ctx.forced;
  ctx.forced = forced;
  const fixed: Entry[] = [prop('tools', toolsValue(ctx, names))];
  ctx.forced = outer;
  const choice = toolChoice(ctx, names);
  if (choice) fixed.push(prop('tool_choice', choice));
  if (rng.bool(0.2)) fixed.push(prop('parallel_tool_calls', 'false'));
  const plan = paramsPlan(ctx, 'tools', params, fixed, { allowLocal: false });
  return {
    name, params, sites: 1, forced,
    body: (w) => {
      plan.setup(w);
      const v = rng.pick(RESULT_NAMES);
      w.stmt(`const ${v} = await ${call(ctx, 'create', plan.arg, w.depth)}`);
      resultReads(ctx, w, v, { tools: true });
    },
  };
}

/** P29: a manual tool loop over an in-memory history (two sites, one unit). */
function toolLoopBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  shape(ctx, 'tools:p29-loop');
  addPrelude(ctx, 'runTool', (w) => {
    w.open(`async function runTool(name${ann(ctx, 'string')}, args${ann(ctx, 'Record<string, unknown>')})${ann(ctx, 'Promise<unknown>')}`);
    w.stmt(`if (name === ${s('get_weather')}) return { city: args.city, tempC: 21 }`);
    w.stmt(`throw new Error(\`unknown tool \${name}\`)`);
    w.close();
  });
  const forced: string[] = [];
  const outer = ctx.forced;
  ctx.forced = forced;
  const tools = toolsValue(ctx, ['get_weather']);
  ctx.forced = outer;
  const toolsName = typeof tools === 'string' ? tools : undefined;
  const params: [string, string][] = [['q', 'string']];
  const sys = rng.bool(0.6);
  const hist = rng.pick(['messages', 'history']);
  const temp = rng.bool(0.3);
  const model = modelEntry(ctx);
  const args = (): X => {
    const entries: Entry[] = [model, hist === 'messages' && rng.bool() ? short('messages') : prop('messages', hist)];
    entries.push(prop('tools', toolsName ?? tools));
    if (temp) entries.push(prop('temperature', '0'));
    return obj(entries, rng.bool(0.3));
  };
  const v = rng.pick(['r', 'res', 'completion']);
  return {
    name, params, sites: 2, forced,
    body: (w) => {
      const type = ctx.ts ? `: ${typeRef(ctx, 'ChatCompletionMessageParam')}[]` : '';
      const items: X[] = [];
      if (sys) items.push(obj([prop('role', s('system')), prop('content', s('Use the tools when you need live data.'))]));
      items.push(obj([prop('role', s('user')), prop('content', 'q')]));
      w.stmt(`const ${hist}${type} = ${ctx.p.print(arr(items, true), w.depth)}`);
      w.stmt(`let ${v} = await ${call(ctx, 'create', args(), w.depth)}`);
      w.open(`while (${v}.choices[0].message.tool_calls?.length)`);
      w.stmt(`const m = ${v}.choices[0].message`);
      w.stmt(`${hist}.push(m)`);
      w.open('for (const tc of m.tool_calls ?? [])');
      w.stmt(`if (tc.type !== ${s('function')}) continue`);
      w.stmt('const out = await runTool(tc.function.name, JSON.parse(tc.function.arguments))');
      w.stmt(`${hist}.push({ role: ${s('tool')}, tool_call_id: tc.id, content: JSON.stringify(out) })`);
      w.close();
      w.stmt(`${v} = await ${call(ctx, 'create', args(), w.depth)}`);
      w.close();
      w.stmt(`return ${contentRead(ctx, `${v}.choices[0]`).expr}`);
    },
  };
}

/** Two turns over one local history (G-UNIT without tools): the first answer is replayed as text. */
function twoTurnBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  shape(ctx, 'messages:two-turns');
  const params: [string, string][] = [['q', 'string']];
  const hist = rng.pick(['messages', 'history', 'turns']);
  const model = modelEntry(ctx);
  const args = (): X => {
    const entries: Entry[] = [model, hist === 'messages' && rng.bool() ? short('messages') : prop('messages', hist)];
    if (rng.bool(0.3)) entries.push(prop('temperature', '0'));
    return obj(entries, rng.bool(0.3));
  };
  return {
    name, params, sites: 2, forced: [],
    body: (w) => {
      const type = ctx.ts ? `: ${typeRef(ctx, 'ChatCompletionMessageParam')}[]` : '';
      const items: X[] = [];
      if (rng.bool()) items.push(obj([prop('role', s('system')), prop('content', s('You are terse.'))]));
      items.push(obj([prop('role', s('user')), prop('content', 'q')]));
      w.stmt(`const ${hist}${type} = ${ctx.p.print(arr(items), w.depth)}`);
      w.stmt(`const first = await ${call(ctx, 'create', args(), w.depth)}`);
      const replay = rng.weighted([['content', 3], ['content-nullish', 2], ['message', 1]]);
      shape(ctx, `two-turns:replay-${replay}`);
      if (replay === 'message') w.stmt(`${hist}.push(first.choices[0].message)`);
      else w.stmt(`${hist}.push({ role: ${s('assistant')}, content: first.choices[0].message.content${replay === 'content-nullish' ? ` ?? ${s('')}` : ''} })`);
      w.stmt(`${hist}.push({ role: ${s('user')}, content: ${s('Now say it shorter.')} })`);
      w.stmt(`const second = await ${call(ctx, 'create', args(), w.depth)}`);
      w.stmt(`return ${contentRead(ctx, 'second.choices[0]').expr}`);
    },
  };
}

/** Non-targets (N01, N02, N03, N06, N07): never sites. */
function nonTargetBlock(ctx: Ctx, name: string): Block {
  const rng = ctx.rng;
  const s = (x: string) => ctx.p.str(x);
  const kind = rng.pick(['comment', 'log-string', 'legacy-completions', 'responses', 'feature-detect']);
  shape(ctx, `non-target:${kind}`);
  const ref = ctx.clientRef;
  return {
    name, params: [['q', 'string']], sites: 0, forced: [],
    body: (w) => {
      switch (kind) {
        case 'comment':
          w.line(`// was: await ${ref}.chat.completions.create({ model, messages: [{ role: 'user', content: q }] })`);
          w.line('/* client.chat.completions.create({ model: "gpt-4o", messages }) */');
          w.stmt('return q');
          break;
        case 'log-string':
          w.stmt(`console.log(${s('POST /v1/chat/completions')}, ${s('chat.completions.create')})`);
          w.stmt('return q');
          break;
        case 'legacy-completions':
          w.stmt(`const legacy = await ${ref}.completions.create({ model: ${s('gpt-3.5-turbo-instruct')}, prompt: q })`);
          w.stmt('return legacy.choices[0].text');
          break;
        case 'responses':
          w.stmt(`const done = await ${ref}.responses.create({ model: ${s('gpt-4o-mini')}, input: q, store: false })`);
          w.stmt('return done.output_text');
          break;
        case 'feature-detect':
          w.stmt(`return typeof ${ref}.chat.completions.create === ${s('function')} ? q : ${s('')}`);
          break;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Program assembly

export interface GeneratedProgram {
  /** Relative path → text (sources and, for some layouts, package.json / tsconfig.json). */
  files: Record<string, string>;
  /** Exact number of Chat Completions call sites. */
  sites: number;
  /** Per function or method holding sites: what the report must say about them. */
  expected: SiteExpectation[];
  /** The paths to run the tool on: the source files, or `.` (then a root tsconfig.json is found). */
  roots: string[];
  /**
   * For the type-check only: specifiers the scratch project cannot resolve (a tsconfig alias, a
   * workspace package by name), with the relative specifier of the file they resolve to.
   */
  typecheckSpecifiers: { file: string; from: string; to: string }[];
  /** The shapes used (for coverage statistics). */
  shapes: string[];
}

export interface SiteExpectation {
  /** The file that holds the sites. */
  file: string;
  /** The function or method whose own body holds them (`#name` for a private method). */
  fn: string;
  /** How many sites it holds. */
  sites: number;
  /** The report's `client.provider`, exact (not predicted for an indirect call). */
  provider?: string;
  /**
   * Certain statuses only: `ignored` under the opt-out comment, `manual` when a reason is forced,
   * `migrated` when every use of the result is followable (the follow programs, W-FOLLOW).
   */
  status?: 'manual' | 'ignored' | 'migrated';
  /** Reasons every site must carry (`code` or `code:detail`; a bare code matches any detail). */
  reasons: string[];
  /** How the call reaches `create` when not directly (`completions-alias`, `bind`…). */
  receiver?: string;
  /** A migrated site: other files its group certainly changes (each must be in the report's `groupFiles`). */
  groupFiles?: string[];
}

function clientOptions(ctx: Ctx, baseUrl: BaseUrl, depth: number, rng: Rng = ctx.rng): string {
  const s = (x: string) => ctx.p.str(x);
  const entries: Entry[] = [];
  if (rng.bool(0.35)) entries.push(prop('apiKey', 'process.env.OPENAI_API_KEY'));
  if (baseUrl === 'openai') entries.push(prop('baseURL', s(rng.pick(['https://api.openai.com/v1', 'https://api.openai.com/v1/']))));
  else if (baseUrl === 'vendor') entries.push(prop('baseURL', s(rng.pick(['https://api.vendor.example/v1', 'http://localhost:11434/v1']))));
  else if (baseUrl === 'env') entries.push(prop('baseURL', `process.env.${rng.pick(['LLM_BASE_URL', 'OPENAI_PROXY_URL'])}`));
  if (rng.bool(0.2)) entries.push(prop('maxRetries', '2'));
  if (entries.length === 0) return '';
  return ctx.p.print(obj(entries, rng.bool(0.3)), depth);
}

/**
 * Exploration overrides (scripts/fuzz.ts): they replace a style choice after it was drawn, so a
 * seed gives the same program apart from that choice. The tests never use them.
 */
export interface GenerateOptions {
  /** Force this line ending. */
  eol?: '\n' | '\r\n';
  /** Force this indentation unit. */
  indent?: string;
  /**
   * Draw none of the shapes of the second stream: the program the seed gave before them (the
   * regression seeds of test/fuzz.test.ts were recorded so).
   */
  classic?: boolean;
}

type BlockKind = 'create' | 'stream' | 'helper' | 'parse' | 'tools' | 'loop' | 'two-turns' | 'non-target';

const BLOCKS: Record<BlockKind, (ctx: Ctx, name: string) => Block> = {
  create: createBlock,
  stream: streamBlock,
  helper: helperStreamBlock,
  parse: parseBlock,
  tools: toolsBlock,
  loop: toolLoopBlock,
  'two-turns': twoTurnBlock,
  'non-target': nonTargetBlock,
};

const BLOCK_WEIGHTS: [BlockKind, number][] = [
  ['create', 7], ['stream', 3], ['helper', 2], ['parse', 2], ['tools', 3], ['loop', 1.5], ['two-turns', 1], ['non-target', 1],
];

/** How a class holds its client (issue 11 shapes besides `plain`). */
type Access = 'plain' | 'getter' | 'lazy-getter' | 'static-lazy' | 'private';
type Heritage = 'none' | 'with-logging' | 'mixin-list';
/** Where the exported client lives: next to the main file, behind a tsconfig alias, in a workspace package. */
type Layout = 'flat' | 'alias' | 'workspace';

interface ClassPlan {
  access: Access;
  heritage: Heritage;
  /** The mixin helper: in the main module, in a module of its own, or split from the bases (CommonJS). */
  helpers: 'inline' | 'module' | 'split';
  helperName: string;
  /** CommonJS: `module.exports = { Cls }` or `module.exports = class Cls …`. */
  cjsExport: 'object' | 'class';
  /** The class name when a static getter needs it before the blocks are written. */
  name?: string;
  lazy: 'nullish-assign' | 'if-missing';
  getterType: boolean;
}

/** The mixin helpers and the classes they mix (Base, Retrying), as module-level lines. */
function mixinLines(w: Writer, ctx: Ctx, plan: ClassPlan, exported: boolean, parts: { helper: boolean; bases: boolean }): void {
  const ex = exported && ctx.ts ? 'export ' : '';
  const t = (text: string) => (ctx.ts ? text : '');
  if (parts.helper && ctx.ts) {
    w.stmt(`${ex}type Ctor = new (...args: any[]) => {}`);
    w.blank();
  }
  if (parts.helper && plan.heritage === 'with-logging') {
    w.open(`${ex}function ${plan.helperName}${t('<T extends Ctor>')}(Base${t(': T')})`);
    w.open('return class extends Base');
    w.open(`log(text${t(': string')})${t(': void')}`);
    w.stmt('console.log(text)');
    w.close();
    w.close(ctx.st.semi ? ';' : '');
    w.close();
    w.blank();
  } else if (parts.helper) {
    // copies the prototypes of several classes into one base class (InheritMultiple in real code)
    w.open(`${ex}function ${plan.helperName}(bases${t(': Ctor[]')}${ctx.ts ? '' : ' = []'})${t(': Ctor')}`);
    w.stmt('class Bases {}');
    w.open('for (const base of bases)');
    w.open('for (const key of Object.getOwnPropertyNames(base.prototype))');
    w.stmt(`if (key !== ${ctx.p.str('constructor')}) Object.defineProperty(Bases.prototype, key, Object.getOwnPropertyDescriptor(base.prototype, key)${t('!')})`);
    w.close();
    w.close();
    w.stmt('return Bases');
    w.close();
    w.blank();
  }
  if (parts.bases) {
    w.open(`${ex}class Base`);
    w.open(`describe()${t(': string')}`);
    w.stmt(`return ${ctx.p.str('base')}`);
    w.close();
    w.close();
    w.blank();
    if (plan.heritage === 'mixin-list') {
      w.open(`${ex}class Retrying`);
      w.open(`retries()${t(': number')}`);
      w.stmt('return 2');
      w.close();
      w.close();
      w.blank();
    }
  }
}

/**
 * W-INJECTED: how the callers in view fill an injected client. `none`: there are none (P-INJECTED);
 * `same`: every call passes one client, whose construction decides; `unproven`: an exported
 * function nobody calls passes its own parameter besides; `vendor`: one call passes a client of
 * another host besides; `double`: a test passes an object-literal double besides (not a client, N04).
 */
type CallerPlan = 'none' | 'same' | 'unproven' | 'vendor' | 'double';

interface CallersInput {
  baseUrl: BaseUrl;
  mainName: string;
  /** The functions take the client in an options object (`{ client }`). */
  optionsParam: boolean;
  holder:
    | { kind: 'class'; name: string; exportedAs: 'named' | 'module' }
    | { kind: 'functions'; blocks: { name: string; params: [string, string][] }[] };
}

/** A value of a block parameter's type. */
function argumentOf(ctx: Ctx, type: string): string {
  if (type === 'boolean') return 'true';
  if (type === 'string') return ctx.p.str('hi');
  return '{}';
}

/** The module that constructs the injected client's class or calls its functions (app.ts / app.cjs). */
function callersModule(ctx: Ctx, input: CallersInput): { plan: CallerPlan; file: string; writer: Writer } | undefined {
  const x = ctx.x;
  const proven = input.baseUrl === 'none' || input.baseUrl === 'openai';
  const plan = x.weighted<CallerPlan>([['none', 2], ['same', 4], ['unproven', proven ? 1.2 : 0], ['vendor', proven ? 1.2 : 0], ['double', 1]]);
  if (plan === 'none') return undefined;
  shape(ctx, `injected:callers-${plan}`);
  shape(ctx, `injected:baseURL-${input.baseUrl}`);
  const { holder } = input;
  if (holder.kind === 'functions' && input.optionsParam) shape(ctx, 'injected:options-object');
  const s = (t: string) => ctx.p.str(t);
  const w = new Writer(ctx.p, ctx.st);
  const spec = ctx.cjs ? `./${input.mainName}` : `./${input.mainName.replace(/\.ts$/, '.js')}`;
  const names = holder.kind === 'class' ? [holder.name] : holder.blocks.map((b) => b.name);
  if (ctx.cjs) {
    w.stmt(s('use strict'));
    w.stmt(`const OpenAI = require(${s('openai')})`);
    if (holder.kind === 'class' && holder.exportedAs === 'module') w.stmt(`const ${holder.name} = require(${s(spec)})`);
    else w.stmt(`const { ${names.join(', ')} } = require(${s(spec)})`);
  } else {
    w.stmt(`import OpenAI from ${s('openai')}`);
    w.stmt(`import { ${names.join(', ')} } from ${s(spec)}`);
  }
  w.blank();
  w.stmt(`const client = new OpenAI(${clientOptions(ctx, input.baseUrl, 0, x)})`);
  /** The calls (or the construction) that pass `client`. */
  const calls = (client: string): string[] => {
    if (holder.kind === 'class') return [`new ${holder.name}(${client})`];
    const first = input.optionsParam ? (client === 'client' ? '{ client }' : `{ client: ${client} }`) : client;
    return holder.blocks.map((b) => `${b.name}(${[first, ...b.params.map(([, t]) => argumentOf(ctx, t))].join(', ')})`);
  };
  const exported: string[] = [];
  const keep = (exprs: string[]) => {
    for (const e of exprs) {
      const name = `use${exported.length}`;
      exported.push(name);
      w.stmt(`${ctx.cjs ? '' : 'export '}const ${name} = () => ${e}`);
    }
  };
  keep(calls('client'));
  if (plan === 'unproven') {
    w.blank();
    w.open(`${ctx.cjs ? '' : 'export '}function fromHost(host${ann(ctx, 'OpenAI')})`);
    w.stmt(`return [${calls('host').join(', ')}]`);
    w.close();
    exported.push('fromHost');
  } else if (plan === 'vendor') {
    w.blank();
    w.stmt(`const vendor = new OpenAI({ baseURL: ${s('https://api.vendor.example/v1')} })`);
    keep(calls('vendor'));
  } else if (plan === 'double') {
    w.blank();
    w.stmt(`const fake = { chat: { completions: { create: async () => ({ choices: [] }) } } }${ctx.ts ? ' as unknown as OpenAI' : ''}`);
    keep(calls('fake'));
  }
  if (ctx.cjs) {
    w.blank();
    w.stmt(`module.exports = { ${exported.join(', ')} }`);
  }
  return { plan, file: ctx.cjs ? 'app.cjs' : 'app.ts', writer: w };
}

const joinLines = (w: Writer, eol: string) => w.lines.join('\n').replace(/\n{3,}/g, '\n\n').replace(/^\n+/, '').replace(/\n*$/, '\n').split('\n').join(eol);

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function generateProgram(seed: number, overrides: GenerateOptions = {}): GeneratedProgram {
  const rng = new Rng(seed);
  const x = overrides.classic ? new ClassicRng() : new Rng((seed ^ 0x5bd1e995) | 0);
  localCounter = 0;
  const st: Style = {
    indent: rng.weighted([['  ', 6], ['    ', 2], ['\t', 1]]),
    semi: rng.bool(0.65),
    quote: rng.bool(0.7) ? "'" : '"',
    trailingComma: rng.bool(0.6),
    eol: rng.bool(0.15) ? '\r\n' : '\n',
  };
  if (overrides.eol) st.eol = overrides.eol;
  if (overrides.indent) st.indent = overrides.indent;
  const p = new Printer(st, rng);
  // whole-program following (issue 12): a third stream, so the other programs stay as they were
  const follow = overrides.classic ? new ClassicRng() : new Rng((seed ^ 0x27d4eb2f) | 0);
  if (follow.bool(0.18)) return followProgram(follow, st, p);
  const cjs = rng.bool(0.15);
  const imp: Import = cjs ? rng.weighted([['cjs-alias', 3], ['cjs-default', 1]]) : rng.weighted([['default', 3], ['alias', 1]]);
  let host: ClientHost = cjs
    ? rng.weighted([['module', 5], ['class-field', 1.5], ['class-ctor', 1.5], ['injected-param', 1], ['injected-ctor', 0.5]])
    : rng.weighted([['module', 5], ['exported', 1.5], ['exported-default', 0.7], ['class-field', 1.5], ['class-ctor', 0.7], ['injected-param', 1], ['injected-ctor', 0.5]]);
  // more classes (second stream): a module-level client becomes a class's
  if (host === 'module' && x.bool(0.2)) host = x.pick(['class-field', 'class-field', 'class-ctor'] as const);
  // more injected clients (second stream), filled by a module of callers (W-INJECTED)
  else if (host === 'module' && x.bool(0.12)) host = x.pick(['injected-param', 'injected-param', 'injected-ctor'] as const);
  const baseUrl: BaseUrl = rng.weighted([['none', 6], ['openai', 1.5], ['vendor', 1], ['env', 1]]);
  const className = imp === 'default' || imp === 'cjs-default' ? 'OpenAI' : imp === 'alias' ? 'Api' : rng.pick(['OpenAIApi', 'Client', 'OpenAI']);
  const classMode = host === 'class-field' || host === 'class-ctor' || host === 'injected-ctor';
  const moduleName = rng.pick(['client', 'openai', 'ai', 'llm']);
  let clientRef = classMode ? `this.${rng.pick(['client', 'openai', 'api'])}` : host === 'injected-param' ? 'client' : moduleName;
  const fieldName = clientRef.replace(/^this\./, '');

  // issue 11 shapes (second stream): how a class holds its client, what it extends
  let plan: ClassPlan | undefined;
  if (classMode) {
    const access = x.weighted<Access>(host === 'class-field'
      ? [['plain', 3], ['getter', 2], ['lazy-getter', 1.5], ['static-lazy', 1], ['private', 2]]
      : [['plain', 3], ['getter', 2], ['private', 2]]);
    const heritage = x.weighted<Heritage>([['none', 4], ['with-logging', 1.5], ['mixin-list', 1.5]]);
    plan = {
      access, heritage,
      helpers: x.weighted([['inline', 2], ['module', 2], ['split', cjs ? 1 : 0]]),
      helperName: heritage === 'with-logging' ? x.pick(['withLogging', 'withRetries']) : x.pick(['Mixin', 'InheritMultiple', 'mix']),
      cjsExport: cjs && x.bool(0.5) ? 'class' : 'object',
      name: access === 'static-lazy' ? x.pick(['Assistant', 'ChatService', 'Summarizer']) : undefined,
      lazy: x.bool(0.65) ? 'nullish-assign' : 'if-missing',
      getterType: x.bool(0.6),
    };
    if (access === 'static-lazy') clientRef = `${plan.name}.${fieldName}`;
    else if (access === 'private') clientRef = `this.#${fieldName}`;
  }
  const layout: Layout = (host === 'exported' || host === 'exported-default') ? x.weighted<Layout>([['flat', 2], ['alias', 1], ['workspace', 1]]) : 'flat';
  // W-INJECTED (second stream): an injected function client may come in an options object
  const optionsParam = host === 'injected-param' && x.bool(0.35);

  const ctx: Ctx = {
    rng, x, forced: [], st, p, ts: !cjs, cjs, host, classMode,
    injected: host === 'injected-param' || host === 'injected-ctor',
    clientRef, className,
    typeImports: new Set(), zod: false, prelude: [], preludeNames: new Set(), shapes: new Set(),
    model: rng.pick(['gpt-4o-mini', 'gpt-4.1-mini']),
  };
  shape(ctx, `module:${cjs ? 'cjs' : 'ts'}`);
  shape(ctx, `import:${imp}`);
  shape(ctx, `client:${host}`);
  shape(ctx, `baseURL:${host.startsWith('injected') ? 'n/a' : baseUrl}`);
  shape(ctx, `style:${st.semi ? 'semi' : 'no-semi'}`);
  shape(ctx, `style:${st.quote === "'" ? 'single' : 'double'}`);
  shape(ctx, `style:indent-${st.indent === '\t' ? 'tab' : st.indent.length}`);
  if (st.eol === '\r\n') shape(ctx, 'style:crlf');
  if (st.trailingComma) shape(ctx, 'style:trailing-comma');
  if (plan) {
    shape(ctx, `class:${plan.access}`);
    if (plan.heritage !== 'none') shape(ctx, `class:extends-${plan.heritage}-${plan.helpers}`);
    if (plan.cjsExport === 'class') shape(ctx, 'class:module-exports-class');
    if (plan.access === 'lazy-getter' || plan.access === 'static-lazy') shape(ctx, `class:lazy-${plan.lazy}`);
  }
  if (layout !== 'flat') shape(ctx, `layout:${layout}`);

  // blocks
  const count = rng.weighted([[1, 4], [2, 4], [3, 2]]);
  const blocks: Block[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rng.weighted(BLOCK_WEIGHTS);
    shape(ctx, `block:${kind}`);
    const name = `${rng.pick(['ask', 'run', 'answer', 'summarize'])}${i}`;
    blocks.push(BLOCKS[kind](ctx, name));
  }
  const sites = blocks.reduce((n, b) => n + b.sites, 0);
  /** The name of the function or method that holds each block's sites. */
  const holder = new Map<Block, string>(blocks.map((b) => [b, b.name]));

  // body of the main module (written first: it fills the prelude and the type imports)
  const body = new Writer(p, st);
  const construct = (depth: number) => `new ${className}(${host.startsWith('injected') ? '' : clientOptions(ctx, baseUrl, depth)})`;
  const fnParams = (b: Block): string => {
    const list = [...(host === 'injected-param' ? [['client', className] as [string, string]] : []), ...b.params];
    return list.map(([n, t]) => {
      if (n === 'client' && optionsParam) return ctx.ts ? `{ client }: { client: ${t} }` : '{ client }';
      return ctx.ts ? `${n}: ${t}` : n;
    }).join(', ');
  };
  /** A plain field no modifier hides: code outside the class may write it. */
  let publicField = false;
  /** The class that holds an injected client (injected-ctor), for its callers. */
  let holderClass: { name: string; exportedAs: 'named' | 'module' } | undefined;
  const writeBlock = (head: string, b: Block) => {
    body.blank();
    body.open(head);
    ctx.forced = b.forced;
    b.body(body);
    body.close();
  };
  if (classMode && plan) {
    const picked = rng.pick(['Assistant', 'ChatService', 'Summarizer']);
    const cls = plan.name ?? picked;
    holderClass = { name: cls, exportedAs: cjs && plan.cjsExport === 'class' ? 'module' : 'named' };
    const heritage = plan.heritage === 'with-logging' ? ` extends ${plan.helperName}(Base)` : plan.heritage === 'mixin-list' ? ` extends ${plan.helperName}([Base, Retrying])` : '';
    const asExpression = cjs && plan.cjsExport === 'class';
    body.open(asExpression ? `module.exports = class ${cls}${heritage}` : `${cjs ? '' : 'export '}class ${cls}${heritage}`);
    const superCall = () => {
      if (heritage) body.stmt('super()');
    };
    const t = (type: string) => (ctx.ts ? type : '');
    const getter = (ret: string, isStatic = false) => {
      body.blank();
      body.open(`${isStatic ? 'static ' : ''}get ${fieldName}()${ctx.ts && plan.getterType ? `: ${className}` : ''}`);
      body.stmt(`return ${ret}`);
      body.close();
    };
    const lazyGetter = (backing: string, isStatic: boolean) => {
      body.blank();
      body.open(`${isStatic ? 'static ' : ''}get ${fieldName}()${ctx.ts && (plan.getterType || plan.lazy === 'if-missing') ? `: ${className}` : ''}`);
      if (plan.lazy === 'nullish-assign') body.stmt(`return (${backing} ??= ${construct(body.depth)})`);
      else {
        body.stmt(`if (!${backing}) ${backing} = ${construct(body.depth)}`);
        body.stmt(`return ${backing}`);
      }
      body.close();
    };
    const access = plan.access;
    if (host === 'class-field') {
      if (access === 'plain') {
        const modifier = ctx.ts ? rng.pick(['private readonly ', 'private ', '']) : '';
        publicField = modifier === '';
        body.stmt(`${modifier}${fieldName} = ${construct(body.depth)}`);
      }
      else if (access === 'private') body.stmt(`#${fieldName} = ${construct(body.depth)}`);
      else if (access === 'getter') {
        body.stmt(`${ctx.ts ? x.pick(['private readonly ', 'private ']) : ''}_${fieldName} = ${construct(body.depth)}`);
        getter(`this._${fieldName}`);
      } else if (access === 'lazy-getter') {
        const decl = ctx.ts
          ? x.pick([`private _${fieldName}?: ${className}`, `private _${fieldName}: ${className} | null = null`])
          : x.pick(['', `_${fieldName} = null`]);
        if (decl) body.stmt(decl);
        lazyGetter(`this._${fieldName}`, false);
      } else {
        const hash = x.bool(0.4);
        const backing = `${cls}.${hash ? '#' : '_'}${fieldName}`;
        if (ctx.ts) body.stmt(hash ? `static #${fieldName}: ${className} | undefined` : x.pick([`private static _${fieldName}?: ${className}`, `private static _${fieldName}: ${className} | null = null`]));
        else body.stmt(hash ? `static #${fieldName}` : `static _${fieldName} = null`);
        lazyGetter(backing, true);
      }
    } else if (host === 'class-ctor') {
      const member = access === 'private' ? `#${fieldName}` : access === 'getter' ? `_${fieldName}` : fieldName;
      if (access === 'private') body.stmt(`#${fieldName}${t(`: ${className}`)}`);
      else if (ctx.ts) body.stmt(`private ${member}: ${className}`);
      if (access !== 'plain') body.blank();
      body.open('constructor()');
      superCall();
      body.stmt(`this.${member} = ${construct(body.depth)}`);
      body.close();
      if (access === 'getter') getter(`this._${fieldName}`);
    } else if (access === 'plain') {
      if (ctx.ts && rng.bool()) {
        if (heritage) {
          body.open(`constructor(private readonly ${fieldName}: ${className})`);
          superCall();
          body.close();
        } else body.line(`constructor(private readonly ${fieldName}: ${className}) {}`);
      } else {
        if (ctx.ts) body.stmt(`private ${fieldName}: ${className}`);
        body.open(`constructor(${fieldName}${ann(ctx, className)})`);
        superCall();
        body.stmt(`this.${fieldName} = ${fieldName}`);
        body.close();
      }
    } else {
      // injected, kept in a private field or behind a getter
      const member = access === 'private' ? `#${fieldName}` : `_${fieldName}`;
      if (access === 'private') body.stmt(`#${fieldName}${t(`: ${className}`)}`);
      else if (ctx.ts) body.stmt(`private ${member}: ${className}`);
      body.blank();
      body.open(`constructor(${fieldName}${ann(ctx, className)})`);
      superCall();
      body.stmt(`this.${member} = ${fieldName}`);
      body.close();
      if (access === 'getter') getter(`this._${fieldName}`);
    }
    // private methods, reached through a public method or a bound reference (second stream)
    const bound: string[] = [];
    for (const b of blocks) {
      const priv = x.bool(0.3);
      const method = priv ? `#${b.name}` : b.name;
      holder.set(b, method);
      if (priv) shape(ctx, 'class:private-method');
      writeBlock(`async ${method}(${fnParams(b)})`, b);
      const entry = priv ? x.weighted([['delegate', 1], ['bind', 1]]) : x.bool(0.15) ? 'bind' : 'none';
      if (entry === 'delegate') {
        body.blank();
        body.open(`async ${b.name}(${fnParams(b)})`);
        body.stmt(`return this.${method}(${b.params.map(([n]) => n).join(', ')})`);
        body.close();
      } else if (entry === 'bind') bound.push(method);
    }
    if (bound.length) {
      const form = x.weighted([['routes', 1], ['register', 1]]);
      shape(ctx, `class:bind-${form}`);
      const handlerType = '(...args: any[]) => Promise<unknown>';
      body.blank();
      if (form === 'routes') {
        body.open(`routes()${ann(ctx, `Record<string, ${handlerType}>`)}`);
        body.open('return');
        for (const m of bound) body.line(`${m.replace('#', '')}: this.${m}.bind(this),`);
        body.close(st.semi ? ';' : '');
        body.close();
      } else {
        addPrelude(ctx, 'register', (w) => {
          w.stmt(`const handlers = new Map${ctx.ts ? `<string, ${handlerType}>` : ''}()`);
          w.blank();
          w.open(`function register(name${ann(ctx, 'string')}, handler${ann(ctx, handlerType)})${ann(ctx, 'void')}`);
          w.stmt('handlers.set(name, handler)');
          w.close();
        });
        body.open(`mount()${ann(ctx, 'void')}`);
        for (const m of bound) body.stmt(`register(${p.str(m.replace('#', ''))}, this.${m}.bind(this))`);
        body.close();
      }
    }
    body.close(asExpression && st.semi ? ';' : '');
    if (cjs && !asExpression) {
      body.blank();
      body.stmt(`module.exports = { ${cls} }`);
    }
  } else {
    for (const b of blocks) writeBlock(`${cjs ? '' : 'export '}async function ${b.name}(${fnParams(b)})`, b);
    if (cjs) {
      body.blank();
      body.stmt(`module.exports = { ${blocks.map((b) => b.name).join(', ')} }`);
    }
  }

  // head of the main module
  const head = new Writer(p, st);
  const s = (t: string) => p.str(t);
  const files: Record<string, string> = {};
  const typecheckSpecifiers: GeneratedProgram['typecheckSpecifiers'] = [];
  const ext = cjs ? 'cjs' : 'ts';
  const mainName = `${rng.pick(['main', 'chat', 'service'])}.${ext}`;
  let dir = '';
  if (layout === 'alias') dir = x.pick(['src/', 'src/app/', 'src/routes/']);
  else if (layout === 'workspace') dir = 'apps/web/src/';
  const main = `${dir}${mainName}`;
  if (cjs) head.stmt(s('use strict'));
  const needsClass = host === 'module' || classMode || host === 'injected-param';
  const exported = host === 'exported' || host === 'exported-default';
  // the mixin helpers: inline in the prelude, or imported from a module next to the main file
  if (plan && plan.heritage !== 'none') {
    const names = [plan.helperName, 'Base', ...(plan.heritage === 'mixin-list' ? ['Retrying'] : [])];
    if (plan.helpers === 'inline') {
      const w = new Writer(p, st);
      mixinLines(w, ctx, plan, false, { helper: true, bases: true });
      ctx.prelude.unshift(...w.lines, '');
    } else {
      const own = (file: string, parts: { helper: boolean; bases: boolean }, exportsLine: string) => {
        const w = new Writer(p, st);
        if (cjs) w.stmt(s('use strict'));
        mixinLines(w, ctx, plan!, true, parts);
        if (cjs) w.stmt(exportsLine);
        files[`${dir}${file}`] = joinLines(w, st.eol);
      };
      if (plan.helpers === 'split') {
        // CommonJS, as in real code: the helper is the module's export, the bases come from another
        own('inherit.cjs', { helper: true, bases: false }, `module.exports = ${plan.helperName}`);
        own('bases.cjs', { helper: false, bases: true }, `module.exports = { ${names.slice(1).join(', ')} }`);
      } else own(cjs ? 'mixins.cjs' : 'mixins.ts', { helper: true, bases: true }, `module.exports = { ${names.join(', ')} }`);
    }
  }
  if (cjs) {
    if (imp === 'cjs-alias') head.stmt(`const { OpenAI: ${className} } = require(${s('openai')})`);
    else head.stmt(`const ${className} = require(${s('openai')})`);
    if (ctx.zod) {
      head.stmt(`const { zodResponseFormat } = require(${s('openai/helpers/zod')})`);
      head.stmt(`const { z } = require(${s('zod')})`);
    }
    if (plan && plan.heritage !== 'none' && plan.helpers !== 'inline') {
      const names = [plan.helperName, 'Base', ...(plan.heritage === 'mixin-list' ? ['Retrying'] : [])];
      if (plan.helpers === 'split') {
        head.stmt(`const ${plan.helperName} = require(${s('./inherit.cjs')})`);
        head.stmt(`const { ${names.slice(1).join(', ')} } = require(${s('./bases.cjs')})`);
      } else head.stmt(`const { ${names.join(', ')} } = require(${s('./mixins.cjs')})`);
    }
  } else {
    if (needsClass) {
      const typeOnly = host.startsWith('injected') && rng.bool(0.5) ? 'type ' : '';
      head.stmt(imp === 'alias' ? `import ${typeOnly}{ OpenAI as Api } from ${s('openai')}` : `import ${typeOnly}OpenAI from ${s('openai')}`);
    }
    if (ctx.zod) {
      head.stmt(`import { zodResponseFormat } from ${s('openai/helpers/zod')}`);
      head.stmt(`import { z } from ${s('zod')}`);
    }
    if (ctx.typeImports.size) head.stmt(`import type { ${[...ctx.typeImports].sort().join(', ')} } from ${s(CHAT_TYPES)}`);
    if (plan && plan.heritage !== 'none' && plan.helpers !== 'inline') {
      const names = [plan.helperName, 'Base', ...(plan.heritage === 'mixin-list' ? ['Retrying'] : [])];
      head.stmt(`import { ${names.join(', ')} } from ${s('./mixins.js')}`);
    }
    if (exported) {
      const clientFile = new Writer(p, st);
      clientFile.stmt(imp === 'alias' ? `import { OpenAI as Api } from ${s('openai')}` : `import OpenAI from ${s('openai')}`);
      clientFile.blank();
      // the dev-server singleton (third stream, so other programs stay as they were): a slot of a
      // typed alias of the global object, written back by its module
      if (host === 'exported' && new Rng((seed ^ 0x165667b1) | 0).bool(0.3)) {
        shape(ctx, 'client:global-cache');
        const cache = `globalFor${moduleName[0].toUpperCase()}${moduleName.slice(1)}`;
        clientFile.stmt(`const ${cache} = globalThis as unknown as { ${moduleName}?: ${className} }`);
        clientFile.stmt(`export const ${moduleName} = ${cache}.${moduleName} ?? ${construct(0)}`);
        clientFile.stmt(`${cache}.${moduleName} = ${moduleName}`);
      } else clientFile.stmt(host === 'exported' ? `export const ${moduleName} = ${construct(0)}` : `export default ${construct(0)}`);
      if (ctx.exportedResource) clientFile.stmt(`export const ${ctx.exportedResource} = ${moduleName}.chat.completions`);
      // where the client module is, and the specifier the main file imports it by
      let clientPath = 'client.ts';
      let spec = './client.js';
      if (layout === 'alias') {
        clientPath = 'src/lib/ai.ts';
        spec = '@/lib/ai';
        const form = x.weighted([['paths', 2], ['base-url', 1], ['base-url-src', 1]]);
        shape(ctx, `layout:alias-${form}`);
        const options: Record<string, unknown> = { target: 'ES2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true };
        if (form === 'base-url') options.baseUrl = '.';
        if (form === 'base-url-src') Object.assign(options, { baseUrl: './src', paths: { '@/*': ['*'] } });
        else options.paths = { '@/*': ['./src/*'] };
        files['tsconfig.json'] = json({ compilerOptions: options, include: ['src'] });
      } else if (layout === 'workspace') {
        clientPath = 'packages/llm/src/index.ts';
        spec = '@fuzz/llm';
        const entry = x.weighted([['main', 1], ['main-types', 1], ['exports', 1]]);
        const built = x.bool(0.5);
        shape(ctx, `layout:workspace-${entry}${built ? '-tsconfig' : ''}`);
        files['package.json'] = json({ name: 'fuzz-monorepo', private: true, workspaces: x.bool() ? ['apps/*', 'packages/*'] : ['packages/llm', 'apps/web'] });
        const pkg: Record<string, unknown> = { name: '@fuzz/llm', version: '1.0.0', private: true, main: './dist/index.js' };
        if (entry !== 'main') pkg.types = './dist/index.d.ts';
        if (entry === 'exports') pkg.exports = { '.': { types: './dist/index.d.ts', import: './dist/index.js' } };
        pkg.dependencies = { openai: '^6.0.0' };
        files['packages/llm/package.json'] = json(pkg);
        if (built) files['packages/llm/tsconfig.json'] = json({ compilerOptions: { outDir: 'dist', rootDir: 'src', declaration: true, module: 'esnext', moduleResolution: 'bundler', strict: true } });
        // the app's files are ES modules (top-level await), as the type-check reads them
        files['apps/web/package.json'] = json({ name: '@fuzz/web', private: true, type: 'module', dependencies: { '@fuzz/llm': '*' } });
      }
      const names = ctx.exportedResource ? `${moduleName}, ${ctx.exportedResource}` : moduleName;
      head.stmt(host === 'exported' ? `import { ${names} } from ${s(spec)}` : `import ${moduleName} from ${s(spec)}`);
      if (layout !== 'flat') {
        const rel = path.posix.relative(path.posix.dirname(main), clientPath.replace(/\.ts$/, '.js'));
        typecheckSpecifiers.push({ file: main, from: spec, to: rel.startsWith('.') ? rel : `./${rel}` });
      }
      files[clientPath] = clientFile.lines.join(st.eol) + st.eol;
    }
  }
  head.blank();
  if (host === 'module') {
    head.stmt(`const ${moduleName} = ${construct(0)}`);
    head.blank();
  }
  // W-INJECTED (second stream): a module that constructs the class or calls the functions
  let callers: CallerPlan | undefined;
  if (host === 'injected-param' || host === 'injected-ctor') {
    const module = callersModule(ctx, {
      baseUrl, mainName, optionsParam,
      holder: holderClass ? { kind: 'class', ...holderClass } : { kind: 'functions', blocks: blocks.map((b) => ({ name: b.name, params: b.params })) },
    });
    if (module) {
      callers = module.plan;
      files[module.file] = joinLines(module.writer, st.eol);
    }
  }
  // P-UNION (second stream): a module that writes another vendor's client (or a test's double)
  // into an instance of the class, from outside it; or (P-RUNTIME) re-points the client it holds
  let outsideWrite: 'vendor' | 'double' | 'loose' | 'base-url' | 'lent' | undefined;
  // the module that writes is left out of the paths given (`migrate-responses chat.ts`): read,
  // never rewritten, and every site's outcome is the same as when it is given
  let setupOutside: string | undefined;
  if (holderClass && publicField && baseUrl !== 'env' && x.bool(0.5)) {
    const constructedHere = host !== 'injected-param' && host !== 'injected-ctor';
    // a public method to lend (a `#private` one cannot be read from outside)
    const lendable = blocks.find((b) => !holder.get(b)!.startsWith('#'));
    const kinds = constructedHere ? ['vendor', 'vendor', 'double', 'loose', 'base-url'] as const : ['vendor', 'vendor', 'double', 'loose'] as const;
    outsideWrite = x.pick(lendable ? [...kinds, 'lent' as const] : kinds);
    shape(ctx, `class:field-written-outside-${outsideWrite}`);
    const w = new Writer(p, st);
    const spec = cjs ? `./${mainName}` : `./${mainName.replace(/\.ts$/, '.js')}`;
    if (cjs) {
      w.stmt(s('use strict'));
      w.stmt(`const OpenAI = require(${s('openai')})`);
      w.stmt(holderClass.exportedAs === 'module' ? `const ${holderClass.name} = require(${s(spec)})` : `const { ${holderClass.name} } = require(${s(spec)})`);
    } else {
      w.stmt(`import OpenAI from ${s('openai')}`);
      w.stmt(`import { ${holderClass.name} } from ${s(spec)}`);
    }
    w.blank();
    w.stmt(`const shared = new ${holderClass.name}()`);
    const vendorClient = `new OpenAI({ baseURL: ${s('https://api.vendor.example/v1')}, apiKey: ${s('sk-vendor')} })`;
    if (outsideWrite === 'vendor') w.stmt(`shared.${fieldName} = ${vendorClient}`);
    // through a type that does not name the class: an `any` alias, or an untyped JavaScript parameter
    else if (outsideWrite === 'loose' && ctx.ts) {
      w.stmt('const untyped: any = shared');
      w.stmt(`untyped.${fieldName} = ${vendorClient}`);
    }
    else if (outsideWrite === 'loose') {
      w.stmt(`function swap(target) { target.${fieldName} = ${vendorClient}; }`);
      w.stmt('swap(shared)');
    }
    else if (outsideWrite === 'base-url') w.stmt(`shared.${fieldName}${ctx.ts ? '!' : ''}.baseURL = ${s('https://api.vendor.example/v1')}`);
    // a method lent to an object that holds another vendor's client (classes with mixins): it
    // runs with that object as `this`
    else if (outsideWrite === 'lent') {
      const lent = blocks.find((b) => !holder.get(b)!.startsWith('#'))!;
      w.stmt(`const settings = { ${fieldName}: ${vendorClient} }`);
      w.stmt(`const viaVendor = ${holderClass.name}.prototype.${holder.get(lent)}.bind(settings${ctx.ts ? ' as any' : ''})`);
    }
    else w.stmt(`shared.${fieldName} = { chat: { completions: { create: async () => ({ choices: [] }) } } }${ctx.ts ? ' as unknown as OpenAI' : ''}`);
    const exported = outsideWrite === 'lent' ? 'shared, viaVendor' : 'shared';
    w.stmt(cjs ? `module.exports = { ${exported} }` : `export { ${exported} }`);
    const setupFile = `${dir}${outsideWrite === 'double' ? 'setup.test' : 'setup'}.${ext}`;
    files[setupFile] = joinLines(w, st.eol);
    if (x.bool(0.3)) {
      setupOutside = setupFile;
      shape(ctx, 'roots:writer-outside-paths');
    }
  }
  files[main] = [...head.lines, ...ctx.prelude, ...body.lines]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .replace(/\n*$/, '\n')
    .split('\n')
    .join(st.eol);
  for (const [file, content] of Object.entries(files)) files[file] = content.split('\n').map((l) => l.replace(/[ \t]+(\r?)$/, '$1')).join('\n');

  // what the report must say (see SiteExpectation)
  const injected = host === 'injected-param' || host === 'injected-ctor';
  const built: [string, string | undefined] = baseUrl === 'vendor' ? ['other', 'provider-not-openai'] : baseUrl === 'env' ? ['unknown', 'provider-unknown:runtime-base-url'] : ['openai', undefined];
  let [provider, providerReason] = injected ? ['unknown', 'provider-unknown:injected'] : built;
  if (outsideWrite === 'vendor') [provider, providerReason] = ['other', 'provider-not-openai'];
  if (outsideWrite === 'loose' || outsideWrite === 'lent') [provider, providerReason] = ['unknown', 'provider-unknown:injected'];
  if (outsideWrite === 'base-url' && provider === 'openai') [provider, providerReason] = ['unknown', 'provider-unknown:runtime-base-url'];
  if (callers) {
    [provider, providerReason] = callers === 'unproven' ? ['unknown', 'provider-unknown:injected']
      : callers === 'vendor' ? ['other', 'provider-not-openai'] : built;
  }
  const expected: SiteExpectation[] = blocks.filter((b) => b.sites > 0).map((b) => {
    const reasons = [...(providerReason && !b.providerUnchecked ? [providerReason] : []), ...b.forced];
    return {
      file: main, fn: holder.get(b)!, sites: b.sites, ...(b.providerUnchecked ? {} : { provider }), ...(b.receiver ? { receiver: b.receiver } : {}),
      ...(b.ignored ? { status: 'ignored' as const, reasons: [] } : reasons.length ? { status: 'manual' as const, reasons } : { reasons }),
    };
  });
  const sources = Object.keys(files).filter((f) => /\.(ts|cts|mts|js|cjs|mjs)$/.test(f)).sort();
  // with a root tsconfig.json, '.' is the type-aware mode (several times slower): a third of the layouts
  const roots = setupOutside ? sources.filter((f) => f !== setupOutside) : layout !== 'flat' && x.bool(0.35) ? ['.'] : sources;
  if (roots[0] === '.') shape(ctx, 'roots:dot');
  return { files, sites, expected, roots, typecheckSpecifiers, shapes: [...ctx.shapes].sort() };
}

// ---------------------------------------------------------------------------------------------
// Whole-program following (issue 12, docs/migration-spec.md §1.4b W-FOLLOW, W-EDGE,
// W-ALL-OR-NOTHING): programs of several modules in one private package (run with the program's
// folder as the path given, so the package's every caller is in view), where a completion or a
// stream leaves the function of its site (returned to callers, passed to a helper or a consumer,
// a chunk re-emitted) and the whole group migrates, or stops at an edge with the site reported.
// Drawn from a third random stream: the programs of the other two streams are unchanged.

const EXPORT_MARK = '\u0000export:';

/** One module of a follow program. */
class FollowModule {
  /** specifier → names imported by name (functions) */
  readonly named = new Map<string, Set<string>>();
  /** specifier → namespace alias */
  readonly namespaces = new Map<string, string>();
  /** specifier → type names */
  readonly types = new Map<string, Set<string>>();
  readonly exported: string[] = [];
  readonly w: Writer;
  client = false;

  constructor(readonly base: string, p: Printer, st: Style) {
    this.w = new Writer(p, st);
  }
}

interface FollowCtx {
  f: Rng;
  st: Style;
  p: Printer;
  ts: boolean;
  ext: 'ts' | 'cjs';
  modules: Map<string, FollowModule>;
  expected: SiteExpectation[];
  shapes: Set<string>;
  sites: number;
  /** A counter that keeps the names of the program's scenarios apart. */
  n: number;
  /** Site functions whose callers in other modules are looked for though none of them changes (parse's errors). */
  crossing: Set<string>;
}

const fpath = (fc: FollowCtx, base: string) => `src/${base}.${fc.ext}`;

function fmodule(fc: FollowCtx, base: string): FollowModule {
  let m = fc.modules.get(base);
  if (!m) fc.modules.set(base, (m = new FollowModule(base, fc.p, fc.st)));
  return m;
}

/** `name` of module `from` as `into` calls it (an import when they differ). */
function fref(fc: FollowCtx, into: FollowModule, from: FollowModule, name: string, namespace = false): string {
  if (into === from) return name;
  if (!from.exported.includes(name)) from.exported.push(name);
  const spec = `./${from.base}.${fc.ts ? 'js' : 'cjs'}`;
  if (namespace && fc.ts) {
    into.namespaces.set(spec, from.base);
    return `${from.base}.${name}`;
  }
  if (!into.named.has(spec)) into.named.set(spec, new Set());
  into.named.get(spec)!.add(name);
  return name;
}

function ftype(fc: FollowCtx, m: FollowModule, name: 'ChatCompletion' | 'ChatCompletionChunk' | 'ChatCompletionMessage' | 'Stream'): string {
  if (!fc.ts) return '';
  const spec = name === 'Stream' ? 'openai/streaming' : CHAT_TYPES;
  if (!m.types.has(spec)) m.types.set(spec, new Set());
  m.types.get(spec)!.add(name);
  return name;
}

/** A function of module `m`; `ret` is a TypeScript return type (omitted in CommonJS). */
function ffunction(fc: FollowCtx, m: FollowModule, head: { name: string; params: [string, string][]; async?: boolean; ret?: string; exported?: boolean }, body: (w: Writer) => void): void {
  const w = m.w;
  const params = head.params.map(([n, t]) => (fc.ts ? `${n}: ${t}` : n)).join(', ');
  if (head.exported && !m.exported.includes(head.name)) m.exported.push(head.name);
  w.blank();
  // `export` is decided when the module is printed: an import from another module exports it
  w.open(`${EXPORT_MARK}${head.name}@${head.async === false ? '' : 'async '}function ${head.name}(${params})${fc.ts && head.ret ? `: ${head.ret}` : ''}`);
  body(w);
  w.close();
}

/** `client.chat.completions.create({ … })` at the writer's depth, in module `m` (which gets the client). */
function fcall(fc: FollowCtx, m: FollowModule, w: Writer, opts: { stream?: boolean; n?: boolean; streamFlag?: string; parse?: boolean } = {}): string {
  m.client = true;
  fc.sites++;
  const f = fc.f;
  const s = (t: string) => fc.p.str(t);
  const items: X[] = [];
  if (f.bool(0.4)) items.push(obj([prop('role', s('system')), prop('content', s(f.pick(['You are terse.', 'Be helpful.'])))]));
  // string-typed content: a JavaScript parameter is not (M-CONTENT-UNTYPED), a template is
  items.push(obj([prop('role', s('user')), prop('content', fc.ts && f.bool(0.6) ? 'q' : '`Question: ${q}`')]));
  const entries: Entry[] = [prop('model', s(f.pick(['gpt-4o-mini', 'gpt-4.1-mini']))), prop('messages', arr(items, items.length > 1 && f.bool(0.5)))];
  if (f.bool(0.3)) entries.push(prop('temperature', f.pick(['0', '0.2'])));
  if (f.bool(0.25)) entries.push(prop('max_tokens', '256'));
  if (opts.n) entries.push(prop('n', '2'));
  if (opts.stream) entries.push(prop('stream', 'true'));
  if (opts.streamFlag) entries.push(prop('stream', opts.streamFlag));
  if (opts.parse) {
    const schema = obj([prop('type', s('object')), prop('properties', obj([prop('answer', obj([prop('type', s('string'))]))])), prop('required', arr([s('answer')])), prop('additionalProperties', 'false')]);
    entries.push(prop('response_format', obj([prop('type', s('json_schema')), prop('json_schema', obj([prop('name', s('answer')), prop('schema', schema), prop('strict', 'true')]))])));
  }
  const arg = obj(entries, entries.length > 2 && f.bool(0.6));
  return `client.chat.completions.${opts.parse ? 'parse' : 'create'}(${fc.p.print(arg, w.depth)})`;
}

/** The site's expectation; `groupFiles` are modules other than the site's whose code certainly changes with it. */
function fexpect(fc: FollowCtx, m: FollowModule, fn: string, outcome: { status: 'migrated' } | { status: 'manual'; reasons: string[] }, groupFiles: FollowModule[] = [], sites = 1): void {
  const files = [...new Set(groupFiles.filter((g) => g !== m).map((g) => fpath(fc, g.base)))].sort();
  fc.expected.push({
    file: fpath(fc, m.base), fn, sites, provider: 'openai', status: outcome.status,
    reasons: outcome.status === 'manual' ? outcome.reasons : [],
    ...(outcome.status === 'migrated' && files.length ? { groupFiles: files } : {}),
  });
}

type CallerAt = 'same-module' | 'named-import' | 'namespace-import' | 'require';
type CallerRead = 'direct' | 'destructure' | 'then';

/** A caller module for a function of `ai`: the same module or another one. */
function callerModule(fc: FollowCtx, ai: FollowModule, elsewhere = false): { m: FollowModule; at: CallerAt } {
  const at = fc.f.weighted<CallerAt>(fc.ts
    ? [['same-module', elsewhere ? 0 : 2], ['named-import', 3], ['namespace-import', 1.5]]
    : [['same-module', elsewhere ? 0 : 2], ['require', 3]]);
  const m = at === 'same-module' ? ai : fmodule(fc, fc.f.pick(['routes', 'summary', 'jobs']));
  return { m, at };
}

/** A caller of `target` (a function returning the completion or its promise) that reads the content. */
function completionCaller(fc: FollowCtx, ai: FollowModule, target: string, edge?: 'third-party', elsewhere = false): FollowModule {
  const f = fc.f;
  const s = (t: string) => fc.p.str(t);
  const { m, at } = callerModule(fc, ai, elsewhere);
  const read = edge ? 'direct' : f.weighted<CallerRead>([['direct', 3], ['destructure', 2], ['then', 2]]);
  fc.shapes.add(`follow:caller-${at}`);
  fc.shapes.add(`follow:caller-read-${read}`);
  const callee = fref(fc, m, ai, target, at === 'namespace-import');
  const name = `${f.pick(['summary', 'title', 'answer'])}${fc.n++}`;
  const usage = f.bool(0.35);
  ffunction(fc, m, { name, params: [['q', 'string']], ret: f.bool(0.5) ? 'Promise<string>' : undefined, exported: true }, (w) => {
    if (read === 'then') {
      w.stmt(`return ${callee}(q).then((res) => res.choices[0].message.content ?? ${s('')})`);
    } else if (read === 'destructure') {
      w.stmt(`const { choices${usage ? ', usage' : ''} } = await ${callee}(q)`);
      if (usage) w.stmt('console.log(usage?.total_tokens ?? 0)');
      w.stmt(`return choices[0].message.content ?? ${s('')}`);
    } else {
      w.stmt(`const r = await ${callee}(q)`);
      if (usage) w.stmt('console.log(r.usage?.total_tokens ?? 0)');
      if (edge === 'third-party') {
        // W-EDGE: the completion handed to a function out of the project
        const form = f.pick(['JSON.stringify(r)', 'structuredClone(r)']);
        fc.shapes.add(`follow:edge-third-party-${form.replace(/\(r\)$/, '')}`);
        // the JSON text is used, not only logged (a logged JSON.stringify is a log, O-ESCAPE)
        w.stmt(`console.log(${form === 'JSON.stringify(r)' ? 'JSON.stringify(r).length' : form})`);
      }
      w.stmt(`return r.choices[0].message.content ?? ${s('')}`);
    }
  });
  return m;
}

/** 1 / edge: the completion (or its promise) returned from a function to its callers. */
function followReturn(fc: FollowCtx, ai: FollowModule, edge?: 'used-as-value' | 'third-party' | 'published'): void {
  const f = fc.f;
  const k = fc.n++;
  const name = `ask${k}`;
  const form = f.weighted([['promise', 2], ['await', 1], ['binding', 2]]);
  const isAsync = form !== 'promise' || f.bool(0.6);
  fc.shapes.add(`follow:return-${form}${isAsync ? '' : '-sync'}`);
  const typed = fc.ts && f.bool(0.5);
  if (typed) fc.shapes.add('follow:return-typed');
  ffunction(fc, ai, { name, params: [['q', 'string']], async: isAsync, ret: typed ? `Promise<${ftype(fc, ai, 'ChatCompletion')}>` : undefined }, (w) => {
    if (form === 'promise') w.stmt(`return ${fcall(fc, ai, w)}`);
    else if (form === 'await') w.stmt(`return await ${fcall(fc, ai, w)}`);
    else {
      const v = f.pick(['completion', 'res', 'result']);
      w.stmt(`const ${v} = await ${fcall(fc, ai, w)}`);
      w.stmt(`return ${v}`);
    }
  });
  if (edge === 'used-as-value') {
    // W-EDGE: the function handed to map() is called by code out of view
    fc.shapes.add('follow:edge-used-as-value');
    ffunction(fc, ai, { name: `all${k}`, params: [['qs', 'string[]']], exported: true }, (w) => {
      w.stmt(`const rs = await Promise.all(qs.map(${name}))`);
      w.stmt('return rs.map((r) => r.choices[0].message.content)');
    });
    fexpect(fc, ai, name, { status: 'manual', reasons: ['result-escapes'] });
    return;
  }
  // two functions deep: a second function returns the awaited completion to the callers
  let target = name;
  let holder = ai;
  if (edge === 'third-party' || f.bool(0.25)) {
    fc.shapes.add('follow:return-two-hops');
    const mid = `${name}Logged`;
    holder = f.bool(0.5) ? ai : fmodule(fc, 'service');
    const callee = fref(fc, holder, ai, name);
    ffunction(fc, holder, { name: mid, params: [['q', 'string']] }, (w) => {
      w.stmt('const started = Date.now()');
      w.stmt(`const completion = await ${callee}(q)`);
      w.stmt(`console.log(${fc.p.str('took')}, Date.now() - started)`);
      w.stmt('return completion');
    });
    target = mid;
  }
  const callers = edge === 'third-party' ? 1 : f.weighted([[1, 3], [2, 3], [3, 1]]);
  const group: FollowModule[] = [];
  // a published package's function is its API only when exported: its first caller imports it
  for (let i = 0; i < callers; i++) group.push(completionCaller(fc, holder, target, edge === 'third-party' ? edge : undefined, edge === 'published' && i === 0));
  if (edge === 'third-party') fexpect(fc, ai, name, { status: 'manual', reasons: ['result-escapes'] });
  else if (edge === 'published') {
    // W-EDGE: the package is published: its exported function's callers live elsewhere
    fexpect(fc, ai, name, { status: 'manual', reasons: ['result-escapes'] });
  } else fexpect(fc, ai, name, { status: 'migrated' }, group);
}

/** 2: the completion passed to a helper that reads it; the helper's other calls decide. */
function followHelper(fc: FollowCtx, ai: FollowModule): void {
  const f = fc.f;
  const s = (t: string) => fc.p.str(t);
  const k = fc.n++;
  const helper = `textOf${k}`;
  const hm = f.bool(0.5) ? ai : fmodule(fc, 'text');
  fc.shapes.add(`follow:helper-${hm === ai ? 'same-module' : 'other-module'}`);
  const variant = f.weighted([['all-sites', 3], ['other-value', 1], ['blocked', 1]]);
  fc.shapes.add(`follow:helper-${variant}`);
  ffunction(fc, hm, { name: helper, params: [['completion', ftype(fc, hm, 'ChatCompletion')]], async: false, ret: 'string' }, (w) => {
    if (f.bool(0.3)) w.stmt(`if (completion.choices[0].finish_reason === ${s('length')}) console.warn(${s('cut')})`);
    w.stmt(`return completion.choices[0].message.content ?? ${s('')}`);
  });
  const count = f.weighted([[1, 2], [2, 2]]);
  const names: string[] = [];
  const siteFn = (n: boolean) => {
    const name = `${n ? 'variants' : 'short'}${fc.n++}`;
    const callee = fref(fc, ai, hm, helper);
    ffunction(fc, ai, { name, params: [['q', 'string']], ret: 'Promise<string>', exported: true }, (w) => {
      const v = f.pick(['completion', 'res']);
      w.stmt(`const ${v} = await ${fcall(fc, ai, w, { n })}`);
      w.stmt(`return ${callee}(${v})`);
    });
    return name;
  };
  for (let i = 0; i < count; i++) names.push(siteFn(false));
  if (variant === 'blocked') {
    // W-ALL-OR-NOTHING: a site that stays on Chat Completions (n > 1) shares the helper
    const blocker = siteFn(true);
    fexpect(fc, ai, blocker, { status: 'manual', reasons: ['n-greater-than-one'] });
    for (const name of names) fexpect(fc, ai, name, { status: 'manual', reasons: ['unit-blocked'] });
    return;
  }
  if (variant === 'other-value') {
    // the helper also reads a completion that is no site's: it must keep reading Chat shapes
    const cm = f.bool(0.5) ? ai : fmodule(fc, 'cache');
    const callee = fref(fc, cm, hm, helper);
    ffunction(fc, cm, { name: `cached${fc.n++}`, params: [['stored', 'string']], async: false, ret: 'string', exported: true }, (w) => {
      w.stmt(`return ${callee}(JSON.parse(stored)${fc.ts ? ` as ${ftype(fc, cm, 'ChatCompletion')}` : ''})`);
    });
    for (const name of names) fexpect(fc, ai, name, { status: 'manual', reasons: ['result-escapes'] });
    return;
  }
  for (const name of names) fexpect(fc, ai, name, { status: 'migrated' }, [hm]);
}

/**
 * 8 / edge: a parse() helper whose throw on a cut-off answer (Chat's LengthFinishReasonError) a
 * caller catches, in another module or one function further up (T-PARSE-NOTHROW: responses.parse
 * returns output_parsed null instead, so the fallback would not run), or that no caller catches.
 */
function followParse(fc: FollowCtx, ai: FollowModule): void {
  const f = fc.f;
  const s = (t: string) => fc.p.str(t);
  const name = `extract${fc.n++}`;
  ffunction(fc, ai, { name, params: [['q', 'string']] }, (w) => {
    w.stmt(`const r = await ${fcall(fc, ai, w, { parse: true })}`);
    w.stmt(`return r.choices[0].message.parsed`);
  });
  const catcher = f.weighted<'none' | 'try' | 'catch-method'>([['none', 2], ['try', 2], ['catch-method', 1]]);
  fc.shapes.add(`follow:parse-caught-${catcher}`);
  const { m, at } = callerModule(fc, ai);
  fc.shapes.add(`follow:caller-${at}`);
  const callee = fref(fc, m, ai, name, at === 'namespace-import');
  ffunction(fc, m, { name: `answer${fc.n++}`, params: [['q', 'string']], exported: true }, (w) => {
    if (catcher === 'catch-method') {
      w.stmt(`return ${callee}(q).catch(() => null)`);
    } else if (catcher === 'try') {
      w.open('try');
      w.stmt(`return await ${callee}(q)`);
      w.close(' catch {');
      w.depth++;
      w.stmt('return null');
      w.close();
    } else {
      w.stmt(`const got = await ${callee}(q)`);
      w.stmt(`console.log(got ?? ${s('nothing')})`);
      w.stmt('return got');
    }
  });
  if (m !== ai) fc.crossing.add(name);
  if (catcher === 'none') fexpect(fc, ai, name, { status: 'migrated' });
  else fexpect(fc, ai, name, { status: 'manual', reasons: ['parse-error-semantics'] });
}

/** `out += <chunk>.choices[0]?.delta?.content ?? ''` in a loop over `stream`. */
function chunkLoop(fc: FollowCtx, w: Writer, stream: string): void {
  w.stmt(`let out = ${fc.p.str('')}`);
  w.open(`for await (const chunk of ${stream})`);
  w.stmt(`out += chunk.choices[0]?.delta?.content ?? ${fc.p.str('')}`);
  w.close();
  w.stmt('return out');
}

/** 3: a stream returned to its caller, handed to a consumer, or its chunks re-emitted. */
function followStream(fc: FollowCtx, ai: FollowModule): void {
  const f = fc.f;
  const form = f.weighted([['returned', 2], ['consumer', 2], ['chunk-reemitted', 1.5]]);
  fc.shapes.add(`follow:stream-${form}`);
  const k = fc.n++;
  if (form === 'returned') {
    const name = `openStream${k}`;
    ffunction(fc, ai, { name, params: [['q', 'string']] }, (w) => w.stmt(`return ${fcall(fc, ai, w, { stream: true })}`));
    const { m, at } = callerModule(fc, ai);
    if (at === 'namespace-import' || at === 'require') fc.shapes.add(`follow:caller-${at}`);
    const callee = fref(fc, m, ai, name, at === 'namespace-import');
    ffunction(fc, m, { name: `tell${k}`, params: [['q', 'string']], ret: 'Promise<string>', exported: true }, (w) => {
      w.stmt(`const stream = await ${callee}(q)`);
      chunkLoop(fc, w, 'stream');
    });
    fexpect(fc, ai, name, { status: 'migrated' }, [m]);
  } else if (form === 'consumer') {
    const pm = f.bool(0.7) ? fmodule(fc, 'pipe') : ai;
    const consumer = `drain${k}`;
    const type = fc.ts ? `${ftype(fc, pm, 'Stream')}<${ftype(fc, pm, 'ChatCompletionChunk')}>` : '';
    ffunction(fc, pm, { name: consumer, params: [['stream', type]], ret: 'Promise<string>' }, (w) => chunkLoop(fc, w, 'stream'));
    const callee = fref(fc, ai, pm, consumer);
    const name = `tell${k}`;
    ffunction(fc, ai, { name, params: [['q', 'string']], ret: 'Promise<string>', exported: true }, (w) => {
      w.stmt(`const stream = await ${fcall(fc, ai, w, { stream: true })}`);
      w.stmt(`return ${callee}(stream)`);
    });
    fexpect(fc, ai, name, { status: 'migrated' }, [pm]);
  } else {
    const emit = `emit${k}`;
    ffunction(fc, ai, { name: emit, params: [['chunk', fc.ts ? ftype(fc, ai, 'ChatCompletionChunk') : '']], async: false, ret: 'void' }, (w) => {
      w.stmt(`process.stdout.write(chunk.choices[0]?.delta?.content ?? ${fc.p.str('')})`);
    });
    const name = `relay${k}`;
    ffunction(fc, ai, { name, params: [['q', 'string']], ret: 'Promise<void>', exported: true }, (w) => {
      w.stmt(`const stream = await ${fcall(fc, ai, w, { stream: true })}`);
      w.line(`for await (const chunk of stream) ${emit}(chunk)${fc.st.semi ? ';' : ''}`);
    });
    fexpect(fc, ai, name, { status: 'migrated' });
  }
}

/**
 * 4 / edge: `stream` is a parameter of the site's function, positional or an option with a default
 * (S-DETECT through W-FOLLOW, corpus: ai-devs' and 3rd-devs' OpenAIService.completion). Every
 * caller leaves it false (passes false or nothing): a non-streaming call, the branch for true dead
 * code; or one caller passes true: dynamic-stream-flag.
 */
function followStreamFlag(fc: FollowCtx, ai: FollowModule): void {
  const f = fc.f;
  const k = fc.n++;
  const name = `complete${k}`;
  const options = f.bool(0.5);
  const dead = f.weighted<'ternary' | 'if' | 'none'>([['ternary', 2], ['if', 2], ['none', 1]]);
  const variant = f.weighted<'fixed' | 'mixed'>([['fixed', 4], ['mixed', 1]]);
  fc.shapes.add(`follow:stream-flag-${options ? 'options' : 'positional'}`);
  fc.shapes.add(`follow:stream-flag-dead-${dead}`);
  fc.shapes.add(`follow:stream-flag-${variant}`);
  const chat = ftype(fc, ai, 'ChatCompletion');
  const streamType = dead === 'none' ? '' : `AsyncIterable<${ftype(fc, ai, 'ChatCompletionChunk')}>`;
  const as = (t: string) => (fc.ts ? ` as ${t}` : '');
  const params: [string, string][] = options
    ? [['{ q, stream = false }', '{ q: string; stream?: boolean }']]
    : [['q', 'string'], fc.ts ? ['stream', 'boolean = false'] : ['stream = false', '']];
  const ret = fc.ts && dead !== 'none' ? `Promise<${chat} | ${streamType}>` : undefined;
  ffunction(fc, ai, { name, params, ret }, (w) => {
    w.stmt(`const r = await ${fcall(fc, ai, w, { streamFlag: 'stream' })}`);
    if (dead === 'ternary') w.stmt(`return stream ? r${as(streamType)} : r${as(chat)}`);
    else if (dead === 'if') {
      w.open('if (stream)');
      w.stmt(`return r${as(streamType)}`);
      w.close();
      w.stmt(`return r${as(chat)}`);
    } else w.stmt(`return r${as(chat)}`);
  });
  const args = (flag: string | undefined) => (options ? `{ q${flag ? `, stream: ${flag}` : ''} }` : `q${flag ? `, ${flag}` : ''}`);
  const group: FollowModule[] = [];
  const callers = f.weighted([[1, 2], [2, 2]]);
  for (let i = 0; i < callers; i++) {
    const { m, at } = callerModule(fc, ai);
    const callee = fref(fc, m, ai, name, at === 'namespace-import');
    const chatHere = ftype(fc, m, 'ChatCompletion');
    ffunction(fc, m, { name: `answer${fc.n++}`, params: [['q', 'string']], ret: 'Promise<string>', exported: true }, (w) => {
      w.stmt(`const r = await ${callee}(${args(f.bool(0.5) ? 'false' : undefined)})${as(chatHere)}`);
      w.stmt(`return r.choices[0].message.content ?? ${fc.p.str('')}`);
    });
    group.push(m);
  }
  if (variant === 'mixed') {
    const { m, at } = callerModule(fc, ai);
    const callee = fref(fc, m, ai, name, at === 'namespace-import');
    ffunction(fc, m, { name: `opened${fc.n++}`, params: [['q', 'string']], exported: true }, (w) => {
      w.stmt(`return ${callee}(${args('true')})`);
    });
    fexpect(fc, ai, name, { status: 'manual', reasons: ['dynamic-stream-flag'] });
    return;
  }
  fexpect(fc, ai, name, { status: 'migrated' }, group);
}

/**
 * 5 / edge: a part of the completion returned whole (corpus: edu-genius returns `choices`,
 * koldovsky the message): `return r.choices[0].message` becomes `return r`, and every caller
 * reading that part migrates with it. Declared `Promise<any>` it still migrates; a type naming the
 * part (`Promise<ChatCompletionMessage>`), or a caller that hands the part on, keeps it listed.
 */
function followReturnedPart(fc: FollowCtx, ai: FollowModule): void {
  const f = fc.f;
  const s = (t: string) => fc.p.str(t);
  const k = fc.n++;
  const name = `part${k}`;
  const part = f.pick(['message', 'choice', 'choices'] as const);
  const typed = !fc.ts ? 'none' : f.weighted<'none' | 'any' | 'part'>(part === 'message' ? [['none', 3], ['any', 2], ['part', 1]] : [['none', 3], ['any', 2]]);
  const edge = f.bool(0.15);
  fc.shapes.add(`follow:returned-${part}`);
  fc.shapes.add(`follow:returned-part-typed-${typed}`);
  const ret = typed === 'any' ? 'Promise<any>' : typed === 'part' ? `Promise<${ftype(fc, ai, 'ChatCompletionMessage')}>` : undefined;
  const expr = part === 'message' ? 'r.choices[0].message' : part === 'choice' ? 'r.choices[0]' : 'r.choices';
  // the part given by a .then() callback (corpus: ChatgptTranslator's completion.then((result) => result.choices[0].message))
  const viaThen = f.bool(0.3);
  if (viaThen) fc.shapes.add('follow:returned-part-through-then');
  ffunction(fc, ai, { name, params: [['q', 'string']], ret }, (w) => {
    if (viaThen) {
      w.stmt(`return ${fcall(fc, ai, w)}.then((r) => ${expr})`);
      return;
    }
    w.stmt(`const r = await ${fcall(fc, ai, w)}`);
    w.stmt(`return ${expr}`);
  });
  // the content, read from what the caller received
  const content = (v: string) => (part === 'message' ? `${v}.content` : part === 'choice' ? `${v}.message.content` : `${v}[0].message.content`);
  const group: FollowModule[] = [];
  const callers = f.weighted([[1, 3], [2, 2]]);
  for (let i = 0; i < callers; i++) {
    const { m, at } = callerModule(fc, ai);
    fc.shapes.add(`follow:caller-${at}`);
    const callee = fref(fc, m, ai, name, at === 'namespace-import');
    const destructure = part === 'choices' && !(edge && i === 0) && f.bool(0.5);
    if (destructure) fc.shapes.add('follow:returned-choices-destructured');
    ffunction(fc, m, { name: `read${fc.n++}`, params: [['q', 'string']], ret: f.bool(0.5) ? 'Promise<string>' : undefined, exported: true }, (w) => {
      if (destructure) {
        w.stmt(`const [first] = await ${callee}(q)`);
        w.stmt(`return first.message.content ?? ${s('')}`);
        return;
      }
      w.stmt(`const got = await ${callee}(q)`);
      if (edge && i === 0) {
        // W-EDGE: the part handed to a function out of the project
        fc.shapes.add('follow:returned-part-edge-third-party');
        w.stmt('console.log(JSON.stringify(got).length)');
      }
      w.stmt(`return ${content('got')} ?? ${s('')}`);
    });
    group.push(m);
  }
  if (typed === 'part' || edge) fexpect(fc, ai, name, { status: 'manual', reasons: ['result-escapes'] });
  else fexpect(fc, ai, name, { status: 'migrated' }, group);
}

/**
 * 6 / edge: the usage (or the message) carried to the callers in an object the function returns
 * (corpus: Grue.is returns `{ text, usage: resp.usage, … }`): each caller reads the object's
 * keys, or destructures them, and the part's reads migrate with the call. A caller that
 * serialises the object keeps it listed.
 */
function followHolder(fc: FollowCtx, ai: FollowModule): void {
  const f = fc.f;
  const s = (t: string) => fc.p.str(t);
  const k = fc.n++;
  const name = `holder${k}`;
  const carried = f.pick(['usage', 'message'] as const);
  const edge = f.bool(0.15);
  fc.shapes.add(`follow:holder-${carried}`);
  ffunction(fc, ai, { name, params: [['q', 'string']] }, (w) => {
    w.stmt(`const r = await ${fcall(fc, ai, w)}`);
    if (carried === 'usage') w.stmt(`return { text: r.choices[0].message.content ?? ${s('')}, usage: r.usage }`);
    else w.stmt(`return { message: r.choices[0].message, at: Date.now() }`);
  });
  const group: FollowModule[] = [];
  const callers = f.weighted([[1, 3], [2, 2]]);
  for (let i = 0; i < callers; i++) {
    const { m, at } = callerModule(fc, ai);
    fc.shapes.add(`follow:caller-${at}`);
    const callee = fref(fc, m, ai, name, at === 'namespace-import');
    const destructure = !(edge && i === 0) && f.bool(0.4);
    if (destructure) fc.shapes.add('follow:holder-destructured');
    ffunction(fc, m, { name: `use${fc.n++}`, params: [['q', 'string']], exported: true }, (w) => {
      if (destructure && carried === 'usage') {
        w.stmt(`const { text, usage } = await ${callee}(q)`);
        w.stmt(`return \`${'$'}{text} ${'$'}{usage?.prompt_tokens ?? 0}\``);
        return;
      }
      if (destructure) {
        w.stmt(`const { message } = await ${callee}(q)`);
        w.stmt(`return message.content ?? ${s('')}`);
        return;
      }
      w.stmt(`const h = await ${callee}(q)`);
      if (edge && i === 0) {
        fc.shapes.add('follow:holder-edge-serialised');
        w.stmt('console.log(JSON.stringify(h).length)');
      }
      if (carried === 'usage') w.stmt(`return \`${'$'}{h.text} ${'$'}{h.usage?.completion_tokens ?? 0}\``);
      else w.stmt(`return h.message.content ?? ${s('')}`);
    });
    group.push(m);
  }
  if (edge) fexpect(fc, ai, name, { status: 'manual', reasons: ['result-escapes'] });
  else fexpect(fc, ai, name, { status: 'migrated' }, group);
}

function followProgram(f: Rng, st: Style, p: Printer): GeneratedProgram {
  const ts = f.bool(0.8);
  const fc: FollowCtx = { f, st, p, ts, ext: ts ? 'ts' : 'cjs', modules: new Map(), expected: [], shapes: new Set(), sites: 0, n: 0, crossing: new Set() };
  fc.shapes.add('follow:program');
  fc.shapes.add(`module:${ts ? 'ts' : 'cjs'}`);
  const ai = fmodule(fc, 'ai');
  const published = f.bool(0.08);
  if (published) {
    fc.shapes.add('follow:edge-published');
    followReturn(fc, ai, 'published');
  } else {
    const count = f.weighted([[1, 3], [2, 2]]);
    for (let i = 0; i < count; i++) {
      const kind = f.weighted<'return' | 'helper' | 'stream' | 'stream-flag' | 'returned-part' | 'holder' | 'parse' | 'used-as-value' | 'third-party'>([
        ['return', 4], ['helper', 3], ['stream', 3], ['stream-flag', 2], ['returned-part', 2], ['holder', 2], ['parse', 1], ['used-as-value', 1], ['third-party', 1],
      ]);
      if (kind === 'return') followReturn(fc, ai);
      else if (kind === 'parse') followParse(fc, ai);
      else if (kind === 'returned-part') followReturnedPart(fc, ai);
      else if (kind === 'holder') followHolder(fc, ai);
      else if (kind === 'stream-flag') followStreamFlag(fc, ai);
      else if (kind === 'helper') followHelper(fc, ai);
      else if (kind === 'stream') followStream(fc, ai);
      else followReturn(fc, ai, kind);
    }
  }
  const s = (t: string) => p.str(t);
  const files: Record<string, string> = {};
  // W-EDGE: a module of the package loads its modules by a path computed at run time (a plugin
  // loader): callers it may reach are out of view, so every group that crosses modules stops
  if (!published && f.bool(0.12)) {
    fc.shapes.add('follow:edge-computed-load');
    for (const e of fc.expected) {
      // a helper shared with code that stays (unit-blocked) is now stopped at first by the loader
      e.reasons = e.reasons.filter((r) => r !== 'unit-blocked');
      if (e.status !== 'migrated' || !(e.groupFiles?.length || fc.crossing.has(e.fn))) continue;
      e.status = 'manual';
      delete e.groupFiles;
    }
    const w = new Writer(p, st);
    if (ts) {
      w.open('export async function loadPlugin(name: string): Promise<unknown>');
      w.stmt('return import(`./${name}.js`)');
    } else {
      w.stmt(s('use strict'));
      w.open('function loadPlugin(name)');
      w.stmt('return require(`./${name}.cjs`)');
    }
    w.close();
    if (!ts) w.stmt('module.exports = { loadPlugin }');
    files[fpath(fc, 'plugins')] = w.lines.join(st.eol) + st.eol;
  }
  const pkg: Record<string, unknown> = published
    ? { name: 'fuzz-ask', version: '1.0.0', main: ts ? 'dist/ai.js' : 'src/ai.cjs' }
    : { name: 'fuzz-app', private: true };
  if (ts) pkg.type = 'module';
  files['package.json'] = json(pkg);
  for (const m of fc.modules.values()) {
    const head = new Writer(p, st);
    if (!ts) head.stmt(s('use strict'));
    if (m.client) head.stmt(ts ? `import OpenAI from ${s('openai')}` : `const OpenAI = require(${s('openai')})`);
    for (const [spec, names] of [...m.types].sort()) head.stmt(`import type { ${[...names].sort().join(', ')} } from ${s(spec)}`);
    for (const [spec, names] of [...m.named].sort()) {
      head.stmt(ts ? `import { ${[...names].sort().join(', ')} } from ${s(spec)}` : `const { ${[...names].sort().join(', ')} } = require(${s(spec)})`);
    }
    for (const [spec, alias] of [...m.namespaces].sort()) head.stmt(`import * as ${alias} from ${s(spec)}`);
    if (m.client) {
      head.blank();
      head.stmt('const client = new OpenAI()');
    }
    const tail = new Writer(p, st);
    if (!ts && m.exported.length) {
      tail.line('');
      tail.stmt(`module.exports = { ${m.exported.join(', ')} }`);
    }
    const body = m.w.lines.map((l) => l.replace(/^\u0000export:([\w$]+)@/, (_, name: string) => (ts && m.exported.includes(name) ? 'export ' : '')));
    const text = [...head.lines, '', ...body, ...tail.lines].join('\n').replace(/\n{3,}/g, '\n\n').replace(/^\n+/, '').replace(/\n*$/, '\n');
    files[fpath(fc, m.base)] = text.split('\n').map((l) => l.replace(/[ \t]+$/, '')).join(st.eol);
  }
  return { files, sites: fc.sites, expected: fc.expected, roots: ['.'], typecheckSpecifiers: [], shapes: [...fc.shapes].sort() };
}
