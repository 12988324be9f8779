/**
 * Dependency injection by token (NestJS, Angular): `constructor(@Inject(OPENAI) private readonly
 * openai: OpenAI)` is filled by the framework with the value of the provider registered for that
 * token, `{ provide: OPENAI, useFactory: () => new OpenAI(…) }` or `{ provide: OPENAI, useValue: … }`.
 * The class is never constructed in view, so W-INJECTED's callers cannot prove the client; the
 * providers of the token can, when every one of them is in view and readable.
 */
import { bindingOfExpression, declarationOf } from './bindings.js';
import type { ScanContext } from './context.js';
import { propertyNameText, propertyValue, returnExpressions, stringValue, ts, unwrap, walk } from './ast.js';
import { loadedSourceFiles } from './callers.js';
import { symbolOf } from './references.js';

/** The packages whose `Inject` decorator injects by token. */
const DI_PACKAGES: ReadonlySet<string> = new Set(['@nestjs/common', '@angular/core']);

export type TokenProviders =
  /** What the providers of the token give: values to follow, or why one cannot be read. */
  | { values: ts.Expression[]; unreadable?: string }
  /** Files that may register the token are being loaded: the scan runs again. */
  | { pending: true };

/** The token of an `@Inject(token)` decorator on a constructor parameter, if it has one. */
export function injectToken(ctx: ScanContext, param: ts.ParameterDeclaration): ts.Expression | undefined {
  if (!ts.isConstructorDeclaration(param.parent)) return undefined;
  for (const d of ts.getDecorators(param) ?? []) {
    const call = d.expression;
    if (!ts.isCallExpression(call) || call.arguments.length !== 1) continue;
    const binding = bindingOfExpression(ctx, call.expression);
    if (binding?.kind === 'export' && binding.name === 'Inject' && DI_PACKAGES.has(binding.module)) return call.arguments[0];
  }
  return undefined;
}

/**
 * The providers registered for `token` in the files of the run that name it: undefined when there
 * are none (nothing is known), `pending` while some of those files are not loaded yet.
 */
export function tokenProviders(ctx: ScanContext, token: ts.Expression): TokenProviders | undefined {
  const search = ctx.callerSearch;
  const key = tokenKey(ctx, token);
  if (!search || !key) return undefined;
  const values: ts.Expression[] = [];
  let unreadable: string | undefined;
  const { files, missing } = loadedSourceFiles(ctx, search.filesNaming(key.text));
  for (const sf of files) {
    walk(sf, (n) => {
      if (!ts.isObjectLiteralExpression(n)) return;
      const provide = propertyValue(n.properties.find((p) => propertyNameText(p.name) === 'provide'));
      if (!provide || !sameToken(ctx, key, provide)) return;
      const read = providedValues(n);
      if ('values' in read) values.push(...read.values);
      else unreadable ??= read.why;
    });
  }
  if (missing.length) return { pending: true };
  if (!values.length && !unreadable) return undefined;
  return { values, unreadable };
}

type Key = { text: string; symbol?: ts.Symbol; literal?: string };

function tokenKey(ctx: ScanContext, token: ts.Expression): Key | undefined {
  const e = unwrap(token);
  const literal = stringValue(e);
  if (literal !== undefined) return { text: literal, literal };
  if (!ts.isIdentifier(e)) return undefined;
  // a const whose value is a string (`export const OPENAI = 'OPENAI'`) is that string too
  const decl = declarationOf(ctx.checker, e);
  const value = decl && ts.isVariableDeclaration(decl) && decl.initializer ? stringValue(unwrap(decl.initializer)) : undefined;
  return { text: e.text, symbol: symbolOf(ctx.checker, e), literal: value };
}

function sameToken(ctx: ScanContext, key: Key, provide: ts.Expression): boolean {
  const e = unwrap(provide);
  if (ts.isIdentifier(e)) return key.symbol !== undefined && symbolOf(ctx.checker, e) === key.symbol;
  const literal = stringValue(e);
  return literal !== undefined && literal === key.literal;
}

/** `useValue: v` → v; `useFactory: () => v` (or a method) → what it returns; anything else cannot be read. */
function providedValues(provider: ts.ObjectLiteralExpression): { values: ts.Expression[] } | { why: string } {
  const element = (name: string) => provider.properties.find((p) => propertyNameText(p.name) === name);
  const value = propertyValue(element('useValue'));
  if (value) return { values: [value] };
  const factory = element('useFactory');
  if (factory) {
    const fn = ts.isMethodDeclaration(factory) ? factory : propertyValue(factory) && unwrap(propertyValue(factory)!);
    if (fn && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn))) {
      return { values: returnExpressions(fn).map((r) => (ts.isAwaitExpression(r) ? r.expression : r)) };
    }
    return { why: 'a provider whose factory is not written in place' };
  }
  if (element('useClass') || element('useExisting')) return { why: 'a provider by class or alias' };
  return { why: 'a provider the tool cannot read' };
}
