/**
 * The model names a request's `model` value may hold (R-MODEL, T-REASONING-REPLAY): a literal, an
 * expression typed by string literals (a const, also through `{ model }`), or a parameter of the
 * site's function given such a value by every call of it in the project (its default where a call
 * leaves it out). Anything else is not known, and says how.
 */
import { ts, stringValue, unwrap, shortText } from './ast.js';
import { aliasTarget, declarationOf } from './bindings.js';
import type { ScanContext } from './context.js';
import { argumentsFor, parameterSlot } from './parameter-values.js';

export type ModelNames = readonly string[] | { unknown: string };

export function modelNames(ctx: ScanContext, value: ts.Expression): ModelNames {
  const own = literalNames(ctx.checker, value);
  if (own) return own;
  const inner = unwrap(value);
  const slot = ts.isIdentifier(inner) ? parameterSlot(ctx.checker, inner) : undefined;
  const notKnown = { unknown: `model ${shortText(value, 40)} is not a model name literal` };
  if (!slot) return notKnown;
  const args = argumentsFor(ctx, slot);
  if ('stop' in args || !args.given.length) return notKnown;
  const names = new Set<string>();
  for (const { value: given } of args.given) {
    const found = given && literalNames(ctx.checker, given);
    if (!found) return notKnown;
    for (const name of found) names.add(name);
  }
  return [...names];
}

/** A literal, or the string literal types of a name's variable or of the expression. */
function literalNames(checker: ts.TypeChecker, value: ts.Expression): string[] | undefined {
  const literal = stringValue(value);
  if (literal !== undefined) return [literal];
  const looked = tableNames(checker, value);
  if (looked) return looked;
  const type = declaredTypeOf(checker, value) ?? checker.getTypeAtLocation(value);
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((t) => t.isStringLiteral()) ? parts.map((t) => (t as ts.StringLiteralType).value) : undefined;
}

/** The type of the variable a name refers to (`{ model }` is typed by the property, not by `const model = 'gpt-4.1'`). */
function declaredTypeOf(checker: ts.TypeChecker, value: ts.Expression): ts.Type | undefined {
  const inner = unwrap(value);
  if (!ts.isIdentifier(inner)) return undefined;
  // `{ model }` names the const, not the property; an import names the exporting module's const
  let decl = declarationOf(checker, inner);
  if (decl) decl = aliasTarget(checker, decl) ?? decl;
  return decl && ts.isVariableDeclaration(decl) ? checker.getTypeAtLocation(decl.name) : undefined;
}

/**
 * `MODELS[tier]`, `MODELS.fast`: a read of a const object literal whose values are all string
 * literals (`Record<Tier, string>` types them as string): the value read, or every value for a key
 * computed at run time (probe of request options: `{ fast: 'llama-3.1-8b-instant' }` behind a
 * default client was taken for an OpenAI model).
 */
function tableNames(checker: ts.TypeChecker, value: ts.Expression): string[] | undefined {
  const inner = unwrap(value);
  if (!ts.isElementAccessExpression(inner) && !ts.isPropertyAccessExpression(inner)) return undefined;
  const table = unwrap(inner.expression);
  if (!ts.isIdentifier(table)) return undefined;
  let decl = declarationOf(checker, table);
  if (decl) decl = aliasTarget(checker, decl) ?? decl;
  if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer || !(decl.parent.flags & ts.NodeFlags.Const)) return undefined;
  const object = unwrap(decl.initializer);
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  const entries = object.properties.map((p) => ({
    key: p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined,
    name: ts.isPropertyAssignment(p) ? stringValue(p.initializer) : undefined,
  }));
  if (entries.some((e) => e.name === undefined)) return undefined;
  const key = ts.isPropertyAccessExpression(inner) ? inner.name.text : stringValue(inner.argumentExpression);
  if (key === undefined) return entries.map((e) => e.name!);
  const entry = entries.find((e) => e.key === key);
  return entry ? [entry.name!] : undefined;
}
