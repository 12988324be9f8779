/**
 * Write sets (issue 12): a group of sites is written all-or-nothing across its files (G-UNIT,
 * W-ALL-OR-NOTHING). The union-find that makes the sets, the two-phase commit of one set, and
 * every fault injected into a two-file set: a file changed on disk, a read-only file, a staging
 * failure, a rewrite that does not parse, a rename failure (rolled back, and a rollback that itself
 * fails), a file to create, and SIGINT / SIGTERM delivered to the built CLI in the middle of a set.
 *
 * The scanner makes no multi-file unit today (every V-LOCAL definition it follows is in the
 * call's file), so the two-file set is made of two scanned, migratable files joined by giving
 * their sites one unit (in process) or by the MIGRATE_RESPONSES_TEST_JOIN seam (the CLI).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { applyPlans, runTransformsHere, type ApplyInput, type ApplyOutcome, type TransformRunner } from '../lib/apply.js';
import { commitWriteSet, type CommitSeams, type FileChange } from '../lib/apply/commit.js';
import { NO_SEAMS, type ApplySeams } from '../lib/apply/seams.js';
import { componentsByKeys, writeSets } from '../lib/apply/write-sets.js';
import { parseAllowList } from '../lib/allow.js';
import type { FilePlan, SitePlan } from '../lib/plan.js';
import { scan } from '../lib/scan/index.js';
import { REPO } from './helpers/fixtures.js';

const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-sets-'));
  dirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** A migratable module exporting `name`, and what the tool makes of it. */
const source = (name: string) => `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function ${name}(q: string) {\n  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\n  return r.choices[0].message.content;\n}\n`;
const migrated = (name: string) => `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function ${name}(q: string) {\n  const r = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: q }], store: false });\n  return r.output_text;\n}\n`;

/** src/a.ts and src/b.ts: one write set (two files, one unit); src/c.ts: a set of its own. */
const FILES = { 'src/a.ts': source('ask'), 'src/b.ts': source('summarise'), 'src/c.ts': source('title') };
const OLD = { 'src/a.ts': source('ask'), 'src/b.ts': source('summarise'), 'src/c.ts': source('title') };
const NEW = { 'src/a.ts': migrated('ask'), 'src/b.ts': migrated('summarise'), 'src/c.ts': migrated('title') };

/** Every file under dir, relative, with its text (temporary files included: none may be left). */
function disk(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out[path.relative(dir, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** The scanner's plan of the tree, with the sites of `joined` files given one unit. */
function planOf(dir: string, joined = ['src/a.ts', 'src/b.ts']): { plans: FilePlan[]; texts: ApplyInput['texts'] } {
  const files = Object.keys(disk(dir)).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
  const raw = files.map((f) => readFileSync(f, 'utf8'));
  const candidates = files.map((f, i) => ({ path: f, text: raw[i].replace(/^\uFEFF/, '') }));
  const { plans, errors } = scan({ candidates, files, cwd: dir, allow: parseAllowList([]), only: [], skip: [] });
  assert.deepEqual(errors, []);
  const sites = plans.flatMap((p) => p.sites);
  assert.ok(sites.every((s) => s.record.status === 'migrated'));
  const unit = sites.find((s) => s.file === path.join(dir, joined[0]))!.unit;
  for (const s of sites) if (joined.includes(path.relative(dir, s.file))) s.unit = unit;
  return { plans, texts: new Map(candidates.map((c, i) => [c.path, { text: c.text, bom: raw[i].startsWith('\uFEFF') }])) };
}

async function applyTo(dir: string, overrides: { dryRun?: boolean; runner?: TransformRunner; seams?: ApplySeams; plan?: ReturnType<typeof planOf> } = {}): Promise<ApplyOutcome> {
  const { plans, texts } = overrides.plan ?? planOf(dir);
  return applyPlans({ plans, texts, roots: [dir], cwd: dir, dryRun: overrides.dryRun ?? false, markers: true, force: true }, overrides.runner ?? runTransformsHere, overrides.seams ?? NO_SEAMS);
}

/** The failed sites, by file, as `code detail`. */
function failures(out: ApplyOutcome, dir: string): Record<string, string> {
  return Object.fromEntries([...out.failed].map(([site, f]) => [path.relative(dir, site.file), `${f.code} ${f.detail}`]));
}

function site(file: string, unit: number, status: 'migrated' | 'manual', extra: Partial<SitePlan> = {}): SitePlan {
  return {
    record: { id: '0000000000000000', file, line: 1, column: 1, api: 'chat.completions.create', kinds: ['simple'], client: { provider: 'openai', evidence: '' }, status, reasons: [], notes: [] },
    file, callStart: 0, statementStart: 0, unit, edits: [], ...extra,
  };
}
const callee = (file: string) => ({ op: 'callee' as const, rule: 'A-CREATE' as const, file, start: 0, end: 1, method: 'create' as const });

describe('write sets: union-find over "must go together" keys', () => {
  it('joins items that share a key, transitively; sets keep the order of their first item', () => {
    const items = [
      { id: 'p', keys: ['file:a'] }, { id: 'q', keys: ['file:x'] }, { id: 'r', keys: ['file:b', 'unit:1'] },
      { id: 's', keys: ['unit:1', 'file:a'] }, { id: 't', keys: [] }, { id: 'u', keys: ['file:x', 'group:g'] },
    ];
    assert.deepEqual(componentsByKeys(items, (i) => i.keys).map((c) => c.map((i) => i.id)), [['p', 'r', 's'], ['q', 'u'], ['t']]);
  });

  it('a site joins the sets of its unit, of every file it edits, marks or creates, and of any extra key (a whole-program group)', () => {
    const sites = [
      site('/p/a.ts', 1, 'migrated', { edits: [callee('/p/a.ts'), callee('/p/defs.ts')] }),
      site('/p/b.ts', 2, 'migrated', { edits: [callee('/p/b.ts')] }),
      site('/p/c.ts', 3, 'migrated', { edits: [callee('/p/c.ts')], creates: [{ file: '/p/convert.ts', text: 'x' }] }),
      site('/p/d.ts', 4, 'migrated', { edits: [callee('/p/d.ts')], creates: [{ file: '/p/convert.ts', text: 'x' }] }),
      site('/p/defs.ts', 5, 'manual'), // its marker goes in a file site 1 edits
      site('/p/e.ts', 6, 'manual'),
      site('/p/f.ts', 6, 'manual'), // one unit, two files
      site('/p/g.ts', 7, 'migrated', { edits: [callee('/p/g.ts')] }),
      site('/p/h.ts', 8, 'migrated', { edits: [callee('/p/h.ts')] }),
      site('/p/i.ts', 9, 'migrated'), // nothing to do: in no set
    ];
    const plans: FilePlan[] = sites.map((s) => ({ file: s.file, sites: [s] }));
    const group = (s: SitePlan) => (s.file === '/p/g.ts' || s.file === '/p/b.ts' ? ['group:callee-and-caller'] : []);
    const shape = (markers: boolean) => writeSets(plans, { markers, extraKeys: group }).map((set) => set.files.map((f) => `${path.basename(f.file)}${f.create !== undefined ? '+' : ''}:${f.edits.length}e${f.markers.length}m`));
    assert.deepEqual(shape(true), [
      ['a.ts:1e0m', 'defs.ts:1e1m'],
      ['b.ts:1e0m', 'g.ts:1e0m'],
      ['c.ts:1e0m', 'convert.ts+:0e0m', 'd.ts:1e0m'],
      ['e.ts:0e1m', 'f.ts:0e1m'],
      ['h.ts:1e0m'],
    ]);
    // without markers a manual site touches nothing
    assert.deepEqual(shape(false).map((s) => s.join(' ')), ['a.ts:1e0m defs.ts:1e0m', 'b.ts:1e0m g.ts:1e0m', 'c.ts:1e0m convert.ts+:0e0m d.ts:1e0m', 'h.ts:1e0m']);
  });

  it('two different texts for one new file, or edits to it, make the set unwritable', () => {
    const a = site('/p/a.ts', 1, 'migrated', { edits: [callee('/p/a.ts')], creates: [{ file: '/p/convert.ts', text: 'x' }] });
    const b = site('/p/b.ts', 2, 'migrated', { edits: [callee('/p/b.ts')], creates: [{ file: '/p/convert.ts', text: 'y' }] });
    const c = site('/p/c.ts', 3, 'migrated', { edits: [callee('/p/convert.ts')], creates: [{ file: '/p/convert.ts', text: 'x' }] });
    const conflict = (...s: SitePlan[]) => writeSets([{ file: '/p', sites: s }], { markers: true }).map((set) => set.conflict);
    assert.deepEqual(conflict(a, b), [{ file: '/p/convert.ts', message: 'the plan asks for two different texts of this new file' }]);
    assert.deepEqual(conflict(c), [{ file: '/p/convert.ts', message: 'the plan asks to create this file and to edit it' }]);
    assert.deepEqual(conflict(a), [undefined]);
  });
});

describe('a two-file write set is written all-or-nothing (in process)', () => {
  it('no fault: every file is rewritten, nothing else is left', async () => {
    const dir = tree(FILES);
    const out = await applyTo(dir);
    assert.deepEqual(out.errors, []);
    assert.deepEqual(out.written, ['src/a.ts', 'src/b.ts', 'src/c.ts']);
    assert.deepEqual(disk(dir), NEW);
  });

  it('(a) a file changed on disk after the scan: neither file of its set is written, the other set is', async () => {
    const dir = tree(FILES);
    const plan = planOf(dir);
    writeFileSync(path.join(dir, 'src/b.ts'), `${source('summarise')}// edited meanwhile\n`);
    const out = await applyTo(dir, { plan });
    assert.deepEqual(out.errors, [
      { file: 'src/b.ts', message: 'not written: the file changed on disk after it was scanned' },
      { file: 'src/a.ts', message: 'left unchanged with its write set: src/b.ts failed' },
    ]);
    assert.deepEqual(failures(out, dir), {
      'src/a.ts': 'write-failed src/b.ts: the file changed on disk after it was scanned',
      'src/b.ts': 'write-failed src/b.ts: the file changed on disk after it was scanned',
    });
    assert.deepEqual(out.written, ['src/c.ts']);
    assert.deepEqual(disk(dir), { ...OLD, 'src/b.ts': `${source('summarise')}// edited meanwhile\n`, 'src/c.ts': NEW['src/c.ts'] });
  });

  it('(a) a file changed on disk while its set is being staged: caught by the verification before any rename', async () => {
    const dir = tree(FILES);
    const commit: CommitSeams = {
      staged: (changes) => {
        if (changes.some((c) => c.rel === 'src/a.ts')) writeFileSync(path.join(dir, 'src/a.ts'), `// edited meanwhile\n${source('ask')}`);
      },
    };
    const out = await applyTo(dir, { seams: { commit } });
    assert.deepEqual(out.errors, [
      { file: 'src/a.ts', message: 'not written: the file changed on disk after it was scanned' },
      { file: 'src/b.ts', message: 'left unchanged with its write set: src/a.ts failed' },
    ]);
    assert.deepEqual(disk(dir), { ...OLD, 'src/a.ts': `// edited meanwhile\n${source('ask')}`, 'src/c.ts': NEW['src/c.ts'] });
  });

  it('(b) a read-only file (checked by its mode bits, so root is stopped too): neither is written, modes are kept', async () => {
    const dir = tree(FILES);
    chmodSync(path.join(dir, 'src/a.ts'), 0o640);
    chmodSync(path.join(dir, 'src/b.ts'), 0o444);
    const out = await applyTo(dir);
    assert.deepEqual(out.errors, [
      { file: 'src/b.ts', message: 'not written: the file is read-only' },
      { file: 'src/a.ts', message: 'left unchanged with its write set: src/b.ts failed' },
    ]);
    assert.deepEqual(failures(out, dir), { 'src/a.ts': 'write-failed src/b.ts: the file is read-only', 'src/b.ts': 'write-failed src/b.ts: the file is read-only' });
    assert.deepEqual(disk(dir), { ...OLD, 'src/c.ts': NEW['src/c.ts'] });
    assert.equal(statSync(path.join(dir, 'src/a.ts')).mode & 0o777, 0o640);
    assert.equal(statSync(path.join(dir, 'src/b.ts')).mode & 0o777, 0o444);
  });

  it('(b) staging a file fails (test seam: EACCES writing its temporary file): the staged ones are removed', async () => {
    const dir = tree(FILES);
    const commit: CommitSeams = {
      staging: (change) => {
        if (change.rel === 'src/b.ts') throw Object.assign(new Error(`EACCES: permission denied, open '${change.file}.tmp'`), { code: 'EACCES' });
      },
    };
    const out = await applyTo(dir, { seams: { commit } });
    assert.deepEqual(out.errors, [
      { file: 'src/b.ts', message: `not written: EACCES: permission denied, open '${path.join(dir, 'src/b.ts')}.tmp'` },
      { file: 'src/a.ts', message: 'left unchanged with its write set: src/b.ts failed' },
    ]);
    assert.deepEqual(disk(dir), { ...OLD, 'src/c.ts': NEW['src/c.ts'] });
  });

  it('(c) the rewrite of one file does not parse: the whole set is dropped, in a dry run too', async () => {
    const at = source('summarise').indexOf('q: string');
    // the real transforms and their re-parse, with one edit added to b.ts that breaks its syntax
    const breakB: TransformRunner = (jobs) => runTransformsHere(jobs.map((j) => (j.file.endsWith('b.ts')
      ? { ...j, edits: [...j.edits, { op: 'replace', rule: 'O-CONTENT-NULL', file: j.file, start: at, end: at + 1, text: '(((' }] }
      : j)));
    for (const dryRun of [true, false]) {
      const dir = tree(FILES);
      const out = await applyTo(dir, { runner: breakB, dryRun });
      assert.equal(out.errors.length, 2);
      assert.equal(out.errors[0].file, 'src/b.ts');
      assert.match(out.errors[0].message, /^rewrite failed, file left unchanged: .*\(3:/);
      assert.deepEqual(out.errors[1], { file: 'src/a.ts', message: 'left unchanged with its write set: src/b.ts failed' });
      const f = failures(out, dir);
      assert.deepEqual(Object.keys(f), ['src/a.ts', 'src/b.ts']);
      assert.match(f['src/a.ts'], /^transform-failed src\/b\.ts: /);
      assert.equal(f['src/a.ts'], f['src/b.ts']);
      assert.deepEqual(out.changes.map((c) => c.rel), ['src/c.ts']);
      assert.deepEqual(disk(dir), dryRun ? OLD : { ...OLD, 'src/c.ts': NEW['src/c.ts'] });
    }
  });

  it('(d) a rename fails in the middle of the commit: the file already renamed is restored (mode and BOM kept)', async () => {
    const dir = tree(FILES);
    writeFileSync(path.join(dir, 'src/a.ts'), `\uFEFF${source('ask')}`);
    chmodSync(path.join(dir, 'src/a.ts'), 0o751);
    const plan = planOf(dir);
    const seen: string[] = [];
    const commit: CommitSeams = {
      renaming: (change, index) => {
        seen.push(`${change.rel}@${index}:${readFileSync(path.join(dir, 'src/a.ts'), 'utf8').includes('responses.create') ? 'a-new' : 'a-old'}`);
        if (change.rel === 'src/b.ts') throw new Error('EIO: i/o error, rename');
      },
    };
    const out = await applyTo(dir, { plan, seams: { commit } });
    assert.deepEqual(seen, ['src/a.ts@0:a-old', 'src/b.ts@1:a-new', 'src/c.ts@0:a-old']);
    assert.deepEqual(out.errors, [
      { file: 'src/b.ts', message: 'not written: EIO: i/o error, rename; rolled back: src/a.ts restored' },
      { file: 'src/a.ts', message: 'left unchanged with its write set: src/b.ts failed' },
    ]);
    assert.deepEqual(failures(out, dir)['src/a.ts'], 'write-failed src/b.ts: EIO: i/o error, rename; rolled back: src/a.ts restored');
    assert.deepEqual(disk(dir), { ...OLD, 'src/a.ts': `\uFEFF${source('ask')}`, 'src/c.ts': NEW['src/c.ts'] });
    assert.equal(statSync(path.join(dir, 'src/a.ts')).mode & 0o777, 0o751);
  });

  it('(d) a rollback that fails itself is said, naming the file left with its new text', async () => {
    const dir = tree({ 'lib/a.ts': source('ask'), 'src/b.ts': source('summarise') });
    const commit: CommitSeams = {
      renaming: (change) => {
        if (change.rel !== 'src/b.ts') return;
        renameSync(path.join(dir, 'lib'), path.join(dir, 'lib-moved')); // a.ts's folder is gone: it cannot be restored
        throw new Error('EIO: i/o error, rename');
      },
    };
    const out = await applyTo(dir, { plan: planOf(dir, ['lib/a.ts', 'src/b.ts']), seams: { commit } });
    assert.equal(out.errors[0].file, 'src/b.ts');
    assert.match(out.errors[0].message, /^not written: EIO: i\/o error, rename; could not restore lib\/a\.ts \(ENOENT: [^)]*\): these files hold the new text while the rest of their write set does not$/);
    assert.deepEqual(disk(dir), { 'lib-moved/a.ts': migrated('ask'), 'src/b.ts': source('summarise') });
  });

  it('a file the set creates is written with it, and is not created when the set fails', async () => {
    const convert = (dir: string) => path.join(dir, 'src/convert.ts');
    const withCreate = (dir: string) => {
      const plan = planOf(dir);
      for (const s of plan.plans.flatMap((p) => p.sites)) if (!s.file.endsWith('c.ts')) s.creates = [{ file: convert(dir), text: 'export const convert = 1;\n' }];
      return plan;
    };
    const ok = tree(FILES);
    const first = withCreate(ok);
    const written = await applyTo(ok, { plan: first });
    assert.deepEqual(written.written, ['src/a.ts', 'src/b.ts', 'src/convert.ts', 'src/c.ts']);
    assert.deepEqual(disk(ok), { ...NEW, 'src/convert.ts': 'export const convert = 1;\n' });
    // a second plan asking for it again: already there with that text, nothing to do
    const again = await applyTo(ok, { plan: { plans: first.plans.map((p) => ({ ...p, sites: p.sites.map((s) => ({ ...s, edits: [] })) })), texts: new Map() } });
    assert.deepEqual([again.written, again.errors], [[], []]);

    const bad = tree(FILES);
    const plan = withCreate(bad);
    chmodSync(path.join(bad, 'src/b.ts'), 0o444);
    const failed = await applyTo(bad, { plan });
    assert.deepEqual(failed.errors, [
      { file: 'src/b.ts', message: 'not written: the file is read-only' },
      { file: 'src/a.ts', message: 'left unchanged with its write set: src/b.ts failed' },
      { file: 'src/convert.ts', message: 'left unchanged with its write set: src/b.ts failed' },
    ]);
    assert.deepEqual(disk(bad), { ...OLD, 'src/c.ts': NEW['src/c.ts'] });

    const raced = tree(FILES);
    const commit: CommitSeams = { staged: (changes) => changes.some((c) => c.before === undefined) && writeFileSync(convert(raced), '// someone else\n') };
    const out = await applyTo(raced, { plan: withCreate(raced), seams: { commit } });
    assert.deepEqual(out.errors[0], { file: 'src/convert.ts', message: 'not written: the file to create already exists' });
    assert.deepEqual(disk(raced), { ...OLD, 'src/c.ts': NEW['src/c.ts'], 'src/convert.ts': '// someone else\n' });
  });
});

describe('commitWriteSet', () => {
  const change = (dir: string, rel: string, after: string, before?: string): FileChange => ({ file: path.join(dir, rel), rel, before, after, bom: false });

  it('a created file renamed before a failing rename is deleted by the rollback', () => {
    const dir = tree({ 'a.ts': 'old a\n', 'b.ts': 'old b\n' });
    const changes = [change(dir, 'new.ts', 'created\n'), change(dir, 'a.ts', 'new a\n', 'old a\n'), change(dir, 'b.ts', 'new b\n', 'old b\n')];
    const outcome = commitWriteSet(changes, { renaming: (_c, i) => { if (i === 2) throw new Error('EXDEV: cross-device link not permitted'); } });
    assert.deepEqual(outcome, { ok: false, failure: { file: path.join(dir, 'b.ts'), cause: 'EXDEV: cross-device link not permitted; rolled back: new.ts deleted, a.ts restored' } });
    assert.deepEqual(disk(dir), { 'a.ts': 'old a\n', 'b.ts': 'old b\n' });
  });

  it('stages next to each target with its mode, and leaves only the targets', () => {
    const dir = tree({ 'x/a.ts': 'old a\n', 'y/b.ts': 'old b\n' });
    chmodSync(path.join(dir, 'y/b.ts'), 0o600);
    const staged: string[] = [];
    const outcome = commitWriteSet([change(dir, 'x/a.ts', 'new a\n', 'old a\n'), change(dir, 'y/b.ts', 'new b\n', 'old b\n')], {
      staged: () => {
        for (const [rel, text] of Object.entries(disk(dir))) staged.push(`${rel.replace(/\.\d+\.[0-9a-f]{8}\./, '.<pid>.<rand>.')} ${text.trim()}`);
      },
    });
    assert.deepEqual(outcome, { ok: true });
    assert.deepEqual(staged.sort(), [
      'x/.a.ts.<pid>.<rand>.migrate-responses.tmp new a', 'x/a.ts old a', 'y/.b.ts.<pid>.<rand>.migrate-responses.tmp new b', 'y/b.ts old b',
    ]);
    assert.deepEqual(disk(dir), { 'x/a.ts': 'new a\n', 'y/b.ts': 'new b\n' });
    assert.equal(statSync(path.join(dir, 'y/b.ts')).mode & 0o777, 0o600);
  });
});

describe('SIGINT / SIGTERM in the middle of a write set (the built CLI)', () => {
  /**
   * Runs the CLI on a/b (joined into one set by the test seam) and c, pausing inside the commit;
   * sends `signal` when stderr shows `at`, after checking what is on disk at that moment.
   */
  async function interrupt(signal: NodeJS.Signals, at: RegExp, onDiskThen: Record<string, string>) {
    const dir = tree(FILES);
    const child = spawn(process.execPath, [BIN, 'src', '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', MIGRATE_RESPONSES_TEST_JOIN: 'src/a.ts,src/b.ts', MIGRATE_RESPONSES_TEST_PAUSE_MS: '1500' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let sent = false;
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        if (sent || !at.test(stderr)) return;
        sent = true;
        try {
          const now = disk(dir);
          for (const k of Object.keys(now)) if (k.endsWith('.tmp')) delete now[k];
          assert.deepEqual(now, onDiskThen);
          child.kill(signal);
          resolve();
        } catch (err) {
          child.kill('SIGKILL');
          reject(err);
        }
      });
      child.on('exit', () => reject(new Error(`the CLI exited before the pause: ${stderr}`)));
    });
    return { dir, code: await exited, stdout, stderr };
  }

  for (const [signal, when, at, onDiskThen] of [
    ['SIGINT', 'between two renames', /test pause: renamed 1, next src\/b\.ts/, { ...OLD, 'src/a.ts': NEW['src/a.ts'] }],
    ['SIGTERM', 'between staging and renaming', /test pause: staged src\/a\.ts, src\/b\.ts/, OLD],
  ] as const) {
    it(`${signal} ${when}: the set finishes, the next one never starts, exit 1, no temporary file`, async () => {
      const { dir, code, stdout, stderr } = await interrupt(signal, at, onDiskThen);
      assert.equal(code, 1, stderr);
      assert.deepEqual(disk(dir), { ...NEW, 'src/c.ts': OLD['src/c.ts'] });
      const report = JSON.parse(stdout);
      assert.deepEqual(report.changedFiles, ['src/a.ts', 'src/b.ts']);
      assert.deepEqual(report.errors, [{ file: 'src/c.ts', message: `not written: the run was interrupted (${signal})` }]);
      assert.deepEqual(report.warnings.filter((w: string) => w.startsWith('interrupted')), [`interrupted by ${signal}: 2 file(s) written, the others left as they were; no write set was left half-written`]);
      assert.deepEqual(report.sites.map((s: { file: string; status: string; reasons: { code: string; detail?: string }[] }) => [s.file, s.status, s.reasons.map((r) => `${r.code}:${r.detail}`)]), [
        ['src/a.ts', 'migrated', []],
        ['src/b.ts', 'migrated', []],
        ['src/c.ts', 'manual', [`write-failed:interrupted by ${signal} before its files were written`]],
      ]);
    });
  }

  it('without a signal, a read-only file of the joined set leaves both as they were (exit 1); the other set is written', () => {
    const dir = tree(FILES);
    chmodSync(path.join(dir, 'src/a.ts'), 0o444);
    const r = spawnSync(process.execPath, [BIN, 'src', '--format', 'json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', MIGRATE_RESPONSES_TEST_JOIN: 'src/a.ts,src/b.ts' } });
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.errors, [
      { file: 'src/a.ts', message: 'not written: the file is read-only' },
      { file: 'src/b.ts', message: 'left unchanged with its write set: src/a.ts failed' },
    ]);
    assert.deepEqual(report.sites.map((s: { status: string; reasons: { code: string; message: string }[] }) => [s.status, s.reasons.map((x) => x.message)]), [
      ['manual', ['Its files could not be written (src/a.ts: the file is read-only); every file of its write set was left as it was.']],
      ['manual', ['Its files could not be written (src/a.ts: the file is read-only); every file of its write set was left as it was.']],
      ['migrated', []],
    ]);
    assert.deepEqual(report.changedFiles, ['src/c.ts']);
    assert.deepEqual(disk(dir), { ...OLD, 'src/c.ts': NEW['src/c.ts'] });
    assert.equal(existsSync(path.join(dir, 'src/a.ts')), true);
  });
});
