/**
 * T-PARSE-NOTHROW for the `stream()` helper: a ChatCompletionStream finalizes its completion the way
 * parse() does when its input is auto-parseable (the SDK's hasAutoParseableInput: a response_format
 * made by a helper such as zodResponseFormat, a tool made by zodFunction, or a function tool with
 * strict: true), and then throws LengthFinishReasonError or ContentFilterFinishReasonError on a
 * cut-off or filtered answer; a ResponseStream does not (probe of request options, 2026-12-05: a
 * catch that said "cut off" was never reached once migrated).
 */
import { ts, findProperty, literalValue, propertyNameText, propertyValue, shortText, stringValue, unwrap } from './ast.js';

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
  const value = arrayInView(tools, checker);
  if (!value) return true;
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

/**
 * Chat's parse() throws before it sends anything when a tool is not a strict function tool (the
 * SDK's validateInputTools: "only strict function tools can be auto-parsed"); responses.parse()
 * does no such check and sends the request (probe of structured outputs, 2026-12-05). The tool in
 * view that made it throw, described, or undefined.
 */
export function toolParseRejects(params: ts.Expression | undefined, checker: ts.TypeChecker): string | undefined {
  const object = params && unwrap(params);
  if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
  const tools = propertyValue(findProperty(object, 'tools'));
  const list = tools && arrayInView(tools, checker);
  for (const el of list?.elements ?? []) {
    const tool = unwrap(el);
    if (!ts.isObjectLiteralExpression(tool)) continue;
    const type = stringValue(propertyValue(findProperty(tool, 'type')));
    if (type !== undefined && type !== 'function') return `a ${type} tool`;
    const fn = propertyValue(findProperty(tool, 'function'));
    const inner = fn && unwrap(fn);
    if (!inner || !ts.isObjectLiteralExpression(inner)) continue;
    const strict = literalValue(propertyValue(findProperty(inner, 'strict')));
    if (strict?.kind === 'boolean' && strict.value) continue;
    const name = stringValue(propertyValue(findProperty(inner, 'name')));
    return `the tool ${name ?? shortText(inner, 30)}, not marked strict: true`;
  }
  return undefined;
}

/** An array literal, written in place or held in a const. */
function arrayInView(value: ts.Expression, checker: ts.TypeChecker): ts.ArrayLiteralExpression | undefined {
  let v = unwrap(value);
  if (ts.isIdentifier(v)) {
    const decl = checker.getSymbolAtLocation(v)?.valueDeclaration;
    const init = decl && ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
    if (!init) return undefined;
    v = unwrap(init);
  }
  return ts.isArrayLiteralExpression(v) ? v : undefined;
}
