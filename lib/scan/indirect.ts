/**
 * The invocations of a chat method that is not called directly (A-CREATE: such a site is
 * receiver-not-client), so that its request and result are still analysed and every failing
 * reason is listed (G-ATOMIC): `create.call(thisArg, params)`, `create.apply(thisArg, [params])`,
 * and the calls of a method detached into a const (`const create = ….create.bind(…)`,
 * `const { create } = client.chat.completions`, `const create = ….create`).
 */
import { ts, unwrap, accessName, isAccess, climbWrappers } from './ast.js';
import { referencesOf } from './references.js';

export interface Invocation {
  /** The call whose value is the request's promise (or stream). */
  call: ts.CallExpression;
  /** Its params argument, when one is passed. */
  params?: ts.Expression;
}

/** `site` is the indirect site's node: the `.call/.apply/.bind` call, the detached access, or a destructured initialiser. */
export function invocationsOf(site: ts.Node, methodToken: ts.Node, checker: ts.TypeChecker): Invocation[] {
  if (ts.isCallExpression(site)) {
    const via = accessName(unwrap(site.expression));
    if (via === 'call') return [{ call: site, params: site.arguments[1] }];
    if (via === 'apply') return [{ call: site, params: firstOfArray(site.arguments[1]) }];
    if (via === 'bind' && site.arguments.length <= 1) return callsOfConst(climbWrappers(site).parent, checker);
    return [];
  }
  // a detached access `const create = ….create`, or a destructured `{ create }` (the token's binding element)
  const holder = ts.isBindingElement(methodToken.parent) ? methodToken.parent : climbWrappers(site).parent;
  return callsOfConst(holder, checker);
}

/** The calls of a const holding the method: `create(params)`, `create.call(t, params)`. */
function callsOfConst(holder: ts.Node | undefined, checker: ts.TypeChecker): Invocation[] {
  const name = holder && (ts.isVariableDeclaration(holder) || ts.isBindingElement(holder)) && ts.isIdentifier(holder.name) ? holder.name : undefined;
  if (!name) return [];
  const out: Invocation[] = [];
  for (const ref of referencesOf(checker, name)) {
    const use = climbWrappers(ref);
    const parent = use.parent;
    if (ts.isCallExpression(parent) && parent.expression === use) out.push({ call: parent, params: parent.arguments[0] });
    else if (isAccess(parent) && parent.expression === use && ts.isCallExpression(parent.parent) && parent.parent.expression === parent) {
      const via = accessName(parent);
      if (via === 'call') out.push({ call: parent.parent, params: parent.parent.arguments[1] });
      else if (via === 'apply') out.push({ call: parent.parent, params: firstOfArray(parent.parent.arguments[1]) });
    }
  }
  return out;
}

function firstOfArray(arg: ts.Expression | undefined): ts.Expression | undefined {
  const e = arg && unwrap(arg);
  return e && ts.isArrayLiteralExpression(e) && e.elements.length >= 1 && !ts.isSpreadElement(e.elements[0]) ? e.elements[0] : undefined;
}
