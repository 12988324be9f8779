/**
 * A request that forces a tool (`tool_choice: { type: 'function', function: { name } }`, or
 * `'required'`): Chat answers it with `finish_reason: 'stop'` although the message carries tool
 * calls (measured against OpenAI: vllm-project/vllm#25054), where the O-FINISH/S-FINISH rewrite
 * tests for a function call in the output. A `finish_reason` read of such a request has no
 * equivalent (probe of tool loops: a forced extraction that checked `!== 'stop'` threw after).
 */
import { ts, unwrap, propertyValue, findProperty, stringValue } from './ast.js';
import type { BindingScope } from './bindings.js';
import { objectInView } from './http.js';

export function forcesTool(call: ts.CallExpression, bindings: BindingScope): boolean {
  const params = call.arguments[0] && objectInView(call.arguments[0], bindings);
  const choice = params && propertyValue(findProperty(params, 'tool_choice'));
  return Boolean(choice) && mayForce(choice!);
}

/** A value that may be neither 'auto' nor 'none' (each branch of a conditional judged). */
function mayForce(e: ts.Expression): boolean {
  const v = unwrap(e);
  if (ts.isConditionalExpression(v)) return mayForce(v.whenTrue) || mayForce(v.whenFalse);
  const value = stringValue(v);
  return value !== 'auto' && value !== 'none';
}
