/**
 * Migration fixtures (every fixture folder with an `output.<ext>`), each held to:
 *  1. exact output: the tool's rewrite of input equals output, byte for byte;
 *  2. it parses (Babel, the transform parser, and TypeScript);
 *  3. idempotency: running the tool on output changes nothing;
 *  4. type-check: output (in input's place, with its context files) compiles against openai 6.x and 7.x;
 *  5. differential run (case.json `"run": true`): input and output, run against the fake OpenAI
 *     server, print the same and send the same canonical requests.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ts } from 'ts-morph';
import { run } from '../lib/run.js';
import { assertParses } from '../transforms/parser.js';
import { startFakeOpenAI, type FakeServer } from './fake-openai/index.js';
import { runProgram, type ProgramFiles } from './helpers/differential.js';
import { FIXTURES, REPO, fixtureOptions, loadFixtures, type Fixture } from './helpers/fixtures.js';
import { typecheckTexts, type TypeError } from './helpers/typecheck.js';

const fixtures = loadFixtures().filter((f) => f.output && f.input);
const runnable = (f: Fixture) => Boolean((f.options as { run?: boolean }).run);

async function migrated(f: Fixture): Promise<string> {
  const { changes } = await run(fixtureOptions(f));
  const others = changes.filter((c) => c.file !== f.input);
  assert.deepEqual(others.map((c) => c.rel), [], 'only input.* may change');
  return changes.find((c) => c.file === f.input)?.after ?? readFileSync(f.input!, 'utf8');
}

function isTypeScript(file: string): boolean {
  return /\.(ts|mts|cts|tsx)$/.test(file) && !file.endsWith('.d.ts');
}

describe('migration fixtures', () => {
  const typeErrors = new Map<string, TypeError[]>();
  let server: FakeServer;

  before(async () => {
    server = await startFakeOpenAI();
    // the migrated text is checked in the input's place, so that context files that import it
    // (the callers of a class whose client is injected) resolve it
    const files = fixtures.filter((f) => isTypeScript(f.output!)).flatMap((f) => [
      { file: f.input!, text: readFileSync(f.output!, 'utf8') },
      ...f.inputs.filter((i) => i !== f.input && isTypeScript(i)).map((file) => ({ file })),
    ]);
    for (const sdk of ['openai6', 'openai7'] as const) typeErrors.set(sdk, await typecheckTexts(FIXTURES, files, sdk));
  });
  after(async () => server?.close());

  it('has at least one migration fixture', () => assert.ok(fixtures.length > 0));

  for (const f of fixtures) {
    describe(f.name, () => {
      it('rewrites input to exactly output', async () => {
        const actual = await migrated(f);
        assert.equal(actual, readFileSync(f.output!, 'utf8'));
      });

      it('output parses', () => {
        const text = readFileSync(f.output!, 'utf8');
        assert.doesNotThrow(() => assertParses(f.output!, text));
        const sf = ts.createSourceFile(f.output!, text, ts.ScriptTarget.Latest, true);
        const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
        assert.deepEqual(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')), []);
      });

      it('a second run changes nothing', async () => {
        const scratch = path.join(REPO, 'test', 'tmp', 'idempotency', f.name.replace('/', '__'));
        rmSync(scratch, { recursive: true, force: true });
        mkdirSync(scratch, { recursive: true });
        cpSync(f.dir, scratch, { recursive: true });
        writeFileSync(path.join(scratch, path.basename(f.input!)), readFileSync(f.output!, 'utf8'));
        rmSync(path.join(scratch, path.basename(f.output!)));
        try {
          const again = { ...f, dir: scratch, inputs: f.inputs.filter((i) => i !== f.output).map((i) => path.join(scratch, path.relative(f.dir, i))) };
          const { changes } = await run(fixtureOptions(again));
          assert.deepEqual(changes.map((c) => c.rel), []);
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
      });

      if (isTypeScript(f.output!)) {
        for (const sdk of ['openai6', 'openai7'] as const) {
          it(`type-checks against ${sdk}`, () => {
            const dir = path.relative(FIXTURES, f.dir);
            const errors = (typeErrors.get(sdk) ?? []).filter((e) => e.file.startsWith(`${dir}/`));
            assert.deepEqual(errors.map((e) => `${e.file}:${e.line} ${e.message}`), []);
          });
        }
      }

      if (runnable(f)) {
        it('behaves the same against the fake OpenAI server', async () => {
          const program = (main: string, mainText: string): ProgramFiles => {
            const files = new Map<string, string>();
            for (const i of f.inputs) files.set(path.relative(f.dir, i), readFileSync(i, 'utf8'));
            files.set(path.relative(f.dir, f.input!), mainText);
            return { files, main };
          };
          const main = path.relative(f.dir, f.input!);
          const before = await runProgram(server, program(main, readFileSync(f.input!, 'utf8')), 'before');
          const after = await runProgram(server, program(main, readFileSync(f.output!, 'utf8')), 'after');
          assert.equal(before.exitCode, 0, `the original program failed: ${before.stderr}`);
          assert.equal(after.exitCode, before.exitCode, `the migrated program failed: ${after.stderr}`);
          assert.equal(after.stdout, before.stdout);
          assert.ok(before.requests.length > 0, 'the program made no request');
          assert.deepEqual(after.requests.map((r) => r.api), before.requests.map(() => 'responses'));
          assert.deepEqual(after.requests.map((r) => r.status), before.requests.map((r) => r.status));
          assert.deepEqual(after.requests.map((r) => r.canonical), before.requests.map((r) => r.canonical));
        });
      }
    });
  }
});
