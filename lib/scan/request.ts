/**
 * Request analysis (docs/migration-spec.md §2, R- and V- rules): resolve the params object (inline,
 * local variable, spreads and conditional spreads), check every key against the parameter table,
 * and plan the rewrites. Also derives the site kinds that depend on params (§1.2).
 */
import path from 'node:path';
import { ownEntry } from '../rules/lookup.js';
import { CHAT_PARAMS, MIN_OUTPUT_TOKENS, UNSUPPORTED_MODEL } from '../rules/request-params.js';
import { isForeignModelName } from '../rules/providers.js';
import { helperRename } from '../rules/helpers.js';
import {
  ts, unwrap, stringValue, numberValue, literalValue, propertyNameText, propertyValue, shortText, climbWrappers, isWriteReference, castTypes,
  returnExpressions, isInside, walk, isConstDeclaration, findProperty, isAccess, accessName,
} from './ast.js';
import { calledFunction, calledName, callersOf, type FollowedFunction } from './callers.js';
import { locationOf, relativeFile } from './context.js';
import { bindingOfExpression, declarationOf, knownNumbers } from './bindings.js';
import type { ScanContext } from './context.js';
import { MessagesAnalyzer, type MessagesFacts } from './messages.js';
import { modelNames } from './model-names.js';
import { ToolsAnalyzer } from './tools.js';
import { ConversionPlacer } from './conversion-placer.js';
import { referencesOf, isExported } from './references.js';
import { typeReferences, type SiteAnalysis } from './site.js';
import { importSpecifierOf, isErrorType, isStringTyped, isUntyped } from './types.js';
import { argumentsFor, flagValue, flagValuesOf, parameterSlot, passedFor, type ParameterSlot } from './parameter-values.js';

export interface RequestFacts {
  stream: 'yes' | 'no' | 'dynamic';
}

interface Entry {
  key: string;
  value: ts.Expression;
  prop: ts.ObjectLiteralElementLike;
  /** Inside a conditional spread branch. */
  conditional: boolean;
  /** The object literal that holds it. */
  holder: ts.ObjectLiteralExpression;
}

/** Where keys come from: the top object and every object spread into it that we can see. */
interface Collected {
  entries: Entry[];
  objects: { obj: ts.ObjectLiteralExpression; top: boolean }[];
  /** An opaque spread whose type does not rule out `stream: true`. */
  opaqueStream: boolean;
}

/** A read of Chat's stored completions (`chat.completions.retrieve`, `update`, `delete`, `list`, `messages.list`). */
const STORED_COMPLETIONS_READ = /\.chat\s*\.\s*completions\s*\.\s*(retrieve|update|delete|del|list|messages)\b/;

export class RequestAnalyzer {
  /** V-BUILDER: the function that returned the params, and this site's call of it. */
  private builder?: { fn: FollowedFunction; call: ts.CallExpression };
  /** Why following the stream flag stopped (the detail of dynamic-stream-flag). */
  private streamStop?: string;

  /** The request analysed (set by analyze()). */
  private call?: ts.CallExpression;
  /** Where its messages and tools are converted at run time (set by analyze()). */
  private placer?: ConversionPlacer;
  private toolsPlacer?: ConversionPlacer;

  constructor(private readonly ctx: ScanContext, private readonly site: SiteAnalysis) {}

  /** `arg`: the params argument (the second one of `create.call(thisArg, params)`). */
  analyze(call: ts.CallExpression, method: string, arg: ts.Expression | undefined = call.arguments[0]): RequestFacts {
    this.call = call;
    this.placer = new ConversionPlacer(this.ctx, this.site, call);
    // Not in the parsing helpers (R-TOOLS-UNTYPED): Chat's parse() threw before sending on tools
    // not all strict function tools, which responses.parse() does not check; and both helpers parse
    // a call's arguments with the tool's own parser (zodFunction), which a converted copy loses
    this.toolsPlacer = method === 'parse' || method === 'stream' ? undefined : this.placer;
    if (!arg) {
      this.site.reason('params-not-local', 'params');
      return { stream: 'no' };
    }
    const top = this.paramsObject(arg);
    if (!top) {
      // unless following a builder already said where it stopped
      if (!this.site.reasons.some((r) => r.code === 'params-not-local')) this.site.reason('params-not-local', 'params');
      // params held in a variable that is also written (`params.temperature = t`) still say whether they stream
      const held = method === 'stream' ? 'yes' : heldStreamFlag(arg, this.ctx.checker) ?? 'no';
      if (held === 'yes') this.site.kinds.add('streaming');
      return { stream: held };
    }
    const collected: Collected = { entries: [], objects: [], opaqueStream: false };
    this.collect(top, false, true, collected, 0);
    return this.evaluate(collected, method);
  }

  /** The params object literal: inline, or a local variable used only by this unit (V-LOCAL, §2.3). */
  private paramsObject(arg: ts.Expression): ts.ObjectLiteralExpression | undefined {
    this.retypeCast(arg);
    const e = unwrap(arg);
    if (ts.isObjectLiteralExpression(e)) return e;
    if (isCallOrAwaitedCall(e)) return this.builtParams(e);
    if (!ts.isIdentifier(e)) return undefined;
    const decl = declarationOf(this.ctx.checker, e);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
    const name = decl.name.text;
    if (isExported(this.ctx.checker, decl.name)) return this.paramsStop(`${name} is exported`);
    const other = this.otherUse(decl as ts.VariableDeclaration & { name: ts.Identifier });
    if (other) return this.paramsStop(`${name} is also used by ${useText(other)} (${locationOf(this.ctx, other)})`);
    if (!(decl.parent.flags & ts.NodeFlags.Const)) {
      const write = referencesOf(this.ctx.checker, decl.name).find(isWriteReference);
      if (write) return this.paramsStop(`${name} is assigned again (${locationOf(this.ctx, write)})`);
    }
    this.retypeCast(decl.initializer);
    if (decl.type) this.retype(decl.type);
    const init = unwrap(decl.initializer);
    if (isCallOrAwaitedCall(init)) return this.builtParams(init);
    if (!ts.isObjectLiteralExpression(init)) return undefined;
    this.site.share('params', decl);
    return init;
  }

  /**
   * A use of a params variable other than as the params of sites (or a spread), if any: a property
   * written afterwards (`chatObj.response_format = …`), a log, an argument. The literal is then
   * not the whole request.
   */
  private otherUse(decl: ts.VariableDeclaration & { name: ts.Identifier }): ts.Identifier | undefined {
    return referencesOf(this.ctx.checker, decl.name).find((ref) => {
      const use = climbWrappers(ref);
      return !((ts.isCallExpression(use.parent) && use.parent.arguments[0] === use && isSiteCall(use.parent)) || ts.isSpreadAssignment(use.parent));
    });
  }

  /** A params variable neither exported nor used other than as the params of sites (or spread). */
  private onlyParamsOfSites(decl: ts.VariableDeclaration & { name: ts.Identifier }): boolean {
    return !isExported(this.ctx.checker, decl.name) && !this.otherUse(decl);
  }

  /** `params-not-local:params: <why>` for a params variable the tool cannot rewrite in place. */
  private paramsStop(why: string): undefined {
    this.site.reason('params-not-local', `params: ${why}`);
    return undefined;
  }

  /**
   * V-BUILDER (W-FOLLOW): params returned by a project function (`await createParams(true)`). The
   * function must return one object literal (directly or through a local const), and every call
   * of it in the project must give params to a site, directly or through a const used only so:
   * those sites share the literal and migrate together (G-UNIT); the Chat params types of its
   * signatures, overloads included, are retyped (H-TYPES). Otherwise `params-not-local:params`
   * with where following stopped.
   */
  private builtParams(e: ts.Expression): ts.ObjectLiteralExpression | undefined {
    const call = (ts.isAwaitExpression(e) ? unwrap(e.expression) : e) as ts.CallExpression;
    const fn = calledFunction(this.ctx.checker, call);
    if (!fn) return undefined;
    const returned = returnedObject(this.ctx, fn);
    if (!returned) return undefined;
    const callers = callersOf(fn, this.ctx, this.ctx.callerSearch);
    if ('stop' in callers) {
      this.site.reason('params-not-local', `params: ${callers.stop}`);
      return undefined;
    }
    const other = callers.calls.find((c) => !this.givesParamsToSites(c));
    if (other) {
      this.site.reason('params-not-local', `params: ${calledName(fn)?.text ?? 'the builder'} is also called for something else (${locationOf(this.ctx, other)})`);
      return undefined;
    }
    this.site.share('params', returned.object);
    this.builder = { fn, call };
    if (returned.holder?.type) this.retype(returned.holder.type);
    for (const signature of signaturesOf(this.ctx.checker, fn)) this.retype(signature.type!);
    return returned.object;
  }

  /** `f(…)` or `await f(…)` as a site's params, or as a const that only gives params to sites. */
  private givesParamsToSites(call: ts.CallExpression): boolean {
    let use: ts.Node = climbWrappers(call);
    if (ts.isAwaitExpression(use.parent)) use = climbWrappers(use.parent);
    const parent = use.parent;
    if (ts.isCallExpression(parent) && parent.arguments[0] === use && isSiteCall(parent)) return true;
    return ts.isVariableDeclaration(parent) && parent.initializer === use && ts.isIdentifier(parent.name) &&
      Boolean(parent.parent.flags & ts.NodeFlags.Const) && this.onlyParamsOfSites(parent as ts.VariableDeclaration & { name: ts.Identifier });
  }

  /** `x as ChatCompletionCreateParamsNonStreaming` / `satisfies …`: retype to the Responses type (§2.3). */
  private retypeCast(arg: ts.Expression): void {
    for (const type of castTypes(arg)) this.retype(type);
  }

  /**
   * H-TYPES on a params annotation, cast or builder signature: its Chat params types are retyped
   * (also inside `Promise<…>` or `Omit<…>`). A type of the program's own (a type literal, an
   * interface) describes the Chat keys and cannot be retyped: the site stays, saying where.
   */
  private retype(type: ts.TypeNode): void {
    if (this.site.keepsOwnParamsType(type, 'params', this.ctx)) return;
    for (const ref of typeReferences(type)) {
      const retyped = this.site.retypeReference(ref, this.ctx.checker, (name) => name.startsWith('ChatCompletionCreateParams'));
      if (retyped === 'escape') this.site.reason('params-not-local', `params: typed ${shortText(ref, 40)}, a Chat params type the rewrite does not retype`);
    }
  }

  private collect(obj: ts.ObjectLiteralExpression, conditional: boolean, top: boolean, out: Collected, depth: number): void {
    out.objects.push({ obj, top });
    for (const p of obj.properties) {
      if (ts.isSpreadAssignment(p)) {
        this.spread(p.expression, conditional, out, depth);
        continue;
      }
      const key = propertyNameText(p.name);
      const value = propertyValue(p);
      if (!key || !value) {
        this.site.reason('unknown-param', shortText(p.name ?? p, 30));
        continue;
      }
      out.entries.push({ key, value, prop: p, conditional, holder: obj });
    }
  }

  /** V-SPREAD: `...{…}`, `...(c ? {A} : {B})`, `...(c && {A})`, `...local`; anything else is opaque. */
  private spread(expression: ts.Expression, conditional: boolean, out: Collected, depth: number): void {
    const e = unwrap(expression);
    if (depth > 6) {
      this.opaqueSpread(e, out);
      return;
    }
    if (ts.isObjectLiteralExpression(e)) return this.collect(e, conditional, false, out, depth + 1);
    if (ts.isConditionalExpression(e)) {
      this.spreadBranch(e.whenTrue, out, depth);
      this.spreadBranch(e.whenFalse, out, depth);
      return;
    }
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken)) {
      this.spreadBranch(e.right, out, depth);
      return;
    }
    if (ts.isIdentifier(e)) {
      const local = this.localObject(e);
      if (local) return this.collect(local, conditional, false, out, depth + 1);
    }
    this.opaqueSpread(e, out);
  }

  private spreadBranch(branch: ts.Expression, out: Collected, depth: number): void {
    const b = unwrap(branch);
    const lit = literalValue(b);
    if (lit && (lit.kind === 'null' || lit.kind === 'undefined' || (lit.kind === 'boolean' && !lit.value))) return;
    this.spread(b, true, out, depth + 1);
  }

  private opaqueSpread(e: ts.Expression, out: Collected): void {
    if (this.mayStream(e)) out.opaqueStream = true;
    this.site.reason('opaque-spread', shortText(e, 40));
  }

  /** Can this spread carry `stream: true`? Only a known type without it says no. */
  private mayStream(e: ts.Expression): boolean {
    const type = this.ctx.checker.getTypeAtLocation(e);
    if (isUntyped(type)) return true;
    const prop = type.getProperty('stream');
    if (!prop) return false;
    const t = this.ctx.checker.getTypeOfSymbol(prop);
    const parts = t.isUnion() ? t.types : [t];
    return parts.some((p) => p.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.Any | ts.TypeFlags.Unknown) || (p.flags & ts.TypeFlags.BooleanLiteral && (p as { intrinsicName?: string }).intrinsicName === 'true'));
  }

  /** A local object literal spread into the params, used by nothing outside the unit. */
  private localObject(id: ts.Identifier): ts.ObjectLiteralExpression | undefined {
    const decl = declarationOf(this.ctx.checker, id);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
    const init = unwrap(decl.initializer);
    if (!ts.isObjectLiteralExpression(init) || isExported(this.ctx.checker, decl.name)) return undefined;
    for (const ref of referencesOf(this.ctx.checker, decl.name)) {
      const use = climbWrappers(ref);
      if (!(use.parent && ts.isSpreadAssignment(use.parent))) return undefined;
    }
    this.site.share('params', decl);
    // `const DEFAULTS: Omit<ChatCompletionCreateParamsNonStreaming, 'messages'> = {…}` spread into the
    // call: its keys are rewritten, so its Chat type goes too (probe of typed service layers: TS2353)
    this.retypeCast(decl.initializer);
    if (decl.type) this.retype(decl.type);
    return init;
  }

  private evaluate(c: Collected, method: string): RequestFacts {
    const keys = new Set(c.entries.map((e) => e.key));
    // R-RESPFMT and R-VERBOSITY both write `text`: from two objects (a spread, a conditional
    // spread), the later `text` would replace the earlier (probe of request parameters: JSON mode lost)
    const textSources = c.entries.filter((e) => e.key === 'response_format' || e.key === 'verbosity');
    if (textSources.length > 1 && (new Set(textSources.map((e) => e.holder)).size > 1 || textSources.some((e) => e.conditional))) {
      this.site.reason('not-supported-yet', 'response_format and verbosity held in different objects (both become text, and one would replace the other)');
    }
    let stream: RequestFacts['stream'] = method === 'stream' ? 'yes' : 'no';
    let messages: MessagesFacts | undefined;
    let jsonObject = false;
    let usageSent = false;
    for (const entry of c.entries) {
      const rule = ownEntry(CHAT_PARAMS, entry.key);
      if (!rule) {
        this.site.reason('unknown-param', entry.key);
        continue;
      }
      switch (rule.treatment) {
        case 'keep':
          if (entry.key === 'model') this.model(entry.value);
          if (entry.key === 'stream') stream = this.streamFlag(entry, stream);
          if (entry.key === 'store') {
            this.site.storesResponses = unwrap(entry.value).kind === ts.SyntaxKind.TrueKeyword;
            if (this.site.storesResponses) this.storedCompletionsRead(entry.value);
          }
          if (entry.key === 'parallel_tool_calls') this.site.kinds.add('tool-using');
          break;
        case 'messages':
          messages = new MessagesAnalyzer(this.ctx, this.site, this.call, this.placer).analyze(entry.value);
          if (!(ts.isArrayLiteralExpression(unwrap(entry.value)) && !entry.conditional)) messages = { ...messages, hoistable: false };
          break;
        case 'max-tokens':
          this.maxTokens(entry);
          break;
        case 'response-format':
          if (this.responseFormat(entry.value) === 'json_object') jsonObject = true;
          break;
        case 'reasoning-effort':
        case 'verbosity':
          break;
        case 'logprobs':
          this.logprobs(entry.value);
          break;
        case 'top-logprobs':
          break;
        case 'tools':
          this.site.kinds.add('tool-using');
          new ToolsAnalyzer(this.ctx, this.site, this.toolsPlacer).tools(entry.value, ts.isShorthandPropertyAssignment(entry.prop));
          break;
        case 'tool-choice':
          this.site.kinds.add('tool-using');
          new ToolsAnalyzer(this.ctx, this.site).toolChoice(entry.value);
          break;
        case 'web-search':
          this.site.reason('not-supported-yet', 'web_search_options (R-WEBSEARCH)');
          break;
        case 'stream-options':
          this.streamOptions(entry.value);
          usageSent ||= !entry.conditional && includesUsage(entry.value);
          break;
        case 'no-equivalent':
          this.noEquivalent(entry);
          break;
        case 'legacy-functions':
          this.site.kinds.add('tool-using');
          this.site.reason('legacy-functions');
          break;
      }
    }
    if (keys.has('max_tokens') && keys.has('max_completion_tokens') && bothUnconditional(c.entries)) {
      this.site.reason('no-equivalent-param', 'max_tokens');
    }
    if (stream === 'dynamic') {
      this.site.kinds.add('streaming');
      this.site.reason('dynamic-stream-flag', this.streamStop);
    } else if (stream === 'yes') this.site.kinds.add('streaming');
    // S-USAGE: a Chat stream carries usage only when asked; a Responses stream always does
    if (stream !== 'no' && !usageSent) this.site.streamWithoutUsage = true;
    if (c.opaqueStream && !keys.has('stream') && method !== 'stream') {
      // an opaque spread may also carry `stream: true`
      this.site.reason('dynamic-stream-flag');
      this.site.kinds.add('streaming');
    }
    if (this.site.customTools && this.site.toolReplies) this.site.reason('tool-kind-unknown');
    const hasStore = keys.has('store');
    const hoist = Boolean(messages?.hoistable) && !jsonObject;
    if (hoist) {
      this.site.note('M-SYSTEM', 'warn', 'The leading system message became `instructions`; if you later chain turns with previous_response_id, send `instructions` again on every turn.');
    }
    if (!hasStore) this.site.note('R-STORE', 'info', 'store: false added to keep Chat Completions retention behaviour.');
    for (const { obj, top } of c.objects) {
      this.site.edit({ op: 'request', rule: 'R-MESSAGES', ...this.site.range(obj), top, addStore: top && !hasStore, hoistSystem: top && hoist });
    }
    return { stream };
  }

  /**
   * `store: true` in a file that reads Chat's stored completions back (`chat.completions.retrieve`,
   * `update`, `delete`, `list`, `messages.list`): the id it passes would be a Response's, which
   * that API does not know (NotFoundError; probe of JavaScript backends).
   */
  private storedCompletionsRead(at: ts.Node): void {
    const own = at.getSourceFile();
    const m = STORED_COMPLETIONS_READ.exec(own.text);
    if (m) return this.site.reason('no-equivalent-result', `id: the stored completion is read back through chat.completions.${m[1]}, which knows no Response ids`);
    // another module lists them (by metadata, for an evaluation): new records would be Responses,
    // which that list never shows (probe of request options)
    const search = this.ctx.callerSearch;
    for (const file of search?.filesNaming('completions') ?? []) {
      if (path.normalize(file) === path.normalize(own.fileName)) continue;
      const read = STORED_COMPLETIONS_READ.exec(search!.textOf(file) ?? '');
      if (read) return this.site.reason('no-equivalent-result', `stored: ${relativeFile(this.ctx.cwd, file)} reads stored Chat Completions back (chat.completions.${read[1]}), which would not hold the Responses this call stores`);
    }
  }

  private model(value: ts.Expression): void {
    this.site.models = modelNames(this.ctx, value);
    // R-MODEL: a name the Responses API rejects, written here or passed by a caller
    const names = 'unknown' in this.site.models ? [] : this.site.models;
    const unsupported = names.find((name) => UNSUPPORTED_MODEL.test(name));
    if (unsupported) this.site.reason('model-not-supported', unsupported);
    const model = stringValue(value);
    if (model !== undefined) this.site.model = model;
    // P-MODEL-HINT: a known name (a literal, a const's type, what every caller passes), or the
    // literal text of a template (`openai/${model}`)
    const inner = unwrap(value);
    const templateText = ts.isTemplateExpression(inner) ? [inner.head.text, ...inner.templateSpans.map((s) => s.literal.text)].join('') : undefined;
    this.site.foreignModel = names.find(isForeignModelName) ?? (templateText?.includes('/') ? shortText(inner, 40) : undefined);
  }

  /**
   * S-DETECT: `stream` is a literal, a local constant, a V-BUILDER parameter (what this site's call
   * of the builder passes), or a parameter of a function every call of which fixes it (W-FOLLOW);
   * anything else is dynamic. False in a conditional spread is still false.
   */
  private streamFlag(entry: Entry, current: RequestFacts['stream']): RequestFacts['stream'] {
    const on = this.streamValue(entry.value);
    if (on === false) return current;
    if (on === true && !entry.conditional) return 'yes';
    return 'dynamic';
  }

  private streamValue(value: ts.Expression): boolean | undefined {
    const v = unwrap(value);
    const slot = ts.isIdentifier(v) ? parameterSlot(this.ctx.checker, v) : undefined;
    if (!slot) return flagValue(this.ctx.checker, v);
    const { fn, call } = this.builder ?? {};
    if (fn && call && slot.fn === fn) {
      // each site of a builder's unit gets its own call's answer; the literal itself is not changed
      const passed = passedFor(this.ctx.checker, slot, call);
      return passed && 'value' in passed ? flagValue(this.ctx.checker, passed.value, [slot.initializer]) : undefined;
    }
    return this.everyCallPasses(slot);
  }

  /**
   * The flag a parameter of the site's own function is given by every call of that function in
   * the project (`completion({ messages, stream = false })`): when they all agree, the value is
   * known, and the branches it rules out are dead code for the result analysis (SiteAnalysis.flags).
   */
  private everyCallPasses(slot: ParameterSlot): boolean | undefined {
    const name = calledName(slot.fn)?.text ?? 'the function';
    const found = flagValuesOf(this.ctx, slot);
    if ('stop' in found) {
      this.streamStop = found.stop;
      return undefined;
    }
    const { values } = found;
    if (values.size > 1) {
      this.streamStop = `${name} is called with stream true (${locationOf(this.ctx, values.get(true)!)}) and false (${locationOf(this.ctx, values.get(false)!)})`;
      return undefined;
    }
    const value = values.has(true);
    this.site.flags.set(slot.decl, value);
    const calls = found.calls === 1 ? 'its one call' : `all ${found.calls} calls`;
    this.site.note('S-DETECT', 'warn', `stream is ${value} in ${calls} of ${name} in the project, so this call is migrated as ${value ? 'streaming' : 'non-streaming'}; a new caller passing stream: ${!value} needs the other migration.`);
    return value;
  }

  /** R-MAXTOK and T-MAXTOK-MIN. */
  private maxTokens(entry: Entry): void {
    const known = knownNumbers(this.ctx.checker, entry.value);
    const lit = literalValue(entry.value);
    if (known) {
      const low = known.find((n) => n < MIN_OUTPUT_TOKENS);
      const literal = numberValue(entry.value) !== undefined;
      if (low !== undefined) this.site.reason('max-tokens-below-minimum', literal ? String(low) : `${low} (${shortText(entry.value, 30)})`);
      return;
    }
    if (lit && (lit.kind === 'null' || lit.kind === 'undefined')) return;
    const passed = this.passedBelowMinimum(entry.value);
    if (passed) {
      this.site.reason('max-tokens-below-minimum', passed);
      return;
    }
    this.site.note('T-MAXTOK-MIN', 'warn', `${entry.key} was renamed to max_output_tokens; its value ${shortText(entry.value, 30)} must be at least ${MIN_OUTPUT_TOKENS}, which the Responses API enforces.`);
  }

  /**
   * T-MAXTOK-MIN through a parameter: a number below the minimum that a call of the site's
   * function passes for it (or its default, where a call leaves it out), as `3 (file:line)`.
   */
  private passedBelowMinimum(value: ts.Expression): string | undefined {
    const inner = unwrap(value);
    // `options.maxTokens || 2000`: what the callers pass, and the fallback
    if (ts.isBinaryExpression(inner) && (inner.operatorToken.kind === ts.SyntaxKind.BarBarToken || inner.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)) {
      const fallback = knownNumbers(this.ctx.checker, inner.right)?.find((n) => n < MIN_OUTPUT_TOKENS);
      return this.passedBelowMinimum(inner.left) ?? (fallback === undefined ? undefined : `${fallback} (${shortText(inner, 30)})`);
    }
    // `lim > 5 ? lim : 4`, `Math.min(limit, 10)`: a number below the minimum in view that the value may be
    // (probe of request parameters: a conditional fallback of 4 was migrated with a warn note only)
    const below = (e: ts.Expression) => knownNumbers(this.ctx.checker, e)?.find((n) => n < MIN_OUTPUT_TOKENS) ?? this.passedBelowMinimum(e);
    const may = ts.isConditionalExpression(inner) ? [inner.whenTrue, inner.whenFalse] : isMathMin(inner) ? [...inner.arguments] : [];
    for (const branch of may) {
      const low = below(branch);
      if (low !== undefined) return typeof low === 'number' ? `${low} (${shortText(inner, 30)})` : low;
    }
    let slot = ts.isIdentifier(inner) ? parameterSlot(this.ctx.checker, inner) : undefined;
    // `options.maxTokens`, of an options parameter: the property every call passes in it
    if (ts.isPropertyAccessExpression(inner) && ts.isIdentifier(inner.expression)) {
      const options = parameterSlot(this.ctx.checker, inner.expression);
      if (options && options.property === undefined) slot = { ...options, property: inner.name.text, initializer: undefined };
    }
    if (!slot) return undefined;
    const args = argumentsFor(this.ctx, slot);
    if ('stop' in args) return undefined;
    for (const { call, value } of args.given) {
      const n = value && knownNumbers(this.ctx.checker, value)?.find((v) => v < MIN_OUTPUT_TOKENS);
      if (typeof n === 'number') return `${n} (${locationOf(this.ctx, call)})`;
    }
    return undefined;
  }

  /** R-RESPFMT / H-ZODFORMAT. Returns the format type when known. */
  private responseFormat(value: ts.Expression): string | undefined {
    let v = unwrap(value);
    if (ts.isIdentifier(v)) {
      // V-LOCAL: a format object defined in view and used only here is reshaped at its definition
      const local = this.localFormat(v);
      if (typeof local === 'string') {
        this.site.kinds.add('structured-output');
        this.site.reason('params-not-local', `response_format (${local})`);
        return undefined;
      }
      if (!local) {
        this.site.kinds.add('structured-output');
        this.site.reason('params-not-local', 'response_format');
        return undefined;
      }
      this.site.edit({ op: 'format', rule: 'R-RESPFMT', ...this.site.range(local) });
      v = local;
    }
    if (ts.isObjectLiteralExpression(v)) {
      const type = stringValue(propertyValue(v.properties.find((p) => propertyNameText(p.name) === 'type')));
      if (type === 'text') return type;
      if (type === 'json_object') {
        this.site.kinds.add('structured-output');
        return type;
      }
      if (type === 'json_schema') {
        this.site.kinds.add('structured-output');
        const inner = unwrap(propertyValue(v.properties.find((p) => propertyNameText(p.name) === 'json_schema')) ?? v);
        if (!ts.isObjectLiteralExpression(inner)) {
          // `json_schema: schema`, a const object of the schema's own keys: spread into the format as it is
          if (!(ts.isIdentifier(inner) && isSchemaConfigConst(this.ctx.checker, inner))) this.site.reason('params-not-local', 'response_format');
          return type;
        }
        if (inner.properties.some((p) => ts.isSpreadAssignment(p))) this.site.reason('params-not-local', 'response_format');
        else if (!inner.properties.some((p) => propertyNameText(p.name) === 'schema')) this.site.reason('no-equivalent-param', 'response_format');
        return type;
      }
      this.site.reason('params-not-local', 'response_format');
      return undefined;
    }
    // `jsonMode ? { type: 'json_object' } : { type: 'text' }`: formats whose shape is the same in both
    // APIs move under text.format as they are; json_object when either branch may be (no M-SYSTEM hoist)
    if (ts.isConditionalExpression(v)) {
      const types = [v.whenTrue, v.whenFalse].map((b) => plainFormatType(unwrap(b)));
      if (types.every((t) => t === 'text' || t === 'json_object')) {
        if (!types.includes('json_object')) return 'text';
        this.site.kinds.add('structured-output');
        return 'json_object';
      }
    }
    if (ts.isCallExpression(v)) {
      const binding = bindingOfExpression(this.ctx, v.expression);
      const rename = binding?.kind === 'export' ? helperRename(binding.module, binding.name) : undefined;
      if (rename?.role === 'format') {
        this.site.kinds.add('structured-output');
        const props = v.arguments[2] && unwrap(v.arguments[2]);
        if (props && (!ts.isObjectLiteralExpression(props) || props.properties.some((p) => propertyNameText(p.name) !== 'description'))) {
          this.site.reason('no-equivalent-param', 'schemaDefinitions');
        }
        this.site.edit({ op: 'helper-call', rule: rename.rule, ...this.site.range(v.expression), from: rename.from, to: rename.to, module: rename.module });
        return 'json_schema';
      }
    }
    this.site.kinds.add('structured-output');
    this.site.reason('params-not-local', 'response_format');
    return undefined;
  }

  /**
   * V-LOCAL for a format: the const's object literal, or why it cannot be reshaped where it is
   * defined (a string naming the place), or undefined when it is built out of view.
   */
  private localFormat(id: ts.Identifier): ts.ObjectLiteralExpression | string | undefined {
    const decl = declarationOf(this.ctx.checker, id);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
    if (!(decl.parent.flags & ts.NodeFlags.Const)) return `${decl.name.text} is not a const, ${locationOf(this.ctx, decl)}`;
    if (isExported(this.ctx.checker, decl.name)) return `${decl.name.text} is exported, ${locationOf(this.ctx, decl)}`;
    // `const format: ResponseFormatJSONSchema = { … }` (probe of request parameters: reported as
    // built outside this unit): the SDK's format types, retyped where Responses names them otherwise
    const retype = decl.type && sharedFormatRetype(this.ctx.checker, decl.type);
    if (decl.type && !retype) return `${decl.name.text} is typed ${shortText(decl.type, 40)}, which the rewrite does not retype, ${locationOf(this.ctx, decl)}`;
    const init = unwrap(decl.initializer);
    if (!ts.isObjectLiteralExpression(init)) return undefined;
    for (const ref of referencesOf(this.ctx.checker, decl.name)) {
      const use = climbWrappers(ref);
      const parent = use.parent;
      const isFormatValue = (ts.isShorthandPropertyAssignment(parent) && parent.name.text === 'response_format') ||
        (ts.isPropertyAssignment(parent) && parent.initializer === use && propertyNameText(parent.name) === 'response_format');
      if (!isFormatValue) return `${decl.name.text} is also used other than as this request's response_format, ${locationOf(this.ctx, ref)}`;
    }
    if (retype && retype !== 'keep') this.site.edit({ op: 'retype', rule: 'H-TYPES', ...this.site.range(retype.node), to: retype.to, importName: retype.to, importFrom: retype.module });
    this.site.share('format', decl);
    return init;
  }

  /** R-LOGPROBS: only literal values can be mapped. */
  private logprobs(value: ts.Expression): void {
    const lit = literalValue(value);
    if (lit && (lit.kind === 'boolean' || lit.kind === 'null' || lit.kind === 'undefined')) return;
    this.site.reason('no-equivalent-param', 'logprobs');
  }

  /** R-STREAMOPTS: a literal object we can edit. */
  private streamOptions(value: ts.Expression): void {
    const v = unwrap(value);
    if (ts.isObjectLiteralExpression(v) && v.properties.every((p) => ['include_usage', 'include_obfuscation'].includes(propertyNameText(p.name) ?? ''))) return;
    const lit = literalValue(v);
    if (lit && (lit.kind === 'null' || lit.kind === 'undefined')) return;
    this.site.reason('params-not-local', 'stream_options');
  }

  /** R-NOEQUIV: inert values are dropped, anything else is reported. */
  private noEquivalent(entry: Entry): void {
    if (isInert(entry.key, entry.value)) return;
    if (entry.key === 'n') {
      const n = numberValue(entry.value);
      this.site.reason('n-greater-than-one', n !== undefined ? String(n) : shortText(entry.value, 20));
      return;
    }
    this.site.reason('no-equivalent-param', entry.key);
  }
}

/**
 * R-NOEQUIV inert values: `undefined`/`null`, `n: 1`, `stop: []`, `logit_bias: {}`, `modalities: ['text']`,
 * and a penalty of `0`: the API's documented default for both penalties, a term that adds nothing to a
 * token's logit, so dropping it sends the request the model already gets (the spec's list omits it).
 */
export function isInert(key: string, value: ts.Expression): boolean {
  const v = unwrap(value);
  const lit = literalValue(v);
  if (lit && (lit.kind === 'null' || lit.kind === 'undefined')) return true;
  if (key === 'n') return lit?.kind === 'number' && lit.value === 1;
  if (key === 'stop') return ts.isArrayLiteralExpression(v) && v.elements.length === 0;
  if (key === 'logit_bias') return ts.isObjectLiteralExpression(v) && v.properties.length === 0;
  if (key === 'modalities') return ts.isArrayLiteralExpression(v) && v.elements.length === 1 && stringValue(v.elements[0]) === 'text';
  if (key === 'presence_penalty' || key === 'frequency_penalty') return lit?.kind === 'number' && lit.value === 0;
  return false;
}

/** Both limits can reach the same request: in one object, or one of them outside any branch. */
function bothUnconditional(entries: Entry[]): boolean {
  const a = entries.filter((e) => e.key === 'max_tokens');
  const b = entries.filter((e) => e.key === 'max_completion_tokens');
  return a.some((x) => b.some((y) => x.holder === y.holder || !x.conditional || !y.conditional));
}

/** A call that is itself a chat call site (`….chat.completions.create(…)`), for unit sharing. */
function isCallOrAwaitedCall(e: ts.Expression): boolean {
  return ts.isCallExpression(e) || (ts.isAwaitExpression(e) && ts.isCallExpression(unwrap(e.expression)));
}

/**
 * The one object literal a builder returns: `return { … }`, or `return params` for a const
 * `params = { … }` of the function used only by that return. Undefined for anything else.
 */
function returnedObject(ctx: ScanContext, fn: FollowedFunction): { object: ts.ObjectLiteralExpression; holder?: ts.VariableDeclaration } | undefined {
  const returns = returnExpressions(fn);
  if (returns.length !== 1) return undefined;
  const e = unwrap(returns[0]);
  if (ts.isObjectLiteralExpression(e)) return { object: e };
  if (!ts.isIdentifier(e)) return undefined;
  const decl = declarationOf(ctx.checker, e);
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
  if (!isInside(decl, fn)) return undefined;
  const init = unwrap(decl.initializer);
  if (!ts.isObjectLiteralExpression(init)) return undefined;
  const refs = referencesOf(ctx.checker, decl.name);
  return refs.length === 1 && refs[0] === e ? { object: init, holder: decl } : undefined;
}

/** The signatures of a function with a return type: its own and, for a declaration, its overloads. */
function signaturesOf(checker: ts.TypeChecker, fn: FollowedFunction): ts.SignatureDeclaration[] {
  const overloads = (ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name
    ? (checker.getSymbolAtLocation(fn.name)?.declarations ?? []).filter((d): d is ts.FunctionDeclaration | ts.MethodDeclaration => (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d)) && !d.body)
    : [];
  return [fn, ...overloads].filter((s) => s.type);
}

function isSiteCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  return (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) && /\bcompletions\b/.test(callee.getText());
}

/** Exposed for the messages analysis of string content. */
export { isStringTyped };

/** The keys of Chat's `json_schema` object, the same as Responses' flattened format's (besides `type`). */
const SCHEMA_CONFIG_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'schema', 'strict']);

/**
 * `json_schema: schema` where `schema` is a const holding an object literal of those keys alone,
 * `name` and `schema` among them: `{ type: 'json_schema', ...schema }` reads the same properties
 * when the request is made that Chat sent, and the const itself is left as it is.
 */
function isSchemaConfigConst(checker: ts.TypeChecker, id: ts.Identifier): boolean {
  const decl = declarationOf(checker, id);
  // a declared type (Chat's JSONSchema has `schema?`) may not fit the Responses format, which requires it
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || decl.type || !isConstDeclaration(decl)) return false;
  const init = unwrap(decl.initializer);
  if (!ts.isObjectLiteralExpression(init)) return false;
  const keys = init.properties.map((p) => ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) ? propertyNameText(p.name) : undefined));
  return keys.every((k) => k !== undefined && SCHEMA_CONFIG_KEYS.has(k)) && keys.includes('name') && keys.includes('schema');
}

/** `{ type: 'text' }` / `{ type: 'json_object' }` and nothing else: its type; undefined for anything else. */
function plainFormatType(v: ts.Expression): string | undefined {
  if (!ts.isObjectLiteralExpression(v) || v.properties.length !== 1) return undefined;
  const only = v.properties[0];
  return ts.isPropertyAssignment(only) && propertyNameText(only.name) === 'type' ? stringValue(only.initializer) : undefined;
}

/**
 * The expression a use of a name sits in, for a report: its property read, or the write or
 * `delete` of that property, or the expression it is an operand or argument of. Line comments are
 * left out, so that a marker the first run put inside it does not change the text a second run
 * reports (the detail is part of the marker).
 */
function useText(use: ts.Node): string {
  let shown: ts.Node = climbWrappers(use).parent;
  if (ts.isPropertyAccessExpression(shown) || ts.isElementAccessExpression(shown)) {
    const outer = climbWrappers(shown);
    const p = outer.parent;
    if ((ts.isBinaryExpression(p) && p.left === outer) || ts.isDeleteExpression(p)) shown = p;
  }
  const text = shown.getText().replace(/\/\/[^\n]*(\n|$)/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** `stream_options: { include_usage: true }`, the literal `true` (a Chat stream then ends with a usage chunk). */
function includesUsage(value: ts.Expression): boolean {
  const v = unwrap(value);
  if (!ts.isObjectLiteralExpression(v)) return false;
  return v.properties.some((p) => ts.isPropertyAssignment(p) && propertyNameText(p.name) === 'include_usage' && unwrap(p.initializer).kind === ts.SyntaxKind.TrueKeyword);
}

/**
 * The `stream` literal of params held in a variable whose object the tool cannot take as the
 * whole request (it is written afterwards, logged, passed on): `const params = { …, stream: true };
 * if (t) params.temperature = t` streams (probe: vscode-openai's createChatCompletionStream, listed
 * as simple). Undefined when the flag is not a literal, or the variable or its `stream` is written.
 */
function heldStreamFlag(arg: ts.Expression, checker: ts.TypeChecker): 'yes' | 'no' | undefined {
  const e = unwrap(arg);
  if (!ts.isIdentifier(e)) return undefined;
  const decl = declarationOf(checker, e);
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
  const init = unwrap(decl.initializer);
  if (!ts.isObjectLiteralExpression(init) || init.properties.some(ts.isSpreadAssignment)) return undefined;
  const flag = literalValue(propertyValue(findProperty(init, 'stream')));
  if (flag && flag.kind !== 'boolean') return undefined;
  const refs = referencesOf(checker, decl.name);
  if (refs.some(isWriteReference)) return undefined;
  // `params.stream = …`, `params['stream'] = …`, `Object.assign(params, …)`: the flag may change
  if (refs.some((ref) => {
    const use = climbWrappers(ref);
    const p = use.parent;
    if (isAccess(p) && p.expression === use) return accessName(p) === 'stream' && isWriteReference(p);
    return ts.isCallExpression(p) && p.arguments.includes(use as ts.Expression) && /assign|merge|set/i.test(p.expression.getText());
  })) return undefined;
  return flag?.value ? 'yes' : 'no';
}

/** `Math.min(a, b, …)`: at most each of its arguments. */
function isMathMin(e: ts.Expression): e is ts.CallExpression {
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'min' &&
    ts.isIdentifier(e.expression.expression) && e.expression.expression.text === 'Math';
}

/** The SDK's shared format types, by name: what each is called under `text.format` (H-TYPES). */
const FORMAT_TYPES: Readonly<Record<string, { to: string; module: string } | 'keep'>> = {
  ResponseFormatText: 'keep',
  ResponseFormatJSONObject: 'keep',
  ResponseFormatJSONSchema: { to: 'ResponseFormatTextJSONSchemaConfig', module: 'openai/resources/responses/responses' },
};

/**
 * A format const's annotation that names one of the SDK's shared format types (openai/resources/shared):
 * 'keep' when Responses takes it as it is, the retype when it names it otherwise; undefined for
 * any other annotation.
 */
function sharedFormatRetype(checker: ts.TypeChecker, type: ts.TypeNode): 'keep' | { node: ts.EntityName; to: string; module: string } | undefined {
  if (!ts.isTypeReferenceNode(type) || type.typeArguments) return undefined;
  const resolved = checker.getTypeFromTypeNode(type);
  const symbol = resolved.aliasSymbol ?? resolved.getSymbol();
  const file = symbol?.declarations?.[0]?.getSourceFile().fileName.replace(/\\/g, '/') ?? '';
  // without the SDK's declarations loaded (import tracking), the name the file imports from the SDK
  const name = /\/openai[^/]*\/(src\/)?resources\/shared\.d\.m?ts$/.test(file) ? symbol!.getName()
    : isErrorType(resolved) ? importedFromSdk(checker, type.typeName) : undefined;
  const entry = name === undefined ? undefined : ownEntry(FORMAT_TYPES, name);
  if (!entry) return undefined;
  return entry === 'keep' ? 'keep' : { node: type.typeName, ...entry };
}

/** The SDK type a name is imported as (`import type { ResponseFormatJSONSchema } from 'openai/resources/shared'`), if it is. */
function importedFromSdk(checker: ts.TypeChecker, name: ts.EntityName): string | undefined {
  const specifier = ts.isIdentifier(name) ? importSpecifierOf(checker, name) : undefined;
  const from = specifier?.parent.parent.parent.moduleSpecifier;
  if (!specifier || !from || !ts.isStringLiteral(from) || !/^openai(\/resources(\/shared|\/index)?)?(\.m?js)?$/.test(from.text)) return undefined;
  return (specifier.propertyName ?? specifier.name).text;
}
