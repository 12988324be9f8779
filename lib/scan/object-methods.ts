/**
 * W-FOLLOW through a method of an object literal (`const ai = { async ask(q) { … } }`, `export
 * default { ask: async (q) => … }`): its calls are `ai.ask(…)`, here or in the modules importing the
 * object. They are all in view only when the object is a const's value (or the module's default
 * export) and every use of it reads a property: an object passed (`register(ai)`), spread, returned
 * or stored elsewhere may have its method called where the tool does not look, reading the Chat
 * shape (a probe: a registry calling `d.complete()` on the object it was given).
 */
import { ts, climbWrappers, walk, shortText, stringValue, isWriteReference } from './ast.js';
import type { ScanContext } from './context.js';
import { locationOf } from './context.js';
import type { FollowSearch } from './callers.js';
import { isDefaultExport, loadedSourceFiles } from './callers.js';
import { isExported, isModuleExports, referencesOf, symbolOf } from './references.js';
import { defaultImportBindings } from './default-imports.js';

/** How the object holding a method is reached: it is exported (its importers call it), or where following stops. */
export type HeldObject = { exported: boolean } | { stop: string };

/** The object literal `fn` is a method or a function-valued property of, and the key it is under. */
export function objectMemberOf(fn: ts.Node): { object: ts.ObjectLiteralExpression; key: string } | undefined {
  const member = ts.isMethodDeclaration(fn) ? fn : climbWrappers(fn).parent;
  if (!(ts.isMethodDeclaration(member) || ts.isPropertyAssignment(member)) || !ts.isObjectLiteralExpression(member.parent)) return undefined;
  if (!ts.isIdentifier(member.name)) return undefined;
  return { object: member.parent, key: member.name.text };
}

/**
 * Whether every use of the object holding `key` is in view and reads a property of it; the
 * importers are read when it is exported (`search` finds them).
 */
export function heldObject(object: ts.ObjectLiteralExpression, key: string, ctx: ScanContext, search: FollowSearch | undefined): HeldObject {
  const outer = climbWrappers(object);
  const holder = outer.parent;
  const where = locationOf(ctx, object);
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name) && holder.initializer === outer && holder.parent.flags & ts.NodeFlags.Const) {
    const name = holder.name;
    const own = escapeOf(referencesOf(ctx.checker, name), key, ctx);
    if (own) return { stop: `the object holding ${key} (${name.text}) ${own}` };
    if (!isExported(ctx.checker, name)) return { exported: false };
    if (!search) return { stop: `${name.text}, the object holding ${key}, is used from other modules (${where})` };
    const symbol = symbolOf(ctx.checker, name);
    const loaded = loadedSourceFiles(ctx, search.filesNaming(name.text).filter((f) => f !== object.getSourceFile().fileName));
    if (loaded.missing.length) return { stop: `${name.text}, the object holding ${key}, is used in files not loaded yet (${where})` };
    for (const sf of loaded.files) {
      const elsewhere = escapeOf(importedUses(sf, name.text, symbol, ctx), key, ctx);
      if (elsewhere) return { stop: `the object holding ${key} (${name.text}) ${elsewhere}` };
    }
    // `export default ai`: its importers name it as they like
    const byDefault = isDefaultExport(holder, name) ? defaultImportersEscape(object, key, ctx, search) : undefined;
    return byDefault ? { stop: byDefault } : { exported: true };
  }
  if (ts.isExportAssignment(holder) || isModuleExports(outer)) {
    if (!search) return { stop: `the object holding ${key} is the module's default export, used from other modules (${where})` };
    const byDefault = defaultImportersEscape(object, key, ctx, search);
    return byDefault ? { stop: byDefault } : { exported: true };
  }
  return { stop: `the object holding ${key} is not a const's value or a module's export (${where})` };
}

/** Where an importer of the module's default export (the object) uses it other than by reading a property. */
function defaultImportersEscape(object: ts.ObjectLiteralExpression, key: string, ctx: ScanContext, search: FollowSearch): string | undefined {
  const module = object.getSourceFile();
  const loaded = loadedSourceFiles(ctx, search.filesImporting(module.fileName).filter((f) => f !== module.fileName));
  if (loaded.missing.length) return `the object holding ${key}, a default export, is used in files not loaded yet (${locationOf(ctx, object)})`;
  for (const sf of loaded.files) {
    const bound = defaultImportBindings(ctx.checker, sf, module);
    if ('stop' in bound) return `the object holding ${key}, a default export, ${bound.stop} (${locationOf(ctx, bound.at)})`;
    for (const local of bound.locals) {
      const elsewhere = escapeOf(referencesOf(ctx.checker, local), key, ctx);
      if (elsewhere) return `the object holding ${key} (imported as ${local.text}) ${elsewhere}`;
    }
  }
  return undefined;
}

/** Identifiers named `text` in an importer that resolve to the exported object (plumbing aside). */
function importedUses(sf: ts.SourceFile, text: string, target: ts.Symbol | undefined, ctx: ScanContext): ts.Identifier[] {
  const uses: ts.Identifier[] = [];
  walk(sf, (n) => {
    if (!ts.isIdentifier(n) || n.text !== text) return undefined;
    const p = n.parent;
    if (ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) {
      // `import { ai as x }`: the other name's uses are the object's; they are checked like its own
      if (p.propertyName === n && ts.isIdentifier(p.name) && p.name.text !== text && symbolOf(ctx.checker, n) === target) uses.push(...referencesOf(ctx.checker, p.name));
      return undefined;
    }
    if (ts.isPropertyAccessExpression(p) && p.name === n && symbolOf(ctx.checker, n) !== target) return undefined;
    const s = symbolOf(ctx.checker, n);
    if (s === target || !s) uses.push(n);
    return undefined;
  });
  return uses;
}

/**
 * The first use of the object that is not a read of one of its properties (`ai.ask`, `m.ai.ask`),
 * described with where it is; a read of `key` by a computed name counts (its call is not found by name).
 */
function escapeOf(uses: readonly ts.Identifier[], key: string, ctx: ScanContext): string | undefined {
  for (const use of uses) {
    let at: ts.Node = use;
    // `m.ai` (a namespace import's member) stands for the object as `ai` does
    if (ts.isPropertyAccessExpression(at.parent) && at.parent.name === at) at = at.parent;
    const outer = climbWrappers(at);
    const p = outer.parent;
    if (isExportPlumbing(outer, p)) continue;
    if (ts.isTypeQueryNode(p)) continue; // `typeof ai`
    if (ts.isPropertyAccessExpression(p) && p.expression === outer && !isWriteReference(p)) continue;
    if (ts.isElementAccessExpression(p) && p.expression === outer) {
      const name = stringValue(p.argumentExpression);
      if (name !== undefined && name !== key && !isWriteReference(p)) continue;
      return `is indexed by ${shortText(p.argumentExpression, 30)} (${locationOf(ctx, p)})`;
    }
    return `is used as a value: ${shortText(p, 40)} (${locationOf(ctx, use)})`;
  }
  return undefined;
}

/** `export { ai }`, `export default ai`, `module.exports = ai` / `{ ai }`: the object made visible, not used. */
function isExportPlumbing(outer: ts.Node, p: ts.Node): boolean {
  if (ts.isExportSpecifier(p) || ts.isExportAssignment(p) || isModuleExports(outer)) return true;
  return (ts.isShorthandPropertyAssignment(p) || (ts.isPropertyAssignment(p) && p.initializer === outer)) && isModuleExports(p.parent);
}
