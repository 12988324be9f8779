/**
 * W-FOLLOW through a module's exports: the callers of an exported function are found by its name
 * (callers.ts), but a module object reaches it without naming it (`const ai = require('./ai');
 * ai[command](q)`, `import * as ai from './ai'; makeReply(ai)`). Such a caller keeps reading the
 * Chat shape after the rewrite (probe of CommonJS bots, 2026-12-05: a TypeError at run time), so
 * following stops at a module object that is used other than by reading a member by name.
 */
import { ts, climbWrappers, stringValue, walk } from './ast.js';
import { moduleSpecifierOf, resolvedModule } from './default-imports.js';
import { referencesOf } from './references.js';

/**
 * How `sf` uses the module object of `moduleFile` other than by a member read by name (`ai.ask`,
 * `ai['ask']`), described with the node where it happens; undefined when it never does.
 */
export function moduleObjectEscape(checker: ts.TypeChecker, sf: ts.SourceFile, moduleFile: ts.SourceFile): Escape | undefined {
  let known = ESCAPES.get(checker);
  if (!known) ESCAPES.set(checker, (known = new WeakMap()));
  let byModule = known.get(sf);
  if (!byModule) known.set(sf, (byModule = new Map()));
  if (!byModule.has(moduleFile.fileName)) byModule.set(moduleFile.fileName, findEscape(checker, sf, moduleFile));
  return byModule.get(moduleFile.fileName);
}

type Escape = { how: string; at: ts.Node };

/** moduleObjectEscape's answers per checker, importing file and module: each exported function of a module asks again. */
const ESCAPES = new WeakMap<ts.TypeChecker, WeakMap<ts.SourceFile, Map<string, Escape | undefined>>>();

function findEscape(checker: ts.TypeChecker, sf: ts.SourceFile, moduleFile: ts.SourceFile): Escape | undefined {
  let found: Escape | undefined;
  const objectDefault = defaultsToObject(moduleFile);
  walk(sf, (n) => {
    if (found) return false;
    const spec = moduleSpecifierOf(n);
    if (!spec || resolvedModule(checker, spec) !== moduleFile) return undefined;
    if (ts.isExportDeclaration(n) && n.exportClause && ts.isNamespaceExport(n.exportClause)) {
      found = { how: 'the module is exported again as a namespace', at: n };
      return false;
    }
    for (const binding of moduleObjectBindings(n, moduleFile)) {
      for (const r of referencesOf(checker, binding)) {
        if (r === binding) continue;
        // `m.default` of `export default { ask }`: the object of its functions, used as `m` would be
        const read = climbWrappers(r).parent;
        const member = ts.isPropertyAccessExpression(read) && read.name.text === 'default' && objectDefault ? read : r;
        const how = valueUse(member);
        if (how) {
          found = { how: `the module object ${binding.text} ${how}`, at: r };
          return false;
        }
      }
    }
    // `require('./ai')[command](q)`, `makeReply(require('./ai'))`, `import('./ai').then((m) => …)`
    if (ts.isCallExpression(n) && !moduleObjectBindings(n, moduleFile).length && !boundByName(n)) {
      const how = n.expression.kind === ts.SyntaxKind.ImportKeyword ? 'is imported dynamically into a value' : valueUse(n);
      if (how) {
        found = { how: `the module object ${how}`, at: n };
        return false;
      }
    }
    return undefined;
  });
  return found;
}

/**
 * The names a module reference binds to the module object: `import * as m`, `import m = require()`,
 * `const m = require()`, `const m = await import()`, and `import m` when the module has no ECMAScript
 * default export (a CommonJS module's default import is its exports object).
 */
function moduleObjectBindings(n: ts.Node, moduleFile: ts.SourceFile): ts.Identifier[] {
  if (ts.isImportDeclaration(n)) {
    const clause = n.importClause;
    if (!clause || clause.isTypeOnly) return [];
    const namespace = clause.namedBindings && ts.isNamespaceImport(clause.namedBindings) ? [clause.namedBindings.name] : [];
    // a default import is the module object when the module has no default export, and an object of
    // its functions when that is `export default { ask, … }`: both handed on hide their calls
    const objectOfExports = clause.name && (!hasDefaultExport(moduleFile) || defaultsToObject(moduleFile));
    return [...namespace, ...(objectOfExports ? [clause.name!] : [])];
  }
  if (ts.isImportEqualsDeclaration(n)) return [n.name];
  if (!ts.isCallExpression(n)) return [];
  let value = climbWrappers(n);
  if (ts.isAwaitExpression(value.parent)) value = climbWrappers(value.parent);
  const decl = value.parent;
  return ts.isVariableDeclaration(decl) && decl.initializer === value && ts.isIdentifier(decl.name) ? [decl.name] : [];
}

/** `export default …`, `export { x as default }`: the module's default import is that value, not the module. */
function hasDefaultExport(sf: ts.SourceFile): boolean {
  return sf.statements.some((st) => (ts.isExportAssignment(st) && !st.isExportEquals) ||
    (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) ||
    (ts.isExportDeclaration(st) && st.exportClause !== undefined && ts.isNamedExports(st.exportClause) && st.exportClause.elements.some((el) => el.name.text === 'default')));
}

/** `export default { … }`: the default export is an object of the module's members. */
function defaultsToObject(sf: ts.SourceFile): boolean {
  return sf.statements.some((st) => ts.isExportAssignment(st) && !st.isExportEquals && ts.isObjectLiteralExpression(climbWrappers(st.expression)));
}

/** `const { a } = require('./m')` (or `await import('./m')`): the members are taken by name (callers.ts follows them). */
function boundByName(call: ts.CallExpression): boolean {
  let value = climbWrappers(call);
  if (ts.isAwaitExpression(value.parent)) value = climbWrappers(value.parent);
  const decl = value.parent;
  return ts.isVariableDeclaration(decl) && decl.initializer === value && ts.isObjectBindingPattern(decl.name);
}

/** How a reference to a module object uses it as a value, or undefined for a member read by name (or a call of it). */
function valueUse(r: ts.Expression): string | undefined {
  const outer = climbWrappers(r);
  const parent = outer.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === outer) return undefined;
  if (ts.isElementAccessExpression(parent) && parent.expression === outer) {
    return stringValue(parent.argumentExpression) !== undefined ? undefined : 'is indexed by a computed key';
  }
  // a default import that is the function itself: its calls are found by default-imports.ts
  if (ts.isCallExpression(parent) && parent.expression === outer) return undefined;
  if (ts.isTypeQueryNode(parent) || ts.isQualifiedName(parent)) return undefined;
  return 'is used as a value';
}
