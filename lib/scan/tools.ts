/**
 * Tool definitions and tool choice (docs/migration-spec.md §2, R-TOOLS, R-STRICT, R-TOOLCHOICE,
 * H-ZODFUNCTION): where the definitions can be seen and reshaped, and what must be reported.
 */
import { helperRename } from '../rules/helpers.js';
import { ts, unwrap, stringValue, literalValue, propertyNameText, propertyValue, shortText, climbWrappers, isFunctionLike, castTypes } from './ast.js';
import { aliasTarget, bindingOfExpression, declarationOf } from './bindings.js';
import { constUses } from './callers.js';
import type { ScanContext } from './context.js';
import { isParamsMessagesValue } from './messages.js';
import { referencesOf, isExported } from './references.js';
import type { SiteAnalysis } from './site.js';
import type { ConversionPlacer } from './conversion-placer.js';
import { isStringTyped } from './types.js';

export class ToolsAnalyzer {
  /**
   * `placer`: where the request converts values at run time (conversion-placer.ts); without one
   * (a runTools call's tools, read for its unit), tools out of view are reported.
   */
  constructor(private readonly ctx: ScanContext, private readonly site: SiteAnalysis, private readonly placer?: ConversionPlacer) {}

  /**
   * The `tools` value: inline array, local array (V-LOCAL), `.map` builder (V-MAP). A value whose
   * definitions are not all in view (a library's tool specs, a registry, a definition a function
   * returns) is converted when the program runs (R-TOOLS-UNTYPED), whole: the static rewrites of
   * an inline array's other definitions give way to it. A local array with such a definition,
   * whose declaration other code may read, stays reported.
   */
  tools(value: ts.Expression, shorthand = false): void {
    const before = this.mark();
    this.retypeCasts(value);
    const v = unwrap(value);
    if (ts.isArrayLiteralExpression(v)) {
      this.array(v);
      if (this.unseenSince(before) && this.site.unitKeys.size === before.unitKeys) this.convert(value, shorthand, before);
      return;
    }
    if (ts.isIdentifier(v)) {
      const array = this.localArray(v);
      if (array) return this.array(array);
    }
    if (ts.isCallExpression(v) && ts.isPropertyAccessExpression(v.expression) && v.expression.name.text === 'map') {
      const returned = mapCallbackReturn(v);
      if (returned && ts.isObjectLiteralExpression(returned) && this.wrapsEachDefinition(v, returned)) return;
      if (returned && ts.isObjectLiteralExpression(returned)) {
        this.definition(returned);
        if (this.unseenSince(before)) this.convert(value, shorthand, before);
        return;
      }
      // `defs.map(zodFunction)`, `defs.map((d) => zodFunction(d))`: each element made by the helper
      // (probe of structured outputs: reported params-not-local, though built right there)
      if (returned && ts.isCallExpression(returned) && this.helper(returned)) return;
      const cb = v.arguments[0] && unwrap(v.arguments[0]);
      if (cb && ts.isIdentifier(cb) && this.helperName(cb)) return;
    }
    this.convert(value, shorthand, before);
  }

  /** What the site holds before the tools are read, to take back a static rewrite that gives way (convert). */
  private mark(): { edits: number; notes: number; reasons: number; unitKeys: number; customTools: boolean } {
    const { edits, notes, reasons, unitKeys, customTools } = this.site;
    return { edits: edits.length, notes: notes.length, reasons: reasons.length, unitKeys: unitKeys.size, customTools };
  }

  /** A definition out of view was met since `mark` (reported params-not-local:tools). */
  private unseenSince(mark: ReturnType<ToolsAnalyzer['mark']>): boolean {
    return this.site.reasons.slice(mark.reasons).some((r) => r.code === 'params-not-local' && r.detail?.startsWith('tools'));
  }

  /**
   * R-TOOLS-UNTYPED: the whole value converted when the program runs, `toResponsesTools(value)`,
   * in place of what was planned for it since `mark`; reported when the conversion is off or its
   * throw would not meet the handler of the API's rejection (ConversionPlacer).
   */
  private convert(value: ts.Expression, shorthand: boolean, mark: ReturnType<ToolsAnalyzer['mark']>): void {
    if (!this.placer || !this.ctx.runtimeConversion) {
      this.site.reason('params-not-local', 'tools');
      return;
    }
    // the static rewrites give way first: placing the conversion may wrap the request (an edit too)
    this.site.edits.splice(mark.edits);
    this.site.notes.splice(mark.notes);
    const reported = this.site.reasons.splice(mark.reasons);
    this.site.customTools = mark.customTools;
    const place = this.placer.place(value, 'tools', () => false);
    if (place !== 'here') {
      this.site.reasons.push(...reported);
      this.site.reason('params-not-local', `tools: ${place}`);
      return;
    }
    this.site.edit({ op: 'convert-messages', of: 'tools', rule: 'R-TOOLS-UNTYPED', ...this.site.range(value), element: false, shorthand, module: '', moduleFile: '' });
  }

  private array(array: ts.ArrayLiteralExpression): void {
    for (const element of array.elements) {
      const e = unwrap(element as ts.Expression);
      if (ts.isObjectLiteralExpression(e)) this.definition(e);
      else if (ts.isCallExpression(e) && this.helper(e)) continue;
      else if (ts.isSpreadElement(e) && ts.isIdentifier(unwrap(e.expression)) && this.localArray(unwrap(e.expression) as ts.Identifier)) {
        this.array(this.localArray(unwrap(e.expression) as ts.Identifier)!);
      } else if (ts.isIdentifier(e)) {
        const held = this.heldDefinition(e, array);
        if (held && ts.isObjectLiteralExpression(held)) this.definition(held);
        else if (!held || !this.helper(held)) this.site.reason('params-not-local', 'tools');
      } else this.site.reason('params-not-local', 'tools');
    }
  }

  /** `zodFunction(…)` / `standardFunction(…)` → the Responses helper (H-ZODFUNCTION, H-STANDARD). */
  private helper(call: ts.CallExpression): boolean {
    return this.helperName(call.expression);
  }

  /** The helper's name, called or passed (`defs.map(zodFunction)`), renamed to the Responses helper. */
  private helperName(name: ts.Expression): boolean {
    const binding = bindingOfExpression(this.ctx, name);
    const rename = binding?.kind === 'export' ? helperRename(binding.module, binding.name) : undefined;
    if (rename?.role !== 'tool') return false;
    this.site.edit({ op: 'helper-call', rule: rename.rule, ...this.site.range(name), from: rename.from, to: rename.to, module: rename.module });
    return true;
  }

  /** One definition: `{ type: 'function', function: {…} }` or `{ type: 'custom', custom: {…} }`. */
  private definition(obj: ts.ObjectLiteralExpression): void {
    const type = stringValue(valueOf(obj, 'type'));
    const inner = valueOf(obj, type ?? '');
    if ((type !== 'function' && type !== 'custom') || !inner || !ts.isObjectLiteralExpression(unwrap(inner)) || obj.properties.some(ts.isSpreadAssignment)) {
      this.site.reason('params-not-local', 'tools');
      return;
    }
    const fn = unwrap(inner) as ts.ObjectLiteralExpression;
    if (fn.properties.some((p) => !ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p))) {
      this.site.reason('params-not-local', 'tools');
      return;
    }
    if (type === 'custom') this.site.customTools = true;
    if (type === 'function') {
      const strict = valueOf(fn, 'strict');
      const lit = strict && literalValue(strict);
      if (!strict || (lit && (lit.kind === 'null' || lit.kind === 'undefined' || (lit.kind === 'boolean' && !lit.value)))) {
        this.site.note('R-STRICT', 'info', 'strict: false set on a function tool: Chat tools are non-strict by default, Responses tools strict.');
      } else if (!(lit?.kind === 'boolean' && lit.value)) {
        this.site.note('R-STRICT', 'warn', `strict: ${shortText(strict, 30)} ?? false keeps the Chat default when the value is missing.`);
      }
      if (!valueOf(fn, 'parameters')) this.site.note('T-PARAMS-KEY', 'info', 'An empty parameters schema was added: Responses requires the key.');
    }
    this.site.edit({ op: 'tool', rule: 'R-TOOLS', ...this.site.range(obj) });
  }

  /**
   * V-MAP over bare definitions: `defs.map((d) => ({ type: 'function', function: d }))`, where
   * `defs` is an array literal (inline, or a const read only by `.map`) of `{ name, description?,
   * parameters }` literals. Each entry becomes `{ type: 'function', ...d, strict: false }`: every
   * definition is in view, has its parameters and no strict of its own (R-TOOLS, R-STRICT).
   */
  private wrapsEachDefinition(call: ts.CallExpression, obj: ts.ObjectLiteralExpression): boolean {
    const cb = unwrap(call.arguments[0]);
    const param = isFunctionLike(cb) ? cb.parameters[0] : undefined;
    const inner = valueOf(obj, 'function');
    if (!param || !ts.isIdentifier(param.name) || obj.properties.length !== 2 || stringValue(valueOf(obj, 'type')) !== 'function') return false;
    if (!inner || !ts.isIdentifier(unwrap(inner)) || (unwrap(inner) as ts.Identifier).text !== param.name.text) return false;
    const receiver = unwrap((call.expression as ts.PropertyAccessExpression).expression);
    const defs = ts.isArrayLiteralExpression(receiver) ? receiver : ts.isIdentifier(receiver) ? this.mappedArray(receiver) : undefined;
    const bare = defs?.elements.every((el) => {
      const d = unwrap(el as ts.Expression);
      return ts.isObjectLiteralExpression(d) && Boolean(valueOf(d, 'name') && valueOf(d, 'parameters')) &&
        d.properties.every((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ['name', 'description', 'parameters'].includes(propertyNameText(p.name) ?? ''));
    });
    if (!bare) return false;
    this.site.note('R-STRICT', 'info', 'strict: false set on a function tool: Chat tools are non-strict by default, Responses tools strict.');
    this.site.edit({ op: 'tool', rule: 'R-TOOLS', ...this.site.range(obj) });
    return true;
  }

  /** A module-private `const defs = [ … ]` whose every use is `defs.map(…)`. */
  private mappedArray(id: ts.Identifier): ts.ArrayLiteralExpression | undefined {
    const decl = declarationOf(this.ctx.checker, id);
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
    const init = unwrap(decl.initializer);
    if (!ts.isArrayLiteralExpression(init) || isExported(this.ctx.checker, decl.name)) return undefined;
    const onlyMapped = referencesOf(this.ctx.checker, decl.name).every((ref) => {
      const access = climbWrappers(ref).parent;
      return ts.isPropertyAccessExpression(access) && access.name.text === 'map' && ts.isCallExpression(access.parent) && access.parent.expression === access;
    });
    return onlyMapped ? init : undefined;
  }

  /** R-TOOLCHOICE: strings stay, object shapes are flattened. */
  toolChoice(value: ts.Expression): void {
    const v = unwrap(value);
    if (isStringTyped(this.ctx.checker, v) === 'yes') return;
    // `force ? { type: 'function', function: { name: force } } : 'auto'`: each branch on its own (probe of tool loops)
    if (ts.isConditionalExpression(v)) {
      this.toolChoice(v.whenTrue);
      this.toolChoice(v.whenFalse);
      return;
    }
    if (ts.isObjectLiteralExpression(v)) {
      const type = stringValue(valueOf(v, 'type'));
      const inner = type && valueOf(v, type);
      if ((type === 'function' || type === 'custom') && inner && ts.isObjectLiteralExpression(unwrap(inner))) {
        this.site.edit({ op: 'tool-choice', rule: 'R-TOOLCHOICE', ...this.site.range(v) });
        return;
      }
      if (type === 'allowed_tools' && inner && ts.isObjectLiteralExpression(unwrap(inner))) {
        const tools = valueOf(unwrap(inner) as ts.ObjectLiteralExpression, 'tools');
        const refs = tools && unwrap(tools);
        if (refs && ts.isArrayLiteralExpression(refs) && refs.elements.every((e) => ts.isObjectLiteralExpression(unwrap(e as ts.Expression)))) {
          this.site.edit({ op: 'tool-choice', rule: 'R-TOOLCHOICE', ...this.site.range(v) });
          return;
        }
      }
    }
    const lit = literalValue(v);
    if (lit && (lit.kind === 'null' || lit.kind === 'undefined')) return;
    this.site.reason('params-not-local', 'tool_choice');
  }

  /**
   * A `const tools = [...]` used only by sites of the unit; its annotation is retyped. W-FOLLOW:
   * one exported from another module is followed through its imports, every use must be a site's.
   */
  private localArray(id: ts.Identifier): ts.ArrayLiteralExpression | undefined {
    let decl = declarationOf(this.ctx.checker, id);
    if (decl && !ts.isVariableDeclaration(decl)) decl = aliasTarget(this.ctx.checker, decl) ?? decl;
    if (!decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name) || !decl.initializer) return undefined;
    const init = unwrap(decl.initializer);
    if (!ts.isArrayLiteralExpression(init)) return undefined;
    const uses = constUses(decl as ts.VariableDeclaration & { name: ts.Identifier }, this.ctx);
    if ('stop' in uses) {
      if (isExported(this.ctx.checker, decl.name)) this.site.reason('params-not-local', `tools: ${uses.stop}`);
      return undefined;
    }
    const passed: ts.Node[] = [];
    for (const ref of uses.uses) {
      const use = climbWrappers(ref);
      const parent = use.parent;
      const isToolsValue = (ts.isShorthandPropertyAssignment(parent) && parent.name.text === 'tools') ||
        (ts.isPropertyAssignment(parent) && parent.initializer === use && propertyNameText(parent.name) === 'tools');
      if (isToolsValue || ts.isSpreadElement(parent)) passed.push(ref);
      else if (!isParamsMessagesValue(use)) return undefined;
    }
    this.retypeCasts(decl.initializer);
    const key = this.site.share('tools', decl);
    if (passed.includes(id)) this.site.claimTools(key, id, passed, decl.name.text);
    if (decl.type) this.retype(decl.type);
    return init;
  }

  /**
   * A const holding one definition (`{ type: 'function', … }` or `zodFunction(…)`), read only as an
   * element of tools arrays: this site's, or one a `tools` key or a const holds (whose own uses the
   * sites check). W-FOLLOW: one exported from another module is followed through its imports.
   */
  private heldDefinition(id: ts.Identifier, array: ts.ArrayLiteralExpression): ts.ObjectLiteralExpression | ts.CallExpression | undefined {
    let decl = declarationOf(this.ctx.checker, id);
    if (decl && !ts.isVariableDeclaration(decl)) decl = aliasTarget(this.ctx.checker, decl) ?? decl;
    if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !ts.isIdentifier(decl.name)) return undefined;
    const init = unwrap(decl.initializer);
    if (!ts.isObjectLiteralExpression(init) && !ts.isCallExpression(init)) return undefined;
    const uses = constUses(decl as ts.VariableDeclaration & { name: ts.Identifier }, this.ctx);
    if ('stop' in uses) {
      if (isExported(this.ctx.checker, decl.name)) this.site.reason('params-not-local', `tools: ${uses.stop}`);
      return undefined;
    }
    if (!uses.uses.every((ref) => isToolsElement(climbWrappers(ref), array))) return undefined;
    this.retypeCasts(decl.initializer);
    const key = this.site.share('tools', decl);
    if (uses.uses.includes(id)) this.site.claimTools(key, id, uses.uses, decl.name.text);
    if (decl.type) this.retype(decl.type);
    return init;
  }

  /** `[…] satisfies ChatCompletionTool[]` / `as …`: the cast is retyped too (§2.3). */
  private retypeCasts(e: ts.Expression): void {
    for (const type of castTypes(e)) this.retype(type);
  }

  /**
   * `ChatCompletionTool[]` → `Tool[]` on a unit-local tools declaration (R-TOOLS, H-TYPES); a type
   * of the program's own (`ToolDef[]`) keeps the site.
   */
  private retype(type: ts.TypeNode): void {
    if (this.site.keepsOwnParamsType(type, 'tools', this.ctx)) return;
    const ref = ts.isArrayTypeNode(type) ? type.elementType : type;
    if (ts.isTypeReferenceNode(ref)) this.site.retypeReference(ref, this.ctx.checker);
  }
}

/** An element of `array`, or of an array literal a const or a `tools` key holds. */
function isToolsElement(use: ts.Node, array: ts.ArrayLiteralExpression): boolean {
  const holder = use.parent;
  if (!ts.isArrayLiteralExpression(holder)) return false;
  if (holder === array) return true;
  const at = climbWrappers(holder).parent;
  return ts.isVariableDeclaration(at) || (ts.isPropertyAssignment(at) && propertyNameText(at.name) === 'tools');
}

function valueOf(obj: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined {
  return propertyValue(obj.properties.find((p) => propertyNameText(p.name) === key));
}

/** `defs.map((d) => ({ … }))` or `defs.map(function (d) { return { … }; })`: the returned literal. */
function mapCallbackReturn(call: ts.CallExpression): ts.Expression | undefined {
  const cb = call.arguments[0] && unwrap(call.arguments[0]);
  if (!cb || !isFunctionLike(cb) || !cb.body) return undefined;
  if (!ts.isBlock(cb.body)) return unwrap(cb.body);
  const returns = cb.body.statements.filter(ts.isReturnStatement);
  return returns.length === 1 && returns[0].expression ? unwrap(returns[0].expression) : undefined;
}
