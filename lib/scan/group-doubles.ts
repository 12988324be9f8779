/**
 * Test doubles of a migrated group's own modules (N04): `vi.mock('./openai', () => ({ complete:
 * async () => ({ choices: [{ message: { content: 'hello' } }] }) }))` stands in for a helper the
 * group moved to Responses, and still gives its callers the Chat shape, so the tests read
 * `undefined` after the migration. Such a test file gets the `test-mock` notice too, as a double
 * of `chat.completions.create` does (lib/scan/find-sites.ts).
 */
import path from 'node:path';
import ts from './typescript.cjs';
import type { ModuleResolver } from '../project/resolver.js';
import type { FilePlan } from '../plan.js';
import type { TextReader } from './endpoint-importers.js';
import { TEST_FILE } from './writes.js';

/** `vi.mock('…'`, `jest.mock("…"`, `vi.doMock(`…`: the module specifier a test replaces. */
const MODULE_MOCK = /\b(?:vi|jest)\s*\.\s*(?:do)?[mM]ock\s*\(\s*(['"`])([^'"`\n]+)\1/g;

/** The files of migrated sites and of their groups. */
export function migratedFiles(plans: readonly FilePlan[], cwd: string): Set<string> {
  const migrated = new Set<string>();
  for (const plan of plans) {
    for (const site of plan.sites) {
      if (site.record.status !== 'migrated') continue;
      migrated.add(path.normalize(site.file));
      for (const rel of site.record.groupFiles ?? []) migrated.add(path.normalize(path.resolve(cwd, rel)));
    }
  }
  return migrated;
}

/**
 * Whether a test that doubles the SDK tests a migrated module (§9): one of the project modules it
 * imports, or any module those import in turn, holds a migrated site. The whole import closure is
 * walked: the double replaces the SDK for every module the test loads, however deep (nailman/gentrans's
 * test requires the extension's background script, which reaches the translation engine through
 * three more modules). A test that imports no project module is kept (its subject is not known);
 * one whose subjects all stay on Chat is not, since moving its double to responses.create would
 * break it (probe of projects with SDK-mocking tests). The imports of each module are read once per run.
 */
export function migratedSubjectTest(migrated: ReadonlySet<string>, read: TextReader, modules: ModuleResolver): (test: string) => boolean {
  const importsOf = new Map<string, string[]>();
  const projectImports = (file: string): string[] => {
    let found = importsOf.get(file);
    if (found) return found;
    const text = read(file);
    found = [];
    for (const { fileName } of text === undefined ? [] : ts.preProcessFile(text, true, true).importedFiles) {
      const r = modules.resolve(fileName, file);
      if (r.kind === 'project') found.push(path.normalize(r.file));
    }
    importsOf.set(file, found);
    return found;
  };
  return (test) => {
    const start = path.normalize(test);
    const direct = projectImports(start);
    if (!direct.length) return true;
    const seen = new Set([start]);
    const queue = [...direct];
    while (queue.length) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (migrated.has(file)) return true;
      queue.push(...projectImports(file));
    }
    return false;
  };
}

export function groupDoubles(migrated: ReadonlySet<string>, runFiles: readonly string[], read: TextReader, modules: ModuleResolver): string[] {
  if (!migrated.size) return [];
  const found: string[] = [];
  for (const file of runFiles) {
    if (!TEST_FILE.test(file)) continue;
    const text = read(file);
    if (!text || !/mock/i.test(text)) continue;
    for (const m of text.matchAll(MODULE_MOCK)) {
      const resolved = modules.resolve(m[2], file);
      if (resolved.kind === 'project' && migrated.has(path.normalize(resolved.file))) {
        found.push(file);
        break;
      }
    }
  }
  return found;
}
