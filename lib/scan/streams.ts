/**
 * Stream consumers (docs/migration-spec.md §5, S- rules): raw `stream: true` loops and the
 * `chat.completions.stream()` helper. Reads of a chunk inside a loop become event expressions;
 * listeners and final-result methods map onto ResponseStream's; every hand-off the tool cannot
 * follow is reported (S-HANDOFF).
 */
import type { RuleId } from '../rules/ids.js';
import { ownEntry, hasEntry } from '../rules/lookup.js';
import type { ChainLink } from '../plan.js';
import {
  ANY, CHUNK_STEPS, EMPTY_WRITE_SINKS, FINAL_METHODS, INDEX0, LISTENERS, SAME_STREAM_MEMBERS, STREAM_FINISH_CONDITIONS,
  type ChunkShape, type ChunkStep,
} from '../rules/streams.js';
import {
  ts, climbWrappers, unwrap, stringValue, numberValue, startOf, isInside, isFunctionLike, isBooleanContext, isEquality, isWriteReference, isPlainWriteTarget, returnExpressions, shortText,
  isConsoleArgument, isConstDeclaration,
} from './ast.js';
import { bindingOfExpression, declarationOf } from './bindings.js';
import { isStringTyped } from './types.js';
import { callersOf, feedParameter, MAX_HOPS, returningFunction } from './callers.js';
import { locationOf, type ScanContext } from './context.js';
import { referencesOf, isExported } from './references.js';
import { ResultAnalyzer, useOf } from './results.js';
import { promiseAllSlot } from './promise-all.js';
import { firstEventAssignments, iterationCounters, iterationEffects, leavesIteration } from './stream-counters.js';
import { failureTellsApart } from './parse-errors.js';
import { tellsSdkErrorsApart } from './caught-errors.js';
import { forcesTool } from './tool-choice.js';
import { testedBefore } from './truth-tests.js';
import { USAGE_NEVER_SENT, type SiteAnalysis } from './site.js';
import { usageFinishTiming } from './usage-timing.js';

/** Where the SDK exports its Stream class (v4 to v7 spellings). */
const SDK_STREAM_MODULES = /^openai\/(core\/)?streaming(\.m?js)?$/;

interface ChunkChain {
  root: ts.Node;
  accessed: string[];
  /** Usage fields renamed (input_tokens…), with the original optional flags. */
  usageLinks: ChainLink[];
  /** The path in the chunk of a root that is an alias (`const delta = chunk.choices[0]?.delta`): reasons name it. */
  path?: string[];
}

export class StreamAnalyzer {
  /** Ranges where `<chunk>.response.usage` is known to be set (inside an `if (chunk.usage)` guard). */
  private readonly narrowed: { node: ts.Node; variable: ts.Node }[] = [];
  private readonly followed = new Set<ts.Node>();
  /** W-FOLLOW: parameters and functions the stream was followed into or out of, and how deep. */
  private readonly paramsFollowed = new Map<ts.Node, readonly ts.CallExpression[]>();
  private readonly returnsFollowed = new Set<ts.Node>();
  private hops = 0;
  /** The stream loops found: each gets the S-FAILED guard. */
  private loops = 0;
  /** The request forces a tool (tool_choice): its finish_reason was 'stop' with tool calls (tool-choice.ts). */
  private forcedTool = false;
  /** A helper stream's 'error' listeners and awaited final results: where its failure goes. */
  private readonly errorListeners: ts.Expression[] = [];
  private readonly finals: ts.CallExpression[] = [];
  /** Calls the per-event check leaves alone: S-TEXT's statement form (put under a test of the event), and chunk hand-offs (their callee's body is checked). */
  private readonly callsHandled = new Set<ts.Node>();
  /** Parameters of the functions a chunk is handed to (W-FOLLOW). */
  private readonly chunkFunctions: (ts.ParameterDeclaration & { name: ts.Identifier })[] = [];
  /** `<text read> || ''` (or `?? ''`): the empty string on the events that are not text. */
  private readonly emptyTexts = new Set<ts.Node>();

  constructor(
    private readonly ctx: ScanContext,
    private readonly site: SiteAnalysis,
    private readonly isSiteCall: (node: ts.Node) => boolean,
  ) {}

  analyze(call: ts.CallExpression, method: string): void {
    this.forcedTool = forcesTool(call, this.ctx);
    if (method === 'stream') {
      this.helper(call);
      if (!this.loops) this.helperFailure(call);
    } else this.raw(call);
  }

  /**
   * S-FAILED for a helper stream read through its listeners and final results, not a loop: a
   * ResponseStream yields response.failed as an event and then ends, and finalResponse() resolves
   * with the failed response, where a Chat stream's failure emitted 'error' and rejected its final
   * results. A listener that throws on it fails the stream the same way (the SDK emits 'error' with
   * that message, rejects done() and the final results, and ends).
   */
  private helperFailure(call: ts.CallExpression): void {
    for (const handler of this.errorListeners) {
      if (tellsSdkErrorsApart(handler, true, this.ctx.checker)) this.site.reason('not-supported-yet', `a stream failure given to the 'error' listener at ${locationOf(this.ctx, handler)}, which tests for the SDK's errors (a failed Responses stream gives it an OpenAIError, not an APIError)`);
    }
    for (const final of this.finals) {
      const apart = failureTellsApart(final, this.ctx, true);
      if (apart) this.site.reason('not-supported-yet', apart);
    }
    const at = this.site.range(call);
    const listener = ".on('response.failed', (event) => { throw new Error(event.response.error?.message ?? 'Response failed'); })";
    // a chain written one link a line gets one more line, at its indentation
    const next = /^[ \t]*(\r?\n)([ \t]*)\./.exec(call.getSourceFile().text.slice(at.end));
    this.site.edit({ op: 'replace', rule: 'S-FAILED', file: at.file, start: at.end, end: at.end, text: next ? `${next[1]}${next[2]}${listener}` : listener });
    this.site.note('S-FAILED', 'warn', "The stream now fails on response.failed, which a ResponseStream yields as an event: the 'error' listeners and the final results see it, as they saw a Chat stream's failure.");
  }

  // ---- raw `stream: true` ------------------------------------------------------------------

  /** The value of `await create({ stream: true })`, or the promise itself. */
  private raw(node: ts.Node): void {
    const outer = climbWrappers(node);
    if (this.site.retypeCasts(node, outer, 'stream-handoff', this.ctx) === 'escape') return;
    const parent = outer.parent;
    if (ts.isAwaitExpression(parent)) return this.stream(parent);
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
      if (parent.type && this.site.retypeAnnotation(parent.type, 'stream-handoff', this.ctx) === 'escape') return;
      for (const ref of this.references(parent.name)) this.raw(ref);
      return;
    }
    if (ts.isArrayLiteralExpression(parent)) {
      // `const [stream, saved] = await Promise.all([create({ stream: true }), save(…)])`: the name at its index
      const slot = promiseAllSlot(this.ctx.checker, outer, (e) => this.isSiteCall(e));
      if (slot) {
        this.site.share('promise-all', slot.array);
        if (this.site.retypeCasts(slot.awaited, slot.outer, 'stream-handoff', this.ctx) === 'escape') return;
        if (slot.name) for (const ref of this.references(slot.name)) this.stream(ref);
        return;
      }
    }
    this.handoff(outer, (n) => this.raw(n), true);
  }

  /** A Stream<ChatCompletionChunk> value: iterated, aborted, or handed off. */
  private stream(node: ts.Node): void {
    const outer = climbWrappers(node);
    if (this.site.retypeCasts(node, outer, 'stream-handoff', this.ctx) === 'escape') return;
    const parent = outer.parent;
    if (ts.isForOfStatement(parent) && parent.expression === outer && parent.awaitModifier) return this.loop(parent);
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
      // `const stream: Stream<ChatCompletionChunk> = await create(…)`: retyped with the value (H-TYPES)
      if (parent.type && this.site.retypeAnnotation(parent.type, 'stream-handoff', this.ctx) === 'escape') return;
      for (const ref of this.references(parent.name)) this.stream(ref);
      return;
    }
    if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
      const name = parent.name.text;
      if (name === 'controller') return;
      if (name === 'toReadableStream' || name === 'tee') return this.site.reason('stream-handoff', name);
      // `stream.meta = {…}`: both APIs stream through the SDK's one Stream class, so a property
      // written on it is kept alike; a later read of it still comes here and is reported
      if (isPlainWriteTarget(parent)) return;
      return this.site.reason('not-supported-yet', `stream.${name}`);
    }
    this.handoff(outer, (n) => this.stream(n));
  }

  /**
   * The stream (or its promise) leaves this code. W-FOLLOW: into a project function's parameter
   * (every call of it must pass a stream of the unit), or out of a function to every caller;
   * `follow` continues with the same kind of value there.
   */
  private handoff(outer: ts.Node, follow: (node: ts.Node) => void, isPromise = false): void {
    const use = useOf(outer);
    if (use === 'discard') return;
    // `await create({ stream: true }).withResponse()`: its `data` is the stream, read where it is
    // destructured; that path is not followed (probe of request options: it said stream-handoff)
    const method = isPromise && ts.isPropertyAccessExpression(outer.parent) && outer.parent.expression === outer ? outer.parent.name.text : undefined;
    if (method === 'withResponse') return this.site.reason('not-supported-yet', '.withResponse() on a stream request');
    // `s instanceof Stream` with the SDK's Stream class: a Responses stream is one too
    if (use === 'reflect' && !isPromise && this.isSdkStreamCheck(outer.parent)) return;
    // logging the stream object reads none of its events (as for a logged result, O-ESCAPE)
    if (use === 'console' && !isPromise) return this.site.note('O-ESCAPE', 'warn', 'A logged Chat stream object now logs the Responses stream object.');
    if (use === 'argument' && this.hops < MAX_HOPS) {
      const fed = feedParameter(this.ctx, this.site, outer, this.paramsFollowed, this.hops, 'stream-handoff');
      if (fed === 'done') return;
      if (fed) {
        if (fed.type) this.site.retypeAnnotation(fed.type, 'stream-handoff', this.ctx);
        this.hops++;
        for (const ref of this.references(fed.name)) follow(ref);
        this.hops--;
        return;
      }
    }
    if (use === 'return' && this.hops < MAX_HOPS) {
      const fn = returningFunction(outer);
      const other = fn && returnExpressions(fn).find((r) => climbWrappers(r) !== outer && r !== outer);
      const callers = fn && !other ? callersOf(fn, this.ctx, this.ctx.callerSearch) : undefined;
      if (fn && callers && !('stop' in callers) && !this.returnsFollowed.has(fn)) {
        this.returnsFollowed.add(fn);
        this.site.share('returns', fn);
        if (fn.type) this.site.retypeAnnotation(fn.type, 'stream-handoff', this.ctx);
        const async = !isPromise && Boolean(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async);
        this.hops++;
        // an async function hands its callers a promise of the stream it returns
        for (const call of callers.calls) (async ? this.awaited(call, follow) : follow(call));
        this.hops--;
        return;
      }
      if (callers && 'stop' in callers) return this.site.reason('stream-handoff', `return: ${callers.stop}`);
      if (other) return this.site.reason('stream-handoff', `return: the function also returns ${shortText(other, 40)}`);
    }
    this.site.reason('stream-handoff', use === 'read' || use === 'console' ? 'argument' : use);
  }

  private isSdkStreamCheck(node: ts.Node): boolean {
    if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.InstanceOfKeyword) return false;
    const cls = bindingOfExpression(this.ctx, node.right);
    return cls?.kind === 'export' && cls.name === 'Stream' && SDK_STREAM_MODULES.test(cls.module);
  }

  /** `await f()` of an async function that returns the stream: follow the awaited value. */
  private awaited(call: ts.Node, follow: (node: ts.Node) => void): void {
    const parent = climbWrappers(call).parent;
    if (ts.isAwaitExpression(parent)) return follow(parent);
    if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return this.site.reason('stream-handoff', 'a stream promise held in a variable');
    // the promise goes on (returned again, passed on): followed like the request's own promise
    this.handoff(climbWrappers(call), (n) => this.awaited(n, follow), true);
  }



  // ---- the helper (S-HELPER, S-FINAL) ------------------------------------------------------

  private helper(node: ts.Node): void {
    const outer = climbWrappers(node);
    if (this.site.retypeCasts(node, outer, 'stream-handoff', this.ctx) === 'escape') return;
    const parent = outer.parent;
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
      for (const ref of this.references(parent.name)) this.helper(ref);
      return;
    }
    if (ts.isForOfStatement(parent) && parent.expression === outer && parent.awaitModifier) return this.loop(parent);
    if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
      const name = parent.name.text;
      const call = parent.parent;
      const called = ts.isCallExpression(call) && call.expression === parent;
      if ((name === 'on' || name === 'once' || name === 'off') && called) {
        this.listener(call as ts.CallExpression);
        return this.helper(call); // .on() returns the stream: chains continue
      }
      if (hasEntry(FINAL_METHODS, name) && called) return this.final(call as ts.CallExpression, name);
      if (name === 'emitted' && called) return this.emitted(call as ts.CallExpression);
      if (SAME_STREAM_MEMBERS.has(name)) return;
      if (name === 'toReadableStream') return this.site.reason('stream-handoff', name);
      return this.site.reason('no-equivalent-result', name);
    }
    this.handoff(outer, (n) => this.helper(n));
  }

  /**
   * `await stream.emitted('end')`: an event both streams emit alike (the name kept, nothing
   * passed). Any other (`emitted('content')`, `emitted('finalContent')`) resolves with what the
   * event's first listener argument is, which differs or never comes on a ResponseStream: left as
   * it was, the promise never settled (probe of streams, run before and after).
   */
  private emitted(call: ts.CallExpression): void {
    const event = stringValue(call.arguments[0]);
    const rule = event === undefined ? undefined : ownEntry(LISTENERS, event);
    if (rule && rule.to === event && !rule.positional && !rule.fields) return;
    this.site.reason('not-supported-yet', `emitted(${event === undefined ? '…' : `'${event}'`}) on the stream helper`);
  }

  /** `.on('content', (delta, snapshot) => …)` → `.on('response.output_text.delta', ({ delta, snapshot }) => …)`. */
  private listener(call: ts.CallExpression): void {
    const [eventArg, cb] = call.arguments;
    const event = stringValue(eventArg);
    if (event === undefined) return this.site.reason('not-supported-yet', 'a listener whose event name is not a literal');
    if (event === 'error' && cb) this.errorListeners.push(cb);
    if (!hasEntry(LISTENERS, event)) return this.site.reason('no-equivalent-result', event);
    const rule = ownEntry(LISTENERS, event);
    if (!rule) return this.site.reason('no-equivalent-result', event);
    if (rule.to !== event) {
      this.site.edit({ op: 'replace', rule: 'S-HELPER', ...this.site.range(eventArg), text: `'${rule.to}'` });
    }
    const fn = cb && unwrap(cb);
    if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) {
      if (rule.positional || rule.fields) this.site.reason('not-supported-yet', `a ${event} listener that is not an inline function`);
      return;
    }
    if (rule.positional) return this.positional(fn, rule.positional);
    if (rule.fields) this.payload(fn, rule.fields, new Set(rule.noEquivalent ?? []), event);
  }

  /** Positional listener arguments become one destructured payload, the names kept as aliases. */
  private positional(fn: ts.ArrowFunction | ts.FunctionExpression, names: string[]): void {
    const params = fn.parameters;
    if (!params.length) return;
    if (params.length > names.length || params.some((p) => !ts.isIdentifier(p.name) || p.dotDotDotToken || p.initializer)) {
      return this.site.reason('not-supported-yet', 'listener parameters that are not plain names');
    }
    const fields = params.map((p, i) => {
      const local = (p.name as ts.Identifier).text;
      return local === names[i] ? local : `${names[i]}: ${local}`;
    });
    const sf = fn.getSourceFile();
    const first = params[0];
    const last = params[params.length - 1];
    const open = sf.text.lastIndexOf('(', first.getStart());
    const hasParens = open !== -1 && sf.text.slice(open + 1, first.getStart()).trim() === '' && (ts.isArrowFunction(fn) ? open >= fn.getStart() : true);
    const start = hasParens ? open : first.getStart();
    const close = hasParens ? sf.text.indexOf(')', last.getEnd()) + 1 : last.getEnd();
    this.site.edit({ op: 'replace', rule: 'S-HELPER', file: sf.fileName, start, end: close, text: `({ ${fields.join(', ')} })` });
  }

  /** Payload listeners: renamed fields in a destructuring or in `e.field` reads. */
  private payload(fn: ts.ArrowFunction | ts.FunctionExpression, fields: Readonly<Record<string, string>>, noEquivalent: Set<string>, event: string): void {
    const param = fn.parameters[0];
    if (!param) return;
    if (ts.isObjectBindingPattern(param.name)) {
      for (const el of param.name.elements) {
        const key = (el.propertyName ?? el.name).getText();
        if (noEquivalent.has(key)) return this.site.reason('no-equivalent-result', `${event}.${key}`);
        const to = ownEntry(fields, key);
        if (to === undefined) return this.site.reason('no-equivalent-result', `${event}.${key}`);
        if (to === key) continue;
        if (el.propertyName) this.site.edit({ op: 'rename', rule: 'S-HELPER', ...this.site.range(el.propertyName), to });
        else this.site.edit({ op: 'replace', rule: 'S-HELPER', ...this.site.range(el), text: `${to}: ${el.name.getText()}` });
      }
      return;
    }
    if (!ts.isIdentifier(param.name)) return this.site.reason('not-supported-yet', 'listener parameter');
    for (const ref of this.references(param.name)) {
      const parent = climbWrappers(ref).parent;
      if (!ts.isPropertyAccessExpression(parent)) return this.site.reason('stream-handoff', 'argument');
      const key = parent.name.text;
      // own keys only: `e.constructor` is not a payload field (lib/rules/lookup.ts)
      const to = ownEntry(fields, key);
      if (noEquivalent.has(key) || to === undefined) return this.site.reason('no-equivalent-result', `${event}.${key}`);
      if (to !== key) this.site.edit({ op: 'rename', rule: 'S-HELPER', ...this.site.range(parent.name), to });
    }
  }

  /** S-FINAL: `await s.finalChatCompletion()` → `await s.finalResponse()`, then §4 on the value. */
  private final(call: ts.CallExpression, method: string): void {
    const rule = ownEntry(FINAL_METHODS, method);
    if (!rule) return this.site.reason('no-equivalent-result', method);
    const access = call.expression as ts.PropertyAccessExpression;
    const awaited = climbWrappers(call).parent;
    if (!ts.isAwaitExpression(awaited)) return this.site.reason('not-supported-yet', `${method}() not awaited`);
    this.finals.push(call);
    // ResponseStream.finalResponse() resolves to a ParsedResponse: its function calls are ParsedResponseFunctionToolCall
    const results = new ResultAnalyzer(this.ctx, this.site, this.isSiteCall, true);
    if (rule.shape === 'completion' || rule.shape === 'message') {
      this.site.edit({ op: 'rename', rule: 'S-FINAL', ...this.site.range(access.name), to: 'finalResponse' });
      return results.analyzeValue(awaited, rule.shape);
    }
    if (rule.shape === 'usage' && this.site.streamWithoutUsage) return this.site.reason('no-equivalent-result', USAGE_NEVER_SENT);
    // finalContent() / totalUsage(): the value is a field of the final response
    // totalUsage() always resolved to an object; Response.usage is optional in the types
    const isTs = /\.(ts|tsx|mts|cts)$/.test(call.getSourceFile().fileName);
    const field = rule.shape === 'content' ? 'output_text' : isTs ? 'usage!' : 'usage';
    this.site.edit({ op: 'replace', rule: 'S-FINAL', ...this.site.range(awaited), text: `(await ${access.expression.getText()}.finalResponse()).${field}` });
    results.analyzeValue(awaited, rule.shape === 'content' ? 'content' : 'usage');
  }

  // ---- loops (S-TEXT, S-FINISH, S-USAGE, S-FAILED) -----------------------------------------

  private loop(loop: ts.ForOfStatement): void {
    this.loops++;
    const decl = ts.isVariableDeclarationList(loop.initializer) ? loop.initializer.declarations[0] : undefined;
    if (!decl || !ts.isIdentifier(decl.name)) return this.site.reason('not-supported-yet', 'a stream loop without a plain loop variable');
    const variable = decl.name;
    this.site.edit({ op: 'stream-guard', rule: 'S-FAILED', ...this.site.range(loop.statement), variable: variable.text });
    const apart = failureTellsApart(loop, this.ctx, false);
    if (apart) this.site.reason('not-supported-yet', apart);
    this.site.note('S-FAILED', 'warn', 'The stream loop now throws on response.failed and error events, which Responses yields instead of throwing.');
    this.findUsageGuards(loop, variable);
    for (const ref of this.references(variable)) this.chunk(ref, 'chunk', { root: ref, accessed: [], usageLinks: [] });
    for (const first of firstEventAssignments(loop, variable, this.ctx.checker)) {
      this.site.reason('no-equivalent-result', `${first.text} is set on the first stream event, which Responses sends before any text (response.created)`);
    }
    const timing = usageFinishTiming(loop);
    if (timing) this.site.reason('no-equivalent-result', timing);
    for (const counter of iterationCounters(loop, variable, this.ctx.checker)) {
      this.site.reason('no-equivalent-result', `${counter.name} counts stream loop iterations (Responses sends more events than Chat sends chunks)`);
    }
    // the loop body, and the body of each function a chunk is handed to (W-FOLLOW), run once per event
    const bodies: { body: ts.Node; variable: ts.Identifier }[] = [{ body: loop.statement, variable }];
    for (const param of this.chunkFunctions) {
      const body = (param.parent as ts.FunctionLikeDeclaration).body;
      if (body) bodies.push({ body, variable: param.name });
    }
    for (const { body, variable: chunk } of bodies) {
      for (const effect of iterationEffects(body, chunk, this.ctx.checker, this.callsHandled, this.emptyTexts)) {
        if (effect.console) this.site.note('O-ESCAPE', 'warn', 'A console call of the stream loop runs once per event, and Responses sends more events than Chat sent chunks: it logs more lines.');
        else this.site.reason('no-equivalent-result', `${shortText(effect.node, 40)} on every stream event (Responses sends more events than Chat sends chunks)`);
      }
    }
  }

  /** `if (chunk.usage) …`: inside the branch the event is known to carry usage (S-USAGE). */
  private findUsageGuards(loop: ts.ForOfStatement, variable: ts.Identifier): void {
    const symbol = this.ctx.checker.getSymbolAtLocation(variable);
    const visit = (n: ts.Node): void => {
      if (ts.isIfStatement(n)) {
        const cond = unwrap(n.expression);
        const guards = [cond, ...(ts.isBinaryExpression(cond) && cond.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ? [unwrap(cond.left)] : [])];
        for (const g of guards) {
          if (ts.isPropertyAccessExpression(g) && g.name.text === 'usage' && ts.isIdentifier(g.expression) &&
            this.ctx.checker.getSymbolAtLocation(g.expression) === symbol) {
            this.narrowed.push({ node: n.thenStatement, variable: g.expression });
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(loop.statement);
  }

  /** Follow a chunk read; write the event expression it becomes. */
  private chunk(node: ts.Node, shape: ChunkShape, chain: ChunkChain): void {
    let current = node;
    let currentShape = shape;
    for (;;) {
      const outer = climbWrappers(current);
      const parent = outer.parent;
      const access = accessOf(outer, parent);
      if (!access || currentShape === 'text' || currentShape === 'refusal' || currentShape === 'finish' || currentShape === 'usage-leaf') {
        return this.chunkEnd(outer, current, currentShape, chain);
      }
      const table = CHUNK_STEPS[currentShape];
      const step: ChunkStep | undefined = ownEntry(table, access.name) ?? table[ANY];
      if (!step) return this.site.reason('no-equivalent-result', describe(chain, access.name));
      if ('report' in step) {
        if (step.report === 'not-yet') return this.site.reason('not-supported-yet', step.detail);
        if (step.report === 'legacy-functions') return this.site.reason('legacy-functions');
        if (step.report === 'stream-tool-calls') {
          this.site.kinds.add('tool-using');
          if (!this.toolArguments(access.node, chain.root)) this.site.reason('stream-tool-calls');
          return;
        }
        return this.site.reason('no-equivalent-result', step.detail);
      }
      if (step.usage) chain.usageLinks.push({ name: step.usage, optional: access.optional, nonNull: false });
      chain.accessed.push(access.name);
      current = access.node;
      currentShape = step.to;
    }
  }

  private chunkEnd(outer: ts.Node, end: ts.Node, shape: ChunkShape, chain: ChunkChain): void {
    const root = this.site.range(chain.root);
    const edit = (kind: NonNullable<Parameters<SiteAnalysis['edit']>[0] & { op: 'stream-read' }>['kind'], range: ts.Node, extra: object = {}) =>
      this.site.edit({ op: 'stream-read', rule: ruleOf(kind), ...this.site.range(range), rootStart: root.start, rootEnd: root.end, kind, ...extra });
    switch (shape) {
      case 'text':
      case 'refusal': {
        if (isEmptyFallback(outer)) this.emptyTexts.add(outer.parent); // `''` on every other event
        const write = this.emptyWrite(outer);
        if (!write && testedBefore(end)) return edit(`${shape}Narrowed`, end);
        if (!write) {
          const use = this.textValueUse(outer);
          if (use) return this.site.reason('no-equivalent-result', `${shortText(use, 40)} reads the ${shape} delta as a value, which is undefined on every event that is not ${shape} (Chat's first chunk gave '')`);
          return edit(shape, end);
        }
        this.callsHandled.add(write.call);
        // the argument with its parentheses: all of it becomes `<event>.delta`
        return edit(shape === 'text' ? 'textWrite' : 'refusalWrite', write.call, { argStart: startOf(write.arg), argEnd: write.arg.getEnd() });
      }
      case 'finish': {
        if (this.forcedTool) return this.site.reason('no-equivalent-result', 'finish_reason (tool_choice forces a tool: Chat answered stop, with tool calls)');
        const parent = outer.parent;
        if (ts.isBinaryExpression(parent) && isEquality(parent.operatorToken.kind)) {
          const other = parent.left === outer ? parent.right : parent.left;
          const value = stringValue(other);
          if (value === 'function_call') return this.site.reason('legacy-functions');
          if (value && hasEntry(STREAM_FINISH_CONDITIONS, value)) {
            const op = parent.operatorToken.kind;
            const negate = op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
            this.site.note('O-FINISH', 'warn', `finish_reason === '${value}' became a check of the terminal event.`);
            return edit('finishCompare', parent, { value, negate });
          }
        }
        this.site.note('O-FINISH', 'warn', 'finish_reason is derived from the terminal event (completed / incomplete); other events give null, like Chat chunks.');
        return edit(isBooleanContext(outer) ? 'finishTruthy' : 'finishValue', end);
      }
      case 'chunk-usage':
      case 'usage-leaf': {
        if (this.site.streamWithoutUsage) return this.site.reason('no-equivalent-result', USAGE_NEVER_SENT);
        this.site.note('S-USAGE', 'info', 'Stream usage is read from the response.completed / response.incomplete event; include_usage is not needed.');
        const inGuard = this.narrowed.some((r) => isInside(end, r.node) && this.sameVariable(chain.root, r.variable));
        if (shape === 'chunk-usage' && !chain.usageLinks.length && isBooleanContext(outer)) return edit('usageGuard', end);
        if (shape === 'chunk-usage' && !chain.usageLinks.length) this.usageKept(outer);
        if (inGuard) return edit('usageNarrowed', end, { tail: chain.usageLinks });
        const tail = chain.usageLinks.map((l, i) => (i === 0 ? { ...l, optional: true } : l));
        return edit('usage', end, { tail });
      }
      case 'chunk-choice':
      case 'delta': {
        const parent = outer.parent;
        if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
          // `const delta = chunk.choices[0]?.delta`: the alias holds the event itself
          edit('collapse', end);
          const path = [...(chain.path ?? []), ...chain.accessed];
          for (const ref of this.references(parent.name)) this.chunk(ref, shape, { root: ref, accessed: [], usageLinks: [], path });
          return;
        }
        return this.site.reason('no-equivalent-result', describe(chain));
      }
      case 'chunk': {
        const use = useOf(outer);
        if (use === 'discard' || use === 'read') return;
        if (use === 'console') return this.site.note('O-ESCAPE', 'warn', 'A logged chunk now logs a Responses event.');
        if (use === 'argument' && chain.accessed.length === 0 && this.hops < MAX_HOPS) {
          // W-FOLLOW: the chunk re-emitted through a project function: its reads there are this stream's
          const fed = feedParameter(this.ctx, this.site, outer, this.paramsFollowed, this.hops, 'stream-handoff');
          if (fed === 'done') return;
          if (fed) {
            this.callsHandled.add(outer.parent); // the call hands the chunk on: the callee's body is checked
            this.chunkFunctions.push(fed);
            if (fed.type) this.site.retypeAnnotation(fed.type, 'stream-handoff', this.ctx);
            this.hops++;
            for (const ref of this.references(fed.name)) this.chunk(ref, 'chunk', { root: ref, accessed: [], usageLinks: [], path: chain.path });
            this.hops--;
            return;
          }
        }
        return this.site.reason('stream-handoff', use === 'store' ? 'chunk' : use);
      }
      default:
        return this.site.reason('no-equivalent-result', describe(chain));
    }
  }

  /**
   * S-TEXT as a value: `(<event is text> ? <event>.delta : undefined)` is undefined on every
   * event that is not text, where Chat's chunks gave '' (the role chunk) and undefined only at the
   * end (often after the loop had stopped on finish_reason). A test of its truthiness, a `|| ''`
   * or `?? ''` fallback and a console argument (O-ESCAPE) cannot tell the two apart, nor can the
   * uses of a const holding it that are such, or that a test of the const guards. Any other use
   * (`res.write(x)`, `text += x`, `x == undefined`) can: it is returned, and the site reported.
   */
  private textValueUse(outer: ts.Node): ts.Node | undefined {
    const safe = (o: ts.Node) => isBooleanContext(o) || isEmptyFallback(o) || isConsoleArgument(o);
    if (safe(outer)) return undefined;
    const parent = outer.parent;
    if (!ts.isVariableDeclaration(parent) || parent.initializer !== outer || !ts.isIdentifier(parent.name) || !isConstDeclaration(parent)) return parent;
    for (const ref of this.references(parent.name)) {
      const o = climbWrappers(ref);
      if (ref !== parent.name && !safe(o) && !testedBefore(ref)) return o.parent;
    }
    return undefined;
  }

  /**
   * S-TEXT, statement form: `process.stdout.write(<read> || '');` (or `?? ''`), a statement of its
   * own, becomes `if (<text event>) process.stdout.write(<event>.delta);`. Skipping the call on the
   * other events is exactly what it did with them only when it received `''` there and writing `''`
   * does nothing (EMPTY_WRITE_SINKS); its value must be unused, and any other argument a literal
   * (an encoding: a callback would not be called). Under an `if`, an added `if` could take its
   * `else`: the expression form stays there, as everywhere else.
   */
  private emptyWrite(outer: ts.Node): { call: ts.Expression; arg: ts.Node } | undefined {
    if (!isEmptyFallback(outer)) return undefined;
    const arg = climbWrappers(outer.parent);
    const append = this.emptyAppend(arg);
    if (append) return { call: append, arg };
    const call = arg.parent;
    if (!ts.isCallExpression(call) || call.arguments[0] !== arg || call.questionDotToken) return undefined;
    if (call.arguments.slice(1).some((a) => stringValue(a) === undefined)) return undefined;
    const statement = call.parent;
    if (!ts.isExpressionStatement(statement) || statement.expression !== call) return undefined;
    if (ts.isIfStatement(statement.parent) || ts.isLabeledStatement(statement.parent)) return undefined;
    const names: string[] = [];
    let callee: ts.Expression = call.expression;
    while (ts.isPropertyAccessExpression(callee) && !callee.questionDotToken) {
      names.unshift(callee.name.text);
      callee = callee.expression;
    }
    if (!ts.isIdentifier(callee) || !EMPTY_WRITE_SINKS.has([callee.text, ...names].join('.'))) return undefined;
    // the global `process`, not a binding of the program's own
    const declarations = this.ctx.checker.getSymbolAtLocation(callee)?.declarations ?? [];
    if (declarations.some((d) => !d.getSourceFile().isDeclarationFile)) return undefined;
    return { call, arg };
  }

  /**
   * S-TEXT, accumulated: `text += <read> ?? '';` (or `|| ''`), a statement of its own, becomes
   * `if (<text event>) text += <event>.delta;`. Appending `''` to a string variable changes
   * nothing, so skipping it on the other events is the same; a target that is not a local
   * string variable (a property with a setter, a value that `+= ''` would turn into a string)
   * keeps the expression form.
   */
  private emptyAppend(arg: ts.Node): ts.BinaryExpression | undefined {
    const append = arg.parent;
    if (!ts.isBinaryExpression(append) || append.right !== arg || append.operatorToken.kind !== ts.SyntaxKind.PlusEqualsToken) return undefined;
    const statement = append.parent;
    if (!ts.isExpressionStatement(statement) || ts.isIfStatement(statement.parent) || ts.isLabeledStatement(statement.parent)) return undefined;
    const target = ts.isIdentifier(append.left) ? declarationOf(this.ctx.checker, append.left) : undefined;
    if (!target || !ts.isVariableDeclaration(target)) return undefined;
    return isStringTyped(this.ctx.checker, append.left) === 'yes' ? append : undefined;
  }

  /**
   * S-TOOLARGS, the canonical local accumulation: `for (const tc of chunk…delta.tool_calls ?? [])`
   * whose body only fills `buffer[tc.index]` from `tc.id`, `tc.function.name` and appended
   * `tc.function.arguments`, with the buffer read only after the stream loop. The buffer keeps its
   * own element shape: each finished function_call item (`response.output_item.done`) is pushed
   * with the same fields, so the code after the loop sees the same calls.
   */
  private toolArguments(toolCalls: ts.Node, event: ts.Node): boolean {
    let node = climbWrappers(toolCalls);
    const p = node.parent;
    if (ts.isBinaryExpression(p) && p.left === node && (p.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || p.operatorToken.kind === ts.SyntaxKind.BarBarToken)) node = climbWrappers(p);
    const inner = node.parent;
    if (!ts.isForOfStatement(inner) || inner.expression !== node || inner.awaitModifier) return false;
    const tcDecl = ts.isVariableDeclarationList(inner.initializer) ? inner.initializer.declarations[0] : undefined;
    if (!tcDecl || !ts.isIdentifier(tcDecl.name)) return false;
    const outerLoop = enclosingForAwait(inner);
    if (!outerLoop || !ts.isIdentifier(event)) return false;
    const shape = new ToolArgsShape(this.ctx.checker, tcDecl.name);
    const statements = ts.isBlock(inner.statement) ? [...inner.statement.statements] : [inner.statement];
    if (!statements.every((st) => shape.statement(st))) return false;
    const literal = shape.literal;
    const buffer = shape.buffer;
    if (!literal || !buffer || !shape.paths.size) return false;
    // the buffer: a local `[]`, touched inside the stream loop only by this accumulation
    const decl = this.ctx.checker.getSymbolAtLocation(buffer)?.declarations?.[0];
    if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !ts.isArrayLiteralExpression(unwrap(decl.initializer)) ||
      (unwrap(decl.initializer) as ts.ArrayLiteralExpression).elements.length || decl.getStart() > outerLoop.getStart()) return false;
    for (const ref of referencesOf(this.ctx.checker, decl.name as ts.Identifier)) {
      if (isInside(ref, outerLoop) && !isInside(ref, inner)) return false;
      if (isWriteReference(ref)) return false;
    }
    const text = shape.render(literal, event.text);
    if (!text) return false;
    this.site.edit({
      op: 'replace', rule: 'S-TOOLARGS', ...this.site.range(inner),
      text: `if (${event.text}.type === 'response.output_item.done' && ${event.text}.item.type === 'function_call') ${buffer.text}.push(${text});`,
    });
    this.site.note('S-TOOLARGS', 'warn', `Streamed tool calls are collected from response.output_item.done (complete call_id, name and arguments) into ${buffer.text}, in call order.`);
    return true;
  }

  /**
   * `last = chunk.usage` / `const u = chunk.usage`: the variable now holds a ResponseUsage, so its
   * reads get the O-USAGE renames (T-USAGE-SILENT: a missed prompt_tokens is silently undefined).
   */
  private usageKept(outer: ts.Node): void {
    const parent = outer.parent;
    let name: ts.Identifier | undefined;
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) name = parent.name;
    else if (ts.isBinaryExpression(parent) && parent.right === outer && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(unwrap(parent.left))) {
      const decl = this.ctx.checker.getSymbolAtLocation(unwrap(parent.left))?.declarations?.[0];
      if (decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) name = decl.name;
    }
    if (!name) {
      const use = useOf(outer);
      if (use !== 'discard' && use !== 'read') this.site.reason('result-escapes', `${use === 'console' ? 'argument' : use}: the final usage (${locationOf(this.ctx, outer)})`);
      return;
    }
    if (this.followed.has(name)) return;
    // `let usage: CompletionUsage | undefined`: the holder now gets a ResponseUsage (H-TYPES)
    const holder = name.parent;
    if (ts.isVariableDeclaration(holder) && holder.type && this.site.retypeAnnotation(holder.type, 'result-escapes', this.ctx) === 'escape') return;
    const results = new ResultAnalyzer(this.ctx, this.site, this.isSiteCall);
    for (const ref of this.references(name)) {
      if (isWriteReference(ref)) continue;
      results.analyzeValue(ref, 'usage');
    }
  }

  private sameVariable(a: ts.Node, b: ts.Node): boolean {
    if (!ts.isIdentifier(a) || !ts.isIdentifier(b)) return false;
    return this.ctx.checker.getSymbolAtLocation(a) === this.ctx.checker.getSymbolAtLocation(b);
  }

  private references(name: ts.Identifier): ts.Identifier[] {
    if (this.followed.has(name)) return [];
    this.followed.add(name);
    if (isExported(this.ctx.checker, name)) {
      this.site.reason('stream-handoff', 'export');
      return [];
    }
    return referencesOf(this.ctx.checker, name);
  }
}

/** The `for await` loop around a node. */
function enclosingForAwait(node: ts.Node): ts.ForOfStatement | undefined {
  let current = node.parent;
  while (current && !isFunctionLike(current)) {
    if (ts.isForOfStatement(current) && current.awaitModifier) return current;
    current = current.parent;
  }
  return undefined;
}

type ToolField = 'id' | 'name' | 'arguments';

/** The statements of a canonical tool-call delta accumulation, and what each buffer path receives. */
class ToolArgsShape {
  buffer?: ts.Identifier;
  literal?: ts.ObjectLiteralExpression;
  /** Buffer element path (`id`, `function.name`…) → the tool-call field that fills it. */
  readonly paths = new Map<string, ToolField>();
  private readonly aliases = new Set<string>();

  constructor(private readonly checker: ts.TypeChecker, private readonly tc: ts.Identifier) {}

  statement(st: ts.Statement): boolean {
    if (ts.isIfStatement(st) && !st.elseStatement) {
      // `if (tc.id) …` / `if (call) …` / `if (!buffer[tc.index]) …`: the guard does not change the final state
      return this.guard(st.expression) && this.statement(ts.isBlock(st.thenStatement) && st.thenStatement.statements.length === 1 ? st.thenStatement.statements[0] : st.thenStatement);
    }
    if (ts.isVariableStatement(st)) {
      return st.declarationList.declarations.every((d) => ts.isIdentifier(d.name) && d.initializer && this.isSlot(d.initializer) && (this.aliases.add(d.name.text), true));
    }
    if (!ts.isExpressionStatement(st) || !ts.isBinaryExpression(st.expression)) return false;
    const { left, right, operatorToken } = st.expression;
    const op = operatorToken.kind;
    if (this.isSlot(left) && (op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.QuestionQuestionEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken)) {
      const obj = unwrap(right);
      if (!ts.isObjectLiteralExpression(obj) || (this.literal && this.literal !== obj)) return false;
      this.literal = obj;
      return this.collect(obj, '');
    }
    const path = this.pathOf(left);
    const field = this.fieldOf(right);
    if (path === undefined || !field) return false;
    if (op === ts.SyntaxKind.PlusEqualsToken && field === 'arguments') return this.add(path, field);
    if (op === ts.SyntaxKind.EqualsToken && field !== 'arguments') return this.add(path, field);
    return false;
  }

  private add(path: string, field: ToolField): boolean {
    const known = this.paths.get(path);
    if (known && known !== field) return false;
    this.paths.set(path, field);
    return true;
  }

  /** Literal leaves that take a tool-call field (`id: tc.id`); constants stay as written. */
  private collect(obj: ts.ObjectLiteralExpression, prefix: string): boolean {
    for (const p of obj.properties) {
      if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name)) return false;
      const path = prefix ? `${prefix}.${p.name.text}` : p.name.text;
      const v = unwrap(p.initializer);
      if (ts.isObjectLiteralExpression(v)) {
        if (!this.collect(v, path)) return false;
        continue;
      }
      const field = this.fieldOf(v);
      if (field) this.add(path, field);
      else if (!(ts.isStringLiteral(v) || ts.isNoSubstitutionTemplateLiteral(v))) return false;
    }
    return true;
  }

  /** `buffer[tc.index]`, setting the buffer. */
  private isSlot(e: ts.Expression): boolean {
    const v = unwrap(e);
    if (!ts.isElementAccessExpression(v) || !ts.isIdentifier(v.expression)) return false;
    const index = unwrap(v.argumentExpression);
    if (!ts.isPropertyAccessExpression(index) || index.name.text !== 'index' || !this.isTc(index.expression)) return false;
    if (this.buffer && this.buffer.text !== v.expression.text) return false;
    this.buffer = v.expression;
    return true;
  }

  /** `call.function.arguments`, `buffer[tc.index].id` → the element path. */
  private pathOf(e: ts.Expression): string | undefined {
    const names: string[] = [];
    let v = unwrap(e);
    while (ts.isPropertyAccessExpression(v)) {
      names.unshift(v.name.text);
      v = unwrap(v.expression);
    }
    if (!names.length) return undefined;
    if (ts.isIdentifier(v) && this.aliases.has(v.text)) return names.join('.');
    return this.isSlot(v) ? names.join('.') : undefined;
  }

  /** `tc.id`, `tc.function?.name ?? ''`, `tc.function?.arguments || ''` → the field. */
  private fieldOf(e: ts.Expression): ToolField | undefined {
    let v = unwrap(e);
    if (ts.isBinaryExpression(v) && (v.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || v.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
      const fallback = unwrap(v.right);
      if (!(ts.isStringLiteral(fallback) && fallback.text === '')) return undefined;
      v = unwrap(v.left);
    }
    if (!ts.isPropertyAccessExpression(v)) return undefined;
    const name = v.name.text;
    const object = unwrap(v.expression);
    if (name === 'id' && this.isTc(object)) return 'id';
    if ((name === 'name' || name === 'arguments') && ts.isPropertyAccessExpression(object) && object.name.text === 'function' && this.isTc(object.expression)) return name;
    return undefined;
  }

  private guard(e: ts.Expression): boolean {
    const v = unwrap(e);
    if (ts.isPrefixUnaryExpression(v) && v.operator === ts.SyntaxKind.ExclamationToken) return this.guard(v.operand);
    if (ts.isIdentifier(v)) return this.aliases.has(v.text);
    return this.fieldOf(v) !== undefined || this.isSlot(v);
  }

  private isTc(e: ts.Expression): boolean {
    const v = unwrap(e);
    return ts.isIdentifier(v) && this.checker.getSymbolAtLocation(v) === this.checker.getSymbolAtLocation(this.tc);
  }

  /** The buffer element, with each tool-call field read from the finished item. */
  render(obj: ts.ObjectLiteralExpression, event: string, prefix = ''): string | undefined {
    const parts: string[] = [];
    for (const p of obj.properties as ts.NodeArray<ts.PropertyAssignment>) {
      const key = (p.name as ts.Identifier).text;
      const path = prefix ? `${prefix}.${key}` : key;
      const v = unwrap(p.initializer);
      if (ts.isObjectLiteralExpression(v)) {
        const inner = this.render(v, event, path);
        if (inner === undefined) return undefined;
        parts.push(`${key}: ${inner}`);
        continue;
      }
      const field = this.paths.get(path);
      parts.push(`${key}: ${field ? `${event}.item.${field === 'id' ? 'call_id' : field}` : p.initializer.getText()}`);
    }
    // every updated path must be a leaf of the literal
    if (!prefix) for (const path of this.paths.keys()) if (!hasPath(obj, path)) return undefined;
    return `{ ${parts.join(', ')} }`;
  }
}

function hasPath(obj: ts.ObjectLiteralExpression, path: string): boolean {
  const [head, ...rest] = path.split('.');
  const p = obj.properties.find((x) => ts.isPropertyAssignment(x) && ts.isIdentifier(x.name) && x.name.text === head) as ts.PropertyAssignment | undefined;
  if (!p) return false;
  if (!rest.length) return true;
  const v = unwrap(p.initializer);
  return ts.isObjectLiteralExpression(v) && hasPath(v, rest.join('.'));
}

function ruleOf(kind: string): RuleId {
  if (kind.startsWith('usage')) return 'S-USAGE';
  if (kind.startsWith('finish')) return 'S-FINISH';
  return 'S-TEXT';
}

interface Access {
  name: string;
  optional: boolean;
  node: ts.Node;
}

function accessOf(outer: ts.Node, parent: ts.Node): Access | undefined {
  if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
    const call = parent.parent;
    if (parent.name.text === 'at' && ts.isCallExpression(call) && call.expression === parent) {
      return { name: numberValue(call.arguments[0]) === 0 ? INDEX0 : ANY, optional: Boolean(parent.questionDotToken), node: call };
    }
    return { name: parent.name.text, optional: Boolean(parent.questionDotToken), node: parent };
  }
  if (ts.isElementAccessExpression(parent) && parent.expression === outer) {
    const n = numberValue(parent.argumentExpression);
    return { name: n === 0 ? INDEX0 : stringValue(parent.argumentExpression) ?? ANY, optional: Boolean(parent.questionDotToken), node: parent };
  }
  return undefined;
}

function describe(chain: ChunkChain, next?: string): string {
  const names = ['chunk', ...(chain.path ?? []), ...chain.accessed, ...(next ? [next] : [])].map((n) => (n === INDEX0 ? '[0]' : n === ANY ? '[i]' : n));
  return names.join('.').replace(/\.\[/g, '[');
}

/** `<node> || ''` or `<node> ?? ''`: the empty string wherever `node` is empty or nullish. */
function isEmptyFallback(outer: ts.Node): boolean {
  const fallback = outer.parent;
  if (!ts.isBinaryExpression(fallback) || fallback.left !== outer || stringValue(fallback.right) !== '') return false;
  const op = fallback.operatorToken.kind;
  return op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken;
}

