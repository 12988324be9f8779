/**
 * Result analysis (docs/migration-spec.md §4, O- rules): follow the value a call returns through awaits,
 * `.then`, variables, aliases and destructuring, map every read chain with the RESULT_STEPS
 * table, and report every use the table does not cover (O-ESCAPE, O-NOEQUIV).
 */
import type { RuleId } from '../rules/ids.js';
import { ownEntry } from '../rules/lookup.js';
import type { ChainLink } from '../plan.js';
import {
  ANY, ELEMENT_CALLBACK_METHODS, FINISH_VALUES, INDEX0, OBJECT_SHAPES, ON_EMPTY_STRING, PARSE_NOTE, RESULT_STEPS, TOOL_CALLS_FILTER,
  type Shape, type Step,
} from '../rules/results.js';
import {
  ts, unwrap, stringValue, numberValue, literalValue, propertyNameText, isFunctionLike, climbWrappers, startOf, walk,
  isBooleanContext, isTruthTest, isConstDeclaration, isEmptinessTest, statementsBefore, isNullishComparison, isEquality, isWriteReference, shortText, isConsoleCallee, isConsoleArgument, isAccess, isTypeAssertion,
  isJavaScriptFile, accessName, accessNameNode,
} from './ast.js';
import { VALUE_ASSIGNMENTS, declarationOf, isDestructuringTarget } from './bindings.js';
import type { ScanContext } from './context.js';
import { referencesOf, isExported } from './references.js';
import { calledFunction, callersOf, describeFunction, feedParameter, isReturnOf, returnCallers, returningFunction } from './callers.js';
import { promiseAllSlot } from './promise-all.js';
import { locationOf } from './context.js';
import { forcesTool } from './tool-choice.js';
import { redundantLengthGuard, testedBefore } from './truth-tests.js';
import { absentReadsAlike } from './absent-tool-calls.js';
import { USAGE_NEVER_SENT, CUSTOM_TOOL_CALLS, responsesTypeOf, type SiteAnalysis } from './site.js';
import { deadGuard, flagTest } from './dead-branches.js';
import { isParamsMessagesValue } from './messages.js';
import { HolderFollower } from './holders.js';

/** A chain being followed: where it started and what it becomes on the Responses side. */
interface Chain {
  /** The node the chain hangs from (an identifier, an await expression…). */
  root: ts.Node;
  /** Replacement text for the root (O-BIND fresh identifier). */
  rootText?: string;
  /** The Chat names accessed so far, and the Responses links they became. */
  accessed: string[];
  links: ChainLink[];
  /** The first access was optional (`r?.x`): the first Responses link keeps it. */
  rootOptional: boolean;
  /**
   * An optional access whose step adds no Responses link (`tool_calls?.[0]?.function.name`): the
   * next link keeps the `?.`, since the value it guarded (the call) may still be missing.
   */
  pendingOptional?: boolean;
  /**
   * The Chat path of the root when it is an alias of a part of the result (`const msg =
   * r.choices[0].message` → `choices`, `[0]`, `message`): reasons name the part, not the alias.
   */
  path?: string[];
}

/**
 * What a followed promise resolves to: the whole completion, or a part of it that a function
 * returns whole (`return r.choices[0].message`) and that is the whole response on the Responses
 * side, with its Chat path for the reasons (W-FOLLOW).
 */
interface Part {
  shape: Shape;
  path: string[];
}
const COMPLETION: Part = { shape: 'completion', path: [] };

/** Values an object literal may carry to where it is read (W-FOLLOW through holders). */
const HOLDABLE: ReadonlySet<Shape> = new Set(['completion', 'choices', 'choice', 'message', 'usage']);

/** Parts of a completion whose Responses counterpart is the response itself: a function may return them whole. */
const RETURNABLE_PARTS: ReadonlySet<Shape> = new Set(['completion', 'choices', 'choice', 'message']);

type Use =
  | 'console' | 'return' | 'argument' | 'store' | 'spread' | 'throw' | 'export' | 'discard' | 'read' | 'assign' | 'cast'
  /** `'choices' in r`, `for (k in r)`, `r instanceof X`: the answer changes with the shape. */
  | 'reflect';

export class ResultAnalyzer {
  private readonly followed = new Set<ts.Node>();
  /** `alias = <chain>` writes seen from the alias side, and the ones the root side accounted for. */
  private readonly aliasWrites: ts.Node[] = [];
  private readonly acceptedWrites = new Set<ts.Node>();
  /** Functions whose callers were followed (W-FOLLOW), and how many deep the current one is. */
  private readonly returnsFollowed = new Set<ts.Node>();
  /** Parameters followed into (W-FOLLOW), with every call of their function. */
  private readonly paramsFollowed = new Map<ts.Node, readonly ts.CallExpression[]>();
  private hops = 0;
  /**
   * Reads of the result in branches a known stream flag rules out (S-DETECT), to be checked once
   * the live reads are followed: the function a dead branch returns it from, or the conditional
   * whose dead side it is, must carry the live value too.
   */
  private readonly deadReturns: { fn: ts.Node; at: ts.Node }[] = [];
  private readonly deadBranches: { guard: ts.Node; at: ts.Node }[] = [];
  private readonly liveGuards = new Set<ts.Node>();

  constructor(
    private readonly ctx: ScanContext,
    private readonly site: SiteAnalysis,
    /** Is this call expression a chat call site (possibly another one of the unit)? */
    private readonly isSiteCall: (node: ts.Node) => boolean,
    /** A `parse()` site: its function calls are ParsedResponseFunctionToolCall items. */
    private readonly parsed = false,
  ) {}

  /**
   * The result is `any` by the program's own hand (an `any` client or result variable): a
   * function-call filter written into it needs its parameter typed, or noImplicitAny rejects it.
   */
  private untyped = false;
  /** The request forces a tool (tool_choice): its finish_reason was 'stop' with tool calls (tool-choice.ts). */
  private forcedTool = false;

  /** Names that hold `tool_calls ?? []` (or `|| []`): arrays in Chat too. */
  private readonly toolCallArrays = new Set<ts.Node>();

  /** Follow the promise a non-streaming call returns. */
  analyze(call: ts.CallExpression): void {
    this.untyped = declaredAny(this.ctx.checker, call);
    this.forcedTool = forcesTool(call, this.ctx);
    this.promise(call);
    this.finishAliases();
    this.finishDeadBranches();
  }

  /** Follow a value already known to be of a Chat shape (a stream helper's final result, S-FINAL). */
  analyzeValue(node: ts.Node, shape: Shape): void {
    this.value(node, shape, { root: node, accessed: [], links: [], rootOptional: false });
    this.finishAliases();
    this.finishDeadBranches();
  }

  /** An alias reassigned from something that is not a read of a followed result escapes. */
  private finishAliases(): void {
    for (const write of this.aliasWrites) {
      if (this.acceptedWrites.has(write)) continue;
      const initial = ts.isVariableDeclaration(climbWrappers(write).parent);
      this.site.reason('result-escapes', `assign: a variable holding the result ${initial ? 'also starts as' : 'is also given'} ${shortText(write as ts.Expression, 30)} (${locationOf(this.ctx, write)})`);
    }
    this.aliasWrites.length = 0;
  }

  /**
   * A read of the result where a known stream flag rules it out never runs. Its casts are retyped
   * with the value so the file still type-checks (`stream ? r as AsyncIterable<ChatCompletionChunk>
   * : r as ChatCompletion`); past a cast it may only be returned, or be the dead side of the
   * conditional the live value goes through.
   */
  private deadRead(node: ts.Node, guard: ts.Node): void {
    const outer = climbWrappers(node);
    if (this.site.retypeCasts(node, outer, 'result-escapes', this.ctx) === 'escape') return;
    if (outer.parent === guard) {
      this.deadBranches.push({ guard, at: node });
      return;
    }
    const fn = useOf(outer) === 'return' ? returningFunction(outer) : undefined;
    if (fn) this.deadReturns.push({ fn, at: node });
    else this.uncheckedDeadRead(node);
  }

  private uncheckedDeadRead(at: ts.Node): void {
    this.site.reason('dynamic-stream-flag', `the result is read at ${locationOf(this.ctx, at)}, in a branch the stream flag rules out`);
  }

  private finishDeadBranches(): void {
    const unchecked = [
      ...this.deadReturns.filter((d) => !this.returnsFollowed.has(d.fn)),
      ...this.deadBranches.filter((d) => !this.liveGuards.has(d.guard)),
    ];
    for (const d of unchecked) this.uncheckedDeadRead(d.at);
    this.deadReturns.length = 0;
    this.deadBranches.length = 0;
  }

  // ---- the promise -------------------------------------------------------------------------

  private promise(node: ts.Node, part: Part = COMPLETION): void {
    const outer = climbWrappers(node);
    if (this.site.retypeCasts(node, outer, 'result-escapes', this.ctx) === 'escape') return;
    const parent = outer.parent;
    if (ts.isAwaitExpression(parent)) {
      const target = this.assignedVariable(parent);
      if (target) {
        // `let c: ChatCompletion; … c = await create(…)`: its annotation is the value's (H-TYPES)
        if (this.annotationEscapes(target.type, part)) return;
        this.judgeInitialValue(target, part.shape);
        // `r = await …` on a local `let r`: the reads of r are this site's reads too (O-BIND)
        this.site.share('result', target);
        return this.binding(target.name as ts.Identifier, part.shape, undefined, [], part.path);
      }
      return this.value(parent, part.shape, { root: parent, accessed: [], links: [], rootOptional: false, path: part.path });
    }
    if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
      const method = parent.name.text;
      const call = parent.parent;
      if (!ts.isCallExpression(call) || call.expression !== parent) return this.site.reason('not-supported-yet', `.${method} on the request promise`);
      if (method === 'then') return this.then(call, part);
      if (method === 'catch' || method === 'finally') return this.promise(call, part);
      if (method === 'withResponse') return this.withResponse(call);
      if (method === 'asResponse') return this.asResponse(call);
      return this.site.reason('not-supported-yet', `.${method}() on the request promise`);
    }
    if (ts.isConditionalExpression(parent) && parent.condition !== outer) {
      this.site.share('ternary', parent); // both branches are one unit (G-UNIT)
      return this.promise(parent, part);
    }
    if (ts.isArrayLiteralExpression(parent)) {
      const slot = promiseAllSlot(this.ctx.checker, outer, (e) => this.sameRequest(e, outer));
      if (slot) {
        this.site.share('promise-all', slot.array); // the tuple's cast is one (G-UNIT)
        if (this.site.retypeCasts(slot.awaited, slot.outer, 'result-escapes', this.ctx) === 'escape') return;
        if (slot.name) this.binding(slot.name, part.shape, undefined, [], part.path);
        return;
      }
    }
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
      // a stored promise: every later `await p` / `p.then` is a use of it
      if (isExported(this.ctx.checker, parent.name)) return this.site.reason('result-escapes', 'export');
      this.site.share('result', parent);
      for (const ref of referencesOf(this.ctx.checker, parent.name)) this.promise(ref, part);
      return;
    }
    const use = useOf(outer);
    if (use === 'discard') return;
    if (use === 'return') return this.returned(outer, true, part);
    if (use === 'read') return this.site.reason('result-escapes', `promise: the request promise is read (${locationOf(this.ctx, outer)})`);
    this.escaped(use, 'the request promise', outer);
  }

  /**
   * W-FOLLOW: the completion (or its promise) is returned from a function: every call of that
   * function is a use of this result, wherever it is in the project. The function's other returns
   * must give the same unit's value, and its return type is retyped with it. A part of the result
   * returned whole (`return r.choices[0].message`, rewritten `return r`) is followed the same way,
   * its callers reading that part; its function's other returns must be that very expression, and
   * a declared return type other than `any` stops it (the type names the part, not the response).
   */
  private returned(outer: ts.Node, isPromise: boolean, part: Part = COMPLETION): void {
    const fn = returningFunction(outer);
    if (!fn) return this.site.reason('result-escapes', 'return');
    if (this.returnsFollowed.has(fn)) return;
    this.returnsFollowed.add(fn);
    const same = (r: ts.Expression) => (part.shape === 'completion' ? this.sameReturnedValue(r, outer) : isReturnOf(r, outer));
    const callers = returnCallers(fn, outer, this.ctx, this.hops, same);
    if ('stop' in callers) return this.site.reason('result-escapes', callers.stop);
    this.site.share('returns', fn);
    if (this.annotationEscapes(fn.type, part)) return;
    const yieldsPromise = isPromise || Boolean(callers.promise) || Boolean(ts.getCombinedModifierFlags(fn) & ts.ModifierFlags.Async);
    this.hops++;
    for (const call of callers.calls) {
      if (yieldsPromise) this.promise(call, part);
      else this.value(call, part.shape, { root: call, accessed: [], links: [], rootOptional: false, path: part.path });
    }
    this.hops--;
  }

  /**
   * W-FOLLOW: the completion is an argument of a project function: its reads in that function are
   * this result's reads. Every call of the function must pass a result of the same unit (checked
   * when the unit is decided); a third-party function is an edge (false: the caller reports it).
   */
  private intoCallee(outer: ts.Node): boolean {
    const fed = feedParameter(this.ctx, this.site, outer, this.paramsFollowed, this.hops);
    if (!fed || fed === 'done') return Boolean(fed);
    if (fed.type && this.retypeAnnotation(fed.type) === 'escape') return true;
    // `isStream(r: ChatCompletion | AsyncIterable<ChatCompletionChunk>): r is AsyncIterable<ChatCompletionChunk>`:
    // the predicate narrows the retyped parameter, so it is retyped with it (a predicate that is
    // not a subtype of its parameter's type does not compile)
    const fn = fed.parent;
    if (ts.isIdentifier(fed.name) && fn.type && ts.isTypePredicateNode(fn.type) && ts.isIdentifier(fn.type.parameterName) &&
      fn.type.parameterName.text === fed.name.text && this.retypeAnnotation(fn.type.type) === 'escape') return true;
    this.hops++;
    this.binding(fed.name, 'completion');
    this.hops--;
    return true;
  }

  /** A return of the followed function that gives this unit's value: the same expression, the same binding, or a site call. */
  private sameReturnedValue(r: ts.Expression, outer: ts.Node): boolean {
    if (isReturnOf(r, outer)) return true;
    let e = unwrap(r);
    if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
    if (this.isSiteCall(e)) return true;
    const o = unwrap(outer as ts.Expression);
    if (ts.isIdentifier(e) && ts.isIdentifier(o)) {
      const a = declarationOf(this.ctx.checker, e);
      return Boolean(a && a === declarationOf(this.ctx.checker, o));
    }
    return false;
  }

  /** result-escapes:<use>, saying what left (`what`), how, and where (`outer`). */
  private escaped(use: Use, what: string, outer: ts.Node): void {
    const passed = use === 'argument' || use === 'console';
    const how = passed ? `is passed to ${shortText((outer.parent as ts.CallExpression | ts.NewExpression).expression, 40)}` : ESCAPE_VERBS[use] ?? 'leaves';
    this.site.reason('result-escapes', `${passed ? 'argument' : use}: ${what} ${how} (${locationOf(this.ctx, outer)})`);
  }

  /** Another request of this unit: a site call, or a call of the same project function as `request`. */
  private sameRequest(e: ts.Expression, request: ts.Node): boolean {
    if (this.isSiteCall(e)) return true;
    const r = unwrap(request as ts.Expression);
    if (!ts.isCallExpression(e) || !ts.isCallExpression(r)) return false;
    const fn = calledFunction(this.ctx.checker, r);
    return Boolean(fn) && fn === calledFunction(this.ctx.checker, e) && this.returnsFollowed.has(fn!);
  }

  /** The local variable declaration an `x = await …` assigns to. */
  private assignedVariable(awaited: ts.Node): ts.VariableDeclaration | undefined {
    const outer = climbWrappers(awaited);
    const parent = outer.parent;
    if (!ts.isBinaryExpression(parent) || parent.right !== outer || parent.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
    const left = unwrap(parent.left);
    if (!ts.isIdentifier(left)) return undefined;
    const decl = declarationOf(this.ctx.checker, left);
    return decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) ? decl : undefined;
  }

  private then(call: ts.CallExpression, part: Part): void {
    const cb = call.arguments[0] && unwrap(call.arguments[0]);
    if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) {
      const param = cb.parameters[0];
      if (param && ts.isIdentifier(param.name)) {
        if (this.annotationEscapes(param.type, part)) return;
        this.binding(param.name, part.shape, undefined, [], part.path);
      } else if (param) this.site.reason('not-supported-yet', 'a destructured .then() parameter');
    } else if (cb) {
      this.site.reason('result-escapes', 'argument');
    }
  }

  /** `.withResponse()`: follow `data`; `response` (the fetch Response) and `request_id` are unchanged (O-BIND). */
  private withResponse(call: ts.CallExpression): void {
    const outer = climbWrappers(call);
    const awaited = outer.parent;
    if (!ts.isAwaitExpression(awaited)) return this.site.reason('not-supported-yet', '.withResponse() not awaited');
    const decl = climbWrappers(awaited).parent;
    if (!ts.isVariableDeclaration(decl) || !ts.isObjectBindingPattern(decl.name)) return this.site.reason('not-supported-yet', '.withResponse() result not destructured');
    for (const el of decl.name.elements) {
      const key = propertyNameText(el.propertyName ?? (ts.isIdentifier(el.name) ? el.name : undefined));
      if (key === 'data' && ts.isIdentifier(el.name)) this.binding(el.name, 'completion');
      else if (key !== 'response' && key !== 'request_id') this.site.reason('not-supported-yet', `.withResponse().${key}`);
    }
  }

  /** `.asResponse()`: headers and status are fine, a parsed body has no output_text (H-RAW). */
  private asResponse(call: ts.CallExpression): void {
    const text = enclosingFunctionText(call);
    if (/\.(json|text)\s*\(/.test(text)) this.site.reason('raw-response-body');
  }

  // ---- bindings and values -----------------------------------------------------------------

  /** Follow every read of a local name that holds a value of `shape` (found at `path` in the result). */
  private binding(name: ts.Identifier, shape: Shape, rootText?: string, links: ChainLink[] = [], path: string[] = []): void {
    if (this.followed.has(name)) return;
    this.followed.add(name);
    if (isExported(this.ctx.checker, name)) return this.site.reason('result-escapes', 'export');
    for (const ref of referencesOf(this.ctx.checker, name)) {
      const use = climbWrappers(ref);
      if (ts.isBinaryExpression(use.parent) && use.parent.left === use && use.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        this.assignedValue(use.parent.right, name);
        continue;
      }
      // `r ??= other`, `for (r of list)`: a value of the program's own that the reads would also see
      if (otherWrite(use)) {
        this.site.reason('result-escapes', `assign: a variable holding the result is also written at ${locationOf(this.ctx, use)}`);
        continue;
      }
      this.value(ref, shape, { root: ref, rootText, accessed: [], links: [...links], rootOptional: false, path });
    }
  }

  /**
   * `let last: any = loadCache(); … last = r`: a variable the result is written into may start
   * with a value of its own, whose reads would be rewritten with the result's (an object shape
   * only; a string alias reads the same either way). Another call of the unit (a tool loop's
   * first turn) is fine; anything else is judged with the other writes, at the end (finishAliases):
   * a read of a followed result is accepted, the rest escapes.
   */
  private judgeInitialValue(decl: ts.VariableDeclaration, shape: Shape): void {
    const init = decl.initializer && unwrap(decl.initializer);
    if (!init || !OBJECT_SHAPES.has(shape) || init.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(init) && init.text === 'undefined')) return;
    const awaited = ts.isAwaitExpression(init) ? unwrap(init.expression) : init;
    if (this.isSiteCall(awaited) || this.aliasWrites.includes(init)) return;
    this.aliasWrites.push(init);
  }

  /** `r = await …` on a followed variable: another site of the unit, or something we cannot see. */
  private assignedValue(value: ts.Expression, name: ts.Identifier): void {
    let v = unwrap(value);
    if (ts.isAwaitExpression(v)) v = unwrap(v.expression);
    if (this.isSiteCall(v)) {
      this.site.share('result', name.parent);
      return;
    }
    // `message = completion.choices[0].message`: judged when the root's reads are followed
    this.aliasWrites.push(unwrap(value));
  }

  /**
   * `node` evaluates to a Chat value of `shape`; climb through the accesses that read it, then
   * judge the context the final value is used in.
   */
  private value(node: ts.Node, shape: Shape, chain: Chain): void {
    const guard = deadGuard(this.ctx.checker, this.site.flags, node);
    if (guard) return this.deadRead(node, guard);
    let current: ts.Node = node;
    let currentShape = shape;
    for (;;) {
      const outer = climbNonNull(current, chain);
      const parent = outer.parent;
      const access = accessStep(outer, parent);
      if (!access) {
        this.finish(outer, current, currentShape, chain);
        return;
      }
      if (chain.accessed.length === 0 && access.optional) chain.rootOptional = true;
      // `tool_calls?.map(f)`: undefined on a text answer in Chat, [] once the tool calls are filtered
      if (currentShape === 'tool-calls' && access.optional && !this.heldAsArray(chain) && !absentReadsAlike(access.node, access.name)) {
        return this.site.reason('no-equivalent-result', `${describe(chain)}?.${access.name} kept as a value (undefined without tool calls in Chat, an empty array's answer in Responses)`);
      }
      if (currentShape === 'tool-calls' && access.method && ELEMENT_CALLBACK_METHODS.has(access.name)) {
        this.elementCallback(access.node as ts.CallExpression, chain, access.name);
        return;
      }
      const table = RESULT_STEPS[currentShape];
      const step: Step | undefined = ownEntry(table, access.name) ?? table[ANY];
      if (!step) {
        if (OBJECT_SHAPES.has(currentShape)) this.site.reason('no-equivalent-result', describe(chain, access.name));
        // a method or property of a primitive (`content.trim()`, `created.toString()`): fine
        else this.finish(outer, current, currentShape, chain);
        return;
      }
      if ('report' in step) {
        if (step.report === 'not-yet') this.site.reason('not-supported-yet', step.detail);
        else if (step.report === 'legacy-functions') this.site.reason('legacy-functions');
        else this.site.reason('no-equivalent-result', step.detail);
        return;
      }
      // a stream's final completion (finalChatCompletion()) had the usage its chunks carried: none
      if (step.to === 'usage' && this.site.streamWithoutUsage) return this.site.reason('no-equivalent-result', USAGE_NEVER_SENT);
      // Chat's tool_calls held the custom tools' calls too; the function_call filter leaves them out
      if (step.to === 'tool-calls' && this.site.customTools) return this.site.reason('not-supported-yet', CUSTOM_TOOL_CALLS);
      if (!step.path.length && access.optional && chain.links.length) chain.pendingOptional = true;
      step.path.forEach((name, i) => {
        const optional = i === 0 && (chain.links.length ? access.optional || Boolean(chain.pendingOptional) : chain.rootOptional);
        const suffix = name === TOOL_CALLS_FILTER ? `${this.parsed ? ':parsed' : ''}${this.untyped ? ':any' : ''}` : '';
        chain.links.push({ name: name + suffix, optional, nonNull: false });
      });
      if (step.path.length) chain.pendingOptional = false;
      chain.accessed.push(access.name);
      if (step.note && step.rule) this.site.note(step.rule, 'warn', step.note);
      current = access.node;
      currentShape = step.to;
    }
  }

  /** The chain ended at `end` (the outermost wrapper `outer`): rewrite it and judge its use. */
  private finish(outer: ts.Node, end: ts.Node, shape: Shape, chain: Chain): void {
    if (shape === 'tool-call' && chain.accessed[chain.accessed.length - 1] === INDEX0 && !isOptionalAccess(end)) {
      this.site.note('O-TOOLCALLS', 'warn', 'tool_calls[0] threw a TypeError in Chat on an answer without tool calls; the filtered function_call items give undefined there, and the code after it runs.');
    }
    // `tool_calls == null` is constant on Responses, whose filter is always an array (O-TOOLCALLS)
    if (shape === 'tool-calls' && isNullishComparison(outer)) return this.site.reason('no-equivalent-result', 'tool_calls compared with null or undefined');
    if (shape === 'tool-calls' && ts.isTypeOfExpression(climbWrappers(outer).parent)) return this.site.reason('no-equivalent-result', 'typeof tool_calls (undefined without tool calls in Chat, an object in Responses)');
    // output.length counts reasoning and tool-call items too: it stands for choices.length only as an emptiness test (O-CHOICES)
    if (shape === 'leaf' && chain.accessed.slice(-2).join('.') === 'choices.length' && !isEmptinessTest(outer) && !isConsoleArgument(climbWrappers(outer))) return this.site.reason('no-equivalent-result', 'choices.length');
    if (shape === 'role') return this.roleUse(outer, end, chain);
    const changed = chain.rootText !== undefined || chain.accessed.join('.') !== chain.links.map((l) => l.name).join('.');
    // a finish_reason read is rewritten as a whole condition (O-FINISH), a replayed message as a
    // whole argument (M-REPLAY): never as a chain
    const replay = (shape === 'message' || shape === 'choice') && this.isHistoryPush(outer);
    // `if (r && r.choices && …)` whose `r.choices` becomes `r`: only its truth matters, and the
    // repeated operand goes (`r && …`) where a reviewer would stop at `r && r && …`
    const whole = climbWrappers(outer);
    const and = whole.parent;
    if (changed && !chain.links.length && chain.rootText === undefined && ts.isIdentifier(chain.root) && ts.isBinaryExpression(and) &&
      and.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && and.right === whole && ts.isIdentifier(unwrap(and.left)) &&
      (unwrap(and.left) as ts.Identifier).text === chain.root.text && whole === outer && isTruthTest(outer)) {
      const left = this.site.range(and.left);
      this.site.edit({ op: 'replace', rule: ruleOf(shape), file: left.file, start: left.end, end: this.site.range(whole).end, text: '' });
      return;
    }
    if (changed && shape !== 'finish-reason' && !replay) {
      const root = this.site.range(chain.root);
      const appendLength = shape === 'tool-calls' && this.truthOnly(outer);
      if (appendLength && this.dropRedundantGuard(outer)) return;
      const neverNullish = shape === 'content' && chain.links[chain.links.length - 1]?.name === 'output_text';
      this.site.edit({
        op: 'chain', rule: ruleOf(shape), ...this.site.range(end), rootStart: root.start, rootEnd: root.end, tail: chain.links, rootText: chain.rootText,
        ...(appendLength ? { appendLength } : {}), ...(neverNullish ? { neverNullish } : {}),
      });
      // `tool_calls ?? []` (or `|| []`): the filter is always an array, so the fallback is dead code
      const fallback = outer.parent;
      if (shape === 'tool-calls' && ts.isBinaryExpression(fallback) && fallback.left === outer && isEmptyArray(fallback.right) &&
        (fallback.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || fallback.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
        // `(tool_calls || []).length`: the parentheses go too, the filter call needs none
        const parens = ts.isParenthesizedExpression(fallback.parent) ? fallback.parent : undefined;
        if (parens) this.site.edit({ op: 'replace', rule: 'O-TOOLCALLS', file: root.file, start: parens.getStart(), end: parens.getStart() + 1, text: '' });
        this.site.edit({ op: 'replace', rule: 'O-TOOLCALLS', file: root.file, start: outer.getEnd(), end: (parens ?? fallback).getEnd(), text: '' });
      }
    }
    if (shape === 'usage' || shape === 'prompt-details' || shape === 'completion-details') {
      if (chain.accessed.length) this.site.note('O-USAGE', 'info', 'Usage fields renamed: prompt_tokens → input_tokens, completion_tokens → output_tokens.');
    }
    if (shape === 'content' || shape === 'parsed' || shape === 'created' || shape === 'leaf') {
      // only a renamed field: total_tokens keeps its name
      if (shape === 'leaf' && chain.links.some((l) => ['input_tokens', 'output_tokens', 'input_tokens_details', 'output_tokens_details'].includes(l.name))) {
        this.site.note('O-USAGE', 'info', 'Usage fields renamed: prompt_tokens → input_tokens, completion_tokens → output_tokens.');
      }
      if (shape === 'content') return this.contentUse(outer, chain);
      if (shape === 'parsed') this.site.note('H-PARSE', 'warn', PARSE_NOTE);
      return this.aliasOrDone(outer, shape, chain);
    }
    if (shape === 'finish-reason') return this.finishReasonUse(outer, chain);
    if (shape === 'tool-calls') return this.toolCallsUse(outer, chain);
    if (shape === 'tool-call-type') return this.toolCallTypeUse(outer);
    if (shape === 'object') return this.objectUse(outer);
    if (shape === 'id') return this.idUse(outer);
    return this.objectShapeUse(outer, shape, chain);
  }

  /** A Chat object (completion, choice, message, usage…) used as a whole. */
  private objectShapeUse(outer: ts.Node, shape: Shape, chain: Chain): void {
    const parent = outer.parent;
    // `return completion as ChatCompletion`, `(await create(…)) as OpenAI.ChatCompletion`: a cast to
    // the Chat type of a whole value is retyped (H-TYPES) and the value followed on; a read through
    // a cast (`(r as X).choices`) or a cast to anything else (`as any`) is reported (useOf: 'cast')
    if (isTypeAssertion(parent) && parent.expression === outer && this.castToChatType(parent)) {
      const after = climbWrappers(parent);
      if (!isAccess(after.parent)) {
        if (this.retypeAnnotation(parent.type) === 'escape') return;
        return this.objectShapeUse(after, shape, chain);
      }
    }
    // `stream ? … : completion` where every call leaves stream false: the conditional is the result
    if (ts.isConditionalExpression(parent) && parent.condition !== outer && flagTest(this.ctx.checker, this.site.flags, parent.condition) === (outer === parent.whenTrue)) {
      this.liveGuards.add(parent);
      return this.objectShapeUse(climbWrappers(parent), shape, chain);
    }
    // `await completion` on the awaited result is the result itself: neither a ChatCompletion nor a Response is a thenable
    if (ts.isAwaitExpression(parent) && parent.expression === outer) return this.objectShapeUse(climbWrappers(parent), shape, chain);
    // aliases: const msg = r.choices[0].message;  const [choice] = r.choices;  const { choices } = r
    if (ts.isVariableDeclaration(parent) && parent.initializer === outer) {
      this.acceptedWrites.add(outer);
      return this.alias(parent, shape, chain);
    }
    if (ts.isBinaryExpression(parent) && parent.right === outer && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(unwrap(parent.left))) {
      // `message = completion.choices[0].message`: the variable is an alias of this part of the
      // result, followed like `const message = …` (its declaration may come with no value:
      // `let toolCall: ChatCompletionMessageToolCall | undefined;`)
      const decl = declarationOf(this.ctx.checker, unwrap(parent.left) as ts.Identifier);
      if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return this.site.reason('result-escapes', 'assign');
      this.judgeInitialValue(decl, shape);
      this.acceptedWrites.add(outer);
      this.edit(outer, shape, chain);
      if (!this.followed.has(decl.name)) this.alias(decl, shape, chain);
      return;
    }
    if (ts.isForOfStatement(parent) && parent.expression === outer) return this.site.reason('no-equivalent-result', 'choices');
    if ((shape === 'message' || shape === 'choice') && this.isHistoryPush(outer)) {
      // openai 6's toResponseInputItems keeps the parsed / parsed_arguments that responses.parse adds, which the API rejects in input (openai-node#2634, after 6.49)
      if (this.parsed) return this.site.reason('not-supported-yet', `replaying parse() output (${locationOf(this.ctx, outer)}): toResponseInputItems keeps the parsed values responses.parse adds in openai 6, and the API rejects them in input`);
      // M-REPLAY: the whole output goes back into the history, reasoning items included
      const root = this.site.range(chain.root);
      this.site.replay = true;
      this.site.edit({ op: 'replay', rule: 'M-REPLAY', ...this.site.range(outer), rootStart: root.start, rootEnd: root.end, rootText: chain.rootText });
      return; // the unit's note and include depend on its models (scan/index.ts reasoningReplay)
    }
    if (shape === 'usage' && this.usageFallback(outer)) return this.objectShapeUse(climbWrappers(outer.parent), shape, chain);
    if (this.intoHolder(outer, shape, chain)) return;
    const use = useOf(outer);
    switch (use) {
      case 'discard':
      case 'read':
        return;
      case 'console':
        this.site.note('O-ESCAPE', 'warn', 'A logged Chat result now logs the Responses shape.');
        return;
      case 'reflect':
        if (shape === 'completion' && chain.links.length === 0 && this.sameReflection(outer)) return;
        return this.site.reason('no-equivalent-result', `reflection on ${describe(chain)}`);
      case 'return':
        // the Responses value is the response itself: `return completion`, `return r.choices[0].message` → `return r`
        if (RETURNABLE_PARTS.has(shape) && chain.links.length === 0) return this.returned(outer, false, { shape, path: pathOf(chain) });
        return this.escaped(use, describe(chain), outer);
      case 'argument':
        if (shape === 'completion' && pathOf(chain).length === 0 && this.intoCallee(outer)) return;
        return this.escaped(use, describe(chain), outer);
      default:
        this.escaped(use, describe(chain), outer);
    }
  }

  /**
   * O-USAGE: `r.usage || { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }` (or `??`):
   * a fallback with the usage's own counters is renamed with the reads (`input_tokens`,
   * `output_tokens`), and the value goes on as the usage (corpus: bubbas-app). A fallback with any
   * other key, a spread or a computed key is not.
   */
  private usageFallback(outer: ts.Node): boolean {
    const parent = outer.parent;
    if (!ts.isBinaryExpression(parent) || parent.left !== outer) return false;
    if (parent.operatorToken.kind !== ts.SyntaxKind.BarBarToken && parent.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken) return false;
    const fallback = unwrap(parent.right);
    if (!ts.isObjectLiteralExpression(fallback)) return false;
    const renames: { name: ts.Node; to: string }[] = [];
    for (const p of fallback.properties) {
      const key = ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) ? propertyNameText(p.name) : undefined;
      const step = key === undefined ? undefined : ownEntry(RESULT_STEPS.usage, key);
      if (!key || !step || 'report' in step || step.to !== 'leaf') return false;
      if (step.path[0] !== key) renames.push({ name: (p as ts.PropertyAssignment).name, to: step.path[0] });
    }
    for (const r of renames) this.site.edit({ op: 'replace', rule: 'O-USAGE', ...this.site.range(r.name), text: r.to });
    return true;
  }

  /**
   * W-FOLLOW through an object literal that carries this value under a key (`return { text,
   * usage: r.usage }`): followed to where the object is read (lib/scan/holders.ts). The value
   * must be the response itself or a part whose reads are rewritten (usage, a message); false when
   * `outer` is not a property value of an object literal.
   */
  private intoHolder(outer: ts.Node, shape: Shape, chain: Chain): boolean {
    const parent = outer.parent;
    const stored = (ts.isPropertyAssignment(parent) && parent.initializer === outer) || (ts.isShorthandPropertyAssignment(parent) && parent.name === outer);
    if (!stored || !ts.isObjectLiteralExpression(parent.parent) || !HOLDABLE.has(shape)) return false;
    // a part that is the response itself, and never a shorthand whose value the rewrite changes
    if (RETURNABLE_PARTS.has(shape) && chain.links.length) return false;
    if (ts.isShorthandPropertyAssignment(parent) && (chain.links.length || chain.rootText !== undefined)) return false;
    const key = propertyNameText(parent.name);
    if (!key) return false;
    const part: Part = { shape, path: pathOf(chain) };
    const fresh = (root: ts.Node): Chain => ({ root, accessed: [], links: [], rootOptional: false, path: part.path });
    return new HolderFollower(this.ctx, key, describe(chain), {
      part: (node) => this.value(node, shape, fresh(node)),
      bound: (name) => this.binding(name, shape, undefined, [], part.path),
      escape: (detail) => this.site.reason('result-escapes', detail),
      share: (fn) => this.site.share('returns', fn),
      returnTypeFits: (fn) => {
        if (!fn.type || isAnyType(fn.type)) return true;
        this.site.reason('result-escapes', `type: ${describe(chain)} is stored in an object returned as ${shortText(fn.type, 40)} (${locationOf(this.ctx, fn.type)})`);
        return false;
      },
    }).follow(parent.parent);
  }

  private alias(decl: ts.VariableDeclaration, shape: Shape, chain: Chain): void {
    if (this.annotationEscapes(decl.type, { shape, path: pathOf(chain) })) return;
    if (ts.isIdentifier(decl.name)) {
      if (shape === 'completion') this.site.share('result', decl);
      return this.binding(decl.name, shape, undefined, [], pathOf(chain));
    }
    if (ts.isObjectBindingPattern(decl.name)) return this.destructure(decl, decl.name, shape, chain);
    if (ts.isArrayBindingPattern(decl.name) && shape === 'choices') {
      // const [choice] = r.choices  →  const choice = r
      const [first, ...rest] = decl.name.elements;
      if (first && ts.isBindingElement(first) && ts.isIdentifier(first.name) && !first.dotDotDotToken && !first.initializer && rest.every(ts.isOmittedExpression)) {
        if (rest.length) return this.site.reason('no-equivalent-result', 'choices');
        this.site.edit({ op: 'pattern', rule: 'O-CHOICES', ...this.site.range(decl.name), text: first.name.text });
        const root = this.site.range(chain.root);
        this.site.edit({ op: 'chain', rule: 'O-CHOICES', ...this.site.range(decl.initializer!), rootStart: root.start, rootEnd: root.end, tail: chain.links, rootText: chain.rootText });
        return this.binding(first.name, 'choice', undefined, [], [...pathOf(chain), INDEX0]);
      }
    }
    this.site.reason('no-equivalent-result', `destructuring of ${describe(chain)}`);
  }

  /** O-BIND: `const { choices, usage } = <chat value>` → `const response = <value>`, reads rewritten. */
  private destructure(decl: ts.VariableDeclaration, pattern: ts.ObjectBindingPattern, shape: Shape, chain: Chain): void {
    const table = RESULT_STEPS[shape];
    const elements: { name: ts.Identifier; key: string; step: Extract<Step, { to: Shape }> }[] = [];
    for (const el of pattern.elements) {
      const key = propertyNameText(el.propertyName ?? (ts.isIdentifier(el.name) ? el.name : undefined));
      // each of these has an equivalent (`{ choices: [{ message: { content } }] }` is output_text),
      // but the rewrite knows only a flat pattern of plain names (probe of generators: koi-artem/nestjs-openai)
      if (!key || !ts.isIdentifier(el.name) || el.dotDotDotToken || el.initializer) {
        const how = el.dotDotDotToken ? 'a rest element' : el.initializer ? 'a default value' : 'a nested pattern';
        return this.site.reason('not-supported-yet', `destructuring of ${describe(chain)} with ${how}`);
      }
      const step = ownEntry(table, key);
      if (!step) return this.site.reason('no-equivalent-result', describe(chain, key));
      if ('report' in step) {
        if (step.report === 'not-yet') return this.site.reason('not-supported-yet', step.detail);
        return this.site.reason(step.report === 'legacy-functions' ? 'legacy-functions' : 'no-equivalent-result', step.detail);
      }
      // `const { usage } = await s.finalChatCompletion()`: none if the chunks carried none (probe of streams)
      if (step.to === 'usage' && this.site.streamWithoutUsage) return this.site.reason('no-equivalent-result', USAGE_NEVER_SENT);
      elements.push({ name: el.name, key, step });
    }
    if (elements.every((e) => e.step.path.length === 1 && e.step.path[0] === propertyNameText(e.name) && e.step.to !== 'content') && chain.links.length === chain.accessed.length) {
      // every name survives as it is (`const { usage, id } = r`): follow each binding
      for (const e of elements) this.binding(e.name, e.step.to, undefined, [], [...pathOf(chain), e.key]);
      return;
    }
    if (elements.every((e) => e.step.path.length === 1 && e.step.path[0] === e.key && e.step.to !== 'content')) {
      // every key is found on the value the initializer becomes (`const { name: fn, arguments: args } =
      // call.function` → `= call`): the pattern and its names stay, only the initializer changes
      if (chain.links.length || chain.rootText) this.chainEdit(decl.initializer!, chain, 'O-BIND');
      for (const e of elements) this.binding(e.name, e.step.to, undefined, [], [...pathOf(chain), e.key]);
      return;
    }
    // the names are renamed to reads of one fresh name: not done yet where the initializer is more
    // than the value (`r.usage!`, `r.usage ?? {…}`) or a name is a shorthand property (`{ input }`),
    // whose rewrites overlapped or did not parse (probe of TypeScript apps)
    const init = decl.initializer!;
    if (ts.isNonNullExpression(init) || ts.isBinaryExpression(unwrap(init))) {
      return this.site.reason('not-supported-yet', `destructuring of ${describe(chain)} from ${shortText(init, 30)}`);
    }
    if (elements.some((e) => referencesOf(this.ctx.checker, e.name).some((r) => ts.isShorthandPropertyAssignment(r.parent)))) {
      return this.site.reason('not-supported-yet', `destructuring of ${describe(chain)} into a name used as a shorthand property`);
    }
    const fresh = freshName(this.ctx, decl, 'response');
    this.site.edit({ op: 'pattern', rule: 'O-BIND', ...this.site.range(pattern), text: fresh });
    if (chain.links.length || chain.rootText) this.chainEdit(decl.initializer!, chain, 'O-BIND');
    for (const e of elements) {
      const links: ChainLink[] = e.step.path.map((name) => ({ name, optional: false, nonNull: false }));
      this.bindingWithRoot(e.name, e.step.to, fresh, links, [...pathOf(chain), e.key]);
    }
  }

  /** The value `node` holds is rewritten to the chain's Responses links. */
  private chainEdit(node: ts.Node, chain: Chain, rule: 'O-BIND'): void {
    const root = this.site.range(chain.root);
    this.site.edit({ op: 'chain', rule, ...this.site.range(node), rootStart: root.start, rootEnd: root.end, tail: chain.links, rootText: chain.rootText });
  }

  /** Follow a destructured name whose reads are rewritten to start at a fresh identifier. */
  private bindingWithRoot(name: ts.Identifier, shape: Shape, rootText: string, links: ChainLink[], path: string[]): void {
    if (this.followed.has(name)) return;
    this.followed.add(name);
    for (const ref of referencesOf(this.ctx.checker, name)) {
      this.value(ref, shape, { root: ref, rootText, accessed: [], links: [...links], rootOptional: false, path });
    }
  }

  /** The assertion names a Chat type with a Responses equivalent, and nothing else. */
  private castToChatType(cast: ts.AsExpression | ts.TypeAssertion | ts.SatisfiesExpression): boolean {
    const type = cast.type;
    return ts.isTypeReferenceNode(type) && !type.typeArguments?.length && Boolean(responsesTypeOf(type)?.to);
  }

  /**
   * H-TYPES on the annotation of a followed value of `part`. A choice or a message becomes the whole
   * response, which no type written for the part describes (`ChatCompletion.Choice`, `{ content:
   * string }`): only `any` (or `Promise<any>`) lets it through; any other annotation is
   * result-escapes:type, saying where.
   */
  private annotationEscapes(type: ts.TypeNode | undefined, part: Part): boolean {
    if (!type) return false;
    if (part.shape === 'completion' || !RETURNABLE_PARTS.has(part.shape)) return this.retypeAnnotation(type) === 'escape';
    if (isAnyType(type)) return false;
    const what = describe({ root: type, accessed: [], links: [], rootOptional: false, path: part.path });
    this.site.reason('result-escapes', `type: ${what} is declared ${shortText(type, 40)}, which the response it becomes does not fit (${locationOf(this.ctx, type)})`);
    return true;
  }

  /** H-TYPES on an annotation of a followed value; Chat types without an equivalent escape (result-escapes:type). */
  private retypeAnnotation(type: ts.TypeNode | undefined): 'ok' | 'escape' {
    return this.site.retypeAnnotation(type, 'result-escapes', this.ctx);
  }


  /** Emit the chain edit of a value whose use needs nothing more. */
  private edit(end: ts.Node, shape: Shape, chain: Chain): void {
    const changed = chain.rootText !== undefined || chain.accessed.join('.') !== chain.links.map((l) => l.name).join('.');
    if (!changed) return;
    const root = this.site.range(chain.root);
    this.site.edit({ op: 'chain', rule: ruleOf(shape), ...this.site.range(end), rootStart: root.start, rootEnd: root.end, tail: chain.links, rootText: chain.rootText });
  }

  /**
   * O-META: `key in completion` that gives the same answer for the response. `'choices' in r`
   * (true of every completion, and the test that tells it from a stream) becomes `'output' in r`,
   * true of every response, which narrows the same union; `Symbol.asyncIterator in r` stays false
   * on both sides: neither is a stream.
   */
  private sameReflection(outer: ts.Node): boolean {
    const parent = outer.parent;
    if (!ts.isBinaryExpression(parent) || parent.operatorToken.kind !== ts.SyntaxKind.InKeyword || parent.right !== outer) return false;
    const key = unwrap(parent.left);
    if (stringValue(key) === 'choices') {
      this.site.edit({ op: 'replace', rule: 'O-META', ...this.site.range(key), text: "'output'" });
      return true;
    }
    return ts.isPropertyAccessExpression(key) && ts.isIdentifier(key.expression) && key.expression.text === 'Symbol' &&
      ['asyncIterator', 'iterator'].includes(key.name.text) && this.isGlobalSymbol(key.expression);
  }

  private isGlobalSymbol(id: ts.Identifier): boolean {
    const decl = this.ctx.checker.getSymbolAtLocation(id)?.declarations?.[0];
    return !decl || decl.getSourceFile().hasNoDefaultLib || /[\\/]typescript[\\/]lib[\\/]/.test(decl.getSourceFile().fileName);
  }

  /**
   * `history.push(x)` where history is a local message array this site sends, or one another call
   * site sends (`newThread.push(first.choices[0].message)` before `create({ messages: newThread })`):
   * that site judges the array as its own history (V-PUSH), and the two migrate together (G-UNIT).
   */
  private isHistoryPush(outer: ts.Node): boolean {
    const call = outer.parent;
    if (!ts.isCallExpression(call) || !call.arguments.includes(outer as ts.Expression)) return false;
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'push' || !ts.isIdentifier(callee.expression)) return false;
    const decl = declarationOf(this.ctx.checker, callee.expression);
    if (!decl) return false;
    if (this.site.histories.has(decl)) return true;
    if (this.isConvertedHistory(decl)) return true;
    if (!this.isSiteHistory(decl)) return false;
    this.site.share('messages', decl);
    return true;
  }

  /**
   * A local array literal whose only consumer is this site's run-time converter: every use pushes
   * into it, reads its length, logs it, or passes it to a project function whose parameter this
   * site converts wherever it reads it (`newMessage(history, m)` → `input: [...toResponsesInput(history), …]`).
   * The converter keeps Responses items as they are (M-CONTENT-UNTYPED), so output items replayed
   * into it reach the next request unchanged, and nothing else ever reads them.
   */
  private isConvertedHistory(decl: ts.Node): boolean {
    if (!this.isLocalArray(decl)) return false;
    // in TypeScript the array's type must take the replayed items: only `any[]` does (a Chat type
    // or the type inferred from the literal would not compile)
    if (!isJavaScriptFile(decl.getSourceFile()) && !(decl.type && isAnyArrayType(decl.type))) return false;
    const converted = this.site.edits.filter((e) => e.op === 'convert-messages' && e.of === 'messages');
    if (!converted.length) return false;
    const isConverted = (ref: ts.Node): boolean => {
      const at = this.site.range(ref);
      return converted.some((e) => e.file === at.file && e.start <= at.start && at.end <= e.end);
    };
    return referencesOf(this.ctx.checker, decl.name).every((ref) => {
      const use = climbWrappers(ref);
      const parent = use.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === use) {
        if (parent.name.text === 'length') return true;
        return (parent.name.text === 'push' || parent.name.text === 'unshift') && ts.isCallExpression(parent.parent) && parent.parent.expression === parent;
      }
      if (isConsoleArgument(use)) return true;
      if (!ts.isCallExpression(parent) || !parent.arguments.includes(use as ts.Expression)) return false;
      const fn = calledFunction(this.ctx.checker, parent);
      const param = fn?.parameters[parent.arguments.indexOf(use as ts.Expression)];
      if (!param || !ts.isIdentifier(param.name) || param.dotDotDotToken) return false;
      const reads = referencesOf(this.ctx.checker, param.name);
      return reads.length > 0 && reads.every((r) => !isWriteReference(r) && isConverted(r));
    });
  }

  /** A variable of this module, not exported, whose value is an array literal (a history the code in view owns). */
  private isLocalArray(decl: ts.Node): decl is ts.VariableDeclaration & { name: ts.Identifier } {
    return ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) && Boolean(decl.initializer) &&
      ts.isArrayLiteralExpression(unwrap(decl.initializer!)) && !isExported(this.ctx.checker, decl.name);
  }

  /** A local array literal that some call site sends as its `messages`. */
  private isSiteHistory(decl: ts.Node): boolean {
    if (!this.isLocalArray(decl)) return false;
    return referencesOf(this.ctx.checker, decl.name).some((ref) => {
      const use = climbWrappers(ref);
      if (!isParamsMessagesValue(use)) return false;
      const params = use.parent.parent;
      return ts.isObjectLiteralExpression(params) && ts.isCallExpression(params.parent) && params.parent.arguments[0] === params && this.isSiteCall(params.parent);
    });
  }

  /** O-TOOLCALLS: the function_call items, iterated, counted, aliased or tested. */
  private toolCallsUse(outer: ts.Node, chain: Chain): void {
    let node = outer;
    let parent = node.parent;
    // `tool_calls ?? []`, `tool_calls || []`
    while (ts.isBinaryExpression(parent) && parent.left === node && (parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || parent.operatorToken.kind === ts.SyntaxKind.BarBarToken) &&
      ts.isArrayLiteralExpression(unwrap(parent.right)) && (unwrap(parent.right) as ts.ArrayLiteralExpression).elements.length === 0) {
      node = climbWrappers(parent);
      parent = node.parent;
    }
    if (node !== outer && ts.isPropertyAccessExpression(parent) && parent.expression === node && ELEMENT_CALLBACK_METHODS.has(parent.name.text) &&
      ts.isCallExpression(parent.parent) && parent.parent.expression === parent) {
      // `(tool_calls ?? []).map((tc) => …)`: the chain is already rewritten, follow the elements
      return this.elementCallback(parent.parent, undefined, parent.name.text);
    }
    if (ts.isForOfStatement(parent) && parent.expression === node) {
      const v = parent.initializer;
      const name = ts.isVariableDeclarationList(v) ? v.declarations[0]?.name : undefined;
      if (name && ts.isIdentifier(name)) return this.binding(name, 'tool-call', undefined, [], [...pathOf(chain), ANY]);
      return this.site.reason('not-supported-yet', 'destructured tool calls in a for-of loop');
    }
    if (this.truthOnly(outer)) return this.toolCallsTruth(outer, chain);
    // `const n = calls && calls.length`: Chat's absent tool_calls was the value, the filter is an array
    if (isBooleanContext(outer)) return this.site.reason('no-equivalent-result', 'tool_calls tested and kept as a value (absent in Chat, an array in Responses)');
    if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
      if (parent.type && this.retypeAnnotation(parent.type) === 'escape') return;
      // `const calls = tool_calls ?? []` is an array on both sides: its truth never changes
      if (node !== outer) this.toolCallArrays.add(parent);
      return this.binding(parent.name, 'tool-calls', undefined, [], pathOf(chain));
    }
    const use = useOf(node);
    if (use === 'discard' || use === 'read') return;
    if (use === 'console') return this.site.note('O-ESCAPE', 'warn', 'Logged tool calls now log Responses function_call items.');
    this.escaped(use, describe(chain), node);
  }

  /**
   * Only the truth of the value matters: a truth test (isTruthTest), or an operand of an `&&` /
   * `||` whose value a const keeps and every read of that const only tests
   * (`const first = msg.tool_calls && msg.tool_calls[0]; first ? … : …`).
   */
  private truthOnly(node: ts.Node): boolean {
    if (isTruthTest(node)) return true;
    if (!isBooleanContext(node)) return false;
    let top = climbWrappers(node);
    while (ts.isBinaryExpression(top.parent) && (top.parent.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || top.parent.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
      top = climbWrappers(top.parent);
    }
    const decl = top.parent;
    if (!ts.isVariableDeclaration(decl) || decl.initializer !== top || !ts.isIdentifier(decl.name) || !isConstDeclaration(decl)) return false;
    const reads = referencesOf(this.ctx.checker, decl.name).filter((r) => r !== decl.name);
    return reads.length > 0 && reads.every((r) => isTruthTest(r));
  }

  /**
   * Tool calls tested for truth: Chat's `tool_calls` is absent on a text answer, the filter is an
   * array that is always there, so the test becomes `.length` (O-TOOLCALLS, counting). A rewritten
   * chain appends it itself; a name that holds them (`const calls = msg.tool_calls; if (!calls)`)
   * gets it here, unless it holds `tool_calls ?? []`, an array on both sides.
   */
  private toolCallsTruth(outer: ts.Node, chain: Chain): void {
    if (chain.rootText !== undefined || chain.accessed.length) return; // the chain edit appends `.length`
    if (this.heldAsArray(chain)) return;
    for (let n = chain.root; n !== outer; n = n.parent) {
      if (isTypeAssertion(n.parent)) return this.site.reason('not-supported-yet', 'tool calls tested for truth through a cast');
    }
    if (this.dropRedundantGuard(outer)) return;
    const range = this.site.range(chain.root);
    this.site.edit({ op: 'replace', rule: 'O-TOOLCALLS', file: range.file, start: range.end, end: range.end, text: '.length' });
  }

  /** A name holding `tool_calls ?? []`: an array on both sides, whatever reads it. */
  private heldAsArray(chain: Chain): boolean {
    if (chain.rootText !== undefined || chain.accessed.length || !ts.isIdentifier(chain.root)) return false;
    const decl = declarationOf(this.ctx.checker, chain.root);
    return Boolean(decl && this.toolCallArrays.has(decl));
  }

  /** `calls && calls.length > 0`: the guard goes rather than becoming `calls.length && …` (redundantLengthGuard). */
  private dropRedundantGuard(guard: ts.Node): boolean {
    const redundant = redundantLengthGuard(guard);
    if (!redundant) return false;
    const from = this.site.range(redundant.from);
    this.site.edit({ op: 'replace', rule: 'O-TOOLCALLS', file: from.file, start: from.start, end: this.site.range(redundant.to).start, text: '' });
    return true;
  }

  /** `.map(tc => …)`, `.forEach(…)`, `.find(…)` over tool calls: follow the element parameter. */
  private elementCallback(call: ts.CallExpression, chain: Chain | undefined, method: string): void {
    const cb = call.arguments[0] && unwrap(call.arguments[0]);
    const receiver = (call.expression as ts.PropertyAccessExpression).expression;
    if (chain) this.edit(receiver, 'tool-calls', chain);
    if (!cb || !(ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) return this.site.reason('result-escapes', 'argument');
    const param = cb.parameters[0];
    if (param && ts.isIdentifier(param.name)) {
      if (param.type && this.retypeAnnotation(param.type) === 'escape') return;
      this.binding(param.name, 'tool-call');
    } else if (param) return this.site.reason('not-supported-yet', 'a destructured tool-call callback parameter');
    if (cb.type && ts.isTypePredicateNode(cb.type)) this.dropToolCallPredicate(cb.type);
    // find → one call, filter → calls; map/forEach/some/every produce values of the program's own
    if (method === 'find') this.value(call, 'tool-call', { root: call, accessed: [], links: [], rootOptional: false });
    if (method === 'filter') this.value(call, 'tool-calls', { root: call, accessed: [], links: [], rootOptional: false });
  }

  /**
   * `(tc): tc is Extract<typeof tc, { type: 'function' }> => …` over tool calls: the items are
   * function_call items already, and the Chat type it narrows to no longer fits them (never, or
   * TS2677), so the predicate goes, colon and all; the callback's reads are rewritten with its test.
   */
  private dropToolCallPredicate(predicate: ts.TypePredicateNode): void {
    const range = this.site.range(predicate);
    const colon = predicate.getSourceFile().text.lastIndexOf(':', range.start);
    const releases: string[] = [];
    walk(predicate, (n) => {
      if (ts.isTypeReferenceNode(n)) releases.push(ts.isIdentifier(n.typeName) ? n.typeName.text : leftmost(n.typeName).text);
    });
    this.site.edit({ op: 'replace', rule: 'O-TOOLCALLS', file: range.file, start: colon, end: range.end, text: '', releases });
  }

  /** `tc.type === 'function'` → `'function_call'`: the filter already narrowed to function calls. */
  private toolCallTypeUse(outer: ts.Node): void {
    const parent = outer.parent;
    if (ts.isBinaryExpression(parent) && isEquality(parent.operatorToken.kind)) {
      const other = parent.left === outer ? parent.right : parent.left;
      const value = stringValue(other);
      if (value === 'function') {
        this.site.edit({ op: 'replace', rule: 'O-TOOLCALLS', ...this.site.range(other), text: "'function_call'" });
        return;
      }
    }
    this.site.reason('not-supported-yet', 'a tool call type read other than === \'function\'');
  }

  // ---- leaves ------------------------------------------------------------------------------

  /** O-CONTENT / O-CONTENT-NULL: `output_text` is never null. */
  private contentUse(outer: ts.Node, chain: Chain): void {
    const parent = outer.parent;
    if (ts.isBinaryExpression(parent)) {
      const op = parent.operatorToken.kind;
      const other = parent.left === outer ? parent.right : parent.left;
      if (isEquality(op)) {
        const lit = literalValue(other as ts.Expression);
        if (lit && (lit.kind === 'null' || lit.kind === 'undefined')) {
          this.site.note('O-CONTENT-NULL', 'warn', 'A null check on the content became a check for the empty string: output_text is never null.');
          if (this.secondNullCheck(parent)) return;
          this.site.edit({ op: 'replace', rule: 'O-CONTENT-NULL', ...this.site.range(other), text: "''" });
        }
        return;
      }
      if (op === ts.SyntaxKind.QuestionQuestionToken && parent.left === outer) {
        const fallback = literalValue(parent.right);
        if (!(fallback?.kind === 'string' && fallback.value === '')) {
          this.site.edit({ op: 'operator', rule: 'O-CONTENT-NULL', ...this.site.range(parent), to: '||' });
          this.site.note('O-CONTENT-NULL', 'warn', '`content ?? fallback` became `output_text || fallback`: output_text is an empty string, never null, when there is no text.');
        }
        return;
      }
    }
    if (ts.isTypeOfExpression(parent)) return this.site.reason('no-equivalent-result', 'content-typeof');
    if (this.nullTestThroughChain(outer)) return;
    if (this.mayGetNullContent() && isStringified(outer)) {
      this.site.note('O-CONTENT-NULL', 'warn', "The content is turned into text here: a null content (a tool-call turn, a refusal) gave 'null', output_text gives ''.");
    }
    if (this.mayGetNullContent() && isJsonParsed(climbWrappers(outer)) && mayHoldNull(this.ctx.checker, outer)) {
      // a turn with no text (a tool call, a refusal) had content null, which parsed to null; output_text's '' would throw
      const arg = this.site.range(climbWrappers(outer));
      this.site.edit({ op: 'replace', rule: 'O-CONTENT-NULL', file: arg.file, start: arg.end, end: arg.end, text: " || 'null'" });
      this.site.note('O-CONTENT-NULL', 'warn', "JSON.parse reads output_text || 'null': a turn with no text (a tool call, a refusal), whose content was null, still parses to null (an empty content, which threw, gives null too).");
    }
    this.aliasOrDone(outer, 'content', chain);
  }

  /**
   * O-CONTENT-NULL through an optional chain: `content?.trim() ?? 'No answer'` tests the content's
   * null (a tool-call turn gave 'No answer'), but on `output_text`, '' then, the chain runs and gives
   * ''. The test keeps its answer only when the chain gives on '' what the fallback is
   * (`?.trim() ?? ''`, `?.length ?? 0`), and a comparison with a literal only when it answers
   * alike on undefined and on the chain's value for '' (`?.length > 0` does, `?.trim() === ''`
   * and `=== undefined` do not); otherwise the chain reads `(output_text || undefined)`, which
   * skips it on '' as it was skipped on null (the O-CONTENT-NULL mapping of `??` to `||`).
   * A test written after the chain is judged on every request: its author expects a null content,
   * which a content filter gives a plain text request too (the SDK's `finish_reason`
   * 'content_filter': "content was omitted"; probe of app layouts: `content?.split(',') ?? []`
   * gave [] on a null content and [''] on output_text). The chain's value kept or passed on is
   * judged where the request gets a null content as a matter of course: with tools (a tool-call
   * turn) or a structured output (a refusal). True when the read heads such a test.
   */
  private nullTestThroughChain(outer: ts.Node): boolean {
    const first = outer.parent;
    if (!ts.isPropertyAccessExpression(first) || first.expression !== outer || !first.questionDotToken) return false;
    let onEmpty: '' | 0 | undefined = '';
    let end: ts.Expression = outer as ts.Expression;
    for (;;) {
      const link = end.parent;
      if (ts.isPropertyAccessExpression(link) && link.expression === end) {
        const call = ts.isCallExpression(link.parent) && link.parent.expression === link ? link.parent : undefined;
        onEmpty = onEmpty === '' ? emptyStringStep(link.name.text, call) : undefined;
        end = call ?? link;
      } else if ((ts.isElementAccessExpression(link) || ts.isCallExpression(link)) && link.expression === end) {
        onEmpty = undefined;
        end = link;
      } else break;
    }
    const top = climbWrappers(end);
    const test = top.parent;
    if (!ts.isBinaryExpression(test) || (test.left !== top && test.right !== top)) {
      // the chain's value kept or passed on: undefined on a null content, onEmpty now (probe of TypeScript apps)
      if (this.mayGetNullContent() && !this.chainValueAnswersAlike(top, onEmpty)) this.skipChainOnEmpty(outer);
      return false;
    }
    // a test: a `??` fallback after the chain, or a comparison of the chain with a literal
    const op = test.operatorToken.kind;
    const heads = op === ts.SyntaxKind.QuestionQuestionToken ? test.left === top : COMPARISONS.has(op) && Boolean(literalValue(test.left === top ? test.right : test.left));
    if (!heads) return false;
    if (!valueAnswersAlike(top, onEmpty)) this.skipChainOnEmpty(outer);
    return true;
  }

  /** `(output_text || undefined)?.…`: the chain is skipped on a turn with no text, as it was on content null. */
  private skipChainOnEmpty(read: ts.Node): void {
    const at = this.site.range(read);
    this.site.edit({ op: 'replace', rule: 'O-CONTENT-NULL', file: at.file, start: at.start, end: at.start, text: '(' });
    this.site.edit({ op: 'replace', rule: 'O-CONTENT-NULL', file: at.file, start: at.end, end: at.end, text: ' || undefined)' });
    this.site.note('O-CONTENT-NULL', 'warn', "An optional chain on the content reads (output_text || undefined): a turn with no text (a tool call, a refusal, a filtered answer), whose content was null, still skips the chain; an empty content, which ran it, skips it too.");
  }

  /**
   * Whether the value of an optional chain on the content, undefined on a null content and
   * `onEmpty` on output_text's '', meets only uses that answer alike on both: a truth test or an
   * `||` when `onEmpty` is falsy, a `??` whose fallback is `onEmpty`, a comparison with a literal
   * that answers alike. A const holding it is followed to its uses (`const t = content?.trim();
   * return t ?? 'x'`); anything else (returned, stored, printed) is not alike.
   */
  private chainValueAnswersAlike(top: ts.Node, onEmpty: '' | 0 | undefined): boolean {
    const parent = top.parent;
    if (ts.isVariableDeclaration(parent) && parent.initializer === top && ts.isIdentifier(parent.name) && isConstDeclaration(parent)) {
      const refs = referencesOf(this.ctx.checker, parent.name);
      const falsy = onEmpty === '' || onEmpty === 0;
      // a use a truth test has already let through sees neither undefined nor a falsy onEmpty
      return refs.length > 0 && refs.every((ref) => valueAnswersAlike(ref, onEmpty) || (falsy && passedTruthTest(ref)));
    }
    return valueAnswersAlike(top, onEmpty);
  }

  /** The request can get a null content back: a tool-call turn (tools) or a refusal (a structured output). */
  private mayGetNullContent(): boolean {
    return this.site.kinds.has('tool-using') || this.site.kinds.has('structured-output');
  }

  /**
   * `c === undefined || c === null` (or `c !== undefined && c !== null`) on the same content read:
   * both checks become the same test for '', so the second is dropped with its operator rather than
   * written twice (`output_text === '' || output_text === ''` reads like machine output). True when
   * `check` is that second comparison and its edits are replaced by the deletion.
   */
  private secondNullCheck(check: ts.BinaryExpression): boolean {
    const pair = climbWrappers(check).parent;
    if (!ts.isBinaryExpression(pair) || unwrap(pair.right) !== check) return false;
    const negated = check.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsEqualsToken || check.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsToken;
    if (pair.operatorToken.kind !== (negated ? ts.SyntaxKind.AmpersandAmpersandToken : ts.SyntaxKind.BarBarToken)) return false;
    const first = unwrap(pair.left);
    if (!ts.isBinaryExpression(first) || first.operatorToken.kind !== check.operatorToken.kind) return false;
    const nullish = (e: ts.Expression) => {
      const lit = literalValue(e);
      return lit?.kind === 'null' || lit?.kind === 'undefined';
    };
    const readOf = (b: ts.BinaryExpression) => (nullish(b.right) ? b.left : nullish(b.left) ? b.right : undefined);
    const a = readOf(first);
    const b = readOf(check);
    if (!a || !b || a.getText() !== b.getText()) return false;
    const right = this.site.range(pair.right);
    const inside = (e: { file: string; start: number; end: number }) => e.file === right.file && e.start >= right.start && e.end <= right.end;
    for (let i = this.site.edits.length - 1; i >= 0; i--) if (inside(this.site.edits[i])) this.site.edits.splice(i, 1);
    this.site.edit({ op: 'replace', rule: 'O-CONTENT-NULL', file: right.file, start: pair.left.getEnd(), end: pair.right.getEnd(), text: '' });
    return true;
  }

  /** A primitive leaf: fine wherever it goes, but a local alias of content is followed for null checks. */
  private aliasOrDone(outer: ts.Node, shape: Shape, _chain: Chain): void {
    const parent = outer.parent;
    if (shape === 'content' && ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) {
      if (this.followed.has(parent.name)) return;
      this.followed.add(parent.name);
      for (const ref of referencesOf(this.ctx.checker, parent.name)) {
        if (isWriteReference(ref)) continue;
        this.contentUse(climbWrappers(ref), { root: ref, accessed: [], links: [], rootOptional: false });
      }
    }
    if (shape === 'content' && ts.isCallExpression(parent) && parent.arguments.includes(outer as ts.Expression)) this.contentHandedTo(parent, outer as ts.Expression);
    if (shape === 'content' && (ts.isReturnStatement(parent) || ts.isArrowFunction(parent))) this.contentReturned(outer);
  }

  /**
   * O-CONTENT-NULL in the callers of a function that returns the content: `if (json === null) throw
   * …` on what `extract()` returned took a refusal there; output_text is '' (probe of request
   * parameters: a SyntaxError from JSON.parse('') instead of the caller's error). Reported, where
   * the request can get a null content back, as a callee's null test is (contentHandedTo).
   */
  private contentReturned(outer: ts.Node): void {
    if (!this.mayGetNullContent()) return;
    const fn = returningFunction(outer);
    const callers = fn && callersOf(fn, this.ctx, this.ctx.callerSearch);
    if (!fn || !callers || 'stop' in callers) return;
    for (const call of callers.calls) {
      let value: ts.Node = climbWrappers(call);
      if (ts.isAwaitExpression(value.parent)) value = climbWrappers(value.parent);
      const decl = value.parent;
      const reads = ts.isVariableDeclaration(decl) && decl.initializer === value && ts.isIdentifier(decl.name)
        ? referencesOf(this.ctx.checker, decl.name).filter((r) => r !== decl.name)
        : [value];
      const tested = reads.find((r) => this.testedForNull(r));
      if (tested) return this.site.reason('no-equivalent-result', `content tested for null by a caller of ${describeFunction(this.ctx, fn)} (${locationOf(this.ctx, tested)}; output_text is '', never null)`);
    }
  }

  /** `c === null`, `typeof c`, `c ?? x`, `c?.trim()`: a read that tells a null content apart. */
  private testedForNull(ref: ts.Node): boolean {
    const outer = climbWrappers(ref);
    const parent = outer.parent;
    return isNullishComparison(ref) || ts.isTypeOfExpression(parent) ||
      (ts.isBinaryExpression(parent) && parent.left === outer && parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) ||
      ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent) || ts.isCallExpression(parent)) && parent.expression === outer && Boolean(parent.questionDotToken));
  }

  /**
   * O-CONTENT-NULL in a function the content is handed to: `show(content)` whose parameter is
   * tested for null (`c === null`, `c ?? x`, `c?.trim()`) took a tool-call turn or a refusal
   * there; output_text never is null. The callee is not rewritten (its other callers may stay on
   * Chat), so the site is reported, where the request can get a null content back.
   */
  private contentHandedTo(call: ts.CallExpression, arg: ts.Expression): void {
    if (!this.mayGetNullContent()) return;
    const index = call.arguments.indexOf(arg);
    if (call.arguments.slice(0, index).some(ts.isSpreadElement)) return;
    const fn = calledFunction(this.ctx.checker, call);
    const param = fn?.parameters[index];
    if (!fn || !param || !ts.isIdentifier(param.name) || param.dotDotDotToken) return;
    const tested = referencesOf(this.ctx.checker, param.name).some((ref) => this.testedForNull(ref));
    if (tested) this.site.reason('no-equivalent-result', `content tested for null in ${describeFunction(this.ctx, fn)} (output_text is '', never null)`);
  }

  /** O-FINISH: comparisons with a literal are rewritten; any other read has no equivalent. */
  private finishReasonUse(outer: ts.Node, chain: Chain): void {
    const parent = outer.parent;
    if (this.forcedTool) return this.site.reason('no-equivalent-result', 'finish_reason (tool_choice forces a tool: Chat answered stop, with tool calls)');
    if (ts.isBinaryExpression(parent) && isEquality(parent.operatorToken.kind)) {
      const other = parent.left === outer ? parent.right : parent.left;
      const value = stringValue(other);
      if (value === 'function_call') return this.site.reason('legacy-functions');
      // a custom tool's call ended the turn as 'tool_calls' too; the conditions count function calls
      if ((value === 'stop' || value === 'tool_calls') && this.site.customTools) return this.site.reason('no-equivalent-result', `finish_reason ${parent.operatorToken.getText()} '${value}' with custom tools declared (the Responses condition counts function_call items only)`);
      if (value && (FINISH_VALUES as readonly string[]).includes(value)) {
        const root = this.site.range(chain.root);
        const op = parent.operatorToken.kind;
        const negate = op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
        this.site.edit({ op: 'finish', rule: 'O-FINISH', ...this.site.range(parent), rootStart: root.start, rootEnd: root.end, rootText: chain.rootText, value: value as (typeof FINISH_VALUES)[number], negate });
        this.site.note('O-FINISH', 'warn', `finish_reason === '${value}' became a check of status / incomplete_details.`);
        return;
      }
    }
    this.site.reason('no-equivalent-result', 'finish_reason');
  }

  /** O-META: `object === 'chat.completion'` → `'response'`; other reads would see a new value. */
  private objectUse(outer: ts.Node): void {
    const parent = outer.parent;
    if (ts.isBinaryExpression(parent) && isEquality(parent.operatorToken.kind)) {
      const other = parent.left === outer ? parent.right : parent.left;
      if (stringValue(other) === 'chat.completion') {
        this.site.edit({ op: 'replace', rule: 'O-META', ...this.site.range(other), text: "'response'" });
        return;
      }
    }
    this.site.reason('no-equivalent-result', 'object');
  }

  /**
   * O-ROLE: a Chat message's role is always `'assistant'`, and so is the literal that replaces the
   * read. The read goes whole, so its root must be a plain name (`this.x` included): a request or
   * a call at the root would be dropped with it.
   */
  private roleUse(outer: ts.Node, end: ts.Node, chain: Chain): void {
    if (isWriteReference(outer) || !isPlainName(chain.root)) return this.site.reason('no-equivalent-result', 'message.role');
    // tested for truth or given a fallback, a literal is flagged by tsc (always truthy, ?? unreachable)
    const parent = outer.parent;
    const fallback = ts.isBinaryExpression(parent) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(parent.operatorToken.kind);
    if (isBooleanContext(outer) || fallback) return this.site.reason('no-equivalent-result', 'message.role tested for truth or given a fallback');
    // `${m.role}: …` in a template (not a tagged one, whose tag receives the parts) becomes its text
    const span = outer.parent;
    if (ts.isTemplateSpan(span) && span.expression === outer && !ts.isTaggedTemplateExpression(span.parent.parent)) {
      const text = outer.getSourceFile().text;
      let start = outer.getStart();
      let stop = outer.getEnd();
      while (/\s/.test(text[start - 1])) start--;
      while (/\s/.test(text[stop])) stop++;
      if (text.slice(start - 2, start) === '${' && text[stop] === '}') {
        const range = this.site.range(outer);
        this.site.edit({ op: 'replace', rule: 'O-ROLE', file: range.file, start: start - 2, end: stop + 1, text: 'assistant' });
        return;
      }
    }
    // where TypeScript would widen the literal to string (a let, an object's property, an array's
    // element, a function's inferred return), `as const` keeps the type message.role had
    const widens = ts.isPropertyAssignment(parent) || ts.isArrayLiteralExpression(parent) || ts.isReturnStatement(parent) ||
      (ts.isArrowFunction(parent) && parent.body === outer) || (ts.isVariableDeclaration(parent) && !isConstDeclaration(parent));
    const typed = !isJavaScriptFile(outer.getSourceFile());
    this.site.edit({ op: 'replace', rule: 'O-ROLE', ...this.site.range(end), text: widens && typed ? "'assistant' as const" : "'assistant'" });
  }

  /** O-META: the id keeps its name, but code that parses its `chatcmpl-` prefix breaks. */
  private idUse(outer: ts.Node): void {
    const parent = outer.parent;
    if (ts.isPropertyAccessExpression(parent) && ['startsWith', 'slice', 'substring', 'substr', 'split', 'replace', 'match', 'indexOf'].includes(parent.name.text)) {
      this.site.reason('no-equivalent-result', 'id');
      return;
    }
    if (ts.isBinaryExpression(parent)) {
      const other = parent.left === outer ? parent.right : parent.left;
      if (stringValue(other)?.startsWith('chatcmpl')) this.site.reason('no-equivalent-result', 'id');
    }
  }
}

// ---- helpers -------------------------------------------------------------------------------

/** `any[]` or `Array<any>`. */
function isAnyArrayType(type: ts.TypeNode): boolean {
  if (ts.isArrayTypeNode(type)) return type.elementType.kind === ts.SyntaxKind.AnyKeyword;
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Array' && type.typeArguments?.[0]?.kind === ts.SyntaxKind.AnyKeyword;
}

/** `any`, or `Promise<any>`: an annotation that holds a response as well as any part of a completion. */
function isAnyType(type: ts.TypeNode): boolean {
  if (type.kind === ts.SyntaxKind.AnyKeyword) return true;
  return ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Promise' &&
    type.typeArguments?.length === 1 && type.typeArguments[0].kind === ts.SyntaxKind.AnyKeyword;
}

/** Climb `!` and parentheses, recording a kept `!` on the last Responses link. */
function climbNonNull(node: ts.Node, chain: Chain): ts.Node {
  let current = node;
  while (current.parent && (ts.isNonNullExpression(current.parent) || ts.isParenthesizedExpression(current.parent))) {
    if (ts.isNonNullExpression(current.parent) && chain.links.length && chain.accessed.length) {
      const last = chain.links[chain.links.length - 1];
      // only a link that survives the rewrite keeps its `!`
      if (chain.links.length === chain.links.length) last.nonNull = last.nonNull || lastAccessKept(chain);
    }
    current = current.parent;
  }
  return current;
}

function lastAccessKept(chain: Chain): boolean {
  return chain.accessed[chain.accessed.length - 1] === chain.links[chain.links.length - 1]?.name ||
    ['usage', 'input_tokens_details', 'output_tokens_details'].includes(chain.links[chain.links.length - 1]?.name ?? '');
}

interface Access {
  name: string;
  optional: boolean;
  /** The node that evaluates to the accessed value. */
  node: ts.Node;
  /** `x.name(…)`: a method call, `node` is the call. */
  method?: boolean;
}

/** `x.name`, `x['name']`, `x[0]`, `x.at(0)` with `x` = outer. */
function accessStep(outer: ts.Node, parent: ts.Node): Access | undefined {
  if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) {
    const name = parent.name.text;
    const call = parent.parent;
    if (name === 'at' && ts.isCallExpression(call) && call.expression === parent) {
      const index = call.arguments.length === 1 ? numberValue(call.arguments[0]) : undefined;
      return { name: index === 0 ? INDEX0 : ANY, optional: Boolean(parent.questionDotToken), node: call };
    }
    if (ELEMENT_CALLBACK_METHODS.has(name) && ts.isCallExpression(call) && call.expression === parent) {
      return { name, optional: Boolean(parent.questionDotToken), node: call, method: true };
    }
    return { name, optional: Boolean(parent.questionDotToken), node: parent };
  }
  if (ts.isElementAccessExpression(parent) && parent.expression === outer) {
    const index = numberValue(parent.argumentExpression);
    const name = index !== undefined ? (index === 0 ? INDEX0 : ANY) : stringValue(parent.argumentExpression) ?? ANY;
    return { name, optional: Boolean(parent.questionDotToken), node: parent };
  }
  return undefined;
}

/** `x`, `this`, `this.x`, `a.b.c`: an expression whose evaluation does nothing but read. */
function isPlainName(node: ts.Node): boolean {
  const n = unwrap(node as ts.Expression);
  if (ts.isIdentifier(n) || n.kind === ts.SyntaxKind.ThisKeyword) return true;
  return ts.isPropertyAccessExpression(n) && !n.questionDotToken && isPlainName(n.expression);
}

/** `x?.[0]`, `x?.at(0)`: an access that gives undefined where its receiver is missing. */
function isOptionalAccess(end: ts.Node): boolean {
  if (ts.isElementAccessExpression(end)) return Boolean(end.questionDotToken);
  return ts.isCallExpression(end) && ts.isPropertyAccessExpression(end.expression) && Boolean(end.expression.questionDotToken);
}

/** The Chat path a chain has reached: its root's path, then what it accessed. */
function pathOf(chain: Chain): string[] {
  return [...(chain.path ?? []), ...chain.accessed];
}

function describe(chain: Chain, next?: string): string {
  const names = [...pathOf(chain), ...(next ? [next] : [])].map((n) => (n === INDEX0 ? '[0]' : n === ANY ? '[i]' : n));
  return names.join('.').replace(/\.\[/g, '[') || 'result';
}

function ruleOf(shape: Shape): RuleId {
  switch (shape) {
    case 'tool-calls': case 'tool-call': case 'tool-call-function': return 'O-TOOLCALLS';
    case 'content': return 'O-CONTENT';
    case 'parsed': return 'O-PARSED';
    case 'created': return 'O-META';
    case 'usage': case 'prompt-details': case 'completion-details': return 'O-USAGE';
    default: return 'O-CHOICES';
  }
}

/** A string that only reaches a `console.*` call: an argument, or a part of a template or `+` concatenation that is one. */
function isLogged(text: ts.Expression): boolean {
  let node: ts.Node = climbWrappers(text);
  for (;;) {
    const parent = node.parent;
    if (ts.isTemplateSpan(parent) && parent.expression === node) node = climbWrappers(parent.parent);
    else if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) node = climbWrappers(parent);
    else return isConsoleArgument(node);
  }
}

/** How the detail of result-escapes:<use> says what happened to the value. */
const ESCAPE_VERBS: Partial<Record<Use, string>> = {
  return: 'is returned', store: 'is stored', spread: 'is spread', assign: 'is assigned', cast: 'is read through a type assertion', export: 'is exported', throw: 'is thrown',
};

/** How a value is used by its context, when it is not read further. */
export function useOf(outer: ts.Node): Use {
  const parent = outer.parent;
  if (!parent) return 'discard';
  if (ts.isExpressionStatement(parent) || ts.isVoidExpression(parent)) return 'discard';
  if (ts.isReturnStatement(parent)) return 'return';
  if (ts.isArrowFunction(parent) && parent.body === outer) return 'return';
  if (ts.isThrowStatement(parent)) return 'throw';
  if (ts.isExportAssignment(parent)) return 'export';
  if (ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent)) return 'spread';
  if (ts.isForInStatement(parent) && parent.expression === outer) return 'reflect';
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if ((op === ts.SyntaxKind.InKeyword && parent.right === outer) || (op === ts.SyntaxKind.InstanceOfKeyword && parent.left === outer)) return 'reflect';
  }
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    if (parent.expression === outer) return 'read';
    const callee = parent.expression;
    if (isConsoleCallee(callee)) return 'console';
    // `console.log(JSON.stringify(r, null, 2))`: serialised for a log and nothing else (O-ESCAPE)
    if (ts.isCallExpression(parent) && parent.arguments[0] === outer && callee.getText() === 'JSON.stringify' && isLogged(parent)) return 'console';
    return 'argument';
  }
  if (ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) return 'store';
  if (ts.isArrayLiteralExpression(parent)) return 'store';
  if (ts.isBinaryExpression(parent) && parent.right === outer && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const left = unwrap(parent.left);
    return ts.isIdentifier(left) ? 'assign' : 'store';
  }
  if (ts.isVariableDeclaration(parent)) return 'assign';
  if (ts.isTemplateSpan(parent)) return 'read';
  if (ts.isJsxExpression(parent)) return 'read';
  if (ts.isYieldExpression(parent)) return 'return';
  if (ts.isAwaitExpression(parent) || ts.isParenthesizedExpression(parent)) return useOf(parent);
  // `r as ChatCompletion`, `(r as any).choices`, `<T>r`, `r satisfies T`: the value goes on under a
  // type this analysis does not follow; never a silent read (corpus: ai-devs returns
  // `completion as OpenAI.Chat.Completions.ChatCompletion` to its callers)
  if (isTypeAssertion(parent)) return 'cast';
  if (ts.isConditionalExpression(parent) && parent.condition !== outer) return useOf(parent) === 'discard' ? 'discard' : 'store';
  if (ts.isBinaryExpression(parent) && (parent.operatorToken.kind === ts.SyntaxKind.BarBarToken || parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) ) {
    const outerUse = useOf(parent);
    return outerUse === 'discard' || outerUse === 'read' ? 'read' : outerUse;
  }
  return 'read';
}

function enclosingFunctionText(node: ts.Node): string {
  let current: ts.Node | undefined = node.parent;
  while (current && !isFunctionLike(current) && !ts.isSourceFile(current)) current = current.parent;
  return current ? current.getText() : '';
}

/** `[]`, with or without a cast (`[] as ChatCompletionMessageToolCall[]`). */
function isEmptyArray(e: ts.Expression): boolean {
  const inner = unwrap(e);
  return ts.isArrayLiteralExpression(inner) && inner.elements.length === 0;
}

/**
 * A name not used anywhere in the function that holds the declaration, nor given out there yet
 * in this pass (two destructurings there must not get the same; ScanContext.freshNames).
 */
function freshName(ctx: ScanContext, decl: ts.Node, base: string): string {
  let scope: ts.Node = decl.parent;
  while (!isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  const given = ctx.freshNames.get(scope) ?? new Set<string>();
  ctx.freshNames.set(scope, given);
  const used = new Set<string>(given);
  walk(scope, (n) => {
    if (ts.isIdentifier(n)) used.add(n.text);
  });
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}${i}`;
  given.add(name);
  return name;
}

export { startOf };

/**
 * `const client: any = new OpenAI()`, `this.client` declared `any`, `… as any`, or
 * `const r: any = await client.chat.completions.create(…)`: the call's result is `any`.
 */
const RESOURCE_PATH: ReadonlySet<string> = new Set(['beta', 'chat', 'completions', 'create', 'parse']);

function declaredAny(checker: ts.TypeChecker, call: ts.CallExpression): boolean {
  const isAny = (t: ts.TypeNode | undefined) => t?.kind === ts.SyntaxKind.AnyKeyword;
  const holder = climbWrappers(call).parent;
  const awaited = ts.isAwaitExpression(holder) ? climbWrappers(holder).parent : holder;
  if (ts.isVariableDeclaration(awaited) && isAny(awaited.type)) return true;
  // the receiver: `client` of client.chat.completions.create or client['chat']['completions'].create
  // (or of a cast `(client as any)`), `this.client` or `this['client']`
  let receiver: ts.Expression = call.expression;
  while (isAccess(receiver) && RESOURCE_PATH.has(accessName(receiver) ?? '')) receiver = receiver.expression;
  while (ts.isParenthesizedExpression(receiver) || ts.isNonNullExpression(receiver)) receiver = receiver.expression;
  if (ts.isAsExpression(receiver)) return isAny(receiver.type);
  const name = ts.isIdentifier(receiver) ? receiver : isAccess(receiver) ? accessNameNode(receiver) : undefined;
  const decl = name && checker.getSymbolAtLocation(name)?.declarations?.[0];
  if (!decl || !(ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isParameter(decl))) return false;
  return isAny(decl.type) || Boolean(decl.initializer && ts.isAsExpression(decl.initializer) && isAny(decl.initializer.type));
}

/**
 * A write of a variable other than a plain `=`: a logical assignment (`??=`, `||=`, `&&=`), a
 * `for … of` / `for … in` target, or a destructuring assignment target.
 */
function otherWrite(use: ts.Node): boolean {
  const parent = use.parent;
  if (ts.isBinaryExpression(parent) && parent.left === use) {
    const op = parent.operatorToken.kind;
    return op !== ts.SyntaxKind.EqualsToken && VALUE_ASSIGNMENTS.has(op);
  }
  return isDestructuringTarget(use);
}

/** JavaScript's comparison operators, to tell whether a comparison answers alike on two values. */
const COMPARISONS: ReadonlyMap<ts.SyntaxKind, (a: unknown, b: unknown) => boolean> = new Map<ts.SyntaxKind, (a: unknown, b: unknown) => boolean>([
  [ts.SyntaxKind.EqualsEqualsEqualsToken, (a, b) => a === b],
  [ts.SyntaxKind.ExclamationEqualsEqualsToken, (a, b) => a !== b],
  [ts.SyntaxKind.EqualsEqualsToken, (a, b) => a == b],
  [ts.SyntaxKind.ExclamationEqualsToken, (a, b) => a != b],
  [ts.SyntaxKind.LessThanToken, (a, b) => (a as number) < (b as number)],
  [ts.SyntaxKind.LessThanEqualsToken, (a, b) => (a as number) <= (b as number)],
  [ts.SyntaxKind.GreaterThanToken, (a, b) => (a as number) > (b as number)],
  [ts.SyntaxKind.GreaterThanEqualsToken, (a, b) => (a as number) >= (b as number)],
]);

/**
 * A use of a name reached only when the name is truthy: in the then-branch of `if (v)`, the true
 * arm of `v ? … : …`, the right of `v && …`, or after `if (!v) return|throw …` in an enclosing block.
 */
function passedTruthTest(ref: ts.Identifier): boolean {
  const isName = (e: ts.Expression) => ts.isIdentifier(unwrap(e)) && (unwrap(e) as ts.Identifier).text === ref.text;
  const isNegation = (e: ts.Expression) => {
    const u = unwrap(e);
    return ts.isPrefixUnaryExpression(u) && u.operator === ts.SyntaxKind.ExclamationToken && isName(u.operand);
  };
  const exits = (st: ts.Statement): boolean => ts.isReturnStatement(st) || ts.isThrowStatement(st) ||
    (ts.isBlock(st) && st.statements.length > 0 && exits(st.statements[st.statements.length - 1]));
  for (let child: ts.Node = ref, at = ref.parent; at && !isFunctionLike(at) && !ts.isSourceFile(at); child = at, at = at.parent) {
    if (ts.isIfStatement(at) && at.thenStatement === child && isName(at.expression)) return true;
    if (ts.isConditionalExpression(at) && at.whenTrue === child && isName(at.condition)) return true;
    if (ts.isBinaryExpression(at) && at.right === child && at.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && isName(at.left)) return true;
  }
  for (const st of statementsBefore(ref)) {
    if (ts.isIfStatement(st) && !st.elseStatement && isNegation(st.expression) && exits(st.thenStatement)) return true;
  }
  return false;
}

/** A use of a value that answers alike on undefined and on `onEmpty` (see chainValueAnswersAlike). */
function valueAnswersAlike(node: ts.Node, onEmpty: '' | 0 | undefined): boolean {
  const outer = climbWrappers(node);
  const parent = outer.parent;
  // printed to the console: 'undefined' there, '' now; a log line, not the program's output (O-ESCAPE)
  if (isConsoleArgument(outer) || (ts.isTemplateSpan(parent) && isConsoleArgument(climbWrappers(parent.parent)))) return true;
  const falsy = onEmpty === '' || onEmpty === 0;
  if (ts.isBinaryExpression(parent) && (parent.left === outer || parent.right === outer)) {
    const op = parent.operatorToken.kind;
    if (parent.left === outer && op === ts.SyntaxKind.BarBarToken) return falsy;
    if (parent.left === outer && op === ts.SyntaxKind.AmpersandAmpersandToken) return falsy && isBooleanContext(parent);
    const lit = literalValue(parent.left === outer ? parent.right : parent.left);
    const value = lit && (lit.kind === 'null' ? null : lit.kind === 'undefined' ? undefined : lit.value);
    if (parent.left === outer && op === ts.SyntaxKind.QuestionQuestionToken) return onEmpty !== undefined && Boolean(lit) && value === onEmpty;
    const compare = COMPARISONS.get(op);
    if (!compare || !lit || onEmpty === undefined) return false;
    const answer = (v: unknown) => (parent.right === outer ? compare(value, v) : compare(v, value));
    return answer(undefined) === answer(onEmpty);
  }
  return falsy && isBooleanContext(outer);
}

/** What `.name` (called as `call`, if it is) gives on '' (ON_EMPTY_STRING), or undefined when unknown. */
function emptyStringStep(name: string, call: ts.CallExpression | undefined): '' | 0 | undefined {
  const known = ON_EMPTY_STRING.get(name);
  if (!known || known.call !== Boolean(call)) return undefined;
  if ((name === 'replace' || name === 'replaceAll') && !stringValue(call?.arguments[0])) return undefined;
  return known.value;
}

/**
 * The content read may be null where it is: its type says so, or the checker cannot tell (`any`,
 * JavaScript). `if (!content) return null; JSON.parse(content)` narrowed it to a string.
 */
function mayHoldNull(checker: ts.TypeChecker, read: ts.Node): boolean {
  if (testedBefore(read)) return false;
  const type = checker.getTypeAtLocation(read);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Null)) return true;
  return type.isUnion() && type.types.some((t) => Boolean(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Any)));
}

/** `JSON.parse(<node>)`. */
function isJsonParsed(outer: ts.Node): boolean {
  const parent = outer.parent;
  return ts.isCallExpression(parent) && parent.arguments[0] === outer && parent.expression.getText().replace(/\s+/g, '') === 'JSON.parse';
}

/** `${content}`, `'…' + content`, `String(content)`, `console.log(content)`: a null becomes the text 'null'. */
function isStringified(outer: ts.Node): boolean {
  const parent = outer.parent;
  if (ts.isTemplateSpan(parent) && parent.expression === outer) return true;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const other = parent.left === outer ? parent.right : parent.left;
    return ts.isStringLiteral(other) || ts.isTemplateExpression(other) || ts.isNoSubstitutionTemplateLiteral(other);
  }
  if (isConsoleArgument(outer)) return true;
  return ts.isCallExpression(parent) && parent.arguments.includes(outer as ts.Expression) && ts.isIdentifier(parent.expression) && parent.expression.text === 'String';
}

/** `OpenAI.Chat.X` → `OpenAI`. */
function leftmost(name: ts.EntityName): ts.Identifier {
  return ts.isIdentifier(name) ? name : leftmost(name.left);
}
