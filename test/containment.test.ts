/**
 * Containment (issue 11): an exception while analysing one site lists that site as manual with a
 * `scanner-error` reason and the error text; the file's other sites are still listed, and G-UNIT
 * still blocks the siblings that share the failed site's values. A program the compiler cannot
 * build falls back to import tracking, whatever the error.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { defaultOptions } from '../lib/options.js';
import { reasonMessage, type ReasonCode } from '../lib/rules/reasons.js';
import { run } from '../lib/run.js';
import { ResultAnalyzer } from '../lib/scan/results.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-contain-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

// Two calls that share one local history (one G-UNIT unit), and an independent third call.
const SHARED = `import OpenAI from 'openai';
const client = new OpenAI();

export async function conversation(q: string): Promise<string> {
  const history = [{ role: 'user' as const, content: q }];
  const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history });
  history.push({ role: 'assistant' as const, content: first.choices[0].message.content ?? '' });
  const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history });
  return second.choices[0].message.content ?? '';
}

export async function alone(q: string): Promise<string> {
  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });
  return r.choices[0].message.content ?? '';
}
`;

async function report(dir: string, extra: Partial<Parameters<typeof defaultOptions>[0]> = {}) {
  const { report } = await run(defaultOptions({ paths: ['.'], cwd: dir, dryRun: true, format: 'json', ...extra }));
  return report;
}

describe('an exception in one site', () => {
  it('lists that site as scanner-error, keeps its unit keys (its sibling is unit-blocked) and the other site migrates', async (t) => {
    const dir = tree({ 'src/chat.ts': SHARED });
    const analyze = ResultAnalyzer.prototype.analyze;
    // the result analysis of the first call throws (after the request, and so the shared history, was analysed)
    t.mock.method(ResultAnalyzer.prototype, 'analyze', function (this: ResultAnalyzer, call: Parameters<typeof analyze>[0]) {
      if (call.getSourceFile().getLineAndCharacterOfPosition(call.getStart()).line === 5) throw new Error('boom in the result analysis');
      return analyze.call(this, call);
    });
    const r = await report(dir);
    const byLine = Object.fromEntries(r.sites.map((s) => [s.line, { status: s.status, reasons: s.reasons.map((x) => `${x.code}:${x.detail ?? ''}`) }]));
    assert.deepEqual(byLine, {
      6: { status: 'manual', reasons: ['scanner-error:boom in the result analysis'] },
      8: { status: 'manual', reasons: ['unit-blocked:src/chat.ts:6:47'] },
      13: { status: 'migrated', reasons: [] },
    });
    assert.deepEqual(r.errors, []);
    assert.equal(r.sites[0].client.provider, 'unknown');
    mock.restoreAll();
  });

  it('a reason message never throws, even for a code that is not in the table', () => {
    assert.equal(reasonMessage('no-such-code' as ReasonCode, 'x'), 'no-such-code (x)');
  });

  it('a detail that names a value and says why reads around the name (params-not-local)', () => {
    assert.equal(reasonMessage('params-not-local', 'tools'), 'tools is built outside this unit; its shape must change.');
    assert.equal(reasonMessage('params-not-local', 'response_format (shared is exported, a.ts)'), 'response_format (shared is exported, a.ts) is built outside this unit; its shape must change.');
    assert.equal(
      reasonMessage('params-not-local', "params: typed Params, the program's own type (a.ts)"),
      "params is built outside this unit (typed Params, the program's own type (a.ts)); its shape must change.",
    );
  });
});

describe('a program the compiler cannot build', () => {
  // an Error, not a RangeError: before, only a stack overflow fell back and anything else ended the run
  it('an unreadable tsconfig falls back to import tracking with a warning; the sites are still found', async () => {
    const dir = tree({ 'src/chat.ts': SHARED, 'tsconfig.json': '{ "compilerOptions": { "paths": ' });
    const r = await report(dir, { tsconfig: 'tsconfig.json' });
    assert.equal(r.sites.length, 3);
    assert.ok(r.warnings.some((w) => /type-aware scanning with .*tsconfig\.json failed \(cannot read .*\); imports were tracked instead/.test(w)), r.warnings.join('\n'));
  });
});
