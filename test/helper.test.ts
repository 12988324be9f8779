/**
 * The helper thread (lib/helper.ts), from the built files, since a worker runs compiled code:
 * it does not keep an idle process alive, it walks and reads what `begin` names, and once gone it
 * fails requests at once instead of leaving them waiting.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { REPO } from './helpers/fixtures.js';

const HELPER = pathToFileURL(path.join(REPO, 'dist', 'lib', 'helper.js')).href;
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * Run an ES module (startHelper in scope) from a file, or with `eval` given as Node's -e: a worker
 * inherits --input-type=module, which only an -e script may have, and fails to start. Its stdout,
 * parsed.
 */
function runScript(body: string, how: 'file' | 'eval', args: string[]): unknown {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-helper-script-'));
  dirs.push(dir);
  const file = path.join(dir, 'script.mjs');
  const script = `import { startHelper } from ${JSON.stringify(HELPER)};\n${body}`;
  writeFileSync(file, script);
  const argv = how === 'file' ? [file, ...args] : ['--input-type=module', '-e', script, '--', ...args];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.signal, null, `timed out: ${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim() ? JSON.parse(r.stdout) : undefined;
}

function withHelper(body: string): unknown {
  return runScript(body, 'file', []);
}

test('helper: an idle helper does not keep the process alive', () => {
  assert.equal(withHelper('startHelper();'), undefined);
});

test('helper: begin walks and reads the paths in the thread', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-helper-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'a.ts'), "import OpenAI from 'openai';\n");
  writeFileSync(path.join(dir, 'src', 'b.ts'), 'export const b = 1;\n');
  const out = withHelper(`
    const helper = startHelper();
    const found = await helper.begin(['src'], ${JSON.stringify(dir)});
    helper.close();
    console.log(JSON.stringify({ files: found.discovery.files.length, candidates: found.read.candidates.map((c) => c.text) }));
  `);
  assert.deepEqual(out, { files: 2, candidates: ["import OpenAI from 'openai';\n"] });
});

test('helper: a missing root is a UsageError', () => {
  const out = withHelper(`
    const helper = startHelper();
    const missing = await helper.begin(['nope'], ${JSON.stringify(os.tmpdir())}).catch((e) => ({ name: e.name, message: e.message }));
    helper.close();
    console.log(JSON.stringify(missing));
  `);
  assert.deepEqual(out, { name: 'UsageError', message: 'path not found: nope' });
});

test('helper: when the thread cannot start or has stopped, the work is done in this thread', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-helper-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'a.ts'), "import OpenAI from 'openai';\n");
  const body = `
    const helper = startHelper();
    if (process.argv.includes('stop')) helper.close();
    const found = await helper.begin(['.'], ${JSON.stringify(dir)});
    const transformed = await helper.runTransforms([]);
    helper.close();
    console.log(JSON.stringify({ candidates: found.read.candidates.length, transformed }));
  `;
  const expected = { candidates: 1, transformed: [] };
  assert.deepEqual(runScript(body, 'file', []), expected); // with the thread
  assert.deepEqual(runScript(body, 'file', ['stop']), expected); // closed before use
  assert.deepEqual(runScript(body, 'eval', []), expected); // the thread fails to start
});
