/**
 * A value taken from a module that does not exist: a relative import that names no file or folder
 * under any extension (corpus: 3rd-devs' chat/app.ts imports './OpenAIService', which the repository
 * lacks). No value of the project reaches code through it: loading the import fails first. Only a
 * relative specifier counts; a bare or aliased one may be resolved by a bundler this scan cannot see.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ts, unwrap } from './ast.js';
import { declarationOf } from './bindings.js';

const MAX_STEPS = 5;

export function fromMissingModule(checker: ts.TypeChecker, expression: ts.Expression, steps = 0): boolean {
  if (steps > MAX_STEPS) return false;
  const e = unwrap(expression);
  if (ts.isNewExpression(e) || ts.isCallExpression(e) || ts.isPropertyAccessExpression(e)) return fromMissingModule(checker, e.expression, steps + 1);
  if (ts.isAwaitExpression(e)) return fromMissingModule(checker, e.expression, steps + 1);
  if (!ts.isIdentifier(e)) return false;
  const decl = declarationOf(checker, e);
  if (!decl) return false;
  if (ts.isVariableDeclaration(decl)) {
    return Boolean(decl.initializer && decl.parent.flags & ts.NodeFlags.Const) && fromMissingModule(checker, decl.initializer!, steps + 1);
  }
  const importDecl = ts.isImportSpecifier(decl) ? decl.parent.parent.parent : ts.isImportClause(decl) ? decl.parent : ts.isNamespaceImport(decl) ? decl.parent.parent : undefined;
  if (!importDecl || !ts.isStringLiteral(importDecl.moduleSpecifier)) return false;
  return isMissingRelative(decl.getSourceFile().fileName, importDecl.moduleSpecifier.text);
}

function isMissingRelative(importer: string, specifier: string): boolean {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return false;
  const target = path.resolve(path.dirname(importer), specifier);
  const bases = [target, target.replace(/\.[cm]?[jt]sx?$/, '')];
  return bases.every((base) => {
    let names: string[];
    try {
      names = readdirSync(path.dirname(base));
    } catch {
      return true;
    }
    const name = path.basename(base);
    return !names.some((n) => n === name || n.startsWith(name + '.'));
  });
}
