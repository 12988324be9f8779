/**
 * Migration fixtures (every fixture folder with an `output.<ext>`), each held to:
 *  1. exact output: the tool's rewrite of input equals output, byte for byte;
 *  2. it parses (Babel, the transform parser, and TypeScript);
 *  3. idempotency: running the tool on output changes nothing;
 *  4. type-check: output (with its context files) compiles against openai 6.x and 7.x;
 *  5. differential run (case.json `"run": true`): input and output, run against the fake OpenAI
 *     server, print the same and send the same canonical requests.
 * A fixture's `created/` folder holds the files the run must create (the run-time converter
 * module, M-CONTENT-UNTYPED), byte for byte; they join the type-check and the migrated program.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const others = changes.filter((c) => c.file !== f.input && !c.created);
  assert.deepEqual(others.map((c) => c.rel), [], 'only input.* may change');
  const created = changes.filter((c) => c.created);
  assert.deepEqual(created.map((c) => path.relative(f.dir, c.file)).sort(), [...f.created.keys()].sort(), 'the files created are those of created/');
  for (const c of created) {
    assert.equal(c.before, '');
    assert.equal(c.after, f.created.get(path.relative(f.dir, c.file)), `created ${c.rel}`);
  }
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
    const files = fixtures.filter((f) => isTypeScript(f.output!)).flatMap((f) => [
      { file: f.output! }, ...f.inputs.filter((i) => i !== f.input && isTypeScript(i)).map((file) => ({ file })),
      ...[...f.created].filter(([rel]) => isTypeScript(rel)).map(([rel, text]) => ({ file: path.join(f.dir, rel), text })),
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
        for (const [rel, text] of f.created) writeFileSync(path.join(scratch, rel), text); // as the first run left them
        rmSync(path.join(scratch, path.basename(f.output!)));
        try {
          const inputs = [...f.inputs.filter((i) => i !== f.output), ...[...f.created.keys()].map((rel) => path.join(f.dir, rel))];
          const again = { ...f, dir: scratch, inputs: inputs.map((i) => path.join(scratch, path.relative(f.dir, i))) };
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
          const packageJson = path.join(f.dir, 'package.json');
          const program = (main: string, mainText: string, created: ReadonlyMap<string, string>): ProgramFiles => {
            const files = new Map<string, string>();
            for (const i of f.inputs) files.set(path.relative(f.dir, i), readFileSync(i, 'utf8'));
            files.set(path.relative(f.dir, f.input!), mainText);
            for (const [rel, text] of created) files.set(rel, text);
            return { files, main, packageJson: existsSync(packageJson) ? readFileSync(packageJson, 'utf8') : undefined };
          };
          const main = path.relative(f.dir, f.input!);
          const before = await runProgram(server, program(main, readFileSync(f.input!, 'utf8'), new Map()), 'before');
          const after = await runProgram(server, program(main, readFileSync(f.output!, 'utf8'), f.created), 'after');
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
