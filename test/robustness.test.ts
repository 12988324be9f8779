/**
 * Bad input, faults and safety (issue 7): every failure is explicit, contained to its file and
 * reported; nothing is half-written; nothing outside the roots is touched.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { applyPlans } from '../lib/apply.js';
import { defaultOptions } from '../lib/options.js';
import type { FilePlan } from '../lib/plan.js';
import { run } from '../lib/run.js';
import { assertParses } from '../transforms/parser.js';
import { markerText } from '../transforms/markers.js';
import { REPO } from './helpers/fixtures.js';
import { NOBODY, readableInstall, unprivilegedProblem } from './helpers/readable-install.js';

const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-robust-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function cli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const call = (q = 'q') => `const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: ${q} }] });`;
const MIGRATABLE = `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function ask(q: string) {\n  ${call()}\n  return r.choices[0].message.content;\n}\n`;
/** A file that cannot hold a site's scan: its chat call sits after a syntax error. */
const BROKEN = "import OpenAI from 'openai';\nconst x = {;\nexport const ask = () => new OpenAI().chat.completions.create({ model: 'gpt-4o-mini', messages: [] });\n";
const MIGRATED = `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function ask(q: string) {\n  const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\n  return r.output_text;\n}\n`;

async function dry(dir: string, paths: string[] = ['.']) {
  return run(defaultOptions({ paths, cwd: dir, dryRun: true, format: 'json' }));
}

describe('bad input: reported, skipped, the rest goes on (exit 1)', () => {
  it('a syntax error, a non-UTF-8 file, a binary file and a too-deep file are each named; the good file is still rewritten', () => {
    const dir = tree({
      'src/ok.ts': MIGRATABLE,
      'src/broken.ts': BROKEN,
      'src/latin1.ts': Buffer.concat([Buffer.from("import OpenAI from 'openai'; // caf"), Buffer.from([0xe9]), Buffer.from('\n')]),
      'src/video.ts': Buffer.concat([Buffer.from([0x47, 0x00, 0x11]), Buffer.alloc(200)]),
      'src/deep.ts': `import OpenAI from 'openai';\nexport const x = ${'['.repeat(3000)}1${']'.repeat(3000)};\n`,
    });
    const r = cli(dir, ['src', '--format', 'json']);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.errors.map((e: { file: string }) => e.file).sort(), ['src/broken.ts', 'src/deep.ts', 'src/latin1.ts', 'src/video.ts']);
    const messages = Object.fromEntries(json.errors.map((e: { file: string; message: string }) => [e.file, e.message]));
    assert.match(messages['src/broken.ts'], /^syntax error: 2:12 /);
    assert.equal(messages['src/latin1.ts'], 'not valid UTF-8');
    assert.match(messages['src/video.ts'], /binary file/);
    assert.match(messages['src/deep.ts'], /nest deeper than 256 levels/);
    assert.equal(readFileSync(path.join(dir, 'src/ok.ts'), 'utf8'), MIGRATED);
    assert.equal(readFileSync(path.join(dir, 'src/broken.ts'), 'utf8'), BROKEN);
  });

  it('a module a site imports (its client) that does not parse is reported too; a candidate no site needs is never parsed', async () => {
    const dir = tree({
      'src/client.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI(;\n",
      'src/unused.ts': "import OpenAI from 'openai';\nconst y = {;\n",
      'src/ask.ts': "import { client } from './client';\nexport const ask = (q: string) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\n",
    });
    const { report } = await dry(dir);
    assert.deepEqual(report.errors.map((e) => e.file), ['src/client.ts']);
    assert.match(report.errors[0].message, /^syntax error: 2:/);
    assert.equal(report.sites.length, 1);
  });

  it('template text is not code: brackets and // inside a template literal never count toward the nesting guard', async () => {
    const docs = Array.from({ length: 300 }, (_, i) => `doc(\`see [JWT ${i}](https://example.com/a) and (${i}\`);`).join('\n');
    const dir = tree({ 'src/client.ts': `${MIGRATABLE}function doc(_s: string) {}\n${docs}\n` });
    const { report } = await dry(dir);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(report.sites.map((s) => s.status), ['migrated']);
  });

  it('syntax both parsers must accept: decorators, satisfies, using, JSX in .js, <T>x in .ts', async () => {
    const dir = tree({
      'deco.ts': `import OpenAI from 'openai';\nfunction logged(_t: unknown, _k: string) {}\nconst client = new OpenAI();\nexport class Bot {\n  @logged\n  async ask(q: string) {\n    ${call()}\n    const opts = { retries: 1 } satisfies Record<string, number>;\n    const n = <number>(opts.retries as unknown);\n    return r.choices[0].message.content + n;\n  }\n}\n`,
      'using.ts': `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function ask(q: string) {\n  using _lock = { [Symbol.dispose]() {} };\n  ${call()}\n  return r.choices[0].message.content;\n}\n`,
      'view.js': `import OpenAI from 'openai';\nconst client = new OpenAI();\n/** @param {{ q: string }} props */\nexport async function View({ q }) {\n  ${call()}\n  return <p title="x">{r.choices[0].message.content}</p>;\n}\n`,
    });
    const { report, changes } = await dry(dir);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(report.sites.map((s) => [s.file, s.status]), [['deco.ts', 'migrated'], ['using.ts', 'migrated'], ['view.js', 'migrated']]);
    for (const c of changes) {
      assert.doesNotThrow(() => assertParses(c.file, c.after), c.rel);
      assert.match(c.after, /\.output_text/, c.rel);
    }
  });

  it('empty files, a BOM, CRLF, mixed line endings and a shebang: kept as they are', async () => {
    const crlf = MIGRATABLE.replace(/\n/g, '\r\n');
    const mixed = MIGRATABLE.replace('\n', '\r\n');
    const dir = tree({
      'empty.ts': '',
      'bom.ts': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(MIGRATABLE)]),
      'crlf.ts': crlf,
      'mixed.ts': mixed,
      'cli.mjs': `#!/usr/bin/env node\nimport OpenAI from 'openai';\nconst client = new OpenAI();\nconst r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: String(process.argv[2]) }] });\nconsole.log(r.choices[0].message.content);\n`,
    });
    const r = cli(dir, ['.']);
    assert.equal(r.code, 0, r.stderr);
    const bom = readFileSync(path.join(dir, 'bom.ts'));
    assert.deepEqual([...bom.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(bom.subarray(3).toString(), MIGRATED);
    assert.equal(readFileSync(path.join(dir, 'crlf.ts'), 'utf8'), MIGRATED.replace(/\n/g, '\r\n'));
    assert.equal(readFileSync(path.join(dir, 'mixed.ts'), 'utf8'), MIGRATED.replace('\n', '\r\n'));
    const shebang = readFileSync(path.join(dir, 'cli.mjs'), 'utf8');
    assert.ok(shebang.startsWith('#!/usr/bin/env node\n'));
    assert.match(shebang, /client\.responses\.create/);
    assert.equal(readFileSync(path.join(dir, 'empty.ts'), 'utf8'), '');
  });

  it('a minified multi-megabyte bundle and very long lines are scanned without trouble', async () => {
    const filler = Array.from({ length: 40_000 }, (_, i) => `function f${i}(a,b){return a*${i}+b}`).join(';');
    const bundle = `import OpenAI from 'openai';const client=new OpenAI();${filler};export async function ask(q){const r=await client.chat.completions.create({model:'gpt-4o-mini',messages:[{role:'user',content:String(q)}]});return r.choices[0].message.content}\n`;
    assert.ok(bundle.length > 1_000_000);
    const dir = tree({ 'bundle.min.js': bundle });
    const { report, changes } = await dry(dir);
    assert.deepEqual(report.errors, []);
    assert.equal(report.sites[0].status, 'migrated');
    assert.equal(report.sites[0].line, 1);
    assert.match(changes[0].after, /client\.responses\.create\(\{model:'gpt-4o-mini',input:\[\{role:'user',content:String\(q\)\}\], store: false\}\)/);
  });
});

describe('paths', () => {
  it('overlapping roots report each site once; spaces and non-ASCII in paths work in write mode', () => {
    const dir = tree({ 'src/dossier été/mon fichier.ts': MIGRATABLE });
    const json = JSON.parse(cli(dir, ['src', 'src/dossier été', '--dry-run', '--format', 'json']).stdout);
    assert.deepEqual(json.sites.map((s: { file: string }) => s.file), ['src/dossier été/mon fichier.ts']);
    const r = cli(dir, ['src', 'src/dossier été']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(path.join(dir, 'src/dossier été/mon fichier.ts'), 'utf8'), MIGRATED);
  });

  it('a symlink loop terminates and a symlink out of the root is neither followed nor written', () => {
    const outside = tree({ 'ext.ts': MIGRATABLE });
    const dir = tree({ 'src/a.ts': MIGRATABLE });
    symlinkSync(path.join(dir, 'src'), path.join(dir, 'src', 'loop'), 'dir');
    symlinkSync(path.join(outside, 'ext.ts'), path.join(dir, 'src', 'ext.ts'));
    symlinkSync(outside, path.join(dir, 'src', 'outside'), 'dir');
    const r = cli(dir, ['src', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).changedFiles, ['src/a.ts']);
    assert.equal(readFileSync(path.join(outside, 'ext.ts'), 'utf8'), MIGRATABLE);
  });

  it('a read-only file is reported and left as it is in write mode (exit 1); the others are written', () => {
    const dir = tree({ 'a.ts': MIGRATABLE, 'b.ts': MIGRATABLE });
    chmodSync(path.join(dir, 'b.ts'), 0o444);
    const r = cli(dir, ['.', '--format', 'json']);
    assert.equal(r.code, 1);
    assert.deepEqual(JSON.parse(r.stdout).errors, [{ file: 'b.ts', message: 'not written: the file is read-only' }]);
    assert.equal(readFileSync(path.join(dir, 'b.ts'), 'utf8'), MIGRATABLE);
    assert.equal(readFileSync(path.join(dir, 'a.ts'), 'utf8'), MIGRATED);
  });

  it('an unreadable file (permission denied) is reported by name; run as an unprivileged user', (t) => {
    const dir = tree({ 'src/a.ts': MIGRATABLE, 'src/secret.ts': MIGRATABLE });
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, 'src'), 0o777);
    chmodSync(path.join(dir, 'src/a.ts'), 0o666);
    chmodSync(path.join(dir, 'src/secret.ts'), 0o000);
    // as root, the tool runs as nobody, from a copy nobody can read (the checkout may not be)
    const asRoot = process.getuid?.() === 0;
    const install = asRoot ? readableInstall() : REPO;
    if (asRoot) dirs.push(install);
    const problem = unprivilegedProblem(install);
    if (problem) return t.skip(problem);
    const bin = path.join(install, 'dist', 'bin', 'migrate-responses.js');
    const r = spawnSync(process.execPath, [bin, 'src', '--dry-run', '--format', 'json'], { cwd: dir, encoding: 'utf8', ...(asRoot ? NOBODY : {}), env: { PATH: process.env.PATH, HOME: '/tmp' } });
    assert.equal(r.status, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.errors.map((e: { file: string; message: string }) => [e.file, /permission denied|EACCES/.test(e.message)]), [['src/secret.ts', true]]);
    assert.deepEqual(json.sites.map((s: { file: string }) => s.file), ['src/a.ts']);
  });
});

describe('faults: nothing half-written, ever', () => {
  function plan(dir: string, file: string, edits: FilePlan['sites'][number]['edits']): FilePlan[] {
    const abs = path.join(dir, file);
    return [{
      file: abs,
      sites: [{
        record: { id: '0000000000000000', file, line: 4, column: 43, api: 'chat.completions.create', kinds: ['simple'], client: { provider: 'openai', evidence: '' }, status: 'migrated', reasons: [], notes: [] },
        file: abs, callStart: 0, statementStart: 0, unit: 0, edits,
      }],
    }];
  }

  it('a transform that throws leaves the file exactly as it was and reports the site', async () => {
    const dir = tree({ 'a.ts': MIGRATABLE });
    const file = path.join(dir, 'a.ts');
    const plans = plan(dir, 'a.ts', [{ op: 'callee', rule: 'A-CREATE', file, start: 1, end: 3, method: 'create' }]);
    const out = await applyPlans({ plans, texts: new Map([[file, { text: MIGRATABLE, bom: false }]]), roots: [dir], cwd: dir, dryRun: false, markers: true, force: true });
    assert.equal(out.written.length, 0);
    assert.match(out.errors[0].message, /^rewrite failed, file left unchanged: no MemberExpression\/OptionalMemberExpression at 1-3/);
    assert.equal(out.failed.size, 1);
    assert.equal(readFileSync(file, 'utf8'), MIGRATABLE);
  });

  it('a rewrite whose output does not parse is rolled back', async () => {
    const dir = tree({ 'a.ts': MIGRATABLE });
    const file = path.join(dir, 'a.ts');
    const at = MIGRATABLE.indexOf('q)');
    const plans = plan(dir, 'a.ts', [{ op: 'replace', rule: 'O-CONTENT-NULL', file, start: at, end: at + 1, text: '(((' }]);
    const out = await applyPlans({ plans, texts: new Map([[file, { text: MIGRATABLE, bom: false }]]), roots: [dir], cwd: dir, dryRun: false, markers: true, force: true });
    assert.equal(out.written.length, 0);
    assert.match(out.errors[0].message, /^rewrite failed, file left unchanged: /);
    assert.equal(readFileSync(file, 'utf8'), MIGRATABLE);
  });

  it('a file Babel rejects as it is (a name declared twice) is reported as such, not as a broken rewrite', async () => {
    // TypeScript's parser lets the duplicate through (it is a checker error), so the scan plans the
    // site; the rewrite's parse check then fails on the input's own error (corpus: NeuroWebLab)
    const text = `const answer = 1;\nimport answer from './answer.js';\n${MIGRATABLE}`;
    const dir = tree({ 'a.ts': text });
    const file = path.join(dir, 'a.ts');
    const at = text.indexOf('q)');
    const plans = plan(dir, 'a.ts', [{ op: 'replace', rule: 'O-CONTENT-NULL', file, start: at, end: at + 1, text: 'q' }]);
    const out = await applyPlans({ plans, texts: new Map([[file, { text, bom: false }]]), roots: [dir], cwd: dir, dryRun: false, markers: true, force: true });
    assert.equal(out.written.length, 0);
    assert.match(out.errors[0].message, /^rewrite failed, file left unchanged: the file does not parse as it is \(Identifier 'answer' has already been declared/);
    assert.equal(readFileSync(file, 'utf8'), text);
  });

  it('a file changed on disk after it was scanned is not overwritten', async () => {
    const dir = tree({ 'a.ts': MIGRATABLE });
    const file = path.join(dir, 'a.ts');
    const { report: _r } = await dry(dir);
    const scanned = readFileSync(file, 'utf8');
    writeFileSync(file, `${scanned}// edited meanwhile\n`);
    const start = MIGRATABLE.indexOf('client.chat.completions.create');
    const plans = plan(dir, 'a.ts', [{ op: 'callee', rule: 'A-CREATE', file, start, end: start + 'client.chat.completions.create'.length, method: 'create' }]);
    const out = await applyPlans({ plans, texts: new Map([[file, { text: scanned, bom: false }]]), roots: [dir], cwd: dir, dryRun: false, markers: true, force: true });
    assert.deepEqual(out.errors, [{ file: 'a.ts', message: 'not written: the file changed on disk after it was scanned' }]);
    assert.equal(readFileSync(file, 'utf8'), `${MIGRATABLE}// edited meanwhile\n`);
  });

  it('writes keep the file mode and leave no temporary files', () => {
    const dir = tree({ 'a.ts': MIGRATABLE });
    chmodSync(path.join(dir, 'a.ts'), 0o751);
    assert.equal(cli(dir, ['.']).code, 0);
    assert.equal(statSync(path.join(dir, 'a.ts')).mode & 0o777, 0o751);
    assert.deepEqual(readdirSync(dir), ['a.ts']);
  });

  it('SIGTERM in the middle of a large write run leaves every file either old or new, never partial', async () => {
    const files: Record<string, string> = {};
    const body = Array.from({ length: 400 }, (_, i) => `// padding line ${i} ${'x'.repeat(60)}`).join('\n');
    for (let i = 0; i < 1500; i++) files[`src/m${String(i).padStart(4, '0')}.ts`] = `${MIGRATABLE}${body}\n`;
    const dir = tree(files);
    const child = spawn(process.execPath, [BIN, 'src', '--format', 'json'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    // wait until the first file has been rewritten, then interrupt
    const first = path.join(dir, 'src', 'm0000.ts');
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && readFileSync(first, 'utf8').includes('chat.completions')) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    const oldText = `${MIGRATABLE}${body}\n`;
    const newText = `${MIGRATED}${body}\n`;
    let written = 0;
    for (const name of Object.keys(files)) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      assert.ok(text === oldText || text === newText, `${name} is neither old nor new`);
      if (text === newText) written++;
    }
    assert.ok(written >= 1);
    assert.deepEqual(readdirSync(path.join(dir, 'src')).filter((f) => f.endsWith('.tmp')), []);
    if (written < Object.keys(files).length) {
      assert.equal(code, 1);
      assert.match(JSON.parse(stdout).warnings.join('\n'), /interrupted by SIGTERM/);
    }
  });

  it('the git guard passes on a clean tree; a dry run never checks or writes, even on a dirty one', () => {
    const dir = tree({ 'a.ts': MIGRATABLE });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    writeFileSync(path.join(dir, 'a.ts'), `${MIGRATABLE}// dirty\n`);
    assert.equal(cli(dir, ['.', '--dry-run']).code, 0);
    assert.equal(readFileSync(path.join(dir, 'a.ts'), 'utf8'), `${MIGRATABLE}// dirty\n`);
    git('commit', '-qam', 'clean');
    assert.equal(cli(dir, ['.']).code, 0);
    assert.match(readFileSync(path.join(dir, 'a.ts'), 'utf8'), /responses\.create/);
  });
});

describe('safety', () => {
  it('never executes the code it scans', () => {
    const marker = path.join(os.tmpdir(), `mr-executed-${process.pid}`);
    const dir = tree({ 'evil.ts': `import OpenAI from 'openai';\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n${MIGRATABLE.split('\n').slice(1).join('\n')}` });
    assert.equal(cli(dir, ['.']).code, 0);
    assert.equal(existsSync(marker), false);
  });

  it('never touches the network (sockets and DNS made to fail)', () => {
    const blocker = path.join(tree({}), 'no-network.cjs');
    writeFileSync(blocker, `const net = require('node:net'); const dns = require('node:dns');
const deny = () => { throw new Error('network access attempted'); };
net.Socket.prototype.connect = deny; net.connect = deny; net.createConnection = deny;
dns.lookup = deny; dns.resolve = deny; dns.promises.lookup = deny;
globalThis.fetch = deny;\n`);
    const dir = tree({ 'a.ts': MIGRATABLE });
    const r = cli(dir, ['.', '--format', 'json'], { NODE_OPTIONS: `--require ${blocker}` });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(path.join(dir, 'a.ts'), 'utf8'), MIGRATED);
  });

  it('a marker that names a file is recognised on a re-run from another directory (probe of Next.js apps)', async () => {
    const dir = tree({
      'web/package.json': '{ "private": true }',
      'web/src/route.ts': `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport const saved: unknown[] = [];\nexport async function ask(q: string) {\n  ${call()}\n  saved.push(r.choices[0].message);\n}\n`,
    });
    await run(defaultOptions({ paths: ['web'], cwd: dir, force: true, format: 'json' }));
    const once = readFileSync(path.join(dir, 'web/src/route.ts'), 'utf8');
    assert.match(once, /TODO\(migrate-responses\): result-escapes: .*\(web\/src\/route\.ts\)/);
    await run(defaultOptions({ paths: ['.'], cwd: path.join(dir, 'web'), force: true, format: 'json' }));
    assert.equal(readFileSync(path.join(dir, 'web/src/route.ts'), 'utf8'), once);
  });

  it('markers are sanitised: no newline, no comment terminator', () => {
    const text = markerText({ code: 'opaque-spread', detail: 'x', message: 'Spread ...(a /* b */\n && c) may inject Chat-only keys.' });
    assert.equal(text, '// TODO(migrate-responses): opaque-spread: Spread ...(a /* b * / && c) may inject Chat-only keys.');
  });

  it('a marker for a site inside JSX goes right before its statement, in code, and the file still parses', async () => {
    const dir = tree({
      'view.tsx': `import OpenAI from 'openai';\nconst client = new OpenAI({ baseURL: 'https://llm.vendor.example/v1' });\nexport function View() {\n  return <button onClick={async () => { const r = await client.chat.completions.create({ model: 'm', messages: [] }); console.log(r.choices[0].message.content); }}>go</button>;\n}\n`,
    });
    const { changes } = await dry(dir);
    const out = changes[0].after;
    assert.doesNotThrow(() => assertParses(path.join(dir, 'view.tsx'), out));
    assert.match(out, /\{ \n {2}\/\/ TODO\(migrate-responses\): provider-not-openai: Client targets llm\.vendor\.example; Responses support there is unknown\.\n {2}const r = await client\.chat/);
  });
});

describe('properties over the whole fixture corpus', () => {
  it('idempotency: the tool run on its own output (rewrites and markers) changes nothing, for every fixture', async () => {
    const { loadFixtures, fixtureOptions } = await import('./helpers/fixtures.js');
    const { cpSync } = await import('node:fs');
    const unstable: string[] = [];
    for (const f of loadFixtures()) {
      const scratch = mkdtempSync(path.join(os.tmpdir(), 'mr-idem-'));
      dirs.push(scratch);
      cpSync(f.dir, scratch, { recursive: true });
      const inputs = f.inputs.map((i) => path.join(scratch, path.relative(f.dir, i)));
      const copy = { ...f, dir: scratch, inputs };
      const first = await run(fixtureOptions(copy, { dryRun: false, force: true }));
      const second = await run(fixtureOptions(copy, { dryRun: false, force: true }));
      if (second.report.changedFiles.length) unstable.push(`${f.name}: ${second.report.changedFiles.join(', ')} (first run changed ${first.report.changedFiles.length})`);
    }
    assert.deepEqual(unstable, []);
  });
});
