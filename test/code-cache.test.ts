/**
 * The compiler's V8 code cache (lib/code-cache.cts): used only when it fits, never needed, and
 * never a change in behaviour. Each load happens in a fresh process, as it does in a real run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { REPO } from './helpers/fixtures.js';

const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const CODE_CACHE_MODULE = path.join(REPO, 'dist', 'lib', 'code-cache.cjs');
const COMPILER_CACHE = path.join(REPO, 'dist', 'lib', 'scan', 'typescript.v8cache');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A small package with one module, and a script that loads it through the code cache. */
function fixture(): { dir: string; load: (...nodeFlags: string[]) => { outcome: string; value: string; same: boolean } } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-code-cache-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'lib', version: '1.2.3' }));
  writeFileSync(path.join(dir, 'lib.js'), 'exports.answer = function answer(n) { return `answer ${n * 2}`; };\n');
  const script = `
    const { requireWithCodeCache, writeCodeCache, outcomes } = require(${JSON.stringify(CODE_CACHE_MODULE)});
    const [file, pkg, cache, write] = process.argv.slice(2);
    const lib = requireWithCodeCache(file, pkg, cache);
    const value = lib.answer(21);
    if (write) writeCodeCache(file, cache);
    console.log(JSON.stringify({ outcome: outcomes.get(file), value, same: require(file) === lib }));
  `;
  writeFileSync(path.join(dir, 'load.cjs'), script);
  const load = (...nodeFlags: string[]) => {
    const write = nodeFlags[0] === 'write' ? ['write'] : [];
    const flags = write.length ? nodeFlags.slice(1) : nodeFlags;
    const r = spawnSync(process.execPath, [...flags, path.join(dir, 'load.cjs'), path.join(dir, 'lib.js'), path.join(dir, 'package.json'), path.join(dir, 'lib.v8cache'), ...write], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { outcome: string; value: string; same: boolean };
  };
  return { dir, load };
}

test('code cache: absent, then written, then accepted; the module is the same either way', () => {
  const { dir, load } = fixture();
  assert.deepEqual(load('write'), { outcome: 'absent', value: 'answer 42', same: true });
  const stamp = JSON.parse(readFileSync(path.join(dir, 'lib.v8cache.json'), 'utf8'));
  assert.deepEqual(stamp, { packageVersion: '1.2.3', sourceLength: readFileSync(path.join(dir, 'lib.js'), 'utf8').length, node: process.version, arch: process.arch });
  assert.deepEqual(load(), { outcome: 'accepted', value: 'answer 42', same: true });
});

test('code cache: not used when the file or its package changed (stale)', () => {
  const { dir, load } = fixture();
  load('write');
  writeFileSync(path.join(dir, 'lib.js'), 'exports.answer = function answer(n) { return `changed ${n}`; };\n');
  assert.deepEqual(load(), { outcome: 'stale', value: 'changed 21', same: true });
  load('write');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'lib', version: '1.2.4' }));
  assert.equal(load().outcome, 'stale');
});

test('code cache: V8 rejects a damaged cache or one made under other flags, and the file compiles as usual', () => {
  const { dir, load } = fixture();
  load('write');
  assert.deepEqual(load('--no-opt'), { outcome: 'rejected', value: 'answer 42', same: true });
  truncateSync(path.join(dir, 'lib.v8cache'), 100);
  assert.deepEqual(load(), { outcome: 'rejected', value: 'answer 42', same: true });
  rmSync(path.join(dir, 'lib.v8cache'));
  assert.deepEqual(load(), { outcome: 'absent', value: 'answer 42', same: true });
});

test('the build makes the compiler cache, a run uses it, and the report is the same without it', () => {
  assert.ok(existsSync(COMPILER_CACHE), 'npm run build writes dist/lib/scan/typescript.v8cache');
  const demo = path.join(REPO, 'examples', 'demo', 'src'); // no tsconfig at this root: the plain scan
  const runWith = (...flags: string[]) => {
    const r = spawnSync(process.execPath, [...flags, BIN, demo, '--dry-run', '--format', 'json'], { cwd: REPO, encoding: 'utf8', env: { ...process.env, MIGRATE_RESPONSES_TIMING: '1' } });
    assert.equal(r.status, 0, r.stderr);
    return { report: r.stdout, cache: /code cache (\w+) for typescript\.js/.exec(r.stderr)?.[1] };
  };
  const cached = runWith();
  const uncached = runWith('--no-opt'); // other V8 flags: V8 rejects the cache
  assert.equal(cached.cache, 'accepted');
  assert.equal(uncached.cache, 'rejected');
  assert.equal(cached.report, uncached.report);
  assert.ok(JSON.parse(cached.report).sites.length > 0);
});
