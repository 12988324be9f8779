/**
 * Every before/after example of the rule registry (docs/rules.md) is what the tool really
 * does: the before module is migrated and must equal the after module, which must type-check
 * against openai 6 and 7.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultOptions } from '../lib/options.js';
import { RULES } from '../lib/rules/registry.js';
import { run } from '../lib/run.js';
import { REPO } from './helpers/fixtures.js';
import { exampleModule } from './helpers/rule-examples.js';
import { renderRulesSection, RULES_BEGIN, RULES_END, RULES_FILE } from '../scripts/rules-doc.js';
import { typecheck, type TypeError } from './helpers/typecheck.js';

const dir = path.join(REPO, 'test', 'tmp', `rule-examples-${process.pid}`);
const examples = RULES.filter((r) => r.example);

describe('rule registry examples', () => {
  const errors = new Map<string, TypeError[]>();
  before(async () => {
    mkdirSync(dir, { recursive: true });
    // the examples are the public functions of a published package: a returned result is its API
    // (W-EDGE), whatever package the checkout itself sits in
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'rule-examples', version: '1.0.0', main: 'index.js' }));
    const checked = examples.filter((r) => !r.example!.skipTypecheck);
    for (const r of checked) writeFileSync(path.join(dir, `${r.id}.after.ts`), exampleModule(r.example!, 'after'));
    const files = checked.map((r) => path.join(dir, `${r.id}.after.ts`));
    for (const sdk of ['openai6', 'openai7'] as const) errors.set(sdk, await typecheck(dir, files, sdk));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const rule of examples) {
    it(`${rule.id}: the tool turns the before example into the after example`, async () => {
      const file = path.join(dir, `${rule.id}.ts`);
      writeFileSync(file, exampleModule(rule.example!, 'before'));
      const { changes } = await run(defaultOptions({ paths: [path.basename(file)], cwd: dir, dryRun: true, format: 'json', allowBaseUrls: rule.example!.allowBaseUrls ?? [] }));
      const out = changes.find((c) => c.file === file)?.after ?? readFileSync(file, 'utf8');
      assert.equal(out, exampleModule(rule.example!, 'after'));
    });
    if (rule.example!.skipTypecheck) continue;
    it(`${rule.id}: the after example type-checks against openai 6 and 7`, () => {
      for (const sdk of ['openai6', 'openai7']) {
        const mine = (errors.get(sdk) ?? []).filter((e) => e.file === `${rule.id}.after.ts`);
        assert.deepEqual(mine.map((e) => `${sdk} ${e.line}: ${e.message}`), []);
      }
    });
  }

  it('docs/rules.md is the one generated from the registry and the reason codes (npm run docs)', () => {
    assert.equal(RULES_FILE, path.join(REPO, 'docs', 'rules.md'));
    const doc = readFileSync(RULES_FILE, 'utf8');
    const start = doc.indexOf(RULES_BEGIN);
    const end = doc.indexOf(RULES_END);
    assert.ok(start !== -1 && end > start, 'docs/rules.md has the generated section');
    assert.equal(doc.slice(start, end + RULES_END.length), renderRulesSection());
  });
});
