/**
 * Write sets (issue 12): a group of sites is written all-or-nothing across its files (G-UNIT,
 * W-ALL-OR-NOTHING). The union-find that makes the sets, the two-phase commit of one set, and
 * every fault injected into a two-file set: a file changed on disk, a read-only file, a staging
 * failure, a rewrite that does not parse, a rename failure (rolled back, and a rollback that itself
 * fails), a file to create, and SIGINT / SIGTERM delivered to the built CLI in the middle of a set.
 *
 * The set under test is a real whole-program group (W-FOLLOW): a completion returned by
 * src/lib/ai.ts to two route modules that read it, three files written together; src/other.ts is
 * a set of its own.
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
import { renderConverter } from '../lib/runtime/converter.js';
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

const AI = (chat: boolean) => `import OpenAI from 'openai';
import type { ${chat ? 'ChatCompletion' : 'Response'} } from 'openai/resources/${chat ? 'chat/completions' : 'responses/responses'}';

const client = new OpenAI();

export async function ask(question: string): Promise<${chat ? 'ChatCompletion' : 'Response'}> {
  return client.${chat ? 'chat.completions' : 'responses'}.create({ model: 'gpt-4o-mini', ${chat ? 'messages' : 'input'}: [{ role: 'user', content: question }]${chat ? '' : ', store: false'} });
}
`;
const SUMMARY = (chat: boolean) => `import { ask } from '../lib/ai.js';

export async function summary(text: string): Promise<string> {
  const completion = await ask(\`Summarise: \${text}\`);
  return completion.${chat ? 'choices[0].message.content' : 'output_text'} ?? '';
}
`;
const TITLE = (chat: boolean) => `import { ask } from '../lib/ai.js';

export async function title(text: string): Promise<string | null> {
  const r = await ask(\`Title for: \${text}\`);
  return r.${chat ? 'choices[0].message.content' : 'output_text'};
}
`;
/** The group (src/lib/ai.ts and its callers in src/routes/) is one write set; src/other.ts another. */
const OLD: Record<string, string> = {
  'package.json': '{ "name": "app", "private": true, "type": "module" }\n',
  'src/lib/ai.ts': AI(true), 'src/other.ts': source('other'), 'src/routes/summary.ts': SUMMARY(true), 'src/routes/title.ts': TITLE(true),
};
const NEW: Record<string, string> = { ...OLD, 'src/lib/ai.ts': AI(false), 'src/other.ts': migrated('other'), 'src/routes/summary.ts': SUMMARY(false), 'src/routes/title.ts': TITLE(false) };
const FILES = OLD;
/** The group's files, in the order they are written. */
const GROUP = ['src/lib/ai.ts', 'src/routes/summary.ts', 'src/routes/title.ts'];
/** The group and src/other.ts, each as the tool leaves it when the group fails and the other set is written. */
const GROUP_FAILED: Record<string, string> = { ...OLD, 'src/other.ts': NEW['src/other.ts'] };
const pointers = (culprit: string, files = GROUP) => files.filter((f) => f !== culprit).map((file) => ({ file, message: `left unchanged with its write set: ${culprit} failed` }));

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

/** The scanner's plan of the tree: the group's site edits the three files. */
function planOf(dir: string): { plans: FilePlan[]; texts: ApplyInput['texts'] } {
  const files = Object.keys(disk(dir)).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
  const raw = files.map((f) => readFileSync(f, 'utf8'));
  const candidates = files.map((f, i) => ({ path: f, text: raw[i].replace(/^\uFEFF/, '') }));
  const { plans, errors } = scan({ candidates, files, roots: [dir], cwd: dir, allow: parseAllowList([]), only: [], skip: [] });
  assert.deepEqual(errors, []);
  const sites = plans.flatMap((p) => p.sites);
  assert.deepEqual(sites.map((s) => [path.relative(dir, s.file), s.record.status, [...new Set(s.edits.map((e) => path.relative(dir, e.file)))]]), [
    ['src/lib/ai.ts', 'migrated', GROUP],
    ['src/other.ts', 'migrated', ['src/other.ts']],
  ]);
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
const convert = (file: string, moduleFile: string) => ({ op: 'convert-messages' as const, of: 'messages' as const, rule: 'M-CONTENT-UNTYPED' as const, file, start: 0, end: 1, element: false, module: './convert.js', moduleFile });

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
      site('/p/c.ts', 3, 'migrated', { edits: [callee('/p/c.ts'), convert('/p/c.ts', '/p/convert.ts')] }),
      site('/p/d.ts', 4, 'migrated', { edits: [callee('/p/d.ts'), convert('/p/d.ts', '/p/convert.ts')] }),
      site('/p/defs.ts', 5, 'manual'), // its marker goes in a file site 1 edits
      site('/p/e.ts', 6, 'manual'),
      site('/p/f.ts', 6, 'manual'), // one unit, two files
      site('/p/g.ts', 7, 'migrated', { edits: [callee('/p/g.ts')] }),
      site('/p/h.ts', 8, 'migrated', { edits: [callee('/p/h.ts')] }),
      site('/p/i.ts', 9, 'migrated'), // nothing to do: in no set
    ];
    const plans: FilePlan[] = sites.map((s) => ({ file: s.file, sites: [s] }));
    const group = (s: SitePlan) => (s.file === '/p/g.ts' || s.file === '/p/b.ts' ? ['group:callee-and-caller'] : []);
    const created = new Map([['/p/convert.ts', 'export {};\n']]);
    const shape = (markers: boolean) => writeSets(plans, { markers, created, extraKeys: group }).map((set) => set.files.map((f) => `${path.basename(f.file)}${f.create !== undefined ? '+' : ''}:${f.edits.length}e${f.markers.length}m`));
    assert.deepEqual(shape(true), [
      ['a.ts:1e0m', 'defs.ts:1e1m'],
      ['b.ts:1e0m', 'g.ts:1e0m'],
      ['c.ts:2e0m', 'convert.ts+:0e0m', 'd.ts:2e0m'],
      ['e.ts:0e1m', 'f.ts:0e1m'],
      ['h.ts:1e0m'],
    ]);
    // without markers a manual site touches nothing
    assert.deepEqual(shape(false).map((s) => s.join(' ')), ['a.ts:1e0m defs.ts:1e0m', 'b.ts:1e0m g.ts:1e0m', 'c.ts:2e0m convert.ts+:0e0m d.ts:2e0m', 'h.ts:1e0m']);
  });

  it('a file the run creates is created only with the sites that import it; creating a file and editing it is unwritable', () => {
    const created = new Map([['/p/convert.ts', 'export {};\n']]);
    const a = site('/p/a.ts', 1, 'migrated', { edits: [callee('/p/a.ts'), convert('/p/a.ts', '/p/convert.ts')] });
    const b = site('/p/b.ts', 2, 'migrated', { edits: [callee('/p/b.ts'), convert('/p/b.ts', '/p/other.ts')] }); // not a file to create
    const c = site('/p/c.ts', 3, 'migrated', { edits: [callee('/p/convert.ts'), convert('/p/c.ts', '/p/convert.ts')] });
    const sets = (...s: SitePlan[]) => writeSets([{ file: '/p', sites: s }], { markers: true, created }).map((set) => [set.files.map((f) => `${path.basename(f.file)}${f.create !== undefined ? '+' : ''}`), set.conflict]);
    assert.deepEqual(sets(a, b), [[['a.ts', 'convert.ts+'], undefined], [['b.ts'], undefined]]);
    assert.deepEqual(sets(c), [[['convert.ts+', 'c.ts'], { file: '/p/convert.ts', message: 'the plan asks to create this file and to edit it' }]]);
    assert.deepEqual(sets({ ...a, record: { ...a.record, status: 'manual' } }), [[['a.ts'], undefined]]); // a manual site: its marker only
  });
});

describe('a multi-file write set (a group across modules) is written all-or-nothing (in process)', () => {
  it('no fault: every file is rewritten, nothing else is left', async () => {
    const dir = tree(FILES);
    const out = await applyTo(dir);
    assert.deepEqual(out.errors, []);
    assert.deepEqual(out.written, [...GROUP, 'src/other.ts']);
    assert.deepEqual(disk(dir), NEW);
  });

  it('(a) a file changed on disk after the scan: no file of its set is written, the other set is', async () => {
    const dir = tree(FILES);
    const plan = planOf(dir);
    writeFileSync(path.join(dir, 'src/routes/summary.ts'), `${SUMMARY(true)}// edited meanwhile\n`);
    const out = await applyTo(dir, { plan });
    assert.deepEqual(out.errors, [
      { file: 'src/routes/summary.ts', message: 'not written: the file changed on disk after it was scanned' },
      ...pointers('src/routes/summary.ts'),
    ]);
    assert.deepEqual(failures(out, dir), { 'src/lib/ai.ts': 'write-failed src/routes/summary.ts: the file changed on disk after it was scanned' });
    assert.deepEqual(out.written, ['src/other.ts']);
    assert.deepEqual(disk(dir), { ...GROUP_FAILED, 'src/routes/summary.ts': `${SUMMARY(true)}// edited meanwhile\n` });
  });

  it('(a) a file changed on disk while its set is being staged: caught by the verification before any rename', async () => {
    const dir = tree(FILES);
    const commit: CommitSeams = {
      staged: (changes) => {
        if (changes.length > 1) writeFileSync(path.join(dir, 'src/routes/title.ts'), `// edited meanwhile\n${TITLE(true)}`);
      },
    };
    const out = await applyTo(dir, { seams: { commit } });
    assert.deepEqual(out.errors, [
      { file: 'src/routes/title.ts', message: 'not written: the file changed on disk after it was scanned' },
      ...pointers('src/routes/title.ts'),
    ]);
    assert.deepEqual(disk(dir), { ...GROUP_FAILED, 'src/routes/title.ts': `// edited meanwhile\n${TITLE(true)}` });
  });

  it('(b) a read-only file (checked by its mode bits, so root is stopped too): none is written, modes are kept', async () => {
    const dir = tree(FILES);
    chmodSync(path.join(dir, 'src/lib/ai.ts'), 0o640);
    chmodSync(path.join(dir, 'src/routes/title.ts'), 0o444);
    const out = await applyTo(dir);
    assert.deepEqual(out.errors, [{ file: 'src/routes/title.ts', message: 'not written: the file is read-only' }, ...pointers('src/routes/title.ts')]);
    assert.deepEqual(failures(out, dir), { 'src/lib/ai.ts': 'write-failed src/routes/title.ts: the file is read-only' });
    assert.deepEqual(disk(dir), GROUP_FAILED);
    assert.equal(statSync(path.join(dir, 'src/lib/ai.ts')).mode & 0o777, 0o640);
    assert.equal(statSync(path.join(dir, 'src/routes/title.ts')).mode & 0o777, 0o444);
  });

  it('(b) staging a file fails (test seam: EACCES writing its temporary file): the staged ones are removed', async () => {
    const dir = tree(FILES);
    const commit: CommitSeams = {
      staging: (change) => {
        if (change.rel === 'src/routes/summary.ts') throw Object.assign(new Error(`EACCES: permission denied, open '${change.file}.tmp'`), { code: 'EACCES' });
      },
    };
    const out = await applyTo(dir, { seams: { commit } });
    assert.deepEqual(out.errors, [
      { file: 'src/routes/summary.ts', message: `not written: EACCES: permission denied, open '${path.join(dir, 'src/routes/summary.ts')}.tmp'` },
      ...pointers('src/routes/summary.ts'),
    ]);
    assert.deepEqual(disk(dir), GROUP_FAILED);
  });

  it('(c) the rewrite of one file does not parse: the whole set is dropped, in a dry run too', async () => {
    const at = TITLE(true).indexOf('text: string');
    // the real transforms and their re-parse, with one edit added to title.ts that breaks its syntax
    const breakTitle: TransformRunner = (jobs) => runTransformsHere(jobs.map((j) => (j.file.endsWith('title.ts')
      ? { ...j, edits: [...j.edits, { op: 'replace', rule: 'O-CONTENT-NULL', file: j.file, start: at, end: at + 1, text: '(((' }] }
      : j)));
    for (const dryRun of [true, false]) {
      const dir = tree(FILES);
      const out = await applyTo(dir, { runner: breakTitle, dryRun });
      assert.equal(out.errors[0].file, 'src/routes/title.ts');
      assert.match(out.errors[0].message, /^rewrite failed, file left unchanged: .*\(3:/);
      assert.deepEqual(out.errors.slice(1), pointers('src/routes/title.ts'));
      assert.deepEqual(Object.keys(failures(out, dir)), ['src/lib/ai.ts']);
      assert.match(failures(out, dir)['src/lib/ai.ts'], /^transform-failed src\/routes\/title\.ts: .*\(3:/);
      assert.deepEqual(out.changes.map((c) => c.rel), ['src/other.ts']);
      assert.deepEqual(disk(dir), dryRun ? OLD : GROUP_FAILED);
    }
  });

  it('(d) a rename fails in the middle of the commit: the files already renamed are restored (mode and BOM kept)', async () => {
    const dir = tree({ ...FILES, 'src/lib/ai.ts': `\uFEFF${AI(true)}` });
    chmodSync(path.join(dir, 'src/lib/ai.ts'), 0o751);
    const plan = planOf(dir);
    const seen: string[] = [];
    const newOnDisk = () => GROUP.filter((f) => readFileSync(path.join(dir, f), 'utf8') === (f.endsWith('ai.ts') ? `\uFEFF${NEW[f]}` : NEW[f]));
    const commit: CommitSeams = {
      renaming: (change, index) => {
        seen.push(`${change.rel}@${index} after ${newOnDisk().join(' ') || 'none'}`);
        if (change.rel === 'src/routes/title.ts') throw new Error('EIO: i/o error, rename');
      },
    };
    const out = await applyTo(dir, { plan, seams: { commit } });
    assert.deepEqual(seen, [
      'src/lib/ai.ts@0 after none', 'src/routes/summary.ts@1 after src/lib/ai.ts', 'src/routes/title.ts@2 after src/lib/ai.ts src/routes/summary.ts',
      'src/other.ts@0 after none',
    ]);
    const cause = 'EIO: i/o error, rename; rolled back: src/lib/ai.ts restored, src/routes/summary.ts restored';
    assert.deepEqual(out.errors, [{ file: 'src/routes/title.ts', message: `not written: ${cause}` }, ...pointers('src/routes/title.ts')]);
    assert.deepEqual(failures(out, dir), { 'src/lib/ai.ts': `write-failed src/routes/title.ts: ${cause}` });
    assert.deepEqual(disk(dir), { ...GROUP_FAILED, 'src/lib/ai.ts': `\uFEFF${AI(true)}` });
    assert.equal(statSync(path.join(dir, 'src/lib/ai.ts')).mode & 0o777, 0o751);
  });

  it('(d) a rollback that fails itself is said, naming the file left with its new text', async () => {
    const dir = tree(FILES);
    const commit: CommitSeams = {
      renaming: (change) => {
        if (change.rel !== 'src/routes/title.ts') return;
        renameSync(path.join(dir, 'src/lib'), path.join(dir, 'src/lib-moved')); // ai.ts's folder is gone: it cannot be restored
        throw new Error('EIO: i/o error, rename');
      },
    };
    const out = await applyTo(dir, { seams: { commit } });
    assert.equal(out.errors[0].file, 'src/routes/title.ts');
    assert.match(out.errors[0].message, /^not written: EIO: i\/o error, rename; rolled back: src\/routes\/summary\.ts restored; could not restore src\/lib\/ai\.ts \(ENOENT: [^)]*\): these files hold the new text while the rest of their write set does not$/);
    const { 'src/lib/ai.ts': _moved, ...rest } = GROUP_FAILED;
    assert.deepEqual(disk(dir), { ...rest, 'src/lib-moved/ai.ts': NEW['src/lib/ai.ts'] });
  });
});

describe('a file the run creates (the run-time converter module, M-CONTENT-UNTYPED) is written with its importers', () => {
  const site = (name: string) => `import OpenAI from 'openai';\nconst client = new OpenAI();\nexport async function ${name}(history) {\n  const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history });\n  return r.choices[0].message.content;\n}\n`;
  const JS: Record<string, string> = { 'package.json': '{ "type": "module" }\n', 'src/a.js': site('answer'), 'src/b.js': site('reply') };
  const MODULE = 'src/to-responses-input.js';

  /** The scanner's plan: both sites convert their messages at run time, with the package's module. */
  function planWithModule(dir: string) {
    const files = ['src/a.js', 'src/b.js'].map((f) => path.join(dir, f));
    const candidates = files.map((f) => ({ path: f, text: readFileSync(f, 'utf8') }));
    const result = scan({ candidates, files, roots: [dir], cwd: dir, allow: parseAllowList([]), only: [], skip: [], runtimeConversion: true });
    assert.deepEqual(result.createdFiles.map((f) => path.relative(dir, f.file)), [MODULE]);
    return { plans: result.plans, texts: new Map(candidates.map((c) => [c.path, { text: c.text, bom: false }])), createdFiles: result.createdFiles };
  }
  async function applyWithModule(dir: string, seams: ApplySeams = NO_SEAMS, dryRun = false) {
    const { plans, texts, createdFiles } = planWithModule(dir);
    return applyPlans({ plans, texts, createdFiles, roots: [dir], cwd: dir, dryRun, markers: true, force: true }, runTransformsHere, seams);
  }
  /** What a run without a fault writes. */
  async function expected(): Promise<Record<string, string>> {
    const { changes } = await applyWithModule(tree(JS), NO_SEAMS, true);
    assert.deepEqual(changes.map((c) => [c.rel, Boolean(c.created)]), [[MODULE, true], ['src/a.js', false], ['src/b.js', false]]);
    assert.equal(changes[0].after, renderConverter('esm'));
    return { ...JS, ...Object.fromEntries(changes.map((c) => [c.rel, c.after])) };
  }

  it('no fault: the module first, then the files that import it', async () => {
    const dir = tree(JS);
    const out = await applyWithModule(dir);
    assert.deepEqual([out.written, out.errors], [[MODULE, 'src/a.js', 'src/b.js'], []]);
    assert.deepEqual(disk(dir), await expected());
  });

  it('a read-only importer: the module is not created and the other importer is not written', async () => {
    const dir = tree(JS);
    chmodSync(path.join(dir, 'src/b.js'), 0o444);
    const out = await applyWithModule(dir);
    assert.deepEqual(out.errors, [{ file: 'src/b.js', message: 'not written: the file is read-only' }, ...pointers('src/b.js', [MODULE, 'src/a.js'])]);
    assert.deepEqual(Object.values(failures(out, dir)), ['write-failed src/b.js: the file is read-only', 'write-failed src/b.js: the file is read-only']);
    assert.deepEqual(disk(dir), JS);
  });

  it('the rewrite of one importer does not parse: its site is reported, the module and the other importer are written', async () => {
    // a tool bug in one file (probe of JS servers: overlapping edits) held back every importer of the package's module
    const breakB: TransformRunner = (jobs) => runTransformsHere(jobs.map((j) => (j.file.endsWith('b.js')
      ? { ...j, edits: [...j.edits, { op: 'replace', rule: 'O-CONTENT-NULL', file: j.file, start: 0, end: 1, text: '(((' }] }
      : j)));
    const want = await expected();
    for (const dryRun of [true, false]) {
      const dir = tree(JS);
      const { plans, texts, createdFiles } = planWithModule(dir);
      const out = await applyPlans({ plans, texts, createdFiles, roots: [dir], cwd: dir, dryRun, markers: true, force: true }, breakB, NO_SEAMS);
      assert.deepEqual(out.errors.map((e) => e.file), ['src/b.js']);
      assert.match(out.errors[0].message, /^rewrite failed, file left unchanged: /);
      assert.deepEqual(Object.entries(failures(out, dir)).map(([file, failure]) => [file, failure.split(':')[0]]), [['src/b.js', 'transform-failed src/b.js']]);
      assert.deepEqual(out.changes.map((c) => c.rel), [MODULE, 'src/a.js']);
      assert.deepEqual(disk(dir), dryRun ? JS : { ...JS, [MODULE]: want[MODULE], 'src/a.js': want['src/a.js'] });
    }
  });

  it('a rename that fails after the module was created: the rollback deletes it and restores the importer', async () => {
    const dir = tree(JS);
    const commit: CommitSeams = { renaming: (change) => { if (change.rel === 'src/b.js') throw new Error('EIO: i/o error, rename'); } };
    const out = await applyWithModule(dir, { commit });
    assert.deepEqual(out.errors[0], { file: 'src/b.js', message: `not written: EIO: i/o error, rename; rolled back: ${MODULE} deleted, src/a.js restored` });
    assert.deepEqual(disk(dir), JS);
  });

  it('a file that appears at the module path while the set is staged: not overwritten, nothing written', async () => {
    const dir = tree(JS);
    const commit: CommitSeams = { staged: () => writeFileSync(path.join(dir, MODULE), 'export const mine = 1;\n') };
    const out = await applyWithModule(dir, { commit });
    assert.deepEqual(out.errors, [{ file: MODULE, message: 'not created: a file of that name appeared after the scan' }, ...pointers(MODULE, ['src/a.js', 'src/b.js'])]);
    assert.deepEqual(disk(dir), { ...JS, [MODULE]: 'export const mine = 1;\n' });
  });

  it('the module already there with its text (made by an earlier run): the importers are written, the module is left', async () => {
    const dir = tree(JS);
    const plan = planWithModule(dir);
    writeFileSync(path.join(dir, MODULE), renderConverter('esm'));
    const out = await applyPlans({ ...plan, roots: [dir], cwd: dir, dryRun: false, markers: true, force: true }, runTransformsHere, NO_SEAMS);
    assert.deepEqual([out.written, out.errors], [['src/a.js', 'src/b.js'], []]);
    assert.deepEqual(disk(dir), await expected());
  });
});

describe('commitWriteSet', () => {
  const change = (dir: string, rel: string, after: string, before?: string): FileChange => ({ file: path.join(dir, rel), rel, before: before ?? '', after, bom: false, ...(before === undefined ? { created: true } : {}) });

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
   * Runs the CLI on the tree, pausing inside each commit (the test seam); sends `signal` when
   * stderr shows `at`, after checking what is on disk at that moment.
   */
  async function interrupt(signal: NodeJS.Signals, at: RegExp, onDiskThen: Record<string, string>) {
    const dir = tree(FILES);
    const child = spawn(process.execPath, [BIN, 'src', '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', MIGRATE_RESPONSES_TEST_PAUSE_MS: '1500' },
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
    ['SIGINT', 'between two renames', /test pause: renamed 1, next src\/routes\/summary\.ts/, { ...OLD, 'src/lib/ai.ts': NEW['src/lib/ai.ts'] }],
    ['SIGTERM', 'between staging and renaming', /test pause: staged src\/lib\/ai\.ts, src\/routes\/summary\.ts, src\/routes\/title\.ts/, OLD],
  ] as const) {
    it(`${signal} ${when}: the set finishes, the next one never starts, exit 1, no temporary file`, async () => {
      const { dir, code, stdout, stderr } = await interrupt(signal, at, onDiskThen);
      assert.equal(code, 1, stderr);
      assert.deepEqual(disk(dir), { ...NEW, 'src/other.ts': OLD['src/other.ts'] });
      const report = JSON.parse(stdout);
      assert.deepEqual(report.changedFiles, GROUP);
      assert.deepEqual(report.errors, [{ file: 'src/other.ts', message: `not written: the run was interrupted (${signal})` }]);
      assert.deepEqual(report.warnings.filter((w: string) => w.startsWith('interrupted')), [`interrupted by ${signal}: 3 file(s) written, the others left as they were; no write set was left half-written`]);
      assert.deepEqual(report.sites.map((s: { file: string; status: string; reasons: { code: string; detail?: string }[]; groupFiles?: string[] }) => [s.file, s.status, s.reasons.map((r) => `${r.code}:${r.detail}`), s.groupFiles]), [
        ['src/lib/ai.ts', 'migrated', [], ['src/routes/summary.ts', 'src/routes/title.ts']],
        ['src/other.ts', 'manual', [`write-failed:interrupted by ${signal} before its files were written`], []],
      ]);
    });
  }

  it('without a signal, a read-only file of the group leaves all its files as they were (exit 1); the other set is written', () => {
    const dir = tree(FILES);
    chmodSync(path.join(dir, 'src/routes/summary.ts'), 0o444);
    const r = spawnSync(process.execPath, [BIN, 'src', '--format', 'json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.errors, [{ file: 'src/routes/summary.ts', message: 'not written: the file is read-only' }, ...pointers('src/routes/summary.ts')]);
    assert.deepEqual(report.sites.map((s: { status: string; reasons: { message: string }[]; groupFiles?: string[] }) => [s.status, s.reasons.map((x) => x.message), s.groupFiles]), [
      ['manual', ['Its files could not be written (src/routes/summary.ts: the file is read-only); every file of its write set was left as it was.'], []],
      ['migrated', [], []],
    ]);
    assert.deepEqual(report.changedFiles, ['src/other.ts']);
    assert.deepEqual(disk(dir), GROUP_FAILED);
  });
});
