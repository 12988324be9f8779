/**
 * Which project files the program loads. A dense repository (an agents framework: 600 of its
 * 1,000 files mention `openai`) imports its whole core through barrels from every test; parsing
 * and binding all of it cost twice the parse floor and 500 MB. The analysis needs what a site's
 * values come from, so the walk starts at the files that call something a site can be, and:
 * - follows imports two steps (on the real-world corpus, following further changed no outcome, and
 *   stopping after one step changed one); a file that calls nothing (a test that only mocks
 *   `create`) is loaded but its imports are not;
 * - through a barrel (a file that only re-exports), loads only the targets that can export the
 *   names imported through it (`import { client } from './lib'` with `export * from` fifty
 *   modules loads the one that declares `client`), and a barrel is not a step.
 * Loading less never makes the tool guess: a value from a module that is not loaded has no
 * value, and a site that depends on it is reported. The walk is breadth-first, so what is loaded
 * does not depend on the order imports are met in, and each loaded file is parsed once: the
 * program reuses the trees.
 */
import path from 'node:path';
import ts from './typescript.cjs';
import type { ModuleResolver } from '../project/resolver.js';
import { callsSomething } from '../files.js';

/** Steps of import followed from a file that calls something (barrels excluded). */
export const MAX_IMPORT_DEPTH = 2;

/** The names an import asks a module for; `all` for a namespace, a `require`, `export *`… */
type Names = ReadonlySet<string> | 'all';

interface Import {
  specifier: string;
  names: Names;
}

/** Every statement imports or re-exports (a barrel). */
function isBarrel(sf: ts.SourceFile): boolean {
  return sf.statements.length > 0 && sf.statements.every((s) => ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined));
}

/**
 * The text may be a barrel: nothing but imports and `export … from` statements once comments are
 * gone. A quick look that saves parsing the modules a barrel is not asked for; the tree decides.
 */
function mayBeBarrel(text: string): boolean {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return code.split(/;|\n/).map((l) => l.trim()).filter(Boolean).every((l) => /^import\b|^export\s+(type\s+)?[*{]|^[\w$,{}\s*]+$|^(from\s+)?['"][^'"]*['"]$|^\}?\s*from\s+['"]/.test(l));
}

/** What a file imports, with the names it asks for (side-effect imports bind nothing and are left out). */
function importsOf(sf: ts.SourceFile): Import[] {
  const out: Import[] = [];
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.importClause) {
      const clause = s.importClause;
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        out.push({ specifier: s.moduleSpecifier.text, names: 'all' });
        continue;
      }
      const names = new Set<string>();
      if (clause.name) names.add('default');
      if (bindings) for (const e of bindings.elements) names.add((e.propertyName ?? e.name).text);
      out.push({ specifier: s.moduleSpecifier.text, names });
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      const clause = s.exportClause;
      out.push({
        specifier: s.moduleSpecifier.text,
        names: clause && ts.isNamedExports(clause) ? new Set(clause.elements.map((e) => (e.propertyName ?? e.name).text)) : 'all',
      });
    } else if (ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference) && ts.isStringLiteral(s.moduleReference.expression)) {
      out.push({ specifier: s.moduleReference.expression.text, names: 'all' });
    }
  }
  // require('x') and import('x') anywhere: a cheap text search first, the tree only when there is one
  if (/\b(require|import)\s*\(/.test(sf.text)) {
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && n.arguments.length && ts.isStringLiteralLike(n.arguments[0]) &&
        ((ts.isIdentifier(n.expression) && n.expression.text === 'require') || n.expression.kind === ts.SyntaxKind.ImportKeyword)) {
        out.push({ specifier: n.arguments[0].text, names: 'all' });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** A module's text may export `name` itself (a declaration or an export list that names it). */
function mayExport(text: string, name: string): boolean {
  const n = name.replace(/[$]/g, '\\$');
  if (name === 'default') return /\bexport\s+default\b|\bexport\s*\{[^}]*\bas\s+default\b/.test(text);
  return new RegExp(`\\bexport\\s+(declare\\s+)?(abstract\\s+)?(async\\s+)?(const|let|var|function\\*?|class|interface|type|enum|namespace)\\s+${n}\\b|\\bexport\\s*\\{[^}]*\\b${n}\\b`).test(text)
    || new RegExp(`\\b(module\\.)?exports\\.${n}\\b`).test(text)
    // a module that also re-exports another (`export * from`) may pass the name on
    || /\bexport\s*\*\s*from\b/.test(text);
}

export interface DepthSources {
  /** A file's tree (parsed once), or undefined when it cannot be loaded. */
  sourceOf(file: string): ts.SourceFile | undefined;
  /** A file's text, without parsing it (to choose a barrel's targets). */
  textOf(file: string): string | undefined;
}

/**
 * The project files to load from `roots`, with the step they were reached at. Roots are always
 * loaded; only those that call something, or are named in `expand` (the callers of a holder of an
 * injected client, whose arguments are followed), expand their imports.
 */
export function importDepths(roots: readonly string[], resolver: ModuleResolver, files: DepthSources, maxDepth = MAX_IMPORT_DEPTH, expand: ReadonlySet<string> = new Set()): Map<string, number> {
  const depth = new Map<string, number>();
  const normalized = roots.map((r) => path.normalize(r));
  for (const r of normalized) depth.set(r, 0);
  let frontier = normalized.filter((r) => {
    const sf = files.sourceOf(r);
    return sf !== undefined && (expand.has(r) || callsSomething(sf.text));
  });

  /**
   * Load `file` at `level`. A file named by an import is loaded; a barrel's target only when it
   * can export one of `names` (`viaBarrel`).
   */
  const reach = (file: string, level: number, names: Names, next: string[], seen: Set<string>, viaBarrel = false): boolean => {
    const key = `${file}\0${names === 'all' ? '*' : [...names].sort().join(',')}`;
    if (seen.has(key)) return depth.has(file);
    seen.add(key);
    const text = files.textOf(file);
    if (text === undefined) return false;
    // a barrel's target that cannot export what is asked for is not even parsed
    if (viaBarrel && names !== 'all' && !mayBeBarrel(text) && ![...names].some((n) => mayExport(text, n))) return false;
    const sf = files.sourceOf(file);
    if (!sf) return false;
    if (!isBarrel(sf)) {
      if (viaBarrel && names !== 'all' && ![...names].some((n) => mayExport(text, n))) return false;
      if (!depth.has(file) || depth.get(file)! > level) {
        depth.set(file, level);
        next.push(file);
      }
      return true;
    }
    // a barrel: the targets that can export what is asked for, at the barrel's own level
    let any = false;
    for (const imported of importsOf(sf)) {
      const r = resolver.resolve(imported.specifier, file);
      if (r.kind !== 'project') continue;
      const asked: Names = names === 'all' || imported.names === 'all' ? names : new Set([...names].filter((n) => (imported.names as ReadonlySet<string>).has(n)));
      if (asked !== 'all' && asked.size === 0) continue;
      if (reach(path.normalize(r.file), level, asked, next, seen, true)) any = true;
    }
    if (any && (!depth.has(file) || depth.get(file)! > level)) depth.set(file, level);
    return any;
  };

  for (let level = 0; frontier.length && level < maxDepth; level++) {
    const next: string[] = [];
    const seen = new Set<string>();
    for (const file of frontier) {
      const sf = files.sourceOf(file);
      if (!sf) continue;
      for (const imported of importsOf(sf)) {
        const r = resolver.resolve(imported.specifier, file);
        if (r.kind === 'project') reach(path.normalize(r.file), level + 1, imported.names, next, seen);
      }
    }
    frontier = next;
  }
  return depth;
}
