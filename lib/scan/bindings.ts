/**
 * What a name is bound to, as far as SDK modules are concerned: `OpenAI` imported from 'openai',
 * `zodResponseFormat` from 'openai/helpers/zod', a `require('openai')` namespace… Classified by the
 * exported name, never the local one (P14: `{ OpenAI: OpenAIApi }` is still the v4+ class).
 */
import { ts, unwrap, propertyNameText, stringValue } from './ast.js';

export type ModuleBinding =
  | { kind: 'module'; module: string; node: ts.Node }
  | { kind: 'export'; module: string; name: string; node: ts.Node };

/** 'openai', 'openai/helpers/zod.mjs' → canonical ids ('openai', 'openai/helpers/zod'). */
export function normalizeModule(specifier: string): string {
  let s = specifier.replace(/\.(m?js|cjs|d\.ts)$/, '');
  if (s === 'openai/index') s = 'openai';
  return s;
}

/** `require('x')`, `await import('x')`, `import('x')` → 'x'. */
export function moduleOfRequire(expr: ts.Expression): string | undefined {
  let e = unwrap(expr);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  if (!ts.isCallExpression(e) || e.arguments.length < 1) return undefined;
  const isRequire = ts.isIdentifier(e.expression) && e.expression.text === 'require';
  const isImport = e.expression.kind === ts.SyntaxKind.ImportKeyword;
  if (!isRequire && !isImport) return undefined;
  const spec = stringValue(e.arguments[0]);
  return spec === undefined ? undefined : normalizeModule(spec);
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

function importModuleOf(node: ts.Node): string | undefined {
  let current: ts.Node | undefined = node;
  while (current && !ts.isImportDeclaration(current) && !ts.isExportDeclaration(current)) current = current.parent;
  if (!current) return undefined;
  const spec = current.moduleSpecifier && stringValue(current.moduleSpecifier);
  return spec === undefined ? undefined : normalizeModule(spec);
}

/**
 * Classify a declaration as a binding of a bare-specifier module, or undefined when it is not one
 * (a local value, a project import that could not be followed…).
 */
export function bindingOfDeclaration(checker: ts.TypeChecker, decl: ts.Declaration, depth = 0): ModuleBinding | undefined {
  if (depth > 8) return undefined;
  if (ts.isImportSpecifier(decl)) {
    const module = importModuleOf(decl);
    if (module && !module.startsWith('.')) {
      return { kind: 'export', module, name: (decl.propertyName ?? decl.name).text, node: decl };
    }
    return followAlias(checker, decl, depth);
  }
  if (ts.isImportClause(decl)) {
    const module = importModuleOf(decl);
    if (module && !module.startsWith('.')) return { kind: 'export', module, name: 'default', node: decl };
    return followAlias(checker, decl, depth);
  }
  if (ts.isNamespaceImport(decl)) {
    const module = importModuleOf(decl);
    if (module && !module.startsWith('.')) return { kind: 'module', module, node: decl };
    return undefined;
  }
  if (ts.isExportSpecifier(decl)) {
    const module = importModuleOf(decl);
    if (module && !module.startsWith('.')) {
      return { kind: 'export', module, name: (decl.propertyName ?? decl.name).text, node: decl };
    }
    return followAlias(checker, decl, depth);
  }
  if (ts.isImportEqualsDeclaration(decl)) {
    const ref = decl.moduleReference;
    if (ts.isExternalModuleReference(ref)) {
      const spec = stringValue(ref.expression);
      if (spec && !spec.startsWith('.')) return { kind: 'module', module: normalizeModule(spec), node: decl };
    }
    return undefined;
  }
  if (ts.isVariableDeclaration(decl) && decl.initializer) {
    return bindingOfExpression(checker, decl.initializer, depth + 1, ts.isIdentifier(decl.name) ? undefined : decl);
  }
  if (ts.isBindingElement(decl)) {
    // const { OpenAI: Api } = require('openai')   /   const { default: OpenAI } = await import('openai')
    const pattern = decl.parent;
    const holder = pattern.parent;
    if (ts.isObjectBindingPattern(pattern) && ts.isVariableDeclaration(holder) && holder.initializer) {
      const source = bindingOfExpression(checker, holder.initializer, depth + 1);
      const key = propertyNameText(decl.propertyName ?? (ts.isIdentifier(decl.name) ? decl.name : undefined));
      if (source?.kind === 'module' && key) return { kind: 'export', module: source.module, name: key, node: decl };
    }
    return undefined;
  }
  return undefined;
}

function followAlias(checker: ts.TypeChecker, decl: ts.Declaration, depth: number): ModuleBinding | undefined {
  const target = aliasTarget(checker, decl);
  return target ? bindingOfDeclaration(checker, target, depth + 1) : undefined;
}

/** `require('openai')`, `require('openai').OpenAI`, `mod.AzureOpenAI` where mod is the module… */
export function bindingOfExpression(checker: ts.TypeChecker, expr: ts.Expression, depth = 0, _destructured?: ts.VariableDeclaration): ModuleBinding | undefined {
  if (depth > 8) return undefined;
  const e = unwrap(expr);
  const required = moduleOfRequire(e);
  if (required && !required.startsWith('.')) return { kind: 'module', module: required, node: e };
  if (ts.isIdentifier(e)) {
    const decl = declarationOf(checker, e);
    return decl ? bindingOfDeclaration(checker, decl, depth + 1) : undefined;
  }
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
    const name = ts.isPropertyAccessExpression(e) ? e.name.text : stringValue(e.argumentExpression);
    const base = bindingOfExpression(checker, e.expression, depth + 1);
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
  if (!binding || binding.module !== 'openai') return undefined;
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
