/**
 * How far the program follows imports from the files that hold sites. A dense repository (an
 * agents framework: 600 of its 1,000 files mention `openai`) imports its whole core through
 * barrels from every test; parsing and binding all of it cost twice the parse floor and 500 MB.
 * The analysis needs what a site's values come from: the modules a site file imports and what
 * those import (two steps; on the real-world corpus, following further changed no outcome, and
 * stopping after one step changed one). Files that only re-export (`export * from './x'`,
 * barrels) do not count as a step. The walk is breadth-first, so a file's depth does not depend
 * on the order imports are met in, and it parses each file once: the program reuses the trees.
 */
import path from 'node:path';
import ts from './typescript.cjs';
import type { ModuleResolver } from '../project/resolver.js';
import { callsSomething } from '../files.js';

/** Steps of import followed from a site file (barrels excluded). */
export const MAX_IMPORT_DEPTH = 2;


/** Every statement imports or re-exports (a barrel). */
function isBarrel(sf: ts.SourceFile): boolean {
  return sf.statements.length > 0 && sf.statements.every((s) => ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined));
}

/** The module specifiers a file names: imports, re-exports, `import x = require()`, `require()`/`import()` calls. */
function specifiersOf(sf: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const s of sf.statements) {
    if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) out.push(s.moduleSpecifier.text);
    if (ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference) && ts.isStringLiteral(s.moduleReference.expression)) out.push(s.moduleReference.expression.text);
  }
  // require('x') and import('x') anywhere: a cheap text search first, the tree only when there is one
  if (/\b(require|import)\s*\(/.test(sf.text)) {
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && n.arguments.length && ts.isStringLiteralLike(n.arguments[0]) &&
        ((ts.isIdentifier(n.expression) && n.expression.text === 'require') || n.expression.kind === ts.SyntaxKind.ImportKeyword)) {
        out.push(n.arguments[0].text);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/**
 * The project files within `maxDepth` steps of import of `roots`, with their depth. `sourceOf`
 * parses a file (or gives the tree already parsed); a file it cannot give is left out.
 */
export function importDepths(roots: readonly string[], resolver: ModuleResolver, sourceOf: (file: string) => ts.SourceFile | undefined, maxDepth = MAX_IMPORT_DEPTH): Map<string, number> {
  const depth = new Map<string, number>();
  const normalized = roots.map((r) => path.normalize(r));
  for (const r of normalized) depth.set(r, 0);
  // a root whose text calls nothing chat-shaped (a test that only mocks `create`) needs no imports
  let frontier = normalized.filter((r) => {
    const sf = sourceOf(r);
    return sf !== undefined && callsSomething(sf.text);
  });
  for (let level = 0; frontier.length; level++) {
    const next: string[] = [];
    const queue = [...frontier];
    while (queue.length) {
      const file = queue.shift()!;
      const sf = sourceOf(file);
      if (!sf) continue;
      // a barrel's targets join its own level
      const step = isBarrel(sf) ? 0 : 1;
      if (level + step > maxDepth) continue;
      for (const spec of specifiersOf(sf)) {
        const r = resolver.resolve(spec, file);
        if (r.kind !== 'project') continue;
        const target = path.normalize(r.file);
        if (depth.has(target) && depth.get(target)! <= level + step) continue;
        depth.set(target, level + step);
        (step === 0 ? queue : next).push(target);
      }
    }
    frontier = next;
  }
  return depth;
}
