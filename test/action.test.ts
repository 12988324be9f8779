/**
 * The GitHub Action: its step script (lib/ci/action.ts, built) under a simulated Actions
 * environment (GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and RUNNER_TEMP pointed at temporary files),
 * and action.yml plus the example workflows validated by GitHub's own workflow parser.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { FINGERPRINT_KEY } from '../lib/report/sarif.js';
import { REPO } from './helpers/fixtures.js';
import { cli, demoRepo, git, tempDir, write } from './helpers/git.js';

const ACTION = path.join(REPO, 'dist', 'lib', 'ci', 'action.js');

/** `name<<delimiter … delimiter` blocks of a $GITHUB_OUTPUT file. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const end = lines.indexOf(m[2], i + 1);
    assert.ok(end > i, `unterminated output ${m[1]}`);
    out[m[1]] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

function runAction(cwd: string, inputs: Record<string, string>) {
  const gh = tempDir('mr-gh-');
  const files = { GITHUB_STEP_SUMMARY: path.join(gh, 'summary.md'), GITHUB_OUTPUT: path.join(gh, 'output'), RUNNER_TEMP: gh };
  writeFileSync(files.GITHUB_STEP_SUMMARY, '# An earlier step\n\n');
  writeFileSync(files.GITHUB_OUTPUT, 'earlier=1\n');
  const env: NodeJS.ProcessEnv = { ...process.env, ...files, GITHUB_ACTIONS: 'true' };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k}`] = v;
  const r = spawnSync(process.execPath, [ACTION], { cwd, env, encoding: 'utf8' });
  return {
    code: r.status, stdout: r.stdout, stderr: r.stderr, runnerTemp: gh,
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    outputs: parseOutputs(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
    rawOutput: readFileSync(files.GITHUB_OUTPUT, 'utf8'),
  };
}

describe('the GitHub Action script (simulated Actions environment)', () => {
  it('check mode: annotations in the log, the summary appended, outputs and a SARIF file written; a new site fails', () => {
    const dir = demoRepo();
    assert.equal(cli(dir, '.', '--dry-run', '--update-baseline', '--baseline', '.migrate-responses-baseline.json').code, 0);
    const r = runAction(dir, { PATHS: 'src test', MODE: 'check', BASELINE: '.migrate-responses-baseline.json', SARIF: 'out/results.sarif' });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^migrate-responses src test --format github --report \S+report\.json --report \S+report\.md --report out\/results\.sarif --dry-run --check --baseline \.migrate-responses-baseline\.json$/m);
    // without node_modules, src/cli/ask.ts's question (process.argv…) has no type: its turn is
    // converted when the program runs (M-CONTENT-UNTYPED), the site migrated
    assert.equal(r.stdout.match(/^::warning file=src\//gm)?.length, 8);
    assert.equal(r.stdout.match(/^::notice file=src\//gm)?.length, 9);
    assert.match(r.stderr, /--check passed: 17 remaining sites, none beyond the baseline/);
    // the annotations the README shows are this run's
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const sample = readme.slice(readme.indexOf('```\n::warning file=src/internal/gateway.ts') + 4, readme.indexOf('```', readme.indexOf('::warning file=src/internal/gateway.ts')));
    assert.equal(sample.split('\n').filter(Boolean).length, 3);
    for (const line of sample.split('\n').filter(Boolean)) assert.ok(r.stdout.split('\n').includes(line), line);
    assert.ok(r.summary.startsWith('# An earlier step\n\n# Migration to the OpenAI Responses API\n'), r.summary.slice(0, 200));
    assert.ok(r.summary.includes('(dry run: nothing written)'));
    assert.ok(r.rawOutput.startsWith('earlier=1\n'));
    assert.equal(r.outputs.sites, '17');
    assert.equal(r.outputs.manual, '8');
    assert.equal(r.outputs.migrated, '9');
    assert.equal(r.outputs['changed-files'].split('\n').length, 17); // multiline value, one file a line (with ask.ts's converter module)
    assert.equal(r.outputs['changed-files'].split('\n')[0], 'src/agent/order-agent.ts');
    assert.equal(r.outputs['pr-body'], '');
    assert.equal(r.outputs.sarif, path.join(dir, 'out/results.sarif'));
    const sarif = JSON.parse(readFileSync(path.join(dir, 'out/results.sarif'), 'utf8'));
    assert.equal(sarif.runs[0].results.length, 12);
    assert.ok(sarif.runs[0].results.every((x: any) => /^[0-9a-f]{16}\//.test(x.partialFingerprints[FINGERPRINT_KEY])));
    assert.equal(git(dir, 'status', '--porcelain', '--', 'src'), ''); // nothing written

    write(dir, { 'src/tickets/title.ts': `${readFileSync(path.join(dir, 'src/tickets/title.ts'), 'utf8')}\nexport const again = () => openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [] });\n` });
    const failed = runAction(dir, { MODE: 'check', BASELINE: '.migrate-responses-baseline.json' });
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /^::error file=src\/tickets\/title\.ts,line=\d+,col=\d+,title=New Chat Completions call site/m);
    assert.equal(failed.outputs.sites, '18');
  });

  it('migrate mode: rewrites one kind, tightens the baseline, writes the pull-request body outside the work tree', () => {
    const dir = demoRepo();
    assert.equal(cli(dir, '.', '--dry-run', '--update-baseline', '--baseline', 'bl.json').code, 0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'baseline');
    const r = runAction(dir, { MODE: 'migrate', BASELINE: 'bl.json', ONLY: 'simple' });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const body = readFileSync(r.outputs['pr-body'], 'utf8');
    assert.ok(r.outputs['pr-body'].startsWith(r.runnerTemp));
    assert.equal(body, r.summary.slice('# An earlier step\n\n'.length));
    assert.match(body, /^## Migrated \(4\)$/m);
    assert.match(body, /^## Formatting$/m);
    assert.match(body, /^## Ignored and skipped sites \(5\)$/m);
    const changed = r.outputs['changed-files'].split('\n');
    assert.deepEqual(changed, git(dir, 'diff', '--name-only', '--', 'src').trim().split('\n'));
    assert.equal(r.outputs['format-command'], `npx prettier --write ${changed.join(' ')}`);
    assert.deepEqual(git(dir, 'status', '--porcelain').trimEnd().split('\n').map((l) => l.slice(3)).sort(), ['bl.json', ...changed].sort());
    const baseline = JSON.parse(readFileSync(path.join(dir, 'bl.json'), 'utf8'));
    const count = Object.values(baseline.files as Record<string, Record<string, string[]>>).flatMap((apis) => Object.values(apis)).flat().length;
    assert.equal(count, 13); // 17 sites, 4 migrated
  });

  it('a bad input is reported as an error annotation (exit 2), and shell words are split without a shell', () => {
    const dir = demoRepo();
    const r = runAction(dir, { MODE: 'deploy' });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '::error title=migrate-responses::input mode: "deploy" is not one of check, report, migrate\n');
    const quoted = runAction(dir, { MODE: 'report', PATHS: "'src/tickets'", ARGS: '--allow-base-url "https://llm-gateway.platform.internal" --no-markers; touch pwned' });
    assert.equal(quoted.code, 2); // `;` and `touch` are arguments, not a command: the CLI rejects the unknown path
    assert.equal(existsSync(path.join(dir, 'pwned')), false);
    const report = runAction(dir, { MODE: 'report', PATHS: 'src/tickets\nsrc/triage', ARGS: "--allow-base-url 'https://llm-gateway.platform.internal'" });
    assert.equal(report.code, 0, report.stdout + report.stderr);
    assert.equal(report.outputs.sites, '6'); // 4 in src/tickets, 2 in src/triage
  });
});

describe('action.yml and the example workflows', () => {
  // GitHub's own parser and schemas (the ones the Actions language service uses), from npm.
  const load = async () => {
    const workflows = await import('@actions/workflow-parser');
    const actions = await import('@actions/workflow-parser/actions/index');
    return { ...workflows, ...actions, trace: new workflows.NoOperationTraceWriter() };
  };
  const read = (rel: string) => readFileSync(path.join(REPO, rel), 'utf8');
  const EXAMPLES = ['examples/github/pr-gate.yml', 'examples/github/migration-pr.yml'];

  it('the validator is live: it rejects a composite step without a shell and a misspelt workflow key', async () => {
    const p = await load();
    const action = p.parseAction({ name: 'a.yml', content: read('action.yml').replace('      shell: bash\n      run: cd', '      run: cd') }, p.trace);
    assert.deepEqual(action.context.errors.getErrors().map((e) => e.message), ['a.yml (Line: 77, Col: 7): Required property is missing: shell']);
    const workflow = p.parseWorkflow({ name: 'w.yml', content: read(EXAMPLES[0]).replace('    steps:', '    stepz:') }, p.trace);
    assert.ok(workflow.context.errors.getErrors().some((e) => /Unexpected value 'stepz'/.test(e.message)));
  });

  it('action.yml validates; its inputs and outputs are the ones the step script reads and writes', async () => {
    const p = await load();
    const parsed = p.parseAction({ name: 'action.yml', content: read('action.yml') }, p.trace);
    const action = p.convertActionTemplate(parsed.context, parsed.value!);
    assert.deepEqual(parsed.context.errors.getErrors().map((e) => e.message), []);
    assert.equal(action.runs?.using, 'composite');
    const { INPUT_NAMES, OUTPUT_NAMES } = await import('../lib/ci/action.js');
    assert.deepEqual(action.inputs?.map((i) => i.id), [...INPUT_NAMES, 'node-version']);
    assert.deepEqual(action.outputs?.map((o) => o.id), [...OUTPUT_NAMES]);
    const text = read('action.yml');
    for (const name of INPUT_NAMES) assert.ok(text.includes(`INPUT_${name.toUpperCase().replace(/-/g, '_')}: \${{ inputs.${name} }}`), name);
    for (const name of OUTPUT_NAMES) assert.ok(text.includes(`value: \${{ steps.run.outputs.${name} }}`), name);
    assert.match(text, /run: node "\$GITHUB_ACTION_PATH\/dist\/lib\/ci\/action\.js"/);
    assert.ok(existsSync(path.join(REPO, 'dist', 'lib', 'ci', 'action.js')));
  });

  it('the example workflows validate and use the action as documented', async () => {
    const p = await load();
    for (const file of EXAMPLES) {
      const parsed = p.parseWorkflow({ name: file, content: read(file) }, p.trace);
      const workflow = await p.convertWorkflowTemplate(parsed.context, parsed.value!);
      assert.deepEqual(parsed.context.errors.getErrors().map((e) => e.message), [], file);
      assert.equal(workflow.jobs.length, 1, file);
    }
    assert.match(read(EXAMPLES[0]), /mode: check\n {10}baseline: \.migrate-responses-baseline\.json\n {10}sarif: migrate-responses\.sarif/);
    assert.match(read(EXAMPLES[1]), /mode: migrate[\s\S]*body-path: \$\{\{ steps\.migrate\.outputs\.pr-body \}\}/);
  });

  it('the README shows the two example workflows as they are', () => {
    const readme = read('README.md');
    for (const file of EXAMPLES) {
      const text = read(file);
      assert.ok(readme.includes(`\`\`\`yaml\n${text.slice(text.indexOf('name:'))}\`\`\``), file);
      assert.ok(readme.includes(`(${file})`), file);
    }
  });

  it('every third-party action is pinned to a full commit SHA with its version in a comment', () => {
    const uses = ['action.yml', ...EXAMPLES].flatMap((file) => [...read(file).matchAll(/uses: (\S+)(.*)$/gm)].map((m) => ({ file, ref: m[1], comment: m[2] })));
    assert.ok(uses.length >= 6);
    for (const u of uses) {
      if (u.ref.startsWith('migrate-responses/migrate-responses@')) continue; // this action: the adopter pins the release they choose
      assert.match(u.ref, /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${u.file}: ${u.ref}`);
      assert.match(u.comment, /^ # v\d+\.\d+\.\d+$/, `${u.file}: ${u.ref}`);
    }
  });
});
