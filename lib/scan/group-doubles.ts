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

/** How many imports deep a test's subject is looked for. */
const MAX_SUBJECT_DEPTH = 3;

/**
 * A test that doubles the SDK tests a migrated module (§9): one of the project modules it imports,
 * or theirs up to MAX_SUBJECT_DEPTH deep, holds a migrated site. A test that imports no project
 * module is kept (its subject is not known); one whose subjects all stay on Chat is not, since
 * moving its double to responses.create would break it (probe of projects with SDK-mocking tests).
 */
export function testsAMigratedModule(test: string, migrated: ReadonlySet<string>, read: TextReader, modules: ModuleResolver): boolean {
  let frontier = [path.normalize(test)];
  const seen = new Set(frontier);
  let importsAny = false;
  for (let depth = 0; depth < MAX_SUBJECT_DEPTH && frontier.length; depth++) {
    const next: string[] = [];
    for (const file of frontier) {
      const text = read(file);
      if (text === undefined) continue;
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        const r = modules.resolve(fileName, file);
        if (r.kind !== 'project') continue;
        const target = path.normalize(r.file);
        importsAny = true;
        if (migrated.has(target)) return true;
        if (!seen.has(target)) {
          seen.add(target);
          next.push(target);
        }
      }
    }
    frontier = next;
  }
  return !importsAny;
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
