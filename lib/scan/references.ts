/** Finding every use of a local binding, without the language service. */
import { ts, walk, unwrap, isFunctionLike } from './ast.js';

/** Identifiers (other than the declaration's own name) that refer to the same symbol. */
export function referencesOf(checker: ts.TypeChecker, name: ts.Identifier): ts.Identifier[] {
  const symbol = checker.getSymbolAtLocation(name);
  if (!symbol) return [];
  const scope = declarationScope(name);
  const out: ts.Identifier[] = [];
  walk(scope, (n) => {
    if (ts.isIdentifier(n) && n !== name && n.text === name.text) {
      const s = shorthandValueSymbol(checker, n) ?? checker.getSymbolAtLocation(n);
      if (s === symbol) out.push(n);
    }
  });
  return out;
}

function shorthandValueSymbol(checker: ts.TypeChecker, id: ts.Identifier): ts.Symbol | undefined {
  return ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id ? checker.getShorthandAssignmentValueSymbol(id.parent) : undefined;
}

/** The block, function or file a declaration is visible in. */
function declarationScope(name: ts.Node): ts.Node {
  let current: ts.Node | undefined = name.parent;
  while (current) {
    if (ts.isSourceFile(current)) return current;
    if (ts.isParameter(current)) {
      return current.parent;
    }
    if (ts.isVariableDeclarationList(current)) {
      const isBlockScoped = (current.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== 0;
      let scope: ts.Node | undefined = current.parent;
      while (scope && !(ts.isSourceFile(scope) || (isBlockScoped ? isBlockLike(scope) : isFunctionScope(scope)))) scope = scope.parent;
      return scope ?? name.getSourceFile();
    }
    current = current.parent;
  }
  return name.getSourceFile();
}

function isBlockLike(n: ts.Node): boolean {
  return ts.isBlock(n) || ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n) || ts.isCaseBlock(n) || isFunctionScope(n);
}

function isFunctionScope(n: ts.Node): boolean {
  return ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n) ||
    ts.isConstructorDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n) || ts.isSourceFile(n);
}

/**
 * `export function f`, `export const f`, `export { f }`, `export default f`, `module.exports = { f }`,
 * `exports.f = f`: the binding is visible outside its file. A re-export whose name the checker
 * cannot resolve counts (the answer that keeps the binding's uses in view).
 */
export function isExported(checker: ts.TypeChecker, name: ts.Identifier): boolean {
  const decl = name.parent;
  const statement = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
  if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return true;
  const target = symbolOf(checker, name);
  let exported = false;
  walk(name.getSourceFile(), (n) => {
    if (exported) return false;
    if (ts.isIdentifier(n) && n.text === name.text && n !== name) {
      const p = n.parent;
      const plumbing = ts.isExportSpecifier(p) || ts.isExportAssignment(p) ||
        ((ts.isShorthandPropertyAssignment(p) || ts.isPropertyAssignment(p)) && isExportedObject(p.parent)) ||
        (ts.isBinaryExpression(p) && p.right === n && /^(module\.)?exports\b/.test(p.left.getText()));
      const s = plumbing ? symbolOf(checker, n) : undefined;
      if (plumbing && (s === target || s === undefined)) exported = true;
    }
    return undefined;
  });
  return exported;
}

/**
 * An object of a module's exports read by its importers as members: `module.exports = { … }`, or
 * `export default { … }` (a default import is then that object: `ai.ask(q)`).
 */
export function isExportedObject(obj: ts.Node): boolean {
  return isModuleExports(obj) || (ts.isObjectLiteralExpression(obj) && ts.isExportAssignment(obj.parent) && !obj.parent.isExportEquals && obj.parent.expression === obj);
}

/** `module.exports = { … }` / `exports = { … }`. */
export function isModuleExports(obj: ts.Node): boolean {
  const assign = obj.parent;
  return Boolean(assign && ts.isBinaryExpression(assign) && assign.right === obj && /^(module\.)?exports$/.test(assign.left.getText()));
}

/** The symbol an identifier resolves to, through aliases (an import, a shorthand `{ f }`); undefined when the checker cannot tell. */
export function symbolOf(checker: ts.TypeChecker, id: ts.Node): ts.Symbol | undefined {
  try {
    const shorthand = ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id;
    const s = shorthand ? checker.getShorthandAssignmentValueSymbol(id.parent) : checker.getSymbolAtLocation(id);
    return s && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  } catch {
    return undefined;
  }
}

/**
 * The function a value is: written in place, or a function of the project it names (a
 * declaration, a method, a const holding one: `.catch(handleError)`, `fetch: limitedFetch`).
 */
export function functionValue(checker: ts.TypeChecker, e: ts.Expression): ts.FunctionLikeDeclaration | undefined {
  const value = unwrap(e);
  if (isFunctionLike(value)) return value;
  const name = ts.isIdentifier(value) ? value : ts.isPropertyAccessExpression(value) && ts.isIdentifier(value.name) ? value.name : undefined;
  const decl = name && symbolOf(checker, name)?.declarations?.[0];
  if (!decl || decl.getSourceFile().isDeclarationFile || decl.getSourceFile().fileName.includes('/node_modules/')) return undefined;
  if (isFunctionLike(decl)) return decl;
  const init = ts.isVariableDeclaration(decl) && decl.initializer ? unwrap(decl.initializer) : undefined;
  return init && isFunctionLike(init) ? init : undefined;
}
