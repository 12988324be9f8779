/**
 * Property tests over generated Chat Completions programs (test/fuzz/): a bounded run of seeds
 * 1..N (N = 120, or FUZZ_COUNT) plus the regression seeds below. Each program must survive the
 * tool: no exception, no report errors, parseable and idempotent outputs, the exact number of
 * sites, each where the generator put it with its expected provider, status and forced reasons, and
 * migrated code that type-checks against openai 6 and openai 7. Failures of a bug known in code this
 * branch does not edit (test/fuzz/known.ts) are listed by a todo test instead. Every failure names
 * its seed; replay one with
 *   FUZZ_SEEDS=17,42 node --import tsx --test test/fuzz.test.ts
 * or, with the failing programs written to test/tmp/fuzz-failures/<seed>/,
 *   node --import tsx scripts/fuzz.ts --seeds 17,42
 * Longer runs: node --import tsx scripts/fuzz.ts --count 3000 --seed 1
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateProgram } from './fuzz/generator.js';
import { KNOWN_ISSUES, knownIssueOf } from './fuzz/known.js';
import { checkPrograms, type CheckResult } from './fuzz/properties.js';

const COUNT = Number(process.env.FUZZ_COUNT ?? 120);

/**
 * Seeds beyond 1..N that found tool bugs in longer runs (scripts/fuzz.ts). They stay in the bounded
 * run so the test fails while a bug exists. They were recorded before the generator's second and
 * third streams (the shapes of issues 11 and 12), so they run in `classic` mode, which gives the program they were
 * recorded with; replay one with `node --import tsx scripts/fuzz.ts --classic --seeds 599`. A change
 * to the generator's first-stream choices changes what a seed produces: re-run the script and update them.
 *  - 599, 925: `overlapping edits` in the Chat type import when two adjacent specifiers are released
 *    and another one stays (report error + transform-failed);
 *  - 3958, 4264: `max_tokens` and `max_completion_tokens` in the second branch of a conditional
 *    spread both become `max_output_tokens` (TS1117 duplicate key) instead of a report;
 *  - 4640: a `unit-blocked:<file:line:col>` marker names the sibling's position, which the sibling's
 *    own marker shifts, so a second run adds another marker (G-IDEMP).
 */
const REGRESSION_SEEDS = [599, 925, 3958, 4264, 4640];

const SEEDS = process.env.FUZZ_SEEDS
  ? process.env.FUZZ_SEEDS.split(',').map(Number)
  : [...Array.from({ length: COUNT }, (_, i) => i + 1), ...REGRESSION_SEEDS.filter((s) => s > COUNT)];

describe('fuzz: generated programs', () => {
  it('the generator is a pure function of the seed', () => {
    for (const seed of [1, 2, 3, 99, 1000]) assert.deepEqual(generateProgram(seed), generateProgram(seed));
    assert.notDeepEqual(generateProgram(1).files, generateProgram(2).files);
  });

  let run: Promise<CheckResult> | undefined;
  const classic = new Set(process.env.FUZZ_SEEDS ? [] : REGRESSION_SEEDS);
  const checked = () => (run ??= checkPrograms(SEEDS, { checkInputs: true, classic }));

  it(`${process.env.FUZZ_SEEDS ? `seeds ${SEEDS.join(',')}` : `seeds 1..${COUNT} and ${REGRESSION_SEEDS.join(',')}`} keep every property`, { timeout: 300_000 }, async (t) => {
    const r = await checked();
    const summary =
      `${r.programs} programs, ${r.sites} sites (${r.migrated} migrated, ${r.manual} manual, ${r.ignored} ignored), ` +
      `${r.changedPrograms} changed programs, ${r.typeChecked} migrated files type-checked per SDK line ` +
      `(+${r.inputsTypeChecked} inputs), ${r.failures.length} failure(s), ${(r.ms / 1000).toFixed(1)} s`;
    t.diagnostic(summary);
    console.log(`fuzz: ${summary}`);
    assert.equal(r.programs, SEEDS.length);
    assert.ok(r.sites >= SEEDS.length, 'the generator wrote fewer sites than programs');
    // failures of a bug known in code this branch does not edit are listed by the todo test below
    const failures = r.failures.filter((f) => !knownIssueOf(f, r.failures));
    const seeds = [...new Set(failures.map((f) => f.seed))];
    assert.deepEqual(
      failures.map((f) => f.reason),
      [],
      `${r.failures.length} property failure(s) in ${seeds.length} program(s); replay with ` +
        `node --import tsx scripts/fuzz.ts --seeds ${seeds.join(',')}`,
    );
  });

  // A todo test: its failure is shown, not counted. It fails while a known bug occurs, and says so
  // when one no longer does (then remove it from test/fuzz/known.ts).
  it('known tool bugs (test/fuzz/known.ts) no longer occur', { todo: 'reported to the lead, outside this branch', timeout: 300_000 }, async (t) => {
    const r = await checked();
    const seen = new Map<string, string[]>();
    for (const f of r.failures) {
      const k = knownIssueOf(f, r.failures);
      if (k) seen.set(k.id, [...(seen.get(k.id) ?? []), f.reason]);
    }
    for (const k of KNOWN_ISSUES) if (!seen.has(k.id)) t.diagnostic(`${k.id}: not seen in this run (fixed? remove it from test/fuzz/known.ts)`);
    assert.deepEqual([...seen].map(([id, reasons]) => `${id}: ${reasons.length} failure(s), e.g. ${reasons[0]}`), []);
  });
});
