/**
 * The demo codebase the README runs: its inventory is the one examples/demo/EXPECTED.md gives
 * (reviewed by hand), and the migrated demo still type-checks against openai 6 and 7.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { defaultOptions } from '../lib/options.js';
import { run } from '../lib/run.js';
import { REPO } from './helpers/fixtures.js';
import { typecheckTexts } from './helpers/typecheck.js';

const DEMO = path.join(REPO, 'examples', 'demo');

/** examples/demo/EXPECTED.md, one row per site: position, api, status, reason codes. */
const EXPECTED = [
  'src/agent/order-agent.ts:58:50 chat.completions.create migrated',
  'src/agent/order-agent.ts:80:48 chat.completions.create migrated',
  'src/agent/refund-assistant.ts:22:42 chat.completions.runTools manual run-tools',
  'src/cli/ask.ts:19:48 chat.completions.create migrated',
  'src/compliance/eu-redaction.ts:18:53 chat.completions.create manual azure-legacy',
  'src/drafts/tone.ts:19:52 chat.completions.create manual provider-not-openai',
  'src/health/llm-probe.ts:15:21 http manual raw-http',
  'src/http/chat-endpoint.ts:22:50 chat.completions.create manual stream-handoff',
  'src/internal/gateway.ts:19:53 chat.completions.create manual provider-not-openai',
  'src/legacy/macros.cjs:17:49 chat.completions.create migrated',
  'src/plugins/prompt-api.ts:12:34 chat.completions.create manual result-escapes',
  'src/tickets/reply-draft.ts:12:52 chat.completions.create migrated',
  'src/tickets/reply-variants.ts:12:52 chat.completions.create manual n-greater-than-one,no-equivalent-param,no-equivalent-param,no-equivalent-result',
  'src/tickets/summarise.ts:6:52 chat.completions.create migrated',
  'src/tickets/title.ts:23:52 chat.completions.create migrated',
  'src/triage/classify.ts:19:52 chat.completions.parse migrated',
  'src/triage/sentiment.ts:22:52 chat.completions.create migrated',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.(ts|cjs)$/.test(name) ? [full] : [];
  });
}

describe('demo codebase', () => {
  it("the README's command runs through npx from the repository root (the built bin is executable)", () => {
    const line = readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').find((l) => l.includes('npx migrate-responses'));
    const command = line?.split('&& npx ')[1];
    assert.equal(command, 'migrate-responses examples/demo --dry-run');
    const r = spawnSync('npx', ['--no-install', ...command.split(' ')], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.stderr, '');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^examples\/demo\/src\/tickets\/summarise\.ts:6:52 +chat\.completions\.create +\[simple\] +migrated/m);
    assert.match(r.stdout, /^\+\+\+ b\/examples\/demo\/src\/agent\/order-agent\.ts/m);
  });

  it('the inventory is the one EXPECTED.md gives', async () => {
    const { report } = await run(defaultOptions({ paths: ['.'], cwd: DEMO, dryRun: true, format: 'json' }));
    assert.deepEqual(report.sites.map((s) => `${s.file}:${s.line}:${s.column} ${s.api} ${s.status}${s.reasons.length ? ` ${s.reasons.map((r) => r.code).join(',')}` : ''}`), EXPECTED);
    assert.deepEqual(report.notices.map((n) => `${n.file} ${n.code}`), ['test/summarise.test.ts test-mock']);
    assert.deepEqual(report.errors, []);
  });

  it('the migrated demo type-checks against openai 6 and 7', async () => {
    const { changes } = await run(defaultOptions({ paths: ['.'], cwd: DEMO, dryRun: true, format: 'json', markers: false }));
    const after = new Map(changes.map((c) => [c.file, c.after]));
    const files = sourceFiles(path.join(DEMO, 'src')).filter((f) => f.endsWith('.ts'));
    for (const sdk of ['openai6', 'openai7'] as const) {
      const errors = await typecheckTexts(DEMO, files.map((f) => ({ file: f, text: after.get(f) })), sdk);
      assert.deepEqual(errors.map((e) => `${sdk} ${e.file}:${e.line} ${e.message}`), []);
    }
  });
});
