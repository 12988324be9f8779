/**
 * W-FOLLOW through a default export: its importers name it as they like (`import ask from './ai'`,
 * `const callChat = require('./chat')`), so its callers are found by the module they import, not
 * by its name. This module finds, in one importing file, the local names bound to a module's
 * default export, or the way in that hides the calls (a namespace import, a re-export, a dynamic
 * import, a `require` whose value is not bound to a name): following stops there.
 */
import { ts, climbWrappers, stringValue, walk } from './ast.js';
import { isRequireCall } from './commonjs.js';
import { moduleNames } from './injected.js';
import { symbolOf } from './references.js';

export type DefaultBindings = { locals: ts.Identifier[] } | { stop: string; at: ts.Node };

/** The local names `sf` binds to the default export of `moduleFile` (also `module.exports = f`). */
export function defaultImportBindings(checker: ts.TypeChecker, sf: ts.SourceFile, moduleFile: ts.SourceFile): DefaultBindings {
  const locals: ts.Identifier[] = [];
  let stop: { stop: string; at: ts.Node } | undefined;
  walk(sf, (n) => {
    if (stop) return false;
    const spec = moduleSpecifierOf(n);
    if (!spec) return undefined;
    const target = resolvedModule(checker, spec);
    if (target === 'unresolved') {
      if (mayName(stringValue(spec) ?? '', moduleFile.fileName)) stop = { stop: `is imported from '${stringValue(spec)}', which the tool cannot resolve (a bundler's alias?)`, at: spec };
      return undefined;
    }
    if (target !== moduleFile) return undefined;
    const found = boundNames(n as ModuleReference);
    if (typeof found === 'string') stop = { stop: found, at: spec };
    else locals.push(...found);
    return undefined;
  });
  return stop ?? { locals };
}

type ModuleReference = ts.ImportDeclaration | ts.ExportDeclaration | ts.ImportEqualsDeclaration | ts.CallExpression;

/** The module specifier `n` reads, when `n` is an import, a re-export, `import x = require(…)`, `require(…)` or `import(…)`. */
export function moduleSpecifierOf(n: ts.Node): ts.StringLiteralLike | undefined {
  let spec: ts.Node | undefined;
  if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) spec = n.moduleSpecifier;
  else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) spec = n.moduleReference.expression;
  else if (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || isRequireCall(n))) spec = n.arguments[0];
  return spec && ts.isStringLiteralLike(spec) ? spec : undefined;
}

/** The source file a specifier resolves to, 'unresolved', or undefined for a package. */
export function resolvedModule(checker: ts.TypeChecker, spec: ts.StringLiteralLike): ts.SourceFile | 'unresolved' | undefined {
  const symbol = symbolOf(checker, spec);
  const decl = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (decl && ts.isSourceFile(decl)) return decl;
  return isProjectSpecifier(spec.text) ? 'unresolved' : undefined;
}

/** A specifier of the project's own modules (relative, absolute, or an alias: `@/`, `~`, `#`, `$`), not a package's. */
export function isProjectSpecifier(spec: string): boolean {
  return /^(\.|\/|@\/|~|#|\$)/.test(spec);
}

/** A specifier's last segment is the module's file name (or its folder's, for an index). */
function mayName(spec: string, moduleFile: string): boolean {
  const last = spec.split('/').pop()?.replace(/\.[a-z]+$/, '');
  return last !== undefined && moduleNames(moduleFile).includes(last);
}

/** The names one reference to the module binds to its default export, or why its calls are hidden. */
function boundNames(n: ModuleReference): ts.Identifier[] | string {
  if (ts.isImportDeclaration(n)) {
    const clause = n.importClause;
    if (!clause || clause.isTypeOnly) return [];
    if (clause.namedBindings && ts.isNamespaceImport(clause.namedBindings)) return 'is imported as a namespace';
    const named = clause.namedBindings?.elements.filter((el) => !el.isTypeOnly && (el.propertyName ?? el.name).text === 'default').map((el) => el.name) ?? [];
    return [...(clause.name ? [clause.name] : []), ...named];
  }
  if (ts.isExportDeclaration(n)) {
    if (n.exportClause && ts.isNamespaceExport(n.exportClause)) return 'is exported again as a namespace';
    const again = n.exportClause?.elements.some((el) => (el.propertyName ?? el.name).text === 'default');
    return again ? 'is exported again under another name' : [];
  }
  if (ts.isImportEqualsDeclaration(n)) return [n.name];
  if (!isRequireCall(n)) return 'is imported dynamically';
  // `const x = require('./m')`, `const x = require('./m').default`, `const { default: x } = require('./m')`
  let value = climbWrappers(n);
  if (ts.isPropertyAccessExpression(value.parent) && value.parent.expression === value && value.parent.name.text === 'default') value = climbWrappers(value.parent);
  const decl = value.parent;
  if (!ts.isVariableDeclaration(decl) || decl.initializer !== value) return 'is required other than into a name';
  if (ts.isIdentifier(decl.name)) return [decl.name];
  if (ts.isObjectBindingPattern(decl.name)) {
    return decl.name.elements.filter((el) => el.propertyName && ts.isIdentifier(el.propertyName) && el.propertyName.text === 'default' && ts.isIdentifier(el.name)).map((el) => el.name as ts.Identifier);
  }
  return 'is required other than into a name';
}
