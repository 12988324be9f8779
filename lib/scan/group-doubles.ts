/**
 * Test doubles of a migrated group's own modules (N04): `vi.mock('./openai', () => ({ complete:
 * async () => ({ choices: [{ message: { content: 'hello' } }] }) }))` stands in for a helper the
 * group moved to Responses, and still gives its callers the Chat shape, so the tests read
 * `undefined` after the migration. Such a test file gets the `test-mock` notice too, as a double
 * of `chat.completions.create` does (lib/scan/find-sites.ts).
 */
import path from 'node:path';
import type { ModuleResolver } from '../project/resolver.js';
import type { FilePlan } from '../plan.js';
import type { TextReader } from './endpoint-importers.js';
import { TEST_FILE } from './writes.js';

/** `vi.mock('…'`, `jest.mock("…"`, `vi.doMock(`…`: the module specifier a test replaces. */
const MODULE_MOCK = /\b(?:vi|jest)\s*\.\s*(?:do)?[mM]ock\s*\(\s*(['"`])([^'"`\n]+)\1/g;

export function groupDoubles(plans: readonly FilePlan[], runFiles: readonly string[], read: TextReader, modules: ModuleResolver, cwd: string): string[] {
  const migrated = new Set<string>();
  for (const plan of plans) {
    for (const site of plan.sites) {
      if (site.record.status !== 'migrated') continue;
      migrated.add(path.normalize(site.file));
      for (const rel of site.record.groupFiles ?? []) migrated.add(path.normalize(path.resolve(cwd, rel)));
    }
  }
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
