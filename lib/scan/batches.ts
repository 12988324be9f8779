/**
 * Batch API sites (A-BATCH): `<client>.batches.create({ endpoint: '/v1/chat/completions', … })`
 * queues Chat Completions requests read from an uploaded JSONL file. The batch, each request line
 * (`{ url: '/v1/chat/completions', body: { messages, … } }`) and the code reading the output file
 * (`line.response.body.choices[0]…`) move to `/v1/responses` together, and the lines and the output
 * are plain JSON the tool cannot follow, so the batch is listed (`batch-api`), never rewritten.
 *
 * An endpoint whose value is not in view is listed when the client is proven to be the SDK's (the
 * batch may be Chat); one naming another endpoint (`/v1/embeddings`) is not a site.
 */
import { ts, unwrap, accessName, accessNameNode, isAccess, propertyValue, findProperty, shortText, walk } from './ast.js';
import type { BindingScope } from './bindings.js';
import { endpointKind, objectInView } from './http.js';

export interface BatchSite {
  kind: 'batch';
  call: ts.CallExpression;
  /** `create`: the reported position. */
  methodToken: ts.Node;
  /** The client (`X` in `X.batches.create`). */
  receiver: ts.Expression;
  /** The endpoint is the Chat Completions one, or a value the tool cannot read. */
  endpoint: 'chat' | 'unknown';
  /** What the report says about the endpoint and the request lines. */
  detail: string;
  /** Request lines to Chat Completions built in this file: their bodies give the kinds. */
  lineBodies: ts.ObjectLiteralExpression[];
}

/** Another vendor's batches resource hangs from these (`anthropic.messages.batches.create`). */
const FOREIGN_HOLDERS: ReadonlySet<string> = new Set(['messages']);

export function batchCall(call: ts.CallExpression, bindings: BindingScope): BatchSite | undefined {
  const callee = unwrap(call.expression);
  if (!isAccess(callee) || accessName(callee) !== 'create') return undefined;
  const batches = unwrap(callee.expression);
  if (!isAccess(batches) || accessName(batches) !== 'batches') return undefined;
  const receiver = unwrap(batches.expression);
  if (isAccess(receiver) && FOREIGN_HOLDERS.has(accessName(receiver) ?? '')) return undefined;
  const params = call.arguments[0];
  if (!params) return undefined;
  const object = objectInView(params, bindings);
  const endpoint = object ? propertyValue(findProperty(object, 'endpoint')) : undefined;
  // an object without an endpoint (and no spread that could hold one) is not an OpenAI batch
  if (object && !endpoint && !object.properties.some(ts.isSpreadAssignment)) return undefined;
  const kind = endpoint ? endpointKind(endpoint, bindings) : 'unknown';
  if (kind === 'other') return undefined;
  const requestLines = chatRequestLines(call.getSourceFile(), bindings);
  const lineBodies = requestLines.flatMap((line) => (line.body ? [line.body] : []));
  const seen = kind === 'chat' ? `endpoint ${shortText(endpoint!, 40)}` : endpoint ? `endpoint ${shortText(endpoint, 40)}, not in view` : `parameters ${shortText(params, 40)}, not in view`;
  const lines = requestLines.length ? `request lines built in this file (line ${lineOf(requestLines[0].line)})` : 'request lines not built in this file';
  return { kind: 'batch', call, methodToken: accessNameNode(callee), receiver, endpoint: kind, detail: `${seen}; ${lines}`, lineBodies };
}

/** `{ url: '/v1/chat/completions', body }` objects of the file: batch request lines, with their body when it is in view. */
function chatRequestLines(sf: ts.SourceFile, bindings: BindingScope): { line: ts.ObjectLiteralExpression; body?: ts.ObjectLiteralExpression }[] {
  const lines: { line: ts.ObjectLiteralExpression; body?: ts.ObjectLiteralExpression }[] = [];
  walk(sf, (node) => {
    if (!ts.isObjectLiteralExpression(node)) return undefined;
    const url = propertyValue(findProperty(node, 'url'));
    const body = propertyValue(findProperty(node, 'body'));
    if (!url || !body || endpointKind(url, bindings) !== 'chat') return undefined;
    lines.push({ line: node, body: objectInView(body, bindings) });
    return undefined;
  });
  return lines;
}

function lineOf(node: ts.Node): number {
  const sf = node.getSourceFile();
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}
