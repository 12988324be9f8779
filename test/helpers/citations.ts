/**
 * What the code cites: the comments of the project's source files (found by the TypeScript
 * parser, so strings and regular expressions are not mistaken for comments), the fixture folder
 * names and the fixture descriptions. test/docs.test.ts checks every id they cite is explained in
 * docs/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ts } from '../../lib/scan/ast.js';
import { REPO } from './fixtures.js';

/** Folders whose sources are the project's own code (fixture inputs are data and are left out). */
export const CODE_DIRS = ['bin', 'lib', 'transforms', 'scripts', 'bench', 'test'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'tmp' || name === 'out') return [];
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

export function codeFiles(): string[] {
  return CODE_DIRS.flatMap((d) => walk(path.join(REPO, d))).sort();
}

/** Every comment of a file, with its line (1-based). */
export function commentsOf(file: string): { line: number; text: string }[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Set<number>();
  const out: { line: number; text: string }[] = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ line: sf.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(sf).forEach(visit);
  };
  visit(sf);
  return out.sort((a, b) => a.line - b.line);
}

/** Fixture case folders (`fixtures/<group>/<case>`), relative to the repository. */
export function fixtureCases(): string[] {
  const root = path.join(REPO, 'fixtures');
  return readdirSync(root).flatMap((group) => readdirSync(path.join(root, group)).map((c) => `fixtures/${group}/${c}`)).sort();
}

/** `description` of each fixture's expected.json. */
export function fixtureDescriptions(): { file: string; text: string }[] {
  return fixtureCases().flatMap((c) => {
    try {
      const doc = JSON.parse(readFileSync(path.join(REPO, c, 'expected.json'), 'utf8')) as { description?: string };
      return doc.description ? [{ file: `${c}/expected.json`, text: doc.description }] : [];
    } catch {
      return [];
    }
  });
}

/** Rule ids (`R-STORE`, `M-PART-*`), pattern ids (`P32b`, `N04`) and reason codes in a text. */
export const RULE_ID = /\b[AKGWVRMOSHPT]-[A-Z0-9]+(?:-[A-Z0-9]+)*(?:-?\*)?/g;
export const PATTERN_ID = /\b[PN](?:0[1-9]|[1-2][0-9]|3[0-2])[a-f]?\b/g;
