/** What the analysis learns about one call site while it runs: kinds, reasons, notes, edits. */
import path from 'node:path';
import { ownEntry } from '../rules/lookup.js';
import type { Kind } from '../options.js';
import type { Edit } from '../plan.js';
import type { Note } from '../report/model.js';
import { TYPE_RENAMES } from '../rules/results.js';
import { ts, isTypeAssertion, shortText, startOf, walk } from './ast.js';
import { isProjectFile, locationOf, type ScanContext } from './context.js';
import type { ModelNames } from './model-names.js';
import { symbolOf } from './references.js';
import { isChatMethodQuery } from './types.js';
import type { ReasonCode, ReasonRef } from '../rules/reasons.js';
import type { RuleId } from '../rules/ids.js';

/** O-TOOLCALLS when custom tools are declared: Chat's tool_calls held their calls, the function_call filter does not. */
export const CUSTOM_TOOL_CALLS = 'tool_calls with custom tools declared (their calls are custom_tool_call items, which the function_call filter leaves out)';

/** The no-equivalent-result detail for usage read from a Chat stream that never carried it (S-USAGE). */
export const USAGE_NEVER_SENT = 'usage read from a Chat stream that carried none (no stream_options.include_usage: true; a Responses stream always ends with it)';

export class SiteAnalysis {
  readonly reasons: ReasonRef[] = [];
  readonly notes: Note[] = [];
  readonly edits: Edit[] = [];
  readonly kinds = new Set<Kind>();
  /** Bindings this site shares with others (G-UNIT): params, messages, result variables. */
  readonly unitKeys = new Set<string>();
  /** Literal model name, when there is one (R-MODEL). */
  model?: string;
  /** P-MODEL-HINT: a model name the call may send that api.openai.com does not serve. */
  foreignModel?: string;
  /** T-REASONING-REPLAY: every model name the call may send (literal types included), or how it is not known. */
  models: ModelNames = { unknown: 'no model key' };
  /** The call sets `store: true`: replayed items are found by id, without the reasoning include. */
  storesResponses = false;
  /** The site replays output items into its history (M-REPLAY): the unit needs the reasoning include. */
  replay = false;
  /** Declarations of the local message histories this site sends (V-LOCAL / V-PUSH). */
  readonly histories = new Set<ts.Node>();
  /**
   * S-USAGE: the call streams without `stream_options.include_usage: true`, so its chunks never
   * carried usage, where every Responses stream ends with it: a read of it would start to find one.
   */
  streamWithoutUsage = false;
  /** The request declares custom tools, whose replies the tool cannot tell apart (M-TOOL). */
  customTools = false;
  /** The history holds `role: 'tool'` replies. */
  toolReplies = false;
  /**
   * A value's type could not be told, and the ECMAScript lib might tell it (the program was built
   * without it): the site's file is analysed again with a program that has the lib.
   */
  libTypeGap = false;
  /**
   * W-FOLLOW into a callee's parameter: per parameter (a unit key), every call of the callee and
   * the calls this site's value reaches. The decision checks that the unit reaches them all.
   */
  readonly feeds = new Map<string, { calls: readonly ts.Node[]; reached: Set<ts.Node>; callee: string; tools?: true }>();

  /**
   * S-DETECT: stream flags every call of their function fixes (the parameter's or binding's
   * declaration, and its value). The branches a flag rules out are dead code to the result analysis.
   */
  readonly flags = new Map<ts.Node, boolean>();

  constructor(
    /** Absolute path of the file that holds the call. */
    readonly file: string,
  ) {}

  reason(code: ReasonCode, detail?: string): void {
    if (!this.reasons.some((r) => r.code === code && r.detail === detail)) this.reasons.push({ code, detail });
  }

  note(rule: RuleId, level: 'info' | 'warn', message: string): void {
    if (!this.notes.some((n) => n.rule === rule && n.message === message)) this.notes.push({ rule, level, message });
  }

  edit(edit: Edit): void {
    const same = this.edits.some((e) => e.op === edit.op && e.file === edit.file && e.start === edit.start && e.end === edit.end);
    if (!same) this.edits.push(edit);
  }

  /** Range of a node as an edit anchor (parentheses stripped: Babel does not keep them as nodes). */
  range(node: ts.Node): { file: string; start: number; end: number } {
    let n = node;
    while (ts.isParenthesizedExpression(n)) n = n.expression;
    return { file: n.getSourceFile().fileName, start: startOf(n), end: n.getEnd() };
  }

  /**
   * H-TYPES on one type reference: a Chat type with a Responses equivalent is retyped ('done'); one
   * without (`ChatCompletionMessage`) means the value's type leaves the unit ('escape').
   */
  retypeReference(ref: ts.TypeReferenceNode, checker: ts.TypeChecker, accept: (name: string) => boolean = () => true): 'done' | 'none' | 'escape' {
    const name = ts.isIdentifier(ref.typeName) ? ref.typeName.text : ref.typeName.right.text;
    const target = responsesTypeOf(ref);
    // `import type { ChatCompletion as Completion }` (or a barrel's `export type { … as … }`): a Chat
    // type under a name of the program's own, which the rewrite would not retype (probe of module
    // structure: TS2739 and TS2339 once migrated)
    if (!target) {
      const original = renamedChatType(ref, checker);
      return original && accept(original) ? 'escape' : 'none';
    }
    if (!accept(name)) return 'none';
    if (!target.to) return 'escape';
    this.edit({ op: 'retype', rule: 'H-TYPES', ...this.range(ref.typeName), to: target.to, importName: target.to, importFrom: target.module });
    return 'done';
  }

  /**
   * H-TYPES on a whole annotation (`Promise<ChatCompletion>`, `Stream<ChatCompletionChunk>`): every
   * Chat type reference in it; one without an equivalent means the value leaves the unit, reported
   * with `code` (`result-escapes:type`, `stream-handoff:type`). So does a type the program wrote for
   * the Chat shape, which the tool cannot retype: `(c: { function: { name: string } }) => c.name`
   * would not compile.
   */
  retypeAnnotation(type: ts.TypeNode | undefined, code: 'result-escapes' | 'stream-handoff', ctx: ScanContext): 'ok' | 'escape' {
    if (!type) return 'ok';
    const own = ownShapeType(ctx.checker, type, (name) => Boolean(ctx.globalTypes?.has(name)));
    if (own) {
      this.reason(code, `type: ${shortText(own, 40)} is the program's own type for the Chat value (${locationOf(ctx, own)})`);
      return 'escape';
    }
    const escape = typeReferences(type).map((r) => this.retypeReference(r, ctx.checker)).includes('escape');
    if (escape) this.reason(code, 'type');
    return escape ? 'escape' : 'ok';
  }

  /**
   * H-TYPES on the annotation or cast of params the rewrite reshapes (the params object, tools):
   * a type of the program's own names the Chat keys and cannot be retyped, so the site stays
   * (`params-not-local:<what>: typed …`); true when it did.
   */
  keepsOwnParamsType(type: ts.TypeNode, what: string, ctx: ScanContext): boolean {
    const own = ownShapeType(ctx.checker, type, (name) => Boolean(ctx.globalTypes?.has(name)));
    if (own) this.reason('params-not-local', `${what}: typed ${shortText(own, 40)}, the program's own type (${locationOf(ctx, own)})`);
    return Boolean(own);
  }

  /**
   * H-TYPES on the type assertions a value passes through between `inner` and `outer` (the
   * wrappers climbWrappers steps over): `stream as AsyncIterable<ChatCompletionChunk>` is retyped
   * with the value, or reported with `code` when a type has no equivalent.
   */
  retypeCasts(inner: ts.Node, outer: ts.Node, code: 'result-escapes' | 'stream-handoff', ctx: ScanContext): 'ok' | 'escape' {
    let result: 'ok' | 'escape' = 'ok';
    for (let n: ts.Node = inner; n !== outer && n.parent; n = n.parent) {
      const p = n.parent;
      if (isTypeAssertion(p) && this.retypeAnnotation(p.type, code, ctx) === 'escape') result = 'escape';
    }
    return result;
  }

  /** A unit key for a declaration: two sites with the same key migrate together. */
  share(kind: string, decl: ts.Node): string {
    const key = `${kind}:${decl.getSourceFile().fileName}:${decl.pos}`;
    this.unitKeys.add(key);
    return key;
  }

  /** This site's value is the argument of `call`, one of `calls` (every call of the callee). */
  feed(key: string, call: ts.Node, calls: readonly ts.Node[], callee: string, tools = false): void {
    const entry = this.feeds.get(key) ?? { calls, reached: new Set<ts.Node>(), callee, ...(tools ? { tools: true as const } : {}) };
    entry.reached.add(call);
    this.feeds.set(key, entry);
  }

  /**
   * This site passes `use`, one of `uses`, the places that hand the tool definitions `name` holds
   * to a request: the decision checks that sites of the unit pass them all (W-ALL-OR-NOTHING).
   */
  claimTools(key: string, use: ts.Node, uses: readonly ts.Node[], name: string): void {
    this.feed(key, use, uses, name, true);
  }
}

/** The Responses counterpart of a Chat type reference (`OpenAI.ChatCompletion` → `Response`), when it names one (H-TYPES). */
export function responsesTypeOf(ref: ts.TypeReferenceNode): (typeof TYPE_RENAMES)[string] | undefined {
  return ownEntry(TYPE_RENAMES, ts.isIdentifier(ref.typeName) ? ref.typeName.text : ref.typeName.right.text);
}

/**
 * The Chat type a reference names under another name (an import or re-export renamed on the way),
 * if it does: read through the checker's aliases, which bind the file's own imports whether or not
 * their modules resolve.
 */
function renamedChatType(ref: ts.TypeReferenceNode, checker: ts.TypeChecker): string | undefined {
  if (!ts.isIdentifier(ref.typeName)) return undefined;
  const local = ref.typeName.text;
  let symbol = checker.getSymbolAtLocation(ref.typeName);
  for (let i = 0; symbol && symbol.flags & ts.SymbolFlags.Alias && i < 8; i++) {
    const decl = symbol.declarations?.[0];
    const original = decl && (ts.isImportSpecifier(decl) || ts.isExportSpecifier(decl)) ? decl.propertyName?.text : undefined;
    if (original && original !== local && ownEntry(TYPE_RENAMES, original)) return original;
    symbol = checker.getImmediateAliasedSymbol(symbol);
  }
  return undefined;
}

/** Every type reference in an annotation, itself included (`Promise<ChatCompletion>`: both). */
export function typeReferences(type: ts.TypeNode): ts.TypeReferenceNode[] {
  const refs: ts.TypeReferenceNode[] = ts.isTypeReferenceNode(type) ? [type] : [];
  walk(type, (n) => {
    if (ts.isTypeReferenceNode(n)) refs.push(n);
  });
  return refs;
}

/**
 * A type literal, or a type declared in the project (interface, alias, class, enum), in an
 * annotation, outside the type arguments of a Chat type (`ParsedChatCompletion<Answer>`: the parsed
 * type is the program's own on both sides). Type parameters and library types pass.
 */
/**
 * A file of the project's own: a source file, or a declaration file outside node_modules (a global
 * `interface ChatGptPrompt` in src/types/prompt.d.ts: probe of TypeScript-heavy code), not a
 * compiler lib file.
 */
function declaredByProject(sf: ts.SourceFile): boolean {
  if (isProjectFile(sf)) return true;
  return path.isAbsolute(sf.fileName) && !sf.fileName.includes('/node_modules/') && !/(^|\/)lib\.[\w.]+\.d\.ts$/.test(sf.fileName);
}

function ownShapeType(checker: ts.TypeChecker, type: ts.TypeNode, globalOfProject: (name: string) => boolean = () => false): ts.TypeNode | undefined {
  let found: ts.TypeNode | undefined;
  const visit = (n: ts.Node): boolean => {
    if (ts.isTypeLiteralNode(n) || ts.isMappedTypeNode(n)) found = n;
    // `Parameters<typeof openai.chat.completions.create>[0]`, `Awaited<ReturnType<typeof …>>`: the
    // Chat method's own types, which no rewrite of the call retypes (probe of TypeScript-heavy code)
    else if (isChatMethodQuery(n)) found = n;
    else if (ts.isTypeReferenceNode(n)) {
      if (responsesTypeOf(n)) return false;
      const decl = symbolOf(checker, ts.isIdentifier(n.typeName) ? n.typeName : n.typeName.right)?.declarations?.[0];
      // a name the program does not resolve, declared by a global .d.ts of the project that no
      // import loads (`interface ChatGptPrompt` in src/types/prompt.d.ts)
      if (decl ? !ts.isTypeParameterDeclaration(decl) && declaredByProject(decl.getSourceFile()) : globalOfProject(ts.isIdentifier(n.typeName) ? n.typeName.text : '')) found = n;
    }
    return !found;
  };
  if (visit(type)) walk(type, visit);
  return found;
}
