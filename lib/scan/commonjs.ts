/**
 * What a project module gives `require()`: the values its `module.exports = …`,
 * `module.exports.name = …` and `exports.name = …` assign (the provider analysis and the v3
 * client check both follow a client built in another CommonJS module).
 */
import { ts, unwrap, stringValue, propertyNameText, propertyValue } from './ast.js';
import type { BindingScope } from './bindings.js';

/**
 * `require('./client')` (member undefined) or its `.client` / `{ client } =` (member 'client'):
 * the expressions the project module assigns to that export, or undefined when `call` is not a
 * `require` of a project module the program holds.
 */
export function requiredExports(scope: BindingScope, call: ts.Expression, member: string | undefined): ts.Expression[] | undefined {
  const e = unwrap(call);
  if (!isRequireCall(e)) return undefined;
  const spec = stringValue(e.arguments[0]);
  if (!spec || scope.resolve(spec, e.getSourceFile().fileName).kind !== 'project') return undefined;
  const module = scope.checker.getSymbolAtLocation(e.arguments[0]);
  const sf = module?.valueDeclaration && ts.isSourceFile(module.valueDeclaration) ? module.valueDeclaration : undefined;
  return sf ? commonJsAssignments(sf, member) : undefined;
}

/** A call of `require` (a comment that mentions one is none). */
export function isRequireCall(n: ts.Node): n is ts.CallExpression {
  return ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'require';
}

/**
 * The top-level `module.exports = X`, `module.exports.name = X` and `exports.name = X` of a file:
 * each target as written (spaces removed) and X. A file with one is CommonJS, `require` or not.
 */
export function commonJsExportWrites(sf: ts.SourceFile): { target: string; right: ts.Expression }[] {
  const out: { target: string; right: ts.Expression }[] = [];
  for (const statement of sf.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
    const { left, right, operatorToken } = statement.expression;
    if (operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
    const target = left.getText(sf).replace(/\s+/g, '');
    if (/^(module\.exports|exports)\b/.test(target)) out.push({ target, right });
  }
  return out;
}

/** Right-hand sides of `module.exports = X`, `module.exports.name = X`, `exports.name = X`, and `{ name: X }` objects. */
function commonJsAssignments(sf: ts.SourceFile, member: string | undefined): ts.Expression[] {
  const out: ts.Expression[] = [];
  for (const { target, right } of commonJsExportWrites(sf)) {
    if (target === 'module.exports') {
      const value = unwrap(right);
      if (member === undefined) out.push(right);
      else if (ts.isObjectLiteralExpression(value)) {
        const p = value.properties.find((x) => propertyNameText(x.name) === member);
        const v = propertyValue(p);
        if (v) out.push(v);
      }
    } else if (member !== undefined && (target === `module.exports.${member}` || target === `exports.${member}`)) {
      out.push(right);
    }
  }
  return out;
}
