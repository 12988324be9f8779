/**
 * A client's own `fetch` option (P-DEFAULT keeps the provider: a custom fetch is assumed not to
 * rewrite URLs). One in view that reads the request's body (`JSON.parse(init.body).messages`: a
 * token-budget limiter) or tests its URL for the Chat endpoint depends on the request the
 * rewrite changes (`input` for `messages`, `/responses` for `/chat/completions`): after the
 * rewrite it throws, and the SDK retries it and reports a connection error on every call (probe
 * of retry wrappers, run before and after). Such a client's sites are reported.
 */
import { ts, unwrap, propertyValue, findProperty, someNode, isAccess, accessName, stringValue, shortText } from './ast.js';
import { functionValue } from './references.js';
import { objectInView } from './http.js';
import { locationOf, type ScanContext } from './context.js';

/** What the `fetch` option of a client's options reads of the request, with where; undefined when it reads neither. */
export function fetchHookReading(options: ts.Expression | undefined, ctx: ScanContext): string | undefined {
  const object = options && objectInView(options, ctx);
  const value = object && propertyValue(findProperty(object, 'fetch'));
  const hook = value && functionValue(ctx.checker, value);
  if (!hook?.body) return undefined;
  const [url, init] = hook.parameters.map((p) => p.name);
  const readsBody = init && (ts.isObjectBindingPattern(init)
    ? init.elements.some((el) => (el.propertyName ?? el.name).getText() === 'body')
    : ts.isIdentifier(init) && readsMember(hook.body, init.text, 'body'));
  const where = `the client's fetch option ${shortText(value!, 30)} (${locationOf(ctx, hook)})`;
  if (readsBody) return `${where} reads the request's body, which the rewrite changes (input for messages)`;
  if (url && ts.isIdentifier(url) && someNode(hook.body, (n) => (stringValue(n) ?? '').includes('completions'))) {
    return `${where} tests the request's URL, which the rewrite changes (/responses for /chat/completions)`;
  }
  return undefined;
}

/** `name.member` (or `name?.member`, `name['member']`) somewhere in `body`. */
function readsMember(body: ts.Node, name: string, member: string): boolean {
  return someNode(body, (n) => isAccess(n) && accessName(n) === member && ts.isIdentifier(unwrap(n.expression)) && (unwrap(n.expression) as ts.Identifier).text === name);
}
