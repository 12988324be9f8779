/**
 * Migration fixtures (every fixture folder with an `output.<ext>`), each held to:
 *  1. exact output: the tool's rewrite of input equals output, byte for byte;
 *  2. it parses (Babel, the transform parser, and TypeScript);
 *  3. idempotency: running the tool on output changes nothing;
 *  4. type-check: output (in input's place, with its context files) compiles against openai 6.x and 7.x;
 *  5. differential run (case.json `"run": true`): input and output, run against the fake OpenAI
 *     server, print the same and send the same canonical requests.
 * A fixture's `created/` folder holds the files the run must create (the run-time converter
 * module, M-CONTENT-UNTYPED), byte for byte; they join the type-check and the migrated program.
 * A multi-file case (an `out/` folder mirroring the files the run changes or creates,
 * test/helpers/fixtures.ts) is held to the same, for every file: the run changes exactly the
 * mirrored files, each to its exact output, also when it writes them; they parse; a second run
 * changes nothing; the whole migrated project type-checks; and the program from case.json's
 * `main` behaves the same.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ts } from 'ts-morph';
import { run } from '../lib/run.js';
import type { PackageJson } from '../lib/project/layout.js';
import { sdkDeclarations } from '../lib/project/sdk-names.js';
import { assertParses } from '../transforms/parser.js';
import { startFakeOpenAI, type FakeServer } from './fake-openai/index.js';
import { runProgram, type ProgramFiles } from './helpers/differential.js';
import { FIXTURES, REPO, expectedOutputs, fixtureOptions, loadFixtures, type CaseOptions, type Fixture } from './helpers/fixtures.js';
import { typecheckTexts, type TypeError } from './helpers/typecheck.js';

/** `FIXTURES=streaming/v32,follow/w14 node --import tsx --test test/migrate-fixtures.test.ts`: only those (while working on them). */
const only = process.env.FIXTURES?.split(',').filter(Boolean);
const all = loadFixtures().filter((f) => !only || only.some((o) => path.relative(FIXTURES, f.dir).startsWith(o)));
const fixtures = all.filter((f) => f.output && f.input);
const multiFile = all.filter((f) => f.outputDir);
const runnable = (f: Fixture) => Boolean(f.options.run);

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

function assertParsesBoth(file: string, text: string): void {
  assert.doesNotThrow(() => assertParses(file, text));
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  assert.deepEqual(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')), []);
}

/**
 * The case's files as a program: every input, with the texts of `migrated` (absolute path → text)
 * instead of some, and its files that are not inputs (created by the run) added.
 */
function programOf(f: Fixture, main: string, migrated: ReadonlyMap<string, string>): ProgramFiles {
  const files = new Map<string, string>();
  for (const i of f.inputs) files.set(path.relative(f.dir, i), migrated.get(i) ?? readFileSync(i, 'utf8'));
  for (const [file, text] of migrated) files.set(path.relative(f.dir, file), text);
  const packageJson = path.join(f.dir, 'package.json');
  return { files, main, packageJson: existsSync(packageJson) ? readFileSync(packageJson, 'utf8') : undefined };
}

/** The other names the fixtures' package.json files install the SDK under (`npm:openai@…` aliases). */
function sdkAliasesOf(cases: readonly Fixture[]): string[] {
  const names = new Set<string>();
  for (const f of cases) {
    for (const rel of readdirSync(f.dir, { recursive: true, encoding: 'utf8' })) {
      if (path.basename(rel) !== 'package.json' || rel.split(path.sep)[0] === 'out') continue;
      const json = JSON.parse(readFileSync(path.join(f.dir, rel), 'utf8')) as PackageJson;
      for (const { name } of sdkDeclarations(json)) if (name !== 'openai') names.add(name);
    }
  }
  return [...names];
}

/** The differential run: the migrated program prints the same and asks for the same, on Responses. */
async function assertSameBehaviour(server: FakeServer, before: ProgramFiles, after: ProgramFiles, options: CaseOptions = {}): Promise<void> {
  const was = await runProgram(server, before, 'before');
  const now = await runProgram(server, after, 'after');
  assert.equal(was.exitCode, 0, `the original program failed: ${was.stderr}`);
  assert.equal(now.exitCode, was.exitCode, `the migrated program failed: ${now.stderr}`);
  assert.equal(now.stdout, was.stdout);
  assert.ok(was.requests.length > 0, 'the program made no request');
  const expected = options.rejectedBeforeSending ? alignedRequests(was.requests, now.requests) : was.requests;
  assert.deepEqual(now.requests.map((r) => r.api), options.apis ?? expected.map(() => 'responses'));
  assert.deepEqual(now.requests.map((r) => r.status), expected.map((r) => r.status));
  assert.deepEqual(now.requests.map((r) => r.canonical), expected.map((r) => r.canonical));
}

/**
 * The original's requests less those the migrated run did not send because the converter
 * rejected their messages first (CaseOptions.rejectedBeforeSending): only a request the server
 * answered with HTTP 400 may be dropped, and only where the migrated run has no request matching it.
 */
function alignedRequests<R extends { status: number; canonical: unknown }>(was: readonly R[], now: readonly R[]): R[] {
  const kept: R[] = [];
  let j = 0;
  for (const request of was) {
    const next = now[j];
    if (request.status === 400 && !(next && next.status === 400 && isDeepStrictEqual(next.canonical, request.canonical))) continue;
    kept.push(request);
    j++;
  }
  assert.ok(kept.length < was.length, 'rejectedBeforeSending: no request was rejected before sending; drop the option');
  return kept;
}

/** A copy of the case's inputs (no out/) in test/tmp, removed by the caller. */
function scratchCopy(f: Fixture, label: string): { copy: Fixture; dir: string } {
  const dir = path.join(REPO, 'test', 'tmp', label, f.name.replace('/', '__'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(f.dir, dir, { recursive: true, filter: (src) => !f.outputDir || (src !== f.outputDir && !src.startsWith(f.outputDir + path.sep)) });
  const inputs = f.inputs.map((i) => path.join(dir, path.relative(f.dir, i)));
  return { copy: { ...f, dir, inputs, outputDir: undefined }, dir };
}

describe('migration fixtures', () => {
  const typeErrors = new Map<string, TypeError[]>();
  let server: FakeServer;

  before(async () => {
    server = await startFakeOpenAI();
    // the migrated text is checked in the input's place, so that context files that import it
    // (the callers of a class whose client is injected) resolve it
    const files: { file: string; text?: string }[] = fixtures.filter((f) => isTypeScript(f.output!)).flatMap((f) => [
      { file: f.input!, text: readFileSync(f.output!, 'utf8') },
      ...f.inputs.filter((i) => i !== f.input && isTypeScript(i)).map((file) => ({ file })),
      ...[...f.created].filter(([rel]) => isTypeScript(rel)).map(([rel, text]) => ({ file: path.join(f.dir, rel), text })),
    ]);
    // a multi-file case is checked as the migrated project: each input with its output's text, and the files created
    for (const f of multiFile) {
      const outputs = expectedOutputs(f);
      for (const file of f.inputs.filter(isTypeScript)) {
        const output = outputs.get(file);
        files.push({ file, ...(output ? { text: readFileSync(output, 'utf8') } : {}) });
      }
      for (const [file, output] of outputs) if (!f.inputs.includes(file) && isTypeScript(file)) files.push({ file, text: readFileSync(output, 'utf8') });
    }
    const aliases = sdkAliasesOf(multiFile);
    for (const sdk of ['openai6', 'openai7'] as const) typeErrors.set(sdk, await typecheckTexts(FIXTURES, files, sdk, {}, aliases));
  });
  const typeErrorsOf = (f: Fixture, sdk: 'openai6' | 'openai7') => {
    const dir = path.relative(FIXTURES, f.dir);
    return (typeErrors.get(sdk) ?? []).filter((e) => e.file.startsWith(`${dir}/`)).map((e) => `${e.file}:${e.line} ${e.message}`);
  };
  after(async () => server?.close());

  if (!only) it('has at least one migration fixture', () => assert.ok(fixtures.length > 0));

  for (const f of fixtures) {
    describe(f.name, () => {
      it('rewrites input to exactly output', async () => {
        const actual = await migrated(f);
        assert.equal(actual, readFileSync(f.output!, 'utf8'));
      });

      it('output parses', () => assertParsesBoth(f.output!, readFileSync(f.output!, 'utf8')));

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
          it(`type-checks against ${sdk}`, () => assert.deepEqual(typeErrorsOf(f, sdk), []));
        }
      }

      if (runnable(f)) {
        it('behaves the same against the fake OpenAI server', async () => {
          const main = path.relative(f.dir, f.input!);
          const migrated = new Map([[f.input!, readFileSync(f.output!, 'utf8')], ...[...f.created].map(([rel, text]) => [path.join(f.dir, rel), text] as const)]);
          await assertSameBehaviour(server, programOf(f, main, new Map()), programOf(f, main, migrated), f.options);
        });
      }
    });
  }
  if (!only) it('has at least one multi-file migration fixture', () => assert.ok(multiFile.length > 0));

  for (const f of multiFile) {
    describe(`${f.name} (multi-file)`, () => {
      const outputs = expectedOutputs(f);
      const rel = (file: string) => path.relative(f.dir, file).split(path.sep).join('/');

      it('rewrites exactly the mirrored files, each to its output; those that are not inputs are created', async () => {
        const { changes } = await run(fixtureOptions(f));
        assert.deepEqual(changes.map((c) => c.rel).sort(), [...outputs.keys()].map(rel).sort());
        for (const c of changes) {
          assert.equal(c.after, readFileSync(outputs.get(c.file)!, 'utf8'), c.rel);
          assert.equal(Boolean(c.created), !f.inputs.includes(c.file), `${c.rel} is created exactly when it is not an input`);
        }
      });

      it('write mode leaves every file as its output (or as it was), and a second run changes nothing', async () => {
        const { copy, dir } = scratchCopy(f, 'multi-file');
        try {
          const first = await run(fixtureOptions(copy, { dryRun: false, force: true }));
          assert.deepEqual(first.report.errors, []);
          assert.deepEqual([...first.report.changedFiles].sort(), [...outputs.keys()].map(rel).sort());
          for (const file of new Set([...f.inputs, ...outputs.keys()])) {
            const expected = readFileSync(outputs.get(file) ?? file, 'utf8');
            assert.equal(readFileSync(path.join(dir, path.relative(f.dir, file)), 'utf8'), expected, rel(file));
          }
          const again = await run(fixtureOptions(copy));
          assert.deepEqual(again.changes.map((c) => c.rel), []);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('every output parses', () => {
        for (const output of outputs.values()) assertParsesBoth(output, readFileSync(output, 'utf8'));
      });

      for (const sdk of ['openai6', 'openai7'] as const) {
        it(`the migrated project type-checks against ${sdk}`, () => assert.deepEqual(typeErrorsOf(f, sdk), []));
      }

      if (runnable(f)) {
        it('behaves the same against the fake OpenAI server', async () => {
          assert.ok(f.options.main, 'case.json names the program entry (`main`)');
          const migrated = new Map([...outputs].map(([input, output]) => [input, readFileSync(output, 'utf8')]));
          await assertSameBehaviour(server, programOf(f, f.options.main, new Map()), programOf(f, f.options.main, migrated), f.options);
        });
      }
    });
  }
});
