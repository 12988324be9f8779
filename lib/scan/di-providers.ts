/**
 * Dependency injection by token (NestJS, Angular): `constructor(@Inject(OPENAI) private readonly
 * openai: OpenAI)` is filled by the framework with the value of the provider registered for that
 * token, `{ provide: OPENAI, useFactory: () => new OpenAI(…) }` or `{ provide: OPENAI, useValue: … }`.
 * The class is never constructed in view, so W-INJECTED's callers cannot prove the client; the
 * providers of the token can, when every one of them is in view and readable.
 */
import { aliasTarget, bindingOfExpression, declarationOf } from './bindings.js';
import type { ScanContext } from './context.js';
import { propertyNameText, propertyValue, returnExpressions, stringValue, ts, unwrap, walk } from './ast.js';
import { loadedSourceFiles } from './callers.js';
import { symbolOf } from './references.js';
import { wordPattern } from '../regexp.js';

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
  // a file may register it by its value as well as by its name (`{ provide: 'OPENAI_CLIENT', … }`)
  const named = new Set([...search.filesNaming(key.text), ...(key.literal !== undefined ? search.filesNaming(literalText(key.literal)) : [])]);
  // and the files of its package outside the paths given (`migrate-responses src/ai` leaves out
  // src/app.module.ts, which may register the token too): read like the run's, never rewritten
  const words = [key.text, ...(key.literal !== undefined ? [literalText(key.literal)] : [])].map(wordPattern);
  const outside = search.filesOutside(token.getSourceFile().fileName, (text) => words.some((w) => w.test(text)));
  if ('why' in outside) unreadable = outside.why;
  else for (const f of outside) named.add(f);
  const { files, missing } = loadedSourceFiles(ctx, named);
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
  const literal = tokenValue(ctx, e);
  if (!ts.isIdentifier(e) && !ts.isPropertyAccessExpression(e)) return literal === undefined ? undefined : { text: literalText(literal), literal };
  const name = ts.isIdentifier(e) ? e : e.name;
  return { text: name.text, symbol: symbolOf(ctx.checker, name), literal };
}

/**
 * The value a token stands for when the framework compares tokens by value: a string (`'OPENAI'`,
 * or a const or enum member holding one, imported or not) or `Symbol.for('key')` (the same symbol
 * wherever it is written). Undefined for a token compared by identity (a class, a `Symbol()`).
 */
function tokenValue(ctx: ScanContext, token: ts.Expression, depth = 0): string | undefined {
  const e = unwrap(token);
  const literal = stringValue(e);
  if (literal !== undefined) return literal;
  if (ts.isCallExpression(e) && e.expression.getText().replace(/\s+/g, '') === 'Symbol.for' && e.arguments.length === 1) {
    const key = stringValue(unwrap(e.arguments[0]));
    return key === undefined ? undefined : `Symbol.for(${key})`;
  }
  const name = ts.isIdentifier(e) ? e : ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name) ? e.name : undefined;
  if (!name || depth > 3) return undefined;
  let decl = declarationOf(ctx.checker, name);
  decl = decl && (aliasTarget(ctx.checker, decl) ?? decl);
  const init = decl && (ts.isVariableDeclaration(decl) || ts.isEnumMember(decl)) ? decl.initializer : undefined;
  return init ? tokenValue(ctx, init, depth + 1) : undefined;
}

/** The text a file registering the token names it by. */
function literalText(value: string): string {
  const symbolFor = /^Symbol\.for\((.*)\)$/.exec(value);
  return symbolFor ? symbolFor[1] : value;
}

function sameToken(ctx: ScanContext, key: Key, provide: ts.Expression): boolean {
  const e = unwrap(provide);
  if ((ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)) && key.symbol !== undefined && symbolOf(ctx.checker, ts.isIdentifier(e) ? e : e.name) === key.symbol) return true;
  // tokens compared by value: a string, or Symbol.for of the same key, however each is written
  const value = tokenValue(ctx, e);
  return value !== undefined && value === key.literal;
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
