/**
 * T-PARSE-NOTHROW for the `stream()` helper: a ChatCompletionStream finalizes its completion the way
 * parse() does when its input is auto-parseable (the SDK's hasAutoParseableInput: a response_format
 * made by a helper such as zodResponseFormat, a tool made by zodFunction, or a function tool with
 * strict: true), and then throws LengthFinishReasonError or ContentFilterFinishReasonError on a
 * cut-off or filtered answer; a ResponseStream does not (probe of request options, 2026-12-05: a
 * catch that said "cut off" was never reached once migrated).
 */
import { ts, literalValue, propertyNameText, propertyValue, unwrap } from './ast.js';

/** Whether the params object of a stream() call may be auto-parseable input. */
export function mayParseAutomatically(params: ts.Expression | undefined, checker: ts.TypeChecker): boolean {
  const object = params && unwrap(params);
  if (!object || !ts.isObjectLiteralExpression(object)) return false;
  const value = (key: string) => propertyValue(object.properties.find((p) => propertyNameText(p.name) === key));
  const format = value('response_format');
  if (format && !ts.isObjectLiteralExpression(unwrap(format))) return true;
  const tools = value('tools');
  return tools !== undefined && mayHoldParseableTool(tools, checker);
}

/** A tools value that may hold a helper's tool or a strict function tool (any it cannot read may). */
function mayHoldParseableTool(tools: ts.Expression, checker: ts.TypeChecker): boolean {
  let value = unwrap(tools);
  if (ts.isIdentifier(value)) {
    const decl = checker.getSymbolAtLocation(value)?.valueDeclaration;
    const init = decl && ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
    if (!init) return true;
    value = unwrap(init);
  }
  if (!ts.isArrayLiteralExpression(value)) return true;
  return value.elements.some((el) => {
    const tool = unwrap(el);
    if (!ts.isObjectLiteralExpression(tool)) return true;
    const fn = propertyValue(tool.properties.find((p) => propertyNameText(p.name) === 'function'));
    const inner = fn && unwrap(fn);
    if (!inner) return false;
    if (!ts.isObjectLiteralExpression(inner)) return true;
    const strict = propertyValue(inner.properties.find((p) => propertyNameText(p.name) === 'strict'));
    if (!strict) return false;
    const known = literalValue(strict);
    return !(known?.kind === 'boolean' && !known.value);
  });
}
