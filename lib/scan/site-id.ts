/**
 * A call site's stable identity: the report's `id`, the SARIF `partialFingerprints` and the key a
 * baseline uses to name a new site. It must survive edits elsewhere in the file and lines that
 * move, so it hashes no position, only:
 * - the file (as reported, relative to the current directory) and the api;
 * - the path of named declarations around the call (`class:ChatService > method:ask`);
 * - the callee as written, comments and whitespace removed (`this.client.chat.completions.create`);
 * - the ordinal of the call among the calls with that same callee in that same declaration.
 * A site keeps its id while its function keeps its name and no identical call is added before it
 * in that function. Pure: a function of the syntax tree only.
 */
import { createHash } from 'node:crypto';
import { ts } from './ast.js';

export function siteId(file: string, api: string, call: ts.Node): string {
  const container = containerOf(call);
  const callee = calleeText(call);
  const parts = [file, api, declarationPath(call).join(' > '), callee, String(ordinalIn(container, call, callee))];
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/** The names of the declarations that enclose `node`, outermost first. */
export function declarationPath(node: ts.Node): string[] {
  const path: string[] = [];
  for (let n = node.parent; n; n = n.parent) {
    const segment = segmentOf(n);
    if (segment) path.unshift(segment);
  }
  return path;
}

/** `this.client.chat.completions.create` for a call, the expression itself for a detached access. */
export function calleeText(node: ts.Node): string {
  const callee = ts.isCallExpression(node) ? node.expression : node;
  return callee.getText().replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').replace(/\s+/g, '');
}

function segmentOf(n: ts.Node): string | undefined {
  if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) return n.name ? `class:${n.name.text}` : undefined;
  if (ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n)) return n.name ? `function:${n.name.text}` : undefined;
  if (ts.isMethodDeclaration(n)) return `method:${nameText(n.name)}`;
  if (ts.isGetAccessorDeclaration(n)) return `get:${nameText(n.name)}`;
  if (ts.isSetAccessorDeclaration(n)) return `set:${nameText(n.name)}`;
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  if (ts.isPropertyDeclaration(n)) return definesCode(n.initializer) ? `field:${nameText(n.name)}` : undefined;
  if (ts.isPropertyAssignment(n)) return definesCode(n.initializer) ? `property:${nameText(n.name)}` : undefined;
  if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) {
    return definesCode(n.initializer) || isModuleLevel(n) ? `variable:${n.name.text}` : undefined;
  }
  if (ts.isModuleDeclaration(n)) return `namespace:${n.name.getText()}`;
  if (ts.isExportAssignment(n)) return 'export default';
  return undefined;
}

/**
 * Variables, fields and properties name a segment when they hold code (a function, a class, an
 * object of them) or sit at module level; `const r = await …` inside a function does not, so
 * renaming a result variable keeps the id.
 */
function definesCode(init: ts.Expression | undefined): boolean {
  let e = init;
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))) e = e.expression;
  return !!e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isClassExpression(e) || ts.isObjectLiteralExpression(e));
}

function isModuleLevel(decl: ts.VariableDeclaration): boolean {
  const statement = decl.parent?.parent;
  return !!statement && ts.isVariableStatement(statement) && (ts.isSourceFile(statement.parent) || ts.isModuleBlock(statement.parent));
}

function nameText(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)
    ? name.text
    : name.getText().replace(/\s+/g, '');
}

/** The nearest enclosing node that names a segment of the path (the file when there is none). */
function containerOf(node: ts.Node): ts.Node {
  for (let n = node.parent; n; n = n.parent) {
    if (segmentOf(n) || ts.isSourceFile(n)) return n;
  }
  return node.getSourceFile();
}

/** How many nodes like `call` (same syntax kind, same callee, same container) come before it. */
function ordinalIn(container: ts.Node, call: ts.Node, callee: string): number {
  const start = call.getStart();
  let ordinal = 0;
  const visit = (n: ts.Node): void => {
    if (n.pos > start) return;
    if (n !== call && n.kind === call.kind && n.getStart() < start && calleeText(n) === callee && containerOf(n) === container) ordinal++;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(container, visit);
  return ordinal;
}
