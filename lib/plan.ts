/**
 * The Plan: what the scanner decided, per site, in a form the transforms can execute without
 * deciding anything again. Every edit names the rule that asks for it and anchors to source
 * offsets (BOM stripped) of the file it applies to; transforms find the node with that range.
 */
import type { SiteRecord } from './report/model.js';
import type { RuleId } from './rules/ids.js';

interface Anchor {
  /** Absolute path of the file the edit applies to (a V-LOCAL definition may live elsewhere). */
  file: string;
  start: number;
  end: number;
  /** Spec rule id this edit implements. */
  rule: RuleId;
}

/** `X.chat.completions.create` → `X.responses.create` (A-CREATE, A-PARSE, A-STREAM, A-BETA). */
export interface CalleeEdit extends Anchor {
  op: 'callee';
  method: 'create' | 'parse' | 'stream';
  /** Set when the receiver was a local chat resource (`chat.completions.create` → `client.responses.create`). */
  receiverText?: string;
}

/** A params object literal: map every key per the R- table. Only the top-level object gets `store`. */
export interface RequestEdit extends Anchor {
  op: 'request';
  /** The params object itself, not an object spread into it. */
  top: boolean;
  addStore: boolean;
  /** Hoist the leading system/developer message into `instructions` (M-SYSTEM). */
  hoistSystem: boolean;
  /** `include` entries to add (a replay unit needs `reasoning.encrypted_content`, T-REASONING-REPLAY). */
  addInclude?: string[];
}

/** S-FAILED: the two guard lines at the start of a rewritten stream loop body. */
export interface StreamGuardEdit extends Anchor {
  op: 'stream-guard';
  /** The loop variable (the event). */
  variable: string;
}

/** A chunk read inside a stream loop, rendered as an event expression (S-TEXT, S-USAGE, S-FINISH). */
export interface StreamReadEdit extends Anchor {
  op: 'stream-read';
  rootStart: number;
  rootEnd: number;
  kind: 'text' | 'refusal' | 'textNarrowed' | 'refusalNarrowed' | 'textWrite' | 'refusalWrite' | 'usage' | 'usageGuard' | 'usageNarrowed' | 'finishValue' | 'finishTruthy' | 'finishCompare' | 'collapse';
  /** For finishCompare: the Chat finish reason compared with, and whether the comparison was negated. */
  value?: string;
  negate?: boolean;
  /** Links after a usage expression (renamed usage fields). */
  tail?: ChainLink[];
  /**
   * textWrite / refusalWrite: the edit spans the call of a write statement, and this is the range
   * of its argument (`<read> || ''`), which becomes the event's `delta` under an `if`.
   */
  argStart?: number;
  argEnd?: number;
}

/** A response_format object defined away from the call (V-LOCAL): json_schema flattened in place (R-RESPFMT). */
export interface FormatEdit extends Anchor {
  op: 'format';
}

/** One tool definition object (R-TOOLS, R-STRICT, T-PARAMS-KEY): `function: {…}` flattened. */
export interface ToolEdit extends Anchor {
  op: 'tool';
}

/** A `tool_choice` object (R-TOOLCHOICE): nested function/custom/allowed_tools shapes flattened. */
export interface ToolChoiceEdit extends Anchor {
  op: 'tool-choice';
}

/** `history.push(r.choices[0].message)` → `history.push(...toResponseInputItems(r.output))` (M-REPLAY). */
export interface ReplayEdit extends Anchor {
  op: 'replay';
  rootStart: number;
  rootEnd: number;
  rootText?: string;
}

/** An array literal of messages, or one message object (pushed): rewrite content parts and drop `name`. */
export interface MessagesEdit extends Anchor {
  op: 'messages' | 'message';
}

/** Replace a read chain `root.a[0].b` by `root.x.y` (O- rules). `tail` empty = the root itself. */
export interface ChainEdit extends Anchor {
  op: 'chain';
  rootStart: number;
  rootEnd: number;
  tail: ChainLink[];
  /** Replace the root by this text (O-BIND fresh identifier), instead of keeping it. */
  rootText?: string;
  /** The chain is a tool-calls array read in a boolean context: `[]` is truthy, so test `.length`. */
  appendLength?: boolean;
  /** The new chain reads a value that is never nullish (`output_text`, a string): a `!` after it says nothing and goes. */
  neverNullish?: boolean;
}

/** One `.name` of a rewritten chain: `?.name` when optional, followed by `!` when nonNull. */
export interface ChainLink {
  name: string;
  optional: boolean;
  nonNull: boolean;
}

/** `a ?? b` → `a || b` when `a` was nullable content that is now `''` (O-CONTENT-NULL). */
export interface OperatorEdit extends Anchor {
  op: 'operator';
  to: '||';
}

/** Rename one identifier or property-name token (usage fields, `created`). */
export interface RenameEdit extends Anchor {
  op: 'rename';
  to: string;
}

/** Replace an expression by a literal or short source text (`null` → `''`, `'chat.completion'` → `'response'`). */
export interface ReplaceEdit extends Anchor {
  op: 'replace';
  text: string;
  /** Imported names the replaced text referred to: their imports go when nothing else uses them. */
  releases?: string[];
}

/** `r.choices[0].finish_reason === 'length'` → the O-FINISH condition over `root`. */
export interface FinishEdit extends Anchor {
  op: 'finish';
  rootStart: number;
  rootEnd: number;
  value: 'stop' | 'length' | 'content_filter' | 'tool_calls';
  negate: boolean;
  rootText?: string;
}

/** Replace a type reference by a Responses type, importing it when needed (H-TYPES). */
export interface RetypeEdit extends Anchor {
  op: 'retype';
  /** Replacement type text, e.g. `ResponseCreateParamsNonStreaming` or `OpenAI.Responses.Response`. */
  to: string;
  /** Named type import to ensure, when `to` is a bare name. */
  importName?: string;
  importFrom?: string;
}

/** A destructuring pattern replaced by a fresh identifier (O-BIND `const { choices } = …`). */
export interface PatternEdit extends Anchor {
  op: 'pattern';
  text: string;
}

/** `zodResponseFormat(S, 'n')` → `zodTextFormat(S, 'n')` and the like, with the import fixed (H-ZOD*). */
export interface HelperCallEdit extends Anchor {
  op: 'helper-call';
  from: string;
  to: string;
  module: string;
}

/**
 * M-CONTENT-UNTYPED: a messages value the scanner cannot see into, converted when the program runs:
 * `x` → `toResponsesInput(x)`, or one array element `e` → `...toResponsesInput([e])`, with the
 * import of the package's converter module (lib/runtime/converter.ts). R-TOOLS-UNTYPED: a tools
 * value (or element) alike, with `toResponsesTools` (lib/runtime/tools-converter.ts).
 */
export interface ConvertEdit extends Anchor {
  op: 'convert-messages';
  /** Which converter: the messages one, or the tools one. */
  of: 'messages' | 'tools';
  /** The anchor is the value of a shorthand property (`{ tools }`): the key is written out. */
  shorthand?: boolean;
  /** The anchor is one element of a messages array, not the whole value. */
  element: boolean;
  /** Import specifier of the converter module from `file` ('' until the module is placed). */
  module: string;
  /** Absolute path of the converter module ('' until the module is placed). */
  moduleFile: string;
}

/**
 * M-CONTENT-UNTYPED: a request whose arguments convert messages at run time and whose rejection
 * went elsewhere than a throw where it is made (a `.catch(…)` on its promise, a promise returned
 * or stored), as the body of an async arrow called at once, `(async () => <call>)()`: the
 * converter's throw then rejects the request's promise, where Chat's HTTP 400 for the same
 * messages arrived (throw-path.ts).
 */
export interface WrapRequestEdit extends Anchor {
  op: 'wrap-request';
  /** `;(async () => …)()`: the call starts a statement after one not ended by `;` (no-semicolon code). */
  leadingSemicolon: boolean;
}

export type Edit =
  | CalleeEdit | RequestEdit | MessagesEdit | ChainEdit | RenameEdit | ReplaceEdit | FinishEdit | RetypeEdit
  | PatternEdit | HelperCallEdit | OperatorEdit | ToolEdit | ToolChoiceEdit | ReplayEdit | FormatEdit
  | StreamGuardEdit | StreamReadEdit | ConvertEdit | WrapRequestEdit;

/**
 * A file the run creates: the converter module of a package (M-CONTENT-UNTYPED). It is created only
 * when a migrated site's ConvertEdit names it (`moduleFile`), and never over an existing file.
 */
export interface CreatedFile {
  /** Absolute path. */
  file: string;
  text: string;
}

export interface SitePlan {
  record: SiteRecord;
  /** Absolute path of the file holding the call. */
  file: string;
  /** Offset of the call expression and of the statement that holds it (markers go above it). */
  callStart: number;
  statementStart: number;
  /** Sites that must migrate together (G-UNIT) share this id. */
  unit: number;
  /** Rewrites to apply when the site is migrated. */
  edits: Edit[];
}

export interface FilePlan {
  /** Absolute path. */
  file: string;
  sites: SitePlan[];
}
