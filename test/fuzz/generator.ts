/**
 * A seeded, grammar-based generator of small Chat Completions programs built from the shapes of
 * docs/migration-spec.md §10 (the pattern catalogue). `generateProgram(seed)` is a pure function of the
 * seed: the same seed always gives the same files, byte for byte (no Math.random, no clock).
 *
 * Every program is meant to be valid Chat Completions code for openai 6 (`.ts` files type-check
 * under strict mode; `.cjs` files are plain JavaScript). `sites` is the exact number of Chat
 * Completions call sites (A-CREATE / A-PARSE / A-STREAM) the program contains, which is what the
 * report must list. Non-targets (N01, N02, N03, N06, N07) may be mixed in; they count for nothing.
 */

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
}

interface Block {
  name: string;
  params: [string, string][];
  body: (w: Writer) => void;
  sites: number;
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
  shape(ctx, 'params:local');
  literal.multi = true;
  const name = rng.pick(['params', 'request', 'body']);
  const type = ctx.ts ? `: ${typeRef(ctx, purpose === 'stream' ? 'ChatCompletionCreateParamsStreaming' : 'ChatCompletionCreateParamsNonStreaming')}` : '';
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
  for (let i = 0; i < n; i++) {
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
  const end = rng.weighted([
    ['return-content', 6], ['return-whole', 0.6], ['pass', 0.6], ['none', 1],
  ]);
  shape(ctx, `end:${end}`);
  if (end === 'return-content') w.stmt(`return ${contentRead(ctx, `${v}.choices[0]`).expr}`);
  else if (end === 'return-whole') w.stmt(`return ${v}`);
  else if (end === 'pass') {
    addPrelude(ctx, 'record', (pw) => {
      pw.open(`function record(value${ann(ctx, 'unknown')})${ann(ctx, 'void')}`);
      pw.stmt('console.log(JSON.stringify(value))');
      pw.close();
    });
    w.stmt(`record(${v})`);
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
  return {
    name, params, sites: 1,
    body: (w) => {
      plan.setup(w);
      // the opt-out comment goes on the line above the statement holding the call
      const optOut = () => {
        if (!ignore) return;
        shape(ctx, 'opt-out:ignore');
        w.line('// migrate-responses-ignore');
      };
      if (binding !== 'let-later') optOut();
      const c = call(ctx, 'create', plan.arg, w.depth);
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
          if (rng.bool()) w.stmt(`return ${c}.then((${arg}) => ${read})`);
          else w.stmt(`return ${c}\n${ctx.p.ind(w.depth + 1)}.then((${arg}) => ${read})`);
          break;
        }
        case 'return-await': {
          shape(ctx, 'end:return-whole');
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
          w.stmt(`${binding} ${v} = await ${c}`);
          resultReads(ctx, w, v);
        }
      }
    },
  };
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
    name, params, sites: 1,
    body: (w) => {
      plan.setup(w);
      let source: string;
      if (inline) {
        shape(ctx, 'stream:for-await-inline');
        source = `await ${call(ctx, 'create', plan.arg, w.depth)}`;
      } else {
        source = rng.pick(['stream', 'completion', 'sse']);
        w.stmt(`const ${source} = await ${call(ctx, 'create', plan.arg, w.depth)}`);
      }
      w.stmt(`let out = ${s('')}`);
      if (readUsage) w.stmt('let total = 0');
      if (readFinish) w.stmt('let truncated = false');
      w.open(`for await (const ${ev} of ${source})`);
      const text = rng.weighted([['nullish', 3], ['or', 1], ['alias', 1], ['write', 1]]);
      shape(ctx, `stream:text-${text}`);
      if (text === 'nullish') w.stmt(`out += ${ev}.choices[0]?.delta?.content ?? ${s('')}`);
      else if (text === 'or') w.stmt(`out += ${ev}.choices[0]?.delta?.content || ${s('')}`);
      else if (text === 'alias') {
        w.stmt(`const delta = ${ev}.choices[0]?.delta`);
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
    name, params, sites: 1,
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
        const f = rng.pick(['final', 'done', 'completion']);
        w.stmt(`const ${f} = await ${v}.finalChatCompletion()`);
        w.stmt(`return ${contentRead(ctx, `${f}.choices[0]`).expr}`);
      } else if (form === 'for-await') {
        w.stmt(`let text = ${s('')}`);
        w.open(`for await (const chunk of ${v})`);
        w.stmt(`text += chunk.choices[0]?.delta?.content ?? ${s('')}`);
        w.close();
        w.stmt('return text');
      } else {
        w.stmt(`return await ${v}.finalContent()`);
      }
    },
  };
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
    name, params, sites: 1,
    body: (w) => {
      plan.setup(w);
      const v = rng.pick(['r', 'completion', 'parsed']);
      w.stmt(`const ${v} = await ${call(ctx, 'parse', plan.arg, w.depth)}`);
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
  const fixed: Entry[] = [prop('tools', toolsValue(ctx, names))];
  const choice = toolChoice(ctx, names);
  if (choice) fixed.push(prop('tool_choice', choice));
  if (rng.bool(0.2)) fixed.push(prop('parallel_tool_calls', 'false'));
  const plan = paramsPlan(ctx, 'tools', params, fixed, { allowLocal: false });
  return {
    name, params, sites: 1,
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
  const tools = toolsValue(ctx, ['get_weather']);
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
    name, params, sites: 2,
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
    name, params, sites: 2,
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
    name, params: [['q', 'string']], sites: 0,
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
  /** Relative path → text. */
  files: Record<string, string>;
  /** Exact number of Chat Completions call sites. */
  sites: number;
  /** The shapes used (for coverage statistics). */
  shapes: string[];
}

function clientOptions(ctx: Ctx, baseUrl: BaseUrl, depth: number): string {
  const s = (x: string) => ctx.p.str(x);
  const rng = ctx.rng;
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

export function generateProgram(seed: number, overrides: GenerateOptions = {}): GeneratedProgram {
  const rng = new Rng(seed);
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
  const cjs = rng.bool(0.15);
  const imp: Import = cjs ? rng.weighted([['cjs-alias', 3], ['cjs-default', 1]]) : rng.weighted([['default', 3], ['alias', 1]]);
  const host: ClientHost = cjs
    ? rng.weighted([['module', 5], ['class-field', 1.5], ['class-ctor', 1.5], ['injected-param', 1], ['injected-ctor', 0.5]])
    : rng.weighted([['module', 5], ['exported', 1.5], ['exported-default', 0.7], ['class-field', 1.5], ['class-ctor', 0.7], ['injected-param', 1], ['injected-ctor', 0.5]]);
  const baseUrl: BaseUrl = rng.weighted([['none', 6], ['openai', 1.5], ['vendor', 1], ['env', 1]]);
  const className = imp === 'default' || imp === 'cjs-default' ? 'OpenAI' : imp === 'alias' ? 'Api' : rng.pick(['OpenAIApi', 'Client', 'OpenAI']);
  const classMode = host === 'class-field' || host === 'class-ctor' || host === 'injected-ctor';
  const moduleName = rng.pick(['client', 'openai', 'ai', 'llm']);
  const clientRef = classMode ? `this.${rng.pick(['client', 'openai', 'api'])}` : host === 'injected-param' ? 'client' : moduleName;
  const ctx: Ctx = {
    rng, st, p, ts: !cjs, cjs, host, classMode,
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

  // body of the main module (written first: it fills the prelude and the type imports)
  const body = new Writer(p, st);
  const construct = (depth: number) => `new ${className}(${host.startsWith('injected') ? '' : clientOptions(ctx, baseUrl, depth)})`;
  const fieldName = clientRef.replace(/^this\./, '');
  const fnParams = (b: Block): string => {
    const list = [...(host === 'injected-param' ? [['client', className] as [string, string]] : []), ...b.params];
    return list.map(([n, t]) => (ctx.ts ? `${n}: ${t}` : n)).join(', ');
  };
  if (classMode) {
    const cls = rng.pick(['Assistant', 'ChatService', 'Summarizer']);
    body.open(`${cjs ? '' : 'export '}class ${cls}`);
    if (host === 'class-field') {
      body.stmt(`${ctx.ts ? rng.pick(['private readonly ', 'private ', '']) : ''}${fieldName} = ${construct(body.depth)}`);
    } else if (host === 'class-ctor') {
      if (ctx.ts) body.stmt(`private ${fieldName}: ${className}`);
      body.open('constructor()');
      body.stmt(`this.${fieldName} = ${construct(body.depth)}`);
      body.close();
    } else if (ctx.ts && rng.bool()) {
      body.line(`constructor(private readonly ${fieldName}: ${className}) {}`);
    } else {
      if (ctx.ts) body.stmt(`private ${fieldName}: ${className}`);
      body.open(`constructor(${fieldName}${ann(ctx, className)})`);
      body.stmt(`this.${fieldName} = ${fieldName}`);
      body.close();
    }
    for (const b of blocks) {
      body.blank();
      body.open(`async ${b.name}(${fnParams(b)})`);
      b.body(body);
      body.close();
    }
    body.close();
    if (cjs) {
      body.blank();
      body.stmt(`module.exports = { ${cls} }`);
    }
  } else {
    for (const b of blocks) {
      body.blank();
      body.open(`${cjs ? '' : 'export '}async function ${b.name}(${fnParams(b)})`);
      b.body(body);
      body.close();
    }
    if (cjs) {
      body.blank();
      body.stmt(`module.exports = { ${blocks.map((b) => b.name).join(', ')} }`);
    }
  }

  // head of the main module
  const head = new Writer(p, st);
  const s = (x: string) => p.str(x);
  const files: Record<string, string> = {};
  const ext = cjs ? 'cjs' : 'ts';
  const main = `${rng.pick(['main', 'chat', 'service'])}.${ext}`;
  if (cjs) head.stmt(s('use strict'));
  const needsClass = host === 'module' || classMode || host === 'injected-param';
  const exported = host === 'exported' || host === 'exported-default';
  if (cjs) {
    if (imp === 'cjs-alias') head.stmt(`const { OpenAI: ${className} } = require(${s('openai')})`);
    else head.stmt(`const ${className} = require(${s('openai')})`);
    if (ctx.zod) {
      head.stmt(`const { zodResponseFormat } = require(${s('openai/helpers/zod')})`);
      head.stmt(`const { z } = require(${s('zod')})`);
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
    if (exported) {
      const clientFile = new Writer(p, st);
      clientFile.stmt(imp === 'alias' ? `import { OpenAI as Api } from ${s('openai')}` : `import OpenAI from ${s('openai')}`);
      clientFile.blank();
      if (host === 'exported') {
        clientFile.stmt(`export const ${moduleName} = ${construct(0)}`);
        head.stmt(`import { ${moduleName} } from ${s('./client.js')}`);
      } else {
        clientFile.stmt(`export default ${construct(0)}`);
        head.stmt(`import ${moduleName} from ${s('./client.js')}`);
      }
      files['client.ts'] = clientFile.lines.join(st.eol) + st.eol;
    }
  }
  head.blank();
  if (host === 'module') {
    head.stmt(`const ${moduleName} = ${construct(0)}`);
    head.blank();
  }
  const text = [...head.lines, ...ctx.prelude, ...body.lines]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .replace(/\n*$/, '\n')
    .split('\n')
    .join(st.eol);
  files[main] = text;
  for (const [file, content] of Object.entries(files)) files[file] = content.split('\n').map((l) => l.replace(/[ \t]+(\r?)$/, '$1')).join('\n');
  return { files, sites, shapes: [...ctx.shapes].sort() };
}
