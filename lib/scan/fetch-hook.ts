/**
 * A client's own `fetch` option (P-DEFAULT keeps the provider: a custom fetch out of view is
 * assumed not to rewrite URLs). One in view that reads the request's body
 * (`JSON.parse(init.body).messages`: a token-budget limiter) or tests its URL for the Chat endpoint
 * depends on the request the rewrite changes (`input` for `messages`, `/responses` for
 * `/chat/completions`): after the rewrite it throws, and the SDK retries it and reports a
 * connection error on every call (probe of retry wrappers, run before and after). One in view that
 * sends the request somewhere else (a proxy's `String(input).replace(…)`) leaves the provider
 * unknown (probe of gateways). One that reads the response's body (usage for a cost counter) reads
 * a Response after the rewrite (probe of request options). Such a client's sites are reported.
 */
import { ts, unwrap, propertyValue, findProperty, someNode, isAccess, isConsoleArgument, accessName, stringValue, shortText } from './ast.js';
import { functionValue } from './references.js';
import { objectInView } from './http.js';
import { locationOf, type ScanContext } from './context.js';

/**
 * What a client's `fetch` option in view does with the request: `reads` the Chat request (its
 * body, or its URL tested for the Chat endpoint), or `redirects` it (the URL it was given is not
 * what it passes on: `String(input).replace(OPENAI, PROXY)`, a `new URL(input)` whose host it sets,
 * another URL: a LiteLLM or OpenRouter hook, whose host may not serve /responses; probe of
 * gateways). Undefined when it passes the request on as it came.
 */
export function fetchHookEffect(options: ts.Expression | undefined, ctx: ScanContext): { kind: 'reads' | 'redirects'; detail: string } | undefined {
  const object = options && objectInView(options, ctx);
  const value = object && propertyValue(findProperty(object, 'fetch'));
  const hook = value && functionValue(ctx.checker, value);
  if (!hook?.body) return undefined;
  const [url, init] = hook.parameters.map((p) => p.name);
  const where = `the client's fetch option ${shortText(value!, 30)} (${locationOf(ctx, hook)})`;
  const readsBody = init && (ts.isObjectBindingPattern(init)
    ? init.elements.some((el) => (el.propertyName ?? el.name).getText() === 'body')
    : ts.isIdentifier(init) && readsMember(hook.body, init.text, 'body'));
  if (readsBody) return { kind: 'reads', detail: `${where} reads the request's body, which the rewrite changes (input for messages)` };
  if (url && ts.isIdentifier(url) && someNode(hook.body, (n) => (stringValue(n) ?? '').includes('completions'))) {
    return { kind: 'reads', detail: `${where} tests the request's URL, which the rewrite changes (/responses for /chat/completions)` };
  }
  // `const b = await res.clone().json(); spent += b.usage.prompt_tokens` (probe of request options:
  // cost counters that stayed at 0 once the body was a Response)
  const bodyRead = someNode(hook.body, (n) => ts.isCallExpression(n) && isAccess(n.expression) && RESPONSE_BODY_READS.has(accessName(n.expression) ?? '') && n.arguments.length === 0);
  if (bodyRead) return { kind: 'reads', detail: `${where} reads the response's body, which the rewrite changes (a Response, not a ChatCompletion)` };
  const passesOn = url && ts.isIdentifier(url) && onlyPassedOn(hook.body, url.text, init && ts.isIdentifier(init) ? init.text : undefined);
  return passesOn ? undefined : { kind: 'redirects', detail: `${where} does not pass the request's URL on as it came` };
}

/** The methods that read a fetch Response's body. */
const RESPONSE_BODY_READS = new Set(['json', 'text', 'arrayBuffer', 'blob', 'formData']);

/**
 * `name` reaches a fetch as its first argument (`fetch(input, init)`, `undici.fetch(url, { ...init,
 * dispatcher })`: a call named like a fetch or given the hook's `init` too), and is otherwise only
 * logged. `String(input).replace(…)` is not passing it on.
 */
function onlyPassedOn(body: ts.Node, name: string, init: string | undefined): boolean {
  let passed = false;
  const other = someNode(body, (n) => {
    if (!ts.isIdentifier(n) || n.text !== name || isConsoleArgument(n)) return false;
    const p = n.parent;
    if (ts.isCallExpression(p) && p.arguments[0] === n && (/fetch|request/i.test(lastName(p.expression)) || (init !== undefined && mentions(p.arguments[1], init)))) {
      passed = true;
      return false;
    }
    return true;
  });
  return passed && !other;
}

/** `fetch` of `fetch(…)` and of `undici.fetch(…)`; '' for any other callee. */
function lastName(callee: ts.Expression): string {
  const c = unwrap(callee);
  return ts.isIdentifier(c) ? c.text : ts.isPropertyAccessExpression(c) ? c.name.text : '';
}

/** `name` itself, or inside (`{ ...init, agent }`). */
function mentions(e: ts.Expression | undefined, name: string): boolean {
  const named = (n: ts.Node) => ts.isIdentifier(n) && n.text === name;
  return e !== undefined && (named(e) || someNode(e, named));
}

/** `name.member` (or `name?.member`, `name['member']`) somewhere in `body`. */
function readsMember(body: ts.Node, name: string, member: string): boolean {
  return someNode(body, (n) => isAccess(n) && accessName(n) === member && ts.isIdentifier(unwrap(n.expression)) && (unwrap(n.expression) as ts.Identifier).text === name);
}
