/**
 * What a name is bound to, as far as SDK modules are concerned: `OpenAI` imported from 'openai',
 * `zodResponseFormat` from 'openai/helpers/zod', a `require('openai')` namespace… Classified by the
 * exported name, never the local one (P14: `{ OpenAI: OpenAIApi }` is still the v4+ class).
 */
import { ts, unwrap, propertyNameText, stringValue, climbWrappers, isWriteReference, numberValue, isConstDeclaration } from './ast.js';
import { referencesOf } from './references.js';
import type { Resolution } from '../project/resolver.js';

/** What the binding questions need: the checker, and how a module specifier resolves. */
export interface BindingScope {
  checker: ts.TypeChecker;
  resolve(specifier: string, fromFile: string): Resolution;
}

export type ModuleBinding =
  | { kind: 'module'; module: string; node: ts.Node }
  | { kind: 'export'; module: string; name: string; node: ts.Node }
  /**
   * A name imported from a module the tool cannot resolve or read (P-UNRESOLVED): not proven to
   * be an `openai` client, and not proven not to be one either. `module` is the specifier.
   */
  | { kind: 'unresolved'; module: string; node: ts.Node };

/** `require('x')`, `await import('x')`, `import('x')` → 'x' (the specifier as written). */
export function moduleOfRequire(expr: ts.Expression): string | undefined {
  const load = moduleLoadOf(expr);
  return load && 'specifier' in load ? load.specifier : undefined;
}

/**
 * A module load: `require(…)`, `import(…)`, awaited or not. With a literal specifier its text;
 * otherwise the expression that computes it (a dynamic import the tool cannot follow).
 */
export function moduleLoadOf(expr: ts.Expression): { specifier: string } | { dynamic: string } | undefined {
  let e = unwrap(expr);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  // TypeScript's CommonJS emit: `const openai_1 = __importDefault(require("openai"))` (or
  // `__importStar`, or tslib's): the module itself, its `.default` the default export (corpus:
  // bubbas-app's compiled functions/lib)
  if (ts.isCallExpression(e) && e.arguments.length === 1 && TS_IMPORT_HELPERS.has(helperName(e.expression))) e = unwrap(e.arguments[0]);
  if (!ts.isCallExpression(e) || e.arguments.length < 1) return undefined;
  const isRequire = ts.isIdentifier(e.expression) && e.expression.text === 'require';
  const isImport = e.expression.kind === ts.SyntaxKind.ImportKeyword;
  if (!isRequire && !isImport) return undefined;
  const specifier = stringValue(e.arguments[0]);
  return specifier === undefined ? { dynamic: e.arguments[0].getText() } : { specifier };
}

/** The helpers TypeScript's CommonJS output wraps a `require` in. */
const TS_IMPORT_HELPERS: ReadonlySet<string> = new Set(['__importDefault', '__importStar']);

/** `__importDefault` or `tslib_1.__importDefault`: the helper's name. */
function helperName(callee: ts.Expression): string {
  const c = unwrap(callee);
  if (ts.isIdentifier(c)) return c.text;
  return ts.isPropertyAccessExpression(c) ? c.name.text : '';
}

/**
 * How a specifier written in `node`'s file resolves, as a binding: a package module (by its
 * canonical id), an unresolved module, or undefined for a project file (followed through the
 * checker's aliases instead).
 */
function moduleBinding(scope: BindingScope, specifier: string, node: ts.Node): { kind: 'package' | 'unresolved'; module: string } | undefined {
  const r = scope.resolve(specifier, node.getSourceFile().fileName);
  if (r.kind === 'package') return { kind: 'package', module: r.module };
  if (r.kind === 'unresolved') return { kind: 'unresolved', module: specifier };
  return undefined;
}

function asBinding(m: { kind: 'package' | 'unresolved'; module: string }, node: ts.Node, name?: string): ModuleBinding {
  if (m.kind === 'unresolved') return { kind: 'unresolved', module: m.module, node };
  return name === undefined ? { kind: 'module', module: m.module, node } : { kind: 'export', module: m.module, name, node };
}

/** The declaration a name refers to, following project-level aliases (re-exports, barrels). */
export function declarationOf(checker: ts.TypeChecker, id: ts.Identifier): ts.Declaration | undefined {
  // `{ messages }`: the value, not the property the shorthand declares
  const symbol = shorthandSymbol(checker, id) ?? checker.getSymbolAtLocation(id);
  if (!symbol) return undefined;
  const decls = symbol.declarations ?? [];
  return decls[0];
}

function shorthandSymbol(checker: ts.TypeChecker, id: ts.Identifier): ts.Symbol | undefined {
  if (ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id) return checker.getShorthandAssignmentValueSymbol(id.parent);
  return undefined;
}

/** Follow an import of a project module to the declaration it finally names. */
export function aliasTarget(checker: ts.TypeChecker, decl: ts.Declaration): ts.Declaration | undefined {
  const name = (decl as { name?: ts.Node }).name;
  const symbol = name && (ts.isIdentifier(name) ? checker.getSymbolAtLocation(name) : undefined);
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Alias)) return undefined;
  try {
    const target = checker.getAliasedSymbol(symbol);
    const d = target.declarations?.[0];
    return d && d !== decl ? d : undefined;
  } catch {
    return undefined;
  }
}

/** The module specifier of the import or export declaration that holds `node`, as written. */
function importSpecifierOf(node: ts.Node): string | undefined {
  let current: ts.Node | undefined = node;
  while (current && !ts.isImportDeclaration(current) && !ts.isExportDeclaration(current)) current = current.parent;
  if (!current || !current.moduleSpecifier) return undefined;
  return stringValue(current.moduleSpecifier);
}

/**
 * Classify a declaration as a binding of a package module (or of a module that cannot be
 * resolved), or undefined when it is not one (a local value, a project module's export…).
 */
export function bindingOfDeclaration(scope: BindingScope, decl: ts.Declaration, depth = 0): ModuleBinding | undefined {
  if (depth > 8) return undefined;
  if (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isExportSpecifier(decl)) {
    const spec = importSpecifierOf(decl);
    const m = spec === undefined ? undefined : moduleBinding(scope, spec, decl);
    if (m) {
      const name = ts.isImportClause(decl) ? 'default' : (decl.propertyName ?? decl.name).text;
      return asBinding(m, decl, name);
    }
    return followAlias(scope, decl, depth);
  }
  if (ts.isNamespaceImport(decl)) {
    const spec = importSpecifierOf(decl);
    const m = spec === undefined ? undefined : moduleBinding(scope, spec, decl);
    return m ? asBinding(m, decl) : undefined;
  }
  if (ts.isImportEqualsDeclaration(decl)) {
    const ref = decl.moduleReference;
    if (ts.isExternalModuleReference(ref)) {
      const spec = stringValue(ref.expression);
      const m = spec === undefined ? undefined : moduleBinding(scope, spec, decl);
      if (m) return asBinding(m, decl);
    }
    return undefined;
  }
  if (ts.isVariableDeclaration(decl) && decl.initializer) {
    return bindingOfExpression(scope, decl.initializer, depth + 1);
  }
  if (ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) {
    // `let OpenAI; try { OpenAI = (await import('openai')).OpenAI } catch …` (corpus: chat-ui's
    // lazily loaded SDK): bound when every value it is given binds the same export
    const bindings = plainAssignments(scope.checker, decl as ts.VariableDeclaration & { name: ts.Identifier })?.map((v) => bindingOfExpression(scope, v, depth + 1));
    const first = bindings?.[0];
    if (first && first.kind !== 'unresolved' && bindings.every((b) => b && b.kind === first.kind && b.module === first.module && (b.kind !== 'export' || (first.kind === 'export' && b.name === first.name)))) return first;
    return undefined;
  }
  if (ts.isBindingElement(decl)) {
    // const { OpenAI: Api } = require('openai')   /   const { default: OpenAI } = await import('openai')
    const pattern = decl.parent;
    const holder = pattern.parent;
    if (ts.isObjectBindingPattern(pattern) && ts.isVariableDeclaration(holder) && holder.initializer) {
      const source = bindingOfExpression(scope, holder.initializer, depth + 1);
      const key = propertyNameText(decl.propertyName ?? (ts.isIdentifier(decl.name) ? decl.name : undefined));
      if (source?.kind === 'unresolved') return source;
      if (source?.kind === 'module' && key) return { kind: 'export', module: source.module, name: key, node: decl };
      // `import pkg from 'openai'; const { OpenAI } = pkg` (v3: `{ Configuration, OpenAIApi }`), as `pkg.OpenAI` is
      if (source?.kind === 'export' && source.module === 'openai' && (source.name === 'default' || source.name === 'OpenAI') && key) {
        return { kind: 'export', module: source.module, name: key, node: decl };
      }
    }
    return undefined;
  }
  return undefined;
}

function followAlias(scope: BindingScope, decl: ts.Declaration, depth: number): ModuleBinding | undefined {
  const target = aliasTarget(scope.checker, decl);
  return target ? bindingOfDeclaration(scope, target, depth + 1) : undefined;
}

/** `require('openai')`, `require('openai').OpenAI`, `mod.AzureOpenAI` where mod is the module… */
export function bindingOfExpression(scope: BindingScope, expr: ts.Expression, depth = 0): ModuleBinding | undefined {
  if (depth > 8) return undefined;
  const e = unwrap(expr);
  const load = moduleLoadOf(e);
  if (load && 'dynamic' in load) return { kind: 'unresolved', module: `import(${load.dynamic})`, node: e };
  if (load) {
    const m = moduleBinding(scope, load.specifier, e);
    return m ? asBinding(m, e) : undefined;
  }
  if (ts.isIdentifier(e)) {
    const decl = declarationOf(scope.checker, e);
    return decl ? bindingOfDeclaration(scope, decl, depth + 1) : undefined;
  }
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    const name = ts.isPropertyAccessExpression(e) ? e.name.text : stringValue(e.argumentExpression);
    const base = bindingOfExpression(scope, e.expression, depth + 1);
    if (base?.kind === 'unresolved') return base;
    if (base?.kind === 'module' && name) return { kind: 'export', module: base.module, name, node: e };
    // `import OpenAI from 'openai'` then `OpenAI.OpenAI` / `OpenAI.AzureOpenAI` (static members of the class)
    if (base?.kind === 'export' && base.module === 'openai' && (base.name === 'default' || base.name === 'OpenAI') && name) {
      return { kind: 'export', module: base.module, name, node: e };
    }
  }
  return undefined;
}

/** What an SDK class binding constructs. */
export type SdkClass = 'openai' | 'azure' | 'bedrock' | 'v3';

export function sdkClassOf(binding: ModuleBinding | undefined): SdkClass | undefined {
  // openai-edge, a fetch-based copy of the v3 SDK for edge runtimes: its OpenAIApi calls OpenAI's
  // Chat Completions as v3's does (probe of streams: its calls were not listed at all)
  if (binding?.kind === 'export' && binding.module === 'openai-edge' && binding.name === 'OpenAIApi') return 'v3';
  if (!binding || binding.kind === 'unresolved' || binding.module !== 'openai') return undefined;
  // CommonJS: require('openai') is itself a constructor of the default client.
  if (binding.kind === 'module') return 'openai';
  switch (binding.name) {
    case 'default':
    case 'OpenAI':
      return 'openai';
    case 'AzureOpenAI':
      return 'azure';
    case 'BedrockOpenAI':
      return 'bedrock';
    case 'OpenAIApi':
      return 'v3';
    default:
      return undefined;
  }
}

/**
 * The values `decl` (a variable without initializer) is given in its file, when each write is a
 * plain `name = value`; undefined when one is anything else (`+=`, `++`, a destructuring target).
 */
function plainAssignments(checker: ts.TypeChecker, decl: ts.VariableDeclaration & { name: ts.Identifier }): ts.Expression[] | undefined {
  return assignedValues(checker, decl, PLAIN_ASSIGNMENT);
}

const PLAIN_ASSIGNMENT: ReadonlySet<ts.SyntaxKind> = new Set([ts.SyntaxKind.EqualsToken]);
/** `=`, and the logical assignments whose value is either the old one or the right side (`x ??= new OpenAI()`). */
export const VALUE_ASSIGNMENTS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/**
 * The values a variable's writes give it, when each is an assignment of one of `operators`; undefined
 * when another write hides its value (`x += …`, `[x] = …`, `for (x of …)`, `x++`).
 */
function assignedValues(checker: ts.TypeChecker, decl: ts.VariableDeclaration & { name: ts.Identifier }, operators: ReadonlySet<ts.SyntaxKind>): ts.Expression[] | undefined {
  const values: ts.Expression[] = [];
  for (const ref of referencesOf(checker, decl.name)) {
    const written = writtenValue(ref, operators);
    if (written === 'hidden') return undefined;
    if (written) values.push(written);
  }
  return values;
}

/**
 * What a write to `node` (a name or a member access) gives it: the right side of an assignment of
 * one of `operators`; 'hidden' for a write whose value no right side shows (`x += …`, `[x] = …`,
 * `for (x of …)`, `x++`); undefined when `node` is read, not written.
 */
export function writtenValue(node: ts.Node, operators: ReadonlySet<ts.SyntaxKind> = VALUE_ASSIGNMENTS): ts.Expression | 'hidden' | undefined {
  const outer = climbWrappers(node);
  const parent = outer.parent;
  if (ts.isBinaryExpression(parent) && parent.left === outer && operators.has(parent.operatorToken.kind)) return parent.right;
  return isWriteReference(node) || isDestructuringTarget(outer) ? 'hidden' : undefined;
}

/** The values assigned to a variable besides its initializer (`=`, `??=`, `||=`, `&&=`), or undefined (assignedValues). */
export function valuesAssignedTo(checker: ts.TypeChecker, decl: ts.VariableDeclaration & { name: ts.Identifier }): ts.Expression[] | undefined {
  return assignedValues(checker, decl, VALUE_ASSIGNMENTS);
}

/** `[x] = …`, `({ x } = …)`, `for (x of …)`: a write the assignment operator does not show. */
export function isDestructuringTarget(node: ts.Node): boolean {
  let child = node;
  let parent = node.parent;
  while (parent && (ts.isArrayLiteralExpression(parent) || ts.isObjectLiteralExpression(parent) || ts.isShorthandPropertyAssignment(parent) ||
    (ts.isPropertyAssignment(parent) && parent.initializer === child) || ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent) || ts.isParenthesizedExpression(parent))) {
    child = parent;
    parent = parent.parent;
  }
  if (child === node) return Boolean(parent && (ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === node);
  return Boolean(parent && ((ts.isBinaryExpression(parent) && parent.left === child && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) ||
    ((ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === child)));
}

const ARITHMETIC: Partial<Record<ts.SyntaxKind, (a: number, b: number) => number>> = {
  [ts.SyntaxKind.PlusToken]: (a, b) => a + b,
  [ts.SyntaxKind.MinusToken]: (a, b) => a - b,
  [ts.SyntaxKind.AsteriskToken]: (a, b) => a * b,
  [ts.SyntaxKind.SlashToken]: (a, b) => a / b,
};

/**
 * The numbers an expression can only be, when the program fixes them: a number literal, a const
 * (or an import of one) initialised with such an expression, a number literal type (`5 | 100`),
 * or + - * / of such. Undefined when a value is not known (a parameter, a `let`, a call).
 */
export function knownNumbers(checker: ts.TypeChecker, e: ts.Expression, depth = 0): number[] | undefined {
  const inner = unwrap(e);
  const n = numberValue(inner);
  if (n !== undefined) return [n];
  if (depth > 4) return undefined;
  const operate = ts.isBinaryExpression(inner) ? ARITHMETIC[inner.operatorToken.kind] : undefined;
  if (operate && ts.isBinaryExpression(inner)) {
    const left = knownNumbers(checker, inner.left, depth + 1);
    const right = knownNumbers(checker, inner.right, depth + 1);
    return left && right ? left.flatMap((a) => right.map((b) => operate(a, b))) : undefined;
  }
  if (ts.isIdentifier(inner)) {
    let decl = declarationOf(checker, inner);
    decl = decl && (aliasTarget(checker, decl) ?? decl);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer && isConstDeclaration(decl)) return knownNumbers(checker, decl.initializer, depth + 1);
  }
  const type = checker.getTypeAtLocation(inner);
  const types = type.isUnion() ? type.types : [type];
  return types.every((t) => t.isNumberLiteral()) ? types.map((t) => (t as ts.NumberLiteralType).value) : undefined;
}
