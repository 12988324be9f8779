/** Finding every use of a local binding, without the language service. */
import { ts, walk } from './ast.js';

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

/** `export const x`, `export { x }`, `module.exports = { x }`: the binding is visible outside its file. */
export function isExported(checker: ts.TypeChecker, name: ts.Identifier): boolean {
  const decl = name.parent;
  const statement = decl?.parent?.parent;
  if (statement && ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return true;
  const symbol = checker.getSymbolAtLocation(name);
  if (!symbol) return false;
  let exported = false;
  walk(name.getSourceFile(), (n) => {
    if (exported) return false;
    if (ts.isExportSpecifier(n) && (n.propertyName ?? n.name).getText() === name.text) exported = true;
    if (ts.isExportAssignment(n) && ts.isIdentifier(n.expression) && n.expression.text === name.text) exported = true;
    return undefined;
  });
  return exported;
}
