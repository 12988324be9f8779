/**
 * End-to-end: the built binary, spawned the way users run it. Formats, exit codes, dry-run
 * safety (bytes and mtimes), write mode and the git guard, bad input.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO } from './helpers/fixtures.js';

const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-cli-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const MIGRATABLE = `import OpenAI from 'openai';
const client = new OpenAI();
export async function ask(q: string) {
  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });
  return r.choices[0].message.content;
}
`;
const MANUAL = `import OpenAI from 'openai';
const client = new OpenAI();
export async function many(q: string) {
  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', n: 3, messages: [{ role: 'user', content: q }] });
  return r.choices.map((c) => c.message.content);
}
`;

describe('CLI', () => {
  it('prints its version and exits 0', () => {
    const r = cli(REPO, '--version');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('a missing path is a usage error (exit 2) naming the path', () => {
    const dir = tree({});
    const r = cli(dir, './nope', '--dry-run');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /path not found: \.\/nope/);
    assert.equal(r.stdout, '');
  });

  it('an unknown option or kind is a usage error (exit 2)', () => {
    const dir = tree({});
    assert.equal(cli(dir, '--frobnicate').code, 2);
    const bad = cli(dir, '--only', 'simple,wizardry', '--dry-run');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown kind wizardry/);
    assert.equal(cli(dir, '--format', 'yaml').code, 2);
    const report = cli(dir, '--dry-run', '--report', 'out.yaml');
    assert.equal(report.code, 2);
    assert.match(report.stderr, /out\.yaml/);
  });

  it('a root without candidate files says so and exits 0', () => {
    const dir = tree({ 'src/util.ts': 'export const x = 1;\n' });
    const r = cli(dir, './src', '--dry-run');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /no files that import or require `openai` under \.\/src/);
    const json = JSON.parse(cli(dir, './src', '--dry-run', '--format', 'json').stdout);
    assert.equal(json.summary.sites, 0);
    assert.equal(json.summary.files, 1);
  });

  it('a file with a syntax error is reported (exit 1) and the rest of the tree is still scanned', () => {
    const broken = "import OpenAI from 'openai';\nconst x = ;\nexport const ask = () => new OpenAI().chat.completions.create({ model: 'gpt-4o-mini', messages: [] });\n";
    const dir = tree({ 'src/broken.ts': broken, 'src/ok.ts': MIGRATABLE });
    const r = cli(dir, 'src', '--dry-run', '--format', 'json');
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.errors.map((e: { file: string }) => e.file), ['src/broken.ts']);
    assert.match(json.errors[0].message, /syntax error: 2:11/);
    assert.deepEqual(json.sites.map((s: { file: string; status: string }) => [s.file, s.status]), [['src/ok.ts', 'migrated']]);
  });

  it('--format json is only the JSON report, schemaVersion 2, with 1-based positions and site ids', () => {
    const dir = tree({ 'src/a.ts': MIGRATABLE, 'src/b.ts': MANUAL });
    const r = cli(dir, 'src', '--dry-run', '--format', 'json');
    assert.equal(r.code, 0);
    const json = JSON.parse(r.stdout);
    assert.equal(json.schemaVersion, 2);
    assert.ok(json.sites.every((s: { id: string }) => /^[0-9a-f]{16}$/.test(s.id)));
    assert.equal(json.tool, 'migrate-responses');
    assert.equal(json.dryRun, true);
    assert.deepEqual(json.roots, ['src']);
    assert.deepEqual(json.sites.map((s: { file: string; line: number; column: number; status: string }) => `${s.file}:${s.line}:${s.column} ${s.status}`),
      ['src/a.ts:4:43 migrated', 'src/b.ts:4:43 manual']);
    assert.deepEqual(json.summary.byStatus, { migrated: 1, manual: 1, ignored: 0, skipped: 0 });
  });

  it('--format sarif is a SARIF 2.1.0 log with one result per manual reason', () => {
    const dir = tree({ 'src/b.ts': MANUAL });
    const sarif = JSON.parse(cli(dir, 'src', '--dry-run', '--format', 'sarif').stdout);
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId).sort(), ['n-greater-than-one', 'no-equivalent-result']);
  });

  it('--format markdown is a PR body with a checklist of manual sites', () => {
    const dir = tree({ 'src/b.ts': MANUAL });
    const md = cli(dir, 'src', '--dry-run', '--format', 'markdown').stdout;
    assert.match(md, /- \[ \] \[src\/b\.ts:4\]\(src\/b\.ts#L4\)/);
  });

  it('--report writes the report in the format of its extension', () => {
    const dir = tree({ 'src/b.ts': MANUAL });
    for (const [file, check] of [['r.json', (t: string) => JSON.parse(t).schemaVersion === 2], ['r.sarif', (t: string) => JSON.parse(t).version === '2.1.0'], ['r.md', (t: string) => t.includes('- [ ]')]] as const) {
      const r = cli(dir, 'src', '--dry-run', '--report', file);
      assert.equal(r.code, 0);
      assert.ok(check(readFileSync(path.join(dir, file), 'utf8')), file);
    }
  });

  it('--dry-run prints a diff and leaves every byte and mtime as it was', () => {
    const dir = tree({ 'src/a.ts': MIGRATABLE, 'src/b.ts': MANUAL });
    const before = ['src/a.ts', 'src/b.ts'].map((f) => ({ text: readFileSync(path.join(dir, f)), mtime: statSync(path.join(dir, f)).mtimeMs }));
    const r = cli(dir, 'src', '--dry-run');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^-  const r = await client\.chat\.completions\.create/m);
    assert.match(r.stdout, /^\+  const r = await client\.responses\.create/m);
    ['src/a.ts', 'src/b.ts'].forEach((f, i) => {
      assert.deepEqual(readFileSync(path.join(dir, f)), before[i].text);
      assert.equal(statSync(path.join(dir, f)).mtimeMs, before[i].mtime);
    });
  });

  it('--check exits 1 while sites remain (migrated-in-dry-run counts) and 0 when none do', () => {
    const dir = tree({ 'src/a.ts': MIGRATABLE, 'clean/x.ts': "import OpenAI from 'openai';\nexport const c = new OpenAI();\n" });
    assert.equal(cli(dir, 'src', '--dry-run', '--check').code, 1);
    assert.equal(cli(dir, 'clean', '--dry-run', '--check').code, 0);
  });

  it('warns when a scanned file pins an SDK older than 6 in its import (Deno, npm:, CDN), and only then', () => {
    const pinned = (spec: string) => MIGRATABLE.replace("from 'openai'", `from '${spec}'`);
    const dir = tree({
      'old/a.ts': pinned('https://deno.land/x/openai@v4.20.1/mod.ts'),
      'old/b.ts': pinned('npm:openai@4.52.0'),
      'new/a.ts': pinned('npm:openai@6.1.0'),
    });
    const old = cli(dir, 'old', '--dry-run', '--format', 'json');
    const report = JSON.parse(old.stdout) as { sites: { status: string }[]; warnings: string[] };
    assert.deepEqual(report.sites.map((s) => s.status), ['migrated', 'migrated']);
    const pinnedWarnings = report.warnings.filter((w) => w.includes('update that import first'));
    assert.deepEqual(pinnedWarnings.map((w) => w.split(':')[0]), ['old/a.ts imports deno.land/x/openai@v4.20.1', 'old/b.ts imports npm']);
    const fresh = JSON.parse(cli(dir, 'new', '--dry-run', '--format', 'json').stdout) as { warnings: string[] };
    assert.equal(fresh.warnings.filter((w) => w.includes('update that import first')).length, 0);
  });

  it('warns when the package.json declares an SDK older than 6, reading npm aliases of the SDK (H-BETA)', () => {
    const warned = (deps: Record<string, string>) => {
      const dir = tree({ 'package.json': JSON.stringify({ private: true, dependencies: deps }), 'src/a.ts': MIGRATABLE });
      const report = JSON.parse(cli(dir, 'src', '--dry-run', '--format', 'json').stdout) as { warnings: string[] };
      return report.warnings.filter((w) => w.includes('(H-BETA)')).map((w) => w.split(':')[0]);
    };
    assert.deepEqual(warned({ openai: '^4.52.0' }), ['package.json declares openai ^4.52.0']);
    assert.deepEqual(warned({ openai: '^6.9.0' }), []);
    // the rewritten code imports the newest line declared: an alias beside a v3 openai
    assert.deepEqual(warned({ openai: '^3.3.0', 'openai-next': 'npm:openai@^6.9.0' }), []);
    assert.deepEqual(warned({ openai: '^3.3.0', 'openai-v4': 'npm:openai@^4.20.0' }), ['package.json declares openai ^4.20.0 as openai-v4']);
    // `openai` installing another package is not the SDK (its sites are not proven)
    assert.deepEqual(warned({ openai: 'npm:@acme/llm-client@^1.0.0' }), []);
  });

  it('notes a content turned into text where a tool-call turn or a refusal gave null (O-CONTENT-NULL), and only there', () => {
    // corpus review: UI-TARS printed `Final Response: ${completion.choices[0].message.content}` after a
    // request with tools, 'null' on a tool-call turn and '' on output_text
    const printed = (extra: string) => `import OpenAI from 'openai';
const client = new OpenAI();
export async function ask(q: string) {
  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }]${extra} });
  console.log(\`Final Response: \${r.choices[0].message.content}\`);
}
`;
    const dir = tree({
      'tools.ts': printed(", tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } }]"),
      'plain.ts': printed(''),
    });
    const report = JSON.parse(cli(dir, '.', '--dry-run', '--format', 'json').stdout) as { sites: { file: string; status: string; notes: { rule: string }[] }[] };
    const nullNotes = (file: string) => report.sites.filter((s) => s.file === file).map((s) => [s.status, s.notes.filter((n) => n.rule === 'O-CONTENT-NULL').length]);
    assert.deepEqual(nullNotes('tools.ts'), [['migrated', 1]]);
    assert.deepEqual(nullNotes('plain.ts'), [['migrated', 0]]);
  });

  it('reads the SDK line of the package (and the Deno import map) of each migrated site, not only at the paths given (H-BETA)', () => {
    // corpus review: a monorepo whose packages/ai declares ^4.38.5 and a Deno project whose deno.json
    // maps openai to deno.land/x/openai@v4.20.1 were migrated without the warning
    const dir = tree({
      'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
      'packages/ai/package.json': JSON.stringify({ name: 'ai', private: true, dependencies: { openai: '^4.38.5' } }),
      'packages/ai/src/a.ts': MIGRATABLE,
      'packages/web/package.json': JSON.stringify({ name: 'web', private: true, dependencies: { openai: '^6.9.0' } }),
      'packages/web/src/a.ts': MIGRATABLE,
      'deno/deno.json': JSON.stringify({ imports: { openai: 'https://deno.land/x/openai@v4.20.1/mod.ts' } }),
      'deno/main.ts': MIGRATABLE,
    });
    const report = JSON.parse(cli(dir, '.', '--dry-run', '--format', 'json').stdout) as { sites: { status: string }[]; warnings: string[] };
    assert.deepEqual(report.sites.map((s) => s.status), ['migrated', 'migrated', 'migrated']);
    assert.deepEqual(report.warnings.filter((w) => w.includes('(H-BETA)')).map((w) => w.split(':')[0]).sort(), [
      'deno/deno.json maps openai to deno.land/x/openai@v4.20.1',
      'packages/ai/package.json declares openai ^4.38.5',
    ]);
    // no manifest says which SDK, but beta.chat.completions exists in openai 4 only (OpenAITutorials)
    const beta = tree({
      'parse.ts': [
        "import OpenAI from 'openai';",
        "import { zodResponseFormat } from 'openai/helpers/zod';",
        "import { z } from 'zod';",
        'const client = new OpenAI();',
        'export async function ask(q: string) {',
        "  const r = await client.beta.chat.completions.parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], response_format: zodResponseFormat(z.object({ a: z.string() }), 'a') });",
        '  return r.choices[0].message.parsed;',
        '}',
        '',
      ].join('\n'),
    });
    const warned = JSON.parse(cli(beta, '.', '--dry-run', '--format', 'json').stdout) as { sites: { status: string }[]; warnings: string[] };
    assert.deepEqual(warned.sites.map((s) => s.status), ['migrated']);
    assert.deepEqual(warned.warnings.filter((w) => w.includes('(H-BETA)')).map((w) => w.split(',')[0]), ['parse.ts:6 calls beta.chat.completions.parse']);
  });

  it('in a file that imports the SDK by an npm: specifier (Deno), the imports the rewrite adds are spelled the same way', () => {
    const dir = tree({
      'supabase/functions/ask/index.ts': [
        'import OpenAI from "npm:openai@6.9.0";',
        'const client = new OpenAI();',
        'export async function ask(q: string) {',
        '  const r = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: q }], tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: {} } } }] });',
        '  return r.choices[0].message.tool_calls?.[0]?.id;',
        '}',
        '',
      ].join('\n'),
    });
    const out = cli(dir, '.', '--dry-run');
    assert.match(out.stdout, /^\+import type \{ ResponseFunctionToolCall \} from "npm:openai@6\.9\.0\/resources\/responses\/responses";$/m);
  });

  it('a component file that mentions Chat Completions is listed as a not-scanned notice, and --check does not pass over it', () => {
    const dir = tree({
      'app/pages/Chat.vue': '<script setup lang="ts">\nconst r = await fetch("https://api.openai.com/v1/chat/completions", { method: "POST" });\n</script>\n<template><p /></template>\n',
      'app/pages/About.vue': '<template><p>About</p></template>\n',
      'app/routes/+page.svelte': '<script>\nconst c = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [] });\n</script>\n',
      'clean/x.ts': "import OpenAI from 'openai';\nexport const c = new OpenAI();\n",
    });
    const r = cli(dir, 'app', '--dry-run', '--format', 'json');
    assert.equal(r.code, 0);
    const report = JSON.parse(r.stdout) as { sites: unknown[]; notices: { file: string; code: string }[] };
    assert.deepEqual(report.sites, []);
    assert.deepEqual(report.notices.map((n) => [n.file, n.code]), [['app/pages/Chat.vue', 'not-scanned'], ['app/routes/+page.svelte', 'not-scanned']]);
    assert.match(cli(dir, 'app', '--dry-run').stdout, /app\/pages\/Chat\.vue\s+not-scanned\s+This component file mentions Chat Completions/);
    assert.equal(cli(dir, 'app', '--dry-run', '--check').code, 1);
    assert.equal(cli(dir, 'clean', '--dry-run', '--check').code, 0);
  });

  it('write mode outside git rewrites, marks manual sites, names the formatter, and a second run changes nothing', () => {
    const dir = tree({ 'src/a.ts': MIGRATABLE, 'src/b.ts': MANUAL });
    const r = cli(dir, 'src');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /npx prettier --write src\/a\.ts src\/b\.ts/);
    const a = readFileSync(path.join(dir, 'src/a.ts'), 'utf8');
    assert.match(a, /client\.responses\.create\(\{ model: 'gpt-4o-mini', input: \[\{ role: 'user', content: q \}\], store: false \}\)/);
    assert.match(a, /return r\.output_text;/);
    const b = readFileSync(path.join(dir, 'src/b.ts'), 'utf8');
    assert.equal(b, MANUAL.replace('  const r = await', '  // TODO(migrate-responses): n-greater-than-one: Responses returns one generation; n=3 needs N requests.\n  // TODO(migrate-responses): no-equivalent-result: choices has no Responses equivalent.\n  const r = await'));
    const again = cli(dir, 'src');
    assert.equal(again.code, 0);
    assert.equal(readFileSync(path.join(dir, 'src/a.ts'), 'utf8'), a);
    assert.equal(readFileSync(path.join(dir, 'src/b.ts'), 'utf8'), b);
    assert.equal(JSON.parse(cli(dir, 'src', '--format', 'json').stdout).changedFiles.length, 0);
  });

  it('write mode refuses a dirty git tree for affected files (exit 2) unless --force', () => {
    const dir = tree({ 'src/a.ts': MIGRATABLE });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
    writeFileSync(path.join(dir, 'src/a.ts'), `${MIGRATABLE}// local edit\n`);
    const refused = cli(dir, 'src');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /uncommitted changes .*src\/a\.ts.*--force/);
    assert.match(readFileSync(path.join(dir, 'src/a.ts'), 'utf8'), /chat\.completions/);
    const forced = cli(dir, 'src', '--force');
    assert.equal(forced.code, 0);
    assert.match(readFileSync(path.join(dir, 'src/a.ts'), 'utf8'), /responses\.create/);
    assert.ok(!existsSync(path.join(dir, 'src', '.a.ts.tmp')));
  });

  it('never follows node_modules (nor other default ignores), whatever they contain', () => {
    const dir = tree({ 'src/a.ts': MIGRATABLE, 'node_modules/sdk/b.ts': MIGRATABLE, 'src/node_modules/c.ts': MIGRATABLE, 'dist/d.ts': MIGRATABLE });
    const json = JSON.parse(cli(dir, '.', '--dry-run', '--format', 'json').stdout);
    assert.deepEqual(json.sites.map((s: { file: string }) => s.file), ['src/a.ts']);
    assert.equal(json.summary.files, 1);
  });

  it('--list-rules prints every rule and reason code', () => {
    const r = cli(REPO, '--list-rules');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^ {2}R-STORE +store: false added/m);
    assert.match(r.stdout, /^ {2}result-escapes +The Chat result leaves this code/m);
  });
});
