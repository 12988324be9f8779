/**
 * Message analysis (docs/migration-spec.md §3, M- rules): can the `messages` value become `input`, what
 * must change shape, and may its leading system message be hoisted into `instructions`?
 */
import { ts, someNode, isEmptinessTest, isFunctionLike, isTypeAssertion, unwrap, stringValue, propertyNameText, propertyValue, literalValue, shortText, climbWrappers, isJavaScriptFile, isConsoleArgument, isConstDeclaration, returnExpressions } from './ast.js';
import { declarationOf } from './bindings.js';
import { locationOf, type ScanContext } from './context.js';
import { referencesOf, isExported } from './references.js';
import type { SiteAnalysis } from './site.js';
import { isChatCompletionsCall } from './find-sites.js';
import { enclosingTry } from './throw-path.js';
import { ConversionPlacer } from './conversion-placer.js';
import { chatMethodTypeQuery, isErrorType, isSimpleRole, SIMPLE_ROLES, isStringTyped, messageElementsAreSimple, namesChatMessageType, typeIsString } from './types.js';

export interface MessagesFacts {
  /** The leading system/developer message may be hoisted (M-SYSTEM conditions about the array). */
  hoistable: boolean;
  /** The declaration of a local messages variable, when the value is one. */
  variable?: ts.VariableDeclaration;
}

/** The types an expression is asserted to (`x as T`, `<T>x`, `x satisfies T`), outermost first. */
function assertedTypes(e: ts.Expression): ts.TypeNode[] {
  const out: ts.TypeNode[] = [];
  let current = e;
  while (ts.isParenthesizedExpression(current) || isTypeAssertion(current)) {
    if (!ts.isParenthesizedExpression(current)) out.push(current.type);
    current = current.expression;
  }
  return out;
}

/** Keys a Chat message may carry, per role. Anything else is not a Chat message key. */
const MESSAGE_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'refusal', 'audio', 'function_call']);

export class MessagesAnalyzer {
  /** The history holds items that are not role messages (tool outputs, function calls, replays). */
  private hasItems = false;
  /** A value of this array is converted at run time (M-CONTENT-UNTYPED). */
  private converted = false;
  /** The request's own `messages` value when it names a local history (analyze). */
  private requestHistory?: ts.Expression;
  /** That whole history is converted in the request's arguments instead of where it is built. */
  private convertedAtRequest = false;

  /**
   * `call`: the site's request, whose failure a run-time conversion must not outrun (throw-path.ts);
   * `placer` decides where each conversion goes, shared with the request's tools (ToolsAnalyzer).
   */
  constructor(
    private readonly ctx: ScanContext, private readonly site: SiteAnalysis, private readonly call?: ts.CallExpression,
    private readonly placer = new ConversionPlacer(ctx, site, call),
  ) {}

  analyze(value: ts.Expression): MessagesFacts {
    const v = unwrap(value);
    if (ts.isArrayLiteralExpression(v)) {
      this.site.edit({ op: 'messages', rule: 'M-INPUT', ...this.site.range(v) });
      this.elements(v);
      this.retypeAll(assertedTypes(value)); // `messages: [...] as ChatCompletionMessageParam[]`
      // M-SYSTEM: the hoist never applies to an array that holds a converted value
      return { hoistable: !this.converted && this.hoistable(v) };
    }
    if (ts.isIdentifier(v)) {
      this.requestHistory = value;
      const local = this.localArray(v);
      if (local) return { hoistable: false, variable: local };
    }
    // the whole value, casts included: `toResponsesInput(history as ChatCompletionMessageParam[])`
    this.opaque(v, value);
    return { hoistable: false };
  }

  /** Every element of an array literal of messages. */
  private elements(array: ts.ArrayLiteralExpression): void {
    const before = this.site.edits.length;
    for (const el of array.elements) {
      const e = unwrap(el as ts.Expression);
      const untypedContent = ts.isObjectLiteralExpression(e) ? this.untypedPlainContent(e) : undefined;
      if (untypedContent) this.untyped(untypedContent, { value: el as ts.Expression, element: true });
      else if (ts.isObjectLiteralExpression(e)) this.message(e);
      else if (ts.isSpreadElement(e)) this.opaque(e.expression, e.expression);
      else if (!ts.isOmittedExpression(e)) this.opaqueElement(e, el as ts.Expression);
      else this.site.reason('messages-not-local');
    }
    this.convertWhole(array, before);
  }

  /**
   * Every element of the array converted at run time, one call each (`[...toResponsesInput([a]),
   * ...toResponsesInput(b), …]`): one call over the array as written reads better and gives the
   * same items (`toResponsesInput([a, ...b, …])`). The array's own M-INPUT edit has nothing left
   * to do and goes with them.
   */
  private convertWhole(array: ts.ArrayLiteralExpression, before: number): void {
    const added = this.site.edits.slice(before);
    if (array.elements.length < 2 || added.length !== array.elements.length || !added.every((e) => e.op === 'convert-messages')) return;
    const range = this.site.range(array);
    const own = this.site.edits.findIndex((e) => e.op === 'messages' && e.file === range.file && e.start === range.start && e.end === range.end);
    if (own < 0) return;
    this.site.edits.splice(before, added.length);
    this.site.edits.splice(own, 1);
    this.site.edit({ op: 'convert-messages', of: 'messages', rule: 'M-CONTENT-UNTYPED', ...range, element: false, module: '', moduleFile: '' });
  }

  /**
   * A local messages variable (V-LOCAL / V-PUSH): an array literal whose other uses are calls in the
   * unit, pushes of messages, and reads that do not let it escape.
   */
  private localArray(id: ts.Identifier): ts.VariableDeclaration | undefined {
    const decl = declarationOf(this.ctx.checker, id);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
    const init = unwrap(decl.initializer);
    if (!ts.isArrayLiteralExpression(init)) return undefined;
    if (isExported(this.ctx.checker, decl.name)) {
      this.site.reason('messages-not-local');
      return decl;
    }
    this.site.share('messages', decl);
    this.site.histories.add(decl);
    this.site.edit({ op: 'messages', rule: 'M-INPUT', ...this.site.range(init) });
    this.elements(init);
    let escapes: ts.Node | undefined;
    const lengths: ts.Node[] = [];
    for (const ref of referencesOf(this.ctx.checker, decl.name)) {
      const use = climbWrappers(ref);
      const parent = use.parent;
      if (isParamsMessagesValue(use)) continue; // a call in the unit
      if (ts.isPropertyAccessExpression(parent) && parent.expression === use) {
        const method = parent.name.text;
        const call = parent.parent;
        if ((method === 'push' || method === 'unshift') && ts.isCallExpression(call) && call.expression === parent) {
          for (const arg of call.arguments) this.pushed(arg, decl);
          continue;
        }
        if (method === 'length') {
          lengths.push(parent);
          continue;
        }
      }
      if (isConsoleArgument(use)) continue;
      escapes ??= use;
    }
    // with replayed output the history holds Responses items (a function_call per call, reasoning):
    // its length counts those, so only an emptiness test or a log reads it alike
    const counted = this.hasItems ? lengths.find((l) => !isEmptinessTest(l) && !loggedIn(l)) : undefined;
    if (counted && !escapes) {
      this.site.reason('result-escapes', `store: ${shortText(climbWrappers(counted).parent, 40)} counts the history ${decl.name.text}, which holds replayed output as Responses items (${locationOf(this.ctx, counted)})`);
    }
    // a history that holds replayed results and leaves this code is persisted Chat data (P29)
    if (escapes) {
      if (this.hasItems) this.site.reason('result-escapes', `store: the history ${decl.name.text} holds replayed output and leaves this code (${locationOf(this.ctx, escapes)})`);
      else this.site.reason('messages-not-local');
    }
    this.retype(decl);
    return decl;
  }

  private pushed(arg: ts.Expression, into: ts.VariableDeclaration): void {
    const e = unwrap(arg);
    if (isReplayRead(this.ctx.checker, e)) {
      // M-REPLAY: rewritten where the result is read (results analysis)
      this.hasItems = true;
      this.site.kinds.add('tool-using');
      return;
    }
    const convert = this.takesConvertedPushes(into);
    const untypedContent = convert && ts.isObjectLiteralExpression(e) ? this.untypedPlainContent(e) : undefined;
    if (untypedContent) {
      this.untyped(untypedContent, { value: arg, element: true });
      return;
    }
    if (ts.isObjectLiteralExpression(e)) {
      this.site.edit({ op: 'message', rule: 'M-INPUT', ...this.site.range(e) });
      this.message(e);
      return;
    }
    // V-PUSH: anything else pushed into a history must be proven a simple role message; an
    // untyped value may well be a tool reply or a function call that needs another shape
    const simple = ts.isSpreadElement(e)
      ? messageElementsAreSimple(this.ctx.checker, e.expression)
      : messageElementTypeSimple(this.ctx, e, this.ctx.checker.getTypeAtLocation(e));
    const inView = ts.isSpreadElement(e) ? builtInView(this.ctx.checker, e.expression) : builtInView(this.ctx.checker, e, true);
    if (simple === 'yes' && inView) return;
    if (!convert) this.untyped(ts.isSpreadElement(e) ? e.expression : e);
    else if (ts.isSpreadElement(e)) this.untyped(e.expression, { value: e.expression, element: false });
    else this.untyped(e, { value: arg, element: true });
  }

  /**
   * Whether a value pushed into this history may be converted at run time: the converted items
   * (ResponseInputItem) must fit the array, which holds for a JavaScript file, an array typed
   * with a Chat message type (retyped ResponseInputItem[], M-TYPES) or with `any` elements; an
   * array whose type TypeScript inferred from its literal would reject them.
   */
  private takesConvertedPushes(decl: ts.VariableDeclaration): boolean {
    if (!this.ctx.runtimeConversion) return false;
    const type = decl.type;
    if (!type) return isJavaScriptFile(decl.getSourceFile());
    if (namesChatMessageType(this.ctx.checker, type)) return true;
    return elementTypeOf(type)?.kind === ts.SyntaxKind.AnyKeyword;
  }

  /**
   * A plain role message (`{ role: 'user', content: q }`, perhaps with a `name`, no other key)
   * whose content the tool cannot prove a string, or whose role is not a simple role literal nor
   * typed as one (`role: body.role`): `q` may be a parts array at run time and the role anything,
   * so the whole message is handed to the converter (M-CONTENT-UNTYPED), which maps parts the way
   * M-PART-* does, drops the name (M-NAME) and throws on a role the Responses API does not take.
   * Returns the value that needs it; undefined for any other message.
   */
  private untypedPlainContent(obj: ts.ObjectLiteralExpression): ts.Expression | undefined {
    if (!this.ctx.runtimeConversion) return undefined;
    const keys = obj.properties.map((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) ? propertyNameText(p.name) : undefined));
    if (keys.some((k) => k !== 'role' && k !== 'content' && k !== 'name') || new Set(keys).size !== keys.length) return undefined;
    const roleValue = propertyValue(findKey(obj, 'role'));
    const content = propertyValue(findKey(obj, 'content'));
    if (!roleValue || !content) return undefined;
    const role = stringValue(roleValue);
    if (role !== undefined && !SIMPLE_ROLES.has(role)) return undefined; // a tool reply or a function result: mapped statically
    const v = unwrap(content);
    const lit = literalValue(v);
    const contentUnproven = !ts.isArrayLiteralExpression(v) && !(lit && (lit.kind === 'null' || lit.kind === 'undefined')) &&
      isStringTyped(this.ctx.checker, v) !== 'yes' && !isChatContentRead(this.ctx.checker, v);
    if (contentUnproven) return v;
    return role === undefined && isSimpleRole(this.ctx.checker, roleValue) !== 'yes' ? roleValue : undefined;
  }

  /** M-TYPES: a Chat message annotation on a unit-local array becomes `EasyInputMessage[]` (or `ResponseInputItem[]`). */
  private retype(decl: ts.VariableDeclaration): void {
    // the annotation, and an assertion on the initializer (`[…] as ChatCompletionMessageParam[]`)
    this.retypeAll([decl.type, ...(decl.initializer ? assertedTypes(decl.initializer) : [])]);
  }

  private retypeAll(types: readonly (ts.TypeNode | undefined)[]): void {
    for (const type of types) {
      const derived = type && chatMethodTypeQuery(this.ctx.checker, type);
      if (derived) {
        this.site.reason('messages-not-local', `typed by ${shortText(derived, 40)}, the Chat method's own type (${locationOf(this.ctx, derived)})`);
        return;
      }
      if (!type || !namesChatMessageType(this.ctx.checker, type)) continue;
      const element = elementTypeOf(type);
      if (!element) {
        this.site.reason('messages-not-local');
        return;
      }
      const to = this.hasItems ? 'ResponseInputItem' : 'EasyInputMessage';
      this.site.edit({ op: 'retype', rule: 'M-TYPES', ...this.site.range(element), to, importName: to, importFrom: 'openai/resources/responses/responses' });
    }
  }

  /** Where the run-time conversion of `value` goes (ConversionPlacer), the whole history at the request if need be. */
  private placeConversion(value: ts.Expression): 'here' | 'request' | string {
    return this.placer.place(value, 'messages', () => this.convertAtRequest());
  }

  /**
   * A value of a local history that cannot be converted where the history is built: the whole
   * history is converted in the request's arguments instead, once (`input: toResponsesInput(messages)`).
   * The converter keeps the Responses items the history also holds (statically converted
   * messages, tool outputs, replayed output).
   */
  private convertAtRequest(): boolean {
    if (this.convertedAtRequest) return true;
    const value = this.requestHistory;
    if (!value || !this.call || enclosingTry(value) !== enclosingTry(this.call)) return false;
    this.convertedAtRequest = true;
    this.converted = true;
    this.hasItems = true;
    this.site.edit({ op: 'convert-messages', of: 'messages', rule: 'M-CONTENT-UNTYPED', ...this.site.range(value), element: false, module: '', moduleFile: '' });
    return true;
  }

  /**
   * A value the tool cannot see into: fine only when its type proves simple messages (M-INPUT).
   * An untyped one (JavaScript, `any`) may carry `name`, tool turns or content parts, which the
   * Responses API rejects or reads differently: never passed through (M-CONTENT-UNTYPED).
   */
  private opaque(e: ts.Expression, converted?: ts.Expression): void {
    if (messageElementsAreSimple(this.ctx.checker, e) !== 'yes' || !builtInView(this.ctx.checker, e)) this.untyped(e, converted && { value: converted, element: false });
  }

  private opaqueElement(e: ts.Expression, converted: ts.Expression): void {
    const type = this.ctx.checker.getTypeAtLocation(e);
    if (messageElementTypeSimple(this.ctx, e, type) !== 'yes' || !builtInView(this.ctx.checker, e, true)) this.untyped(e, { value: converted, element: true });
  }

  /**
   * Messages or content the tool cannot prove simple. A whole messages value, or an element or
   * spread of a messages array, is converted when the program runs (M-CONTENT-UNTYPED: the scan
   * places the package's converter module afterwards, or reports the site when it cannot); with
   * --no-runtime-conversion, and for anything else (content, a pushed value), it is reported.
   * When its type is the checker's error type in a program without the ECMAScript lib
   * (`q.trim()`, `arr.entries()`), the lib may prove it: the scan asks for a second look with it
   * (SiteAnalysis.libTypeGap).
   */
  private untyped(e: ts.Expression, convert?: { value: ts.Expression; element: boolean }): void {
    const place = convert ? this.placeConversion(convert.value) : 'here';
    if (place === 'request') {
      // the whole history is converted in the request's arguments (convertAtRequest)
    } else if (place !== 'here') {
      this.site.reason('messages-not-local', place);
    } else if (convert && this.ctx.runtimeConversion) {
      this.converted = true;
      this.hasItems = true; // the converted value may hold function calls and outputs (M-TYPES)
      // K-TOOLS: a Chat answer replayed (it may carry tool_calls) or tool turns built here
      if (carriesToolTurns(this.ctx.checker, e)) this.site.kinds.add('tool-using');
      this.site.edit({ op: 'convert-messages', of: 'messages', rule: 'M-CONTENT-UNTYPED', ...this.site.range(convert.value), element: convert.element, module: '', moduleFile: '' });
    } else {
      this.site.reason('messages-not-local');
    }
    if (!this.ctx.typeAware && !this.ctx.program.getCompilerOptions().lib && this.libMayType(unwrap(e))) this.site.libTypeGap = true;
  }

  /**
   * Whether the ECMAScript lib may type a value the lib-less program could not: the error type
   * (`q.trim()`), or `any` from iterating an array (`for (const q of QUESTIONS)`) or from a call.
   */
  private libMayType(e: ts.Expression): boolean {
    const type = this.ctx.checker.getTypeAtLocation(e);
    if (isErrorType(type)) return true;
    if (!(type.flags & ts.TypeFlags.Any)) return false;
    if (ts.isCallExpression(e)) return true;
    const decl = ts.isIdentifier(e) ? declarationOf(this.ctx.checker, e) : undefined;
    return Boolean(decl && ts.isVariableDeclaration(decl) && (ts.isForOfStatement(decl.parent.parent) ||
      (decl.initializer && ts.isCallExpression(unwrap(decl.initializer)))));
  }

  /** One message object literal (M-USER, M-SYSTEM, M-ASSIST-*, M-TOOL, M-NAME, M-FUNCTION). */
  private message(obj: ts.ObjectLiteralExpression): void {
    const roleProp = obj.properties.find((p) => propertyNameText(p.name) === 'role');
    const roleValue = propertyValue(roleProp);
    const role = roleValue ? stringValue(roleValue) : undefined;
    for (const p of obj.properties) {
      if (ts.isSpreadAssignment(p)) {
        this.site.reason('opaque-spread', shortText(p.expression, 40));
        continue;
      }
      const key = propertyNameText(p.name);
      if (!key) {
        this.site.reason('messages-not-local');
        continue;
      }
      if (!MESSAGE_KEYS.has(key)) this.site.reason('unknown-param', `messages[].${key}`);
    }
    if (role === 'function' || findKey(obj, 'function_call')) {
      this.site.kinds.add('tool-using');
      this.site.reason('legacy-functions');
      return;
    }
    if (role === 'tool' || findKey(obj, 'tool_call_id')) return this.toolReply(obj);
    if (findKey(obj, 'tool_calls')) return this.assistantToolCalls(obj);
    if (findKey(obj, 'name')) {
      this.site.note('M-NAME', 'warn', 'The per-message `name` was dropped: the Responses API rejects it on input messages.');
    }
    if (role === undefined) {
      if (!roleValue) {
        this.site.reason('messages-not-local');
        return;
      }
      const simple = isSimpleRole(this.ctx.checker, roleValue);
      if (simple === 'no') {
        this.site.reason('messages-not-local');
        return;
      }
      if (simple === 'unknown') this.site.note('M-CONTENT-UNTYPED', 'warn', `The role ${shortText(roleValue, 30)} is not a literal; it is passed through unchanged.`);
    }
    for (const key of ['refusal', 'audio'] as const) {
      const v = propertyValue(findKey(obj, key));
      if (v) {
        const lit = literalValue(v);
        if (!(lit && (lit.kind === 'null' || lit.kind === 'undefined'))) this.site.reason('no-equivalent-content', key);
      }
    }
    const content = propertyValue(findKey(obj, 'content'));
    if (!content) return;
    this.content(content, role ?? 'user');
  }

  /** M-TOOL: `{ role: 'tool', tool_call_id, content }` → a function_call_output item. */
  private toolReply(obj: ts.ObjectLiteralExpression): void {
    this.site.kinds.add('tool-using');
    this.site.toolReplies = true;
    this.hasItems = true;
    const id = propertyValue(findKey(obj, 'tool_call_id'));
    const content = propertyValue(findKey(obj, 'content'));
    if (!id || !content || obj.properties.some((p) => !['role', 'tool_call_id', 'content'].includes(propertyNameText(p.name) ?? ''))) {
      this.site.reason('messages-not-local');
      return;
    }
    const v = unwrap(content);
    if (ts.isArrayLiteralExpression(v)) {
      for (const part of v.elements) {
        const p = unwrap(part as ts.Expression);
        if (!ts.isObjectLiteralExpression(p) || stringValue(propertyValue(findKey(p, 'type'))) !== 'text') this.site.reason('messages-not-local');
      }
      return;
    }
    if (isStringTyped(this.ctx.checker, v) === 'no') this.site.reason('messages-not-local');
  }

  /** M-ASSIST-TOOLCALLS: an assistant turn with literal tool calls → function_call items. */
  private assistantToolCalls(obj: ts.ObjectLiteralExpression): void {
    this.site.kinds.add('tool-using');
    this.hasItems = true;
    const calls = unwrap(propertyValue(findKey(obj, 'tool_calls'))!);
    const literal = ts.isArrayLiteralExpression(calls) && calls.elements.every((c) => {
      const call = unwrap(c as ts.Expression);
      if (!ts.isObjectLiteralExpression(call) || stringValue(propertyValue(findKey(call, 'type'))) !== 'function') return false;
      const fn = propertyValue(findKey(call, 'function'));
      return Boolean(propertyValue(findKey(call, 'id')) && fn && ts.isObjectLiteralExpression(unwrap(fn)) &&
        propertyValue(findKey(unwrap(fn) as ts.ObjectLiteralExpression, 'name')) && propertyValue(findKey(unwrap(fn) as ts.ObjectLiteralExpression, 'arguments')));
    });
    if (!literal || obj.properties.some((p) => !['role', 'content', 'tool_calls', 'refusal'].includes(propertyNameText(p.name) ?? ''))) {
      this.site.reason('messages-not-local');
      return;
    }
    const content = propertyValue(findKey(obj, 'content'));
    const lit = content && literalValue(content);
    if (content && !(lit && (lit.kind === 'null' || lit.kind === 'undefined' || (lit.kind === 'string' && lit.value === ''))) && isStringTyped(this.ctx.checker, content) !== 'yes') {
      this.site.reason('messages-not-local');
    }
  }

  private content(value: ts.Expression, role: string): void {
    const v = unwrap(value);
    if (ts.isArrayLiteralExpression(v)) {
      for (const el of v.elements) this.part(unwrap(el as ts.Expression), role);
      return;
    }
    const lit = literalValue(v);
    if (lit && (lit.kind === 'null' || lit.kind === 'undefined')) {
      if (role !== 'assistant') this.site.reason('messages-not-local');
      return;
    }
    // untyped content may be a parts array at run time, whose parts change shape (M-PART-*)
    if (isStringTyped(this.ctx.checker, v) !== 'yes' && !isChatContentRead(this.ctx.checker, v)) this.untyped(v);
  }

  /** One content part (M-PART-*). */
  private part(part: ts.Expression, role: string): void {
    if (!ts.isObjectLiteralExpression(part)) {
      this.site.reason('messages-not-local');
      return;
    }
    const type = stringValue(propertyValue(findKey(part, 'type')));
    switch (type) {
      case 'text':
        return;
      case 'image_url':
      case 'file': {
        if (role !== 'user') this.site.reason('messages-not-local');
        const inner = propertyValue(findKey(part, type));
        if (!inner) this.site.reason('messages-not-local');
        else if (type === 'file' && !ts.isObjectLiteralExpression(unwrap(inner))) this.site.reason('not-supported-yet', 'a file part built out of view (M-PART-FILE)');
        else if (type === 'image_url') this.imageUrl(inner);
        return;
      }
      case 'input_audio':
        this.site.reason('no-equivalent-content', 'input_audio');
        return;
      case 'refusal':
        this.site.reason('no-equivalent-content', 'refusal');
        return;
      default:
        this.site.reason('messages-not-local');
    }
  }

  /**
   * M-PART-IMAGE flattens `image_url: { url, detail }`. An object with a spread has its url and
   * detail out of view (the added `detail: 'auto'` replaced a spread one; probe of request
   * parameters), and a value the checker cannot type may be a bare URL string in JavaScript, whose
   * `.url` read would drop the image: both are reported.
   */
  private imageUrl(value: ts.Expression): void {
    const v = unwrap(value);
    if (ts.isObjectLiteralExpression(v)) {
      if (v.properties.some((p) => !ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) || !findKey(v, 'url')) {
        this.site.reason('not-supported-yet', 'an image_url object whose url or detail is not written in it (M-PART-IMAGE)');
      }
      return;
    }
    const type = this.ctx.checker.getNonNullableType(this.ctx.checker.getTypeAtLocation(v));
    if (!type.getProperty('url')) this.site.reason('not-supported-yet', `image_url ${shortText(v, 30)}, which may not be an object with a url (M-PART-IMAGE)`);
  }

  /** M-SYSTEM: an inline array whose first element is the only system/developer message, with string content. */
  private hoistable(array: ts.ArrayLiteralExpression): boolean {
    const [first, ...rest] = array.elements.map((e) => unwrap(e as ts.Expression));
    if (!first || !ts.isObjectLiteralExpression(first)) return false;
    // a system message alone stays in input: a hoist would send `input: []`, which Chat's own
    // request (one system message) never was, and which the Responses API is not shown to accept
    if (rest.length === 0) return false;
    const role = stringValue(propertyValue(findKey(first, 'role')));
    if (role !== 'system' && role !== 'developer') return false;
    const content = propertyValue(findKey(first, 'content'));
    if (!content || isStringTyped(this.ctx.checker, content) !== 'yes') return false;
    if (first.properties.some((p) => !['role', 'content', 'name'].includes(propertyNameText(p.name) ?? ''))) return false;
    return rest.every((el) => {
      if (!ts.isObjectLiteralExpression(el)) return false;
      const r = stringValue(propertyValue(findKey(el, 'role')));
      return r !== undefined && r !== 'system' && r !== 'developer';
    });
  }
}

/** The element type of `T[]` or `Array<T>` (any one-argument generic), as written. */
function elementTypeOf(type: ts.TypeNode): ts.TypeNode | undefined {
  if (ts.isArrayTypeNode(type)) return type.elementType;
  return ts.isTypeReferenceNode(type) && type.typeArguments?.length === 1 ? type.typeArguments[0] : undefined;
}

function findKey(obj: ts.ObjectLiteralExpression, key: string): ts.ObjectLiteralElementLike | undefined {
  return obj.properties.find((p) => propertyNameText(p.name) === key);
}

function messageElementTypeSimple(ctx: ScanContext, _e: ts.Expression, type: ts.Type): 'yes' | 'no' | 'unknown' {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'unknown';
  const role = type.getProperty('role');
  const content = type.getProperty('content');
  if (!role || !content) return 'unknown';
  const roleType = ctx.checker.getTypeOfSymbol(role);
  const roles = roleType.isUnion() ? roleType.types : [roleType];
  if (!roles.every((t) => t.isStringLiteral() && ['system', 'developer', 'user', 'assistant'].includes(t.value))) return 'no';
  return typeIsString(ctx.checker, ctx.checker.getTypeOfSymbol(content));
}

/**
 * `r.choices[0].message.content` (also with `?.`, `!`, `.at(0)`, a string fallback `?? ''`, or a
 * const alias of any of these), where every value `r` is given is a chat call's result: once the
 * unit is migrated that read is `r.output_text`, a string, whatever types the tool could load.
 */
export function isChatContentRead(checker: ts.TypeChecker, expression: ts.Expression, depth = 0): boolean {
  const e = unwrap(expression);
  if (depth > 3) return false;
  if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
    return isChatContentRead(checker, e.left, depth + 1) && isStringTyped(checker, e.right) === 'yes';
  }
  if (ts.isIdentifier(e)) {
    const decl = declarationOf(checker, e);
    return Boolean(decl && ts.isVariableDeclaration(decl) && decl.initializer && (decl.parent.flags & ts.NodeFlags.Const) &&
      isChatContentRead(checker, decl.initializer, depth + 1));
  }
  if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'content') return false;
  let message = unwrap(e.expression);
  // `const reply = completion.choices[0].message; … reply.content` (probe of module structure: the
  // pushed { role: 'assistant', content: reply.content } was wrapped for the converter and its read
  // rewritten too: overlapping edits, the file's rewrite failed)
  if (ts.isIdentifier(message)) {
    const alias = declarationOf(checker, message);
    if (!alias || !ts.isVariableDeclaration(alias) || !alias.initializer || !(alias.parent.flags & ts.NodeFlags.Const)) return false;
    message = unwrap(alias.initializer);
  }
  if (!ts.isPropertyAccessExpression(message) || message.name.text !== 'message') return false;
  let choice = unwrap(message.expression);
  if (ts.isCallExpression(choice) && ts.isPropertyAccessExpression(choice.expression) && choice.expression.name.text === 'at' && isZero(choice.arguments[0])) {
    choice = unwrap(choice.expression.expression);
  } else if (ts.isElementAccessExpression(choice) && isZero(choice.argumentExpression)) {
    choice = unwrap(choice.expression);
  } else return false;
  if (!ts.isPropertyAccessExpression(choice) || choice.name.text !== 'choices') return false;
  const root = unwrap(choice.expression);
  if (!ts.isIdentifier(root)) return false;
  const decl = declarationOf(checker, root);
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return false;
  const values = [...(decl.initializer ? [decl.initializer] : []), ...assignedValues(checker, decl.name)];
  return values.length > 0 && values.every((value) => {
    let call = unwrap(value);
    if (ts.isAwaitExpression(call)) call = unwrap(call.expression);
    return ts.isCallExpression(call) && isChatCompletionsCall(call);
  });
}

function isZero(e: ts.Expression | undefined): boolean {
  const lit = literalValue(e);
  return lit?.kind === 'number' && lit.value === 0;
}

/** Right-hand sides of every `x = …` to a variable. */
function assignedValues(checker: ts.TypeChecker, name: ts.Identifier): ts.Expression[] {
  return referencesOf(checker, name).flatMap((ref) => {
    const use = climbWrappers(ref);
    const parent = use.parent;
    return ts.isBinaryExpression(parent) && parent.left === use && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken ? [parent.right] : [];
  });
}

/** Part of what a console call prints (`console.log(\`history: ${messages.length}\`)`): a log, which may change (O-ESCAPE). */
function loggedIn(node: ts.Node): boolean {
  for (let at: ts.Node = node; at.parent && !ts.isStatement(at.parent) && !isFunctionLike(at.parent); at = at.parent) {
    if (isConsoleArgument(at)) return true;
  }
  return false;
}

/**
 * `completion.choices[0].message` (or a local alias of it) pushed into a history: a replay of the
 * assistant turn (M-REPLAY), rewritten by the results analysis.
 */
/**
 * A messages value that replays a Chat answer (`choices[0].message`, which may carry tool_calls)
 * or builds tool turns (`{ role: 'tool', tool_call_id, … }`, an assistant turn's `tool_calls`):
 * its request uses tools, whatever its own params say (K-TOOLS; probe of Next.js apps: such a
 * follow-up call was `simple`, so --only simple migrated it).
 */
function carriesToolTurns(checker: ts.TypeChecker, value: ts.Expression): boolean {
  return isReplayRead(checker, value) || someNode(value, (n) => ts.isObjectLiteralExpression(n) &&
    (stringValue(propertyValue(findKey(n, 'role'))) === 'tool' || Boolean(findKey(n, 'tool_call_id') || findKey(n, 'tool_calls'))));
}

export function isReplayRead(checker: ts.TypeChecker, expression: ts.Expression, depth = 0): boolean {
  const e = unwrap(expression);
  if (ts.isIdentifier(e) && depth < 3) {
    const decl = declarationOf(checker, e);
    // `const { message } = r.choices[0]`
    if (decl && ts.isBindingElement(decl) && !decl.dotDotDotToken && ts.isObjectBindingPattern(decl.parent) && ts.isVariableDeclaration(decl.parent.parent)) {
      const key = decl.propertyName ? propertyNameText(decl.propertyName) : ts.isIdentifier(decl.name) ? decl.name.text : undefined;
      const holder = decl.parent.parent.initializer;
      return key === 'message' && Boolean(holder) && isChoiceRead(unwrap(holder!));
    }
    return Boolean(decl && ts.isVariableDeclaration(decl) && decl.initializer && isReplayRead(checker, decl.initializer, depth + 1));
  }
  if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'message') return false;
  const choice = unwrap(e.expression);
  if (isChoiceRead(choice)) return true;
  // `choice.message`, where every value of `choice` is `r.choices[0]`
  if (!ts.isIdentifier(choice)) return false;
  const decl = declarationOf(checker, choice);
  if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return false;
  return [decl.initializer, ...assignedValues(checker, decl.name)].every((v) => isChoiceRead(unwrap(v)));
}

/** `r.choices[i]` or `r.choices.at(i)`. */
function isChoiceRead(e: ts.Expression): boolean {
  let choice: ts.Expression;
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'at') choice = e.expression.expression;
  else if (ts.isElementAccessExpression(e)) choice = e.expression;
  else return false;
  const choices = unwrap(choice);
  return ts.isPropertyAccessExpression(choices) && choices.name.text === 'choices';
}

/** `{ messages }` or `{ messages: x }` inside a params object literal. */
export function isParamsMessagesValue(use: ts.Node): boolean {
  const parent = use.parent;
  if (ts.isShorthandPropertyAssignment(parent) && parent.name.text === 'messages') return true;
  if (ts.isPropertyAssignment(parent) && parent.initializer === use && propertyNameText(parent.name) === 'messages') return true;
  return false;
}

/**
 * Messages whose every key is in view: a type proves the fields it names, not the absence of
 * others, and the Responses API rejects a key it does not know on an input message (400 "Unknown
 * parameter: 'input[1].link'"; T-NAME) where Chat ignored it. A history that comes from a caller, a
 * request body or a database may carry `id`, `link`, `createdAt`… (second review of the corpus
 * diffs: lunari's server action got its client's chat state with them). In view: an object
 * literal with `role` and `content` only (an element), an array `.map()`ped to such literals, and
 * a const bound to either.
 */
function builtInView(checker: ts.TypeChecker, e: ts.Expression, element = false, depth = 0): boolean {
  const v = unwrap(e);
  if (depth > 4) return false;
  if (element && ts.isObjectLiteralExpression(v)) return onlyRoleAndContent(v);
  if (!element && ts.isCallExpression(v) && ts.isPropertyAccessExpression(v.expression) && v.expression.name.text === 'map') {
    const fn = v.arguments[0] && unwrap(v.arguments[0]);
    if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return false;
    const results = ts.isBlock(fn.body) ? returnExpressions(fn) : [fn.body];
    return results.length > 0 && results.every((r) => {
      const o = r && unwrap(r);
      return Boolean(o && ts.isObjectLiteralExpression(o) && onlyRoleAndContent(o));
    });
  }
  if (!ts.isIdentifier(v)) return false;
  const decl = declarationOf(checker, v);
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !isConstDeclaration(decl)) return false;
  return builtInView(checker, decl.initializer, element, depth + 1);
}

function onlyRoleAndContent(o: ts.ObjectLiteralExpression): boolean {
  return o.properties.every((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ['role', 'content'].includes(propertyNameText(p.name) ?? ''));
}
