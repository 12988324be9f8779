/**
 * The repository explains itself: every rule id, pattern id and reason code that a code comment,
 * a fixture folder or a fixture description cites is defined in docs/ (a row of one of its
 * tables), every `docs/<file>.md §N` and `README "<section>"` citation points at a heading that
 * exists, and nothing cites the specification files a clone does not contain.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REASON_CODES } from '../lib/rules/reasons.js';
import { RULES } from '../lib/rules/registry.js';
import { codeFiles, commentsOf, fixtureCases, fixtureDescriptions, PATTERN_ID, RULE_ID } from './helpers/citations.js';
import { REPO } from './helpers/fixtures.js';

const DOCS = path.join(REPO, 'docs');
const docs = () => readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => ({ file: f, text: readFileSync(path.join(DOCS, f), 'utf8') }));

/** Ids and codes defined by docs/: those in the first cell of a table row. */
function defined(): Set<string> {
  const ids = new Set<string>();
  for (const { text } of docs()) {
    for (const line of text.split('\n')) {
      const cell = /^\| ([^|]+) \|/.exec(line)?.[1];
      if (!cell || /^-+$/.test(cell)) continue;
      for (const m of cell.matchAll(RULE_ID)) ids.add(m[0]);
      for (const m of cell.matchAll(PATTERN_ID)) ids.add(m[0]);
      for (const m of cell.matchAll(/`([a-z]+(?:-[a-z0-9]+)+)`/g)) ids.add(m[1]);
    }
  }
  return ids;
}

/** `M-PART-*` and `H-ZOD*` name a family: defined when some id of the family is. */
function isDefined(id: string, ids: Set<string>): boolean {
  if (id.endsWith('*')) return [...ids].some((d) => d.startsWith(id.replace(/-?\*$/, '')) && d !== id);
  return ids.has(id);
}

interface Citation { where: string; id: string }

function citations(): Citation[] {
  const out: Citation[] = [];
  for (const file of codeFiles()) {
    const rel = path.relative(REPO, file);
    if (rel === path.join('test', 'helpers', 'citations.ts') || rel === path.join('test', 'docs.test.ts')) continue; // they describe the patterns
    for (const c of commentsOf(file)) {
      for (const m of c.text.matchAll(RULE_ID)) out.push({ where: `${rel}:${c.line}`, id: m[0] });
      for (const m of c.text.matchAll(PATTERN_ID)) out.push({ where: `${rel}:${c.line}`, id: m[0] });
    }
  }
  for (const d of fixtureDescriptions()) {
    for (const m of d.text.matchAll(RULE_ID)) out.push({ where: d.file, id: m[0] });
    for (const m of d.text.matchAll(PATTERN_ID)) out.push({ where: d.file, id: m[0] });
  }
  for (const c of fixtureCases().filter((f) => f.startsWith('fixtures/catalogue/'))) {
    const prefix = /^([pn]\d{2}[a-f]?)-/.exec(path.basename(c))?.[1];
    out.push({ where: c, id: prefix ? prefix.toUpperCase().replace(/[A-F]$/, (x) => x.toLowerCase()) : path.basename(c) });
  }
  return out;
}

describe('the ids the code cites are explained in docs/', () => {
  it('the scan is live: it finds citations in comments, descriptions and folder names', () => {
    const all = citations();
    assert.ok(all.length > 400, `${all.length} citations`);
    const ids = new Set(all.map((c) => c.id));
    for (const id of ['R-STORE', 'G-UNIT', 'T-REASONING-REPLAY', 'M-PART-*', 'H-ZOD*', 'P29', 'P32b', 'N04', 'P12a']) assert.ok(ids.has(id), id);
    // a string that looks like a citation is not one: the scanner reads comments only
    assert.ok(!all.some((c) => c.where.startsWith('lib/report/github.ts')), 'github.ts cites nothing');
    // and a made-up id is not defined
    assert.equal(isDefined('R-NOPE', defined()), false);
    assert.equal(isDefined('P33', defined()), false);
  });

  it('every rule id, pattern id and fixture folder cited is defined in a table of docs/', () => {
    const ids = defined();
    const missing = citations().filter((c) => !isDefined(c.id, ids)).map((c) => `${c.where}: ${c.id}`);
    assert.deepEqual(missing, []);
  });

  it('every rule of the registry and every reason code is defined in docs/, and docs/migration-spec.md §9 lists each code', () => {
    const ids = defined();
    assert.deepEqual(RULES.map((r) => r.id).filter((id) => !ids.has(id)), []);
    assert.deepEqual(REASON_CODES.map((r) => r.code).filter((c) => !ids.has(c)), []);
    const spec = readFileSync(path.join(DOCS, 'migration-spec.md'), 'utf8');
    const section9 = spec.slice(spec.indexOf('## 9.'), spec.indexOf('## 10.'));
    assert.deepEqual(REASON_CODES.map((r) => r.code).filter((c) => !section9.includes(`| \`${c}\` |`)), []);
  });

  it('citations of docs/<file>.md §N and README "<section>" point at headings that exist; none cite files a clone lacks', () => {
    const headings = new Map(docs().map(({ file, text }) => [file, text.split('\n').filter((l) => l.startsWith('#'))]));
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    const bad: string[] = [];
    let seen = 0;
    const texts = [
      ...codeFiles().map((f) => ({ where: path.relative(REPO, f), text: commentsOf(f).map((c) => c.text).join('\n') + '\n' + readFileSync(f, 'utf8') })),
      ...fixtureDescriptions().map((d) => ({ where: d.file, text: d.text })),
      { where: 'examples/demo/EXPECTED.md', text: readFileSync(path.join(REPO, 'examples/demo/EXPECTED.md'), 'utf8') },
      { where: 'README.md', text: readFileSync(path.join(REPO, 'README.md'), 'utf8') },
    ];
    for (const { where, text } of texts) {
      if (where === path.join('test', 'docs.test.ts')) continue;
      if (/MIGRATION-SPEC|DESIGN\.md/.test(text)) bad.push(`${where}: cites a specification file the repository does not contain`);
      for (const m of text.matchAll(/docs\/([\w-]+\.md) §(\d+(?:\.\d+)?)/g)) {
        seen++;
        const list = headings.get(m[1]);
        const level = m[2].includes('.') ? '### ' : '## ';
        if (!list?.some((h) => h.startsWith(`${level}${m[2]}${m[2].includes('.') ? ' ' : '.'}`))) bad.push(`${where}: ${m[0]}`);
      }
      for (const m of text.matchAll(/README "([^"]+)"/g)) {
        seen++;
        if (!readme.includes(m[1])) bad.push(`${where}: ${m[0]}`);
      }
    }
    assert.ok(seen > 30, `${seen} citations checked`);
    assert.deepEqual(bad, []);
  });
});
