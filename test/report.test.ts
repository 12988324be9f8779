/**
 * The four renderings of the Report (lib/report/): exact text and Markdown, colour on/off, the JSON
 * contract's key order, the summary counts, and SARIF validated against the SARIF 2.1.0 JSON schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

import type { Report, SiteRecord } from '../lib/report/model.js';
import { summarize } from '../lib/report/summary.js';
import { renderText } from '../lib/report/text.js';
import { renderJson } from '../lib/report/json.js';
import { escapeMd, LIST_LIMIT, renderMarkdown } from '../lib/report/markdown.js';
import { FINGERPRINT_KEY, renderSarif } from '../lib/report/sarif.js';
import { command, escapeData, escapeProperty, renderGithub } from '../lib/report/github.js';
import { formatForFile, render } from '../lib/report/index.js';
import { REASON_CODES } from '../lib/rules/reasons.js';
import { FORMATS } from '../lib/options.js';

// ---------------------------------------------------------------------------------------------
// Fixture: a migrated site with notes, two manual sites with detailed reasons, an ignored and a
// skipped site, a notice, an error and a warning. The summary is written by hand (not computed).

function sites(): SiteRecord[] {
  return [
    {
      id: '0a1b2c3d4e5f6a7b',
      file: 'src/chat.ts', line: 12, column: 28, api: 'chat.completions.create', kinds: ['simple'],
      client: { provider: 'openai', evidence: 'new OpenAI() in src/client.ts:3' },
      status: 'migrated', reasons: [],
      notes: [
        { rule: 'R-STORE', level: 'info', message: 'store: false added to keep Chat Completions retention behaviour' },
        { rule: 'O-FINISH', level: 'warn', message: "finish_reason === 'length' became status === 'incomplete'" },
      ],
    },
    {
      id: '1b2c3d4e5f6a7b8c',
      file: 'src/agent/loop.ts', line: 40, column: 7, api: 'chat.completions.stream', kinds: ['tool-using', 'streaming'],
      client: { provider: 'other', evidence: "baseURL 'https://api.vendor.example/v1' in src/agent/client.ts:5" },
      status: 'manual',
      reasons: [
        { code: 'provider-not-openai', detail: 'api.vendor.example',
          message: 'Client targets api.vendor.example; Responses support there is unknown.' },
        { code: 'stream-handoff', detail: 'return', message: 'Stream is consumed elsewhere (return) and expects Chat chunks.' },
      ],
      notes: [],
    },
    {
      id: '2c3d4e5f6a7b8c9d',
      file: 'src/agent/loop.ts', line: 88, column: 30, api: 'chat.completions.create', kinds: ['tool-using', 'structured-output'],
      client: { provider: 'unknown', evidence: 'client passed in as a parameter' },
      status: 'manual',
      reasons: [
        { code: 'receiver-not-client', message: 'Cannot reach `responses` from this receiver.' },
        { code: 'no-equivalent-param', detail: 'logit_bias | seed',
          message: 'Parameter logit_bias | seed has no Responses equivalent; dropping it changes behaviour.' },
      ],
      notes: [],
    },
    {
      id: '3d4e5f6a7b8c9d0e',
      file: 'src/legacy.js', line: 7, column: 3, api: 'chat.completions.create', kinds: ['simple'],
      client: { provider: 'openai', evidence: 'new OpenAI() in src/legacy.js:1' },
      status: 'ignored', reasons: [], notes: [],
    },
    {
      id: '4e5f6a7b8c9d0e1f',
      file: 'src/stream.ts', line: 3, column: 14, api: 'beta.chat.completions.stream', kinds: ['streaming'],
      client: { provider: 'azure-v1', evidence: 'new OpenAI({ baseURL }) in src/stream.ts:1' },
      status: 'skipped', reasons: [], notes: [],
    },
  ];
}

function fixture(): Report {
  return {
    tool: 'migrate-responses',
    version: '0.1.0',
    schemaVersion: 2,
    dryRun: true,
    roots: ['src', 'test'],
    summary: {
      files: 12, filesWithSites: 4, sites: 5,
      byKind: { simple: 2, 'tool-using': 2, streaming: 2, 'structured-output': 1 },
      byStatus: { migrated: 1, manual: 2, ignored: 1, skipped: 1 },
      errors: 1,
    },
    sites: sites(),
    notices: [{ file: 'test/chat.test.ts', code: 'test-mock', message: 'Test doubles still target chat.completions.' }],
    errors: [{ file: 'src/broken.ts', message: "')' expected. (4:10)" }],
    warnings: ['Clients without a baseURL are assumed to reach api.openai.com (OPENAI_BASE_URL is not read).'],
    changedFiles: ['src/chat.ts'],
    changedSince: null,
  };
}

function emptyReport(): Report {
  return {
    tool: 'migrate-responses', version: '0.1.0', schemaVersion: 2, dryRun: false, roots: ['.'],
    summary: summarize([], 3, []),
    sites: [], notices: [], errors: [], warnings: [], changedFiles: [], changedSince: null,
  };
}

// ANSI CSI sequences (what picocolors emits).
const ANSI = /\u001b\[[0-9;]*m/g;

// ---------------------------------------------------------------------------------------------
// summary

test('summarize counts files, statuses and kinds (a site once per kind it has)', () => {
  const s = sites();
  assert.deepEqual(summarize(s, 12, [{ file: 'src/broken.ts', message: 'x' }]), fixture().summary);
  // Errors may also be given as a number.
  assert.equal(summarize(s, 12, 4).errors, 4);
  // One site with two kinds adds one to each; duplicated kinds are not counted twice.
  const one = summarize([{ ...s[1], kinds: ['tool-using', 'streaming', 'streaming'] }], 1, []);
  assert.deepEqual(one.byKind, { simple: 0, 'tool-using': 1, streaming: 1, 'structured-output': 0 });
  assert.equal(one.sites, 1);
});

test('summarize of nothing has every Kind and Status key, zero included, in contract order', () => {
  const s = summarize([], 0, []);
  assert.deepEqual(s, {
    files: 0, filesWithSites: 0, sites: 0,
    byKind: { simple: 0, 'tool-using': 0, streaming: 0, 'structured-output': 0 },
    byStatus: { migrated: 0, manual: 0, ignored: 0, skipped: 0 },
    errors: 0,
  });
  assert.deepEqual(Object.keys(s.byKind), ['simple', 'tool-using', 'streaming', 'structured-output']);
  assert.deepEqual(Object.keys(s.byStatus), ['migrated', 'manual', 'ignored', 'skipped']);
});

// ---------------------------------------------------------------------------------------------
// text

const EXPECTED_TEXT = `migrate-responses 0.1.0 (dry run: nothing written)
Scanned 12 files in src, test: 5 call sites in 4 files, 1 error.
  status  migrated 1, manual 2, ignored 1, skipped 1
  kinds   simple 2, tool-using 2, streaming 2, structured-output 1
  would change 1 file

warning: Clients without a baseURL are assumed to reach api.openai.com (OPENAI_BASE_URL is not read).

src/chat.ts:12:28        chat.completions.create       [simple]                        migrated  openai    R-STORE, O-FINISH (warn)
src/agent/loop.ts:40:7   chat.completions.stream       [tool-using,streaming]          manual    other     provider-not-openai:api.vendor.example, stream-handoff:return
src/agent/loop.ts:88:30  chat.completions.create       [tool-using,structured-output]  manual    unknown   receiver-not-client, no-equivalent-param:logit_bias | seed
src/legacy.js:7:3        chat.completions.create       [simple]                        ignored   openai
src/stream.ts:3:14       beta.chat.completions.stream  [streaming]                     skipped   azure-v1

notices:
  test/chat.test.ts  test-mock  Test doubles still target chat.completions.

errors:
  src/broken.ts  ')' expected. (4:10)
`;

test('text: exact output without colour', () => {
  assert.equal(renderText(fixture(), { color: false }), EXPECTED_TEXT);
});

test('text: colour only when asked, and the same text underneath', () => {
  const plain = renderText(fixture(), { color: false });
  const coloured = renderText(fixture(), { color: true });
  assert.doesNotMatch(plain, /\u001b/);
  assert.match(coloured, /\u001b\[3[0-9]m/); // foreground colours
  assert.match(coloured, /\u001b\[1m/); // bold
  assert.notEqual(coloured, plain);
  assert.equal(coloured.replace(ANSI, ''), plain);
});

test('text: a run without sites says so plainly', () => {
  assert.equal(
    renderText(emptyReport(), { color: false }),
    'migrate-responses 0.1.0\nScanned 3 files in .: 0 call sites in 0 files, 0 errors.\n\nNo OpenAI Chat Completions call sites found.\n',
  );
  assert.doesNotMatch(renderText(emptyReport(), { color: true }).replace(ANSI, ''), /\u001b/);
});

// ---------------------------------------------------------------------------------------------
// markdown

const EXPECTED_MARKDOWN = `# Migration to the OpenAI Responses API

Generated by migrate-responses 0.1.0 (dry run: nothing written) over \`src\`, \`test\`: 12 files scanned, 5 call sites in 4 files, 1 error.

> **Warning:** Clients without a baseURL are assumed to reach api.openai.com (OPENAI_BASE_URL is not read).

| Status | Sites |
| --- | ---: |
| migrated | 1 |
| manual | 2 |
| ignored | 1 |
| skipped | 1 |
| **total** | **5** |

| Kind | Sites |
| --- | ---: |
| simple | 2 |
| tool-using | 2 |
| streaming | 2 |
| structured-output | 1 |

A site with several kinds counts once under each.

Files that would change: \`src/chat.ts\`.

## To migrate (1)

### simple (1)

- [src/chat.ts:12](src/chat.ts#L12) \`chat.completions.create\` (provider openai)

## Review checklist

What would change in behaviour or shape; tick each once checked.

- [ ] \`R-STORE\` (1 site): \`store: false\` added: the Responses API stores responses by default, Chat Completions did not; check nothing expects them stored.
  - [src/chat.ts:12](src/chat.ts#L12)
- [ ] \`O-FINISH\` (1 site): \`finish_reason\` checks became \`status\` / \`incomplete_details\` checks: check the branches still mean the same.
  - [src/chat.ts:12](src/chat.ts#L12)

## Manual sites (2)

These calls were left on Chat Completions; each needs a decision by hand.

### \`src/agent/loop.ts\`

- [ ] [src/agent/loop.ts:40](src/agent/loop.ts#L40) \`chat.completions.stream\` (tool-using, streaming; provider other)
  - \`provider-not-openai\` (api.vendor.example): Client targets api.vendor.example; Responses support there is unknown.
  - \`stream-handoff\` (return): Stream is consumed elsewhere (return) and expects Chat chunks.
- [ ] [src/agent/loop.ts:88](src/agent/loop.ts#L88) \`chat.completions.create\` (tool-using, structured-output; provider unknown)
  - \`receiver-not-client\`: Cannot reach \\\`responses\\\` from this receiver.
  - \`no-equivalent-param\` (logit_bias \\| seed): Parameter logit_bias \\| seed has no Responses equivalent; dropping it changes behaviour.

## Ignored and skipped sites (2)

- [src/legacy.js:7](src/legacy.js#L7) \`chat.completions.create\` (simple; provider openai): ignored (\`// migrate-responses-ignore\`)
- [src/stream.ts:3](src/stream.ts#L3) \`beta.chat.completions.stream\` (streaming; provider azure-v1): skipped (kind filter)

## Notices (1)

- [ ] [test/chat.test.ts](test/chat.test.ts) \`test-mock\`: Test doubles still target chat.completions.

## Errors (1)

- \`src/broken.ts\`: ')' expected. (4:10)

## Suggested fixes

- \`provider-not-openai\`: Keep Chat Completions, or confirm the vendor supports /responses and pass the origin to --allow-base-url.
- \`receiver-not-client\`: Pass the client instead of client.chat, and call the method directly.
- \`no-equivalent-param\`: Decide whether the behaviour change is acceptable, then remove it by hand and re-run.
- \`stream-handoff\`: Migrate the consumer to Responses events (docs/migration-spec.md §5) together with this call.
- \`test-mock\`: Update mocks to responses.create and the Responses result shape.
`;

test('markdown: exact pull-request body', () => {
  assert.equal(renderMarkdown(fixture()), EXPECTED_MARKDOWN);
});

test('markdown: a run without sites, in write mode', () => {
  assert.equal(
    renderMarkdown(emptyReport()),
    '# Migration to the OpenAI Responses API\n\n' +
      'Generated by migrate-responses 0.1.0 over `.`: 3 files scanned, 0 call sites in 0 files, 0 errors.\n\n' +
      'No OpenAI Chat Completions call sites found.\n',
  );
});

test('markdown: free text is escaped, links are encoded, the migrated heading follows the mode', () => {
  assert.equal(escapeMd('a | b `c` *d* [e](f) <g> ~h~ \\ i'), 'a \\| b \\`c\\` \\*d\\* \\[e\\](f) \\<g\\> \\~h\\~ \\\\ i');
  assert.equal(escapeMd('function_call _x_ y_ &amp; & two\nlines'), 'function_call \\_x\\_ y\\_ \\&amp; & two lines');
  const r = fixture();
  r.dryRun = false;
  r.sites = [{ ...sites()[1], file: 'src/my dir/a(1).ts' }, sites()[0]];
  const md = renderMarkdown(r);
  assert.ok(md.includes('- [ ] [src/my dir/a(1).ts:40](src/my%20dir/a(1).ts#L40) `chat.completions.stream`'), md);
  assert.ok(md.includes('\n## Migrated (1)\n\n### simple (1)\n\n- [src/chat.ts:12](src/chat.ts#L12) `chat.completions.create` (provider openai)\n'), md);
  assert.ok(md.includes('\nWhat changed in behaviour or shape; tick each once checked.\n'), md);
});

test('markdown: the same body whatever the order of the sites (a bot can update it in place)', () => {
  const r = fixture();
  const reversed = { ...r, sites: [...r.sites].reverse(), notices: [...r.notices].reverse() };
  assert.equal(renderMarkdown(reversed), renderMarkdown(r));
  assert.doesNotMatch(renderMarkdown(r), /\d{4}-\d{2}-\d{2}|T\d{2}:\d{2}/); // no dates or times
});

test('markdown: write mode names the formatter; long lists fold into <details> and stop at the limit', () => {
  const r = fixture();
  r.dryRun = false;
  const many = Array.from({ length: LIST_LIMIT + 5 }, (_, i) => ({ ...sites()[0], id: `id${i}`, file: `src/f${String(i).padStart(3, '0')}.ts` }));
  r.sites = many;
  r.changedFiles = many.map((x) => x.file);
  const md = renderMarkdown(r, { formatCommand: 'npx prettier --write src/a.ts' });
  assert.ok(md.includes('\n## Formatting\n\nThe rewritten lines follow the surrounding code; run the project\'s formatter on the changed files:\n\n```sh\nnpx prettier --write src/a.ts\n```\n'), md);
  assert.ok(md.includes('\n<details>\n<summary>Changed files (105)</summary>\n\n- `src/f000.ts`\n'), md);
  assert.ok(md.includes(`\n### simple (105)\n\n<details>\n<summary>105 sites</summary>\n`), md);
  assert.ok(md.includes('\n- … and 5 more (see the JSON or SARIF report)\n'), md);
  assert.equal(md.match(/^- \[src\/f\d+\.ts:12\]/gm)?.length, LIST_LIMIT);
  // the R-STORE entry folds its 105 sites, and its single message is not repeated per site
  assert.ok(md.includes('- [ ] `R-STORE` (105 sites): `store: false` added'), md);
  assert.ok(md.includes('  <details>\n  <summary>105 sites</summary>\n\n  - [src/f000.ts:12](src/f000.ts#L12)\n'), md);
  assert.ok(md.length < 65_536, `a GitHub body holds 65,536 characters; this one has ${md.length}`);
  // without a formatter command there is no Formatting section
  assert.doesNotMatch(renderMarkdown(r), /## Formatting/);
});

test('markdown: --changed-since is stated under the title', () => {
  const r = fixture();
  r.changedSince = { ref: 'origin/main', mergeBase: '0123456789abcdef0123456789abcdef01234567', files: 3 };
  assert.ok(renderMarkdown(r).includes('\nOnly 3 files changed since `origin/main` (merge base `0123456789ab`, uncommitted changes included) are reported.\n'));
});

// ---------------------------------------------------------------------------------------------
// github

test('github: workflow-command escaping of data and properties', () => {
  assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
  assert.equal(escapeProperty('src/a:b,c%.ts\n'), 'src/a%3Ab%2Cc%25.ts%0A');
  assert.equal(escapeData('%0A is not a newline'), '%250A is not a newline'); // % first, so no double meaning
  assert.equal(command('warning', { file: 'a,b.ts', line: 3, col: 5, title: 'x: y' }, 'm1\nm2 %'), '::warning file=a%2Cb.ts,line=3,col=5,title=x%3A y::m1%0Am2 %25');
  assert.equal(command('error', { file: undefined, title: '' }, 'plain'), '::error::plain');
});

test('github: one warning per manual site, one notice per migrated site, then a summary line', () => {
  const r = fixture();
  r.sites[1] = { ...r.sites[1], file: 'src/agent/loop,v2.ts' };
  const lines = renderGithub(r).split('\n');
  assert.equal(lines.pop(), '');
  assert.deepEqual(lines, [
    '::warning title=migrate-responses::Clients without a baseURL are assumed to reach api.openai.com (OPENAI_BASE_URL is not read).',
    '::warning file=src/agent/loop%2Cv2.ts,line=40,col=7,title=provider-not-openai%2C stream-handoff (chat.completions.stream)::Left on Chat Completions (chat.completions.stream, provider other):%0Aprovider-not-openai: Client targets api.vendor.example; Responses support there is unknown. Fix: Keep Chat Completions, or confirm the vendor supports /responses and pass the origin to --allow-base-url.%0Astream-handoff: Stream is consumed elsewhere (return) and expects Chat chunks. Fix: ' + REASON_CODES.find((c) => c.code === 'stream-handoff')!.fix,
    '::warning file=src/agent/loop.ts,line=88,col=30,title=receiver-not-client%2C no-equivalent-param (chat.completions.create)::Left on Chat Completions (chat.completions.create, provider unknown):%0Areceiver-not-client: Cannot reach `responses` from this receiver. Fix: Pass the client instead of client.chat, and call the method directly.%0Ano-equivalent-param: Parameter logit_bias | seed has no Responses equivalent; dropping it changes behaviour. Fix: Decide whether the behaviour change is acceptable, then remove it by hand and re-run.',
    "::notice file=src/chat.ts,line=12,col=28,title=migratable (chat.completions.create)::Can be migrated to the Responses API (chat.completions.create).%0AR-STORE: store: false added to keep Chat Completions retention behaviour%0AO-FINISH (review): finish_reason === 'length' became status === 'incomplete'",
    '::warning file=test/chat.test.ts,title=test-mock::Test doubles still target chat.completions.%0AFix: Update mocks to responses.create and the Responses result shape.',
    "::error file=src/broken.ts,title=migrate-responses::')' expected. (4%3A10)".replace('%3A', ':'),
    'migrate-responses: 5 call sites in 4 files: 1 to migrate, 2 manual, 1 ignored, 1 skipped; 1 error',
  ]);
});

test('github: annotations the caller adds (the baseline gate) come right before the summary line', () => {
  const lines = renderGithub(fixture(), ['::error file=src/x.ts,line=1::new']).trimEnd().split('\n');
  assert.deepEqual(lines.slice(-2), ['::error file=src/x.ts,line=1::new', 'migrate-responses: 5 call sites in 4 files: 1 to migrate, 2 manual, 1 ignored, 1 skipped; 1 error']);
  assert.equal(render(fixture(), 'github', { color: false, annotations: ['::error::x'] }), renderGithub(fixture(), ['::error::x']));
});

// ---------------------------------------------------------------------------------------------
// json

test('json: the documented shape, key order and schemaVersion 2; round-trips', () => {
  const out = renderJson(fixture());
  assert.ok(out.endsWith('}\n'));
  assert.equal(out, JSON.stringify(JSON.parse(out), null, 2) + '\n');
  const doc = JSON.parse(out);
  assert.deepEqual(Object.keys(doc), [
    'tool', 'version', 'schemaVersion', 'dryRun', 'roots', 'summary', 'sites', 'notices', 'errors', 'warnings', 'changedFiles', 'changedSince',
  ]);
  assert.equal(doc.schemaVersion, 2);
  assert.deepEqual(Object.keys(doc.summary), ['files', 'filesWithSites', 'sites', 'byKind', 'byStatus', 'errors']);
  assert.deepEqual(Object.keys(doc.summary.byKind), ['simple', 'tool-using', 'streaming', 'structured-output']);
  assert.deepEqual(Object.keys(doc.summary.byStatus), ['migrated', 'manual', 'ignored', 'skipped']);
  assert.deepEqual(Object.keys(doc.sites[0]), ['id', 'file', 'line', 'column', 'api', 'kinds', 'client', 'status', 'reasons', 'notes', 'groupFiles']);
  assert.deepEqual(Object.keys(doc.sites[0].client), ['provider', 'evidence']);
  assert.deepEqual(Object.keys(doc.sites[0].notes[0]), ['rule', 'level', 'message']);
  assert.deepEqual(Object.keys(doc.sites[1].reasons[0]), ['code', 'detail', 'message']);
  assert.deepEqual(Object.keys(doc.sites[2].reasons[0]), ['code', 'message']); // no detail: no key
  assert.deepEqual(Object.keys(doc.notices[0]), ['file', 'code', 'message']);
  assert.deepEqual(Object.keys(doc.errors[0]), ['file', 'message']);
  // Round trip: the document is the report, value for value (groupFiles always present).
  const expected = JSON.parse(JSON.stringify(fixture()));
  for (const site of expected.sites) site.groupFiles ??= [];
  assert.deepEqual(doc, expected);
});

test('json: key order does not depend on the order of the input objects; extra fields do not leak', () => {
  const r = fixture();
  const shuffled = {
    changedFiles: r.changedFiles, warnings: r.warnings, errors: r.errors, notices: r.notices,
    sites: r.sites.map((s) => ({ notes: s.notes, reasons: s.reasons.map((x) => ({ message: x.message, detail: x.detail, code: x.code, extra: 1 })),
      status: s.status, client: s.client, kinds: s.kinds, api: s.api, column: s.column, line: s.line, file: s.file, id: s.id, debug: true })),
    summary: { ...r.summary, byKind: { 'structured-output': 1, streaming: 2, 'tool-using': 2, simple: 2 } },
    roots: r.roots, dryRun: r.dryRun, schemaVersion: r.schemaVersion, version: r.version, tool: r.tool, changedSince: r.changedSince,
  } as unknown as Report;
  assert.equal(renderJson(shuffled), renderJson(r));
});

// ---------------------------------------------------------------------------------------------
// sarif

/**
 * The SARIF 2.1.0 schema as shipped in @microsoft/jest-sarif (lib/schemas/sarif-2.1.0-rtm.5.json,
 * draft-04). ajv-draft-04 is Ajv configured for draft-04; `unicodeRegExp: false` because the
 * schema's `language` pattern (`…]?$`) is a valid ECMA-262 regex only without the `u` flag.
 */
let validator: ValidateFunction | undefined;
function sarifValidator(): ValidateFunction {
  if (validator) return validator;
  const require = createRequire(import.meta.url);
  const schemaFile = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
  assert.equal(schema.$schema, 'http://json-schema.org/draft-04/schema#');
  const ajv = new Ajv04.default({ allErrors: true, unicodeRegExp: false });
  addFormats.default(ajv);
  validator = ajv.compile(schema);
  return validator;
}

function assertValidSarif(doc: unknown): void {
  const validate = sarifValidator();
  assert.ok(validate(doc), JSON.stringify(validate.errors, null, 2));
}

test('sarif: the validator is live (rejects a broken log)', () => {
  const validate = sarifValidator();
  const doc = JSON.parse(renderSarif(fixture()));
  doc.runs[0].results[0].level = 'fatal';
  assert.equal(validate(doc), false);
  const noVersion = JSON.parse(renderSarif(fixture()));
  delete noVersion.version;
  assert.equal(validate(noVersion), false);
});

test('sarif: the fixture report validates against the SARIF 2.1.0 schema', () => {
  const out = renderSarif(fixture());
  assert.equal(out, renderSarif(fixture())); // stable, no timestamps
  assertValidSarif(JSON.parse(out));
});

test('sarif: an empty report validates and reports a successful execution', () => {
  const doc = JSON.parse(renderSarif(emptyReport()));
  assertValidSarif(doc);
  assert.equal(doc.runs.length, 1);
  assert.deepEqual(doc.runs[0].results, []);
  assert.deepEqual(doc.runs[0].invocations, [{ executionSuccessful: true }]);
  assert.equal(doc.runs[0].tool.driver.rules.length, REASON_CODES.length);
});

test('sarif: exactly one rule per reason code, with the fix as help', () => {
  const doc = JSON.parse(renderSarif(fixture()));
  assert.equal(doc.version, '2.1.0');
  assert.equal(typeof doc.$schema, 'string');
  const driver = doc.runs[0].tool.driver;
  assert.equal(driver.name, 'migrate-responses');
  assert.equal(driver.version, '0.1.0');
  assert.equal(driver.informationUri, 'https://github.com/migrate-responses/migrate-responses');
  const ids: string[] = driver.rules.map((r: { id: string }) => r.id);
  assert.deepEqual(ids, REASON_CODES.map((c) => c.code));
  assert.equal(new Set(ids).size, ids.length);
  REASON_CODES.forEach((info, i) => {
    const rule = driver.rules[i];
    assert.deepEqual(Object.keys(rule), ['id', 'shortDescription', 'fullDescription', 'help', 'defaultConfiguration']);
    assert.equal(rule.help.text, info.fix);
    assert.deepEqual(rule.defaultConfiguration, { level: 'warning' });
    assert.ok(rule.shortDescription.text.length > 0 && !rule.shortDescription.text.includes('{detail}'));
  });
  assert.deepEqual(driver.rules[0].shortDescription, { text: 'Client targets …; Responses support there is unknown.' });
});

test('sarif: one warning per manual reason, a note per notice, errors as notifications', () => {
  const doc = JSON.parse(renderSarif(fixture()));
  const run = doc.runs[0];
  const ruleIds: string[] = run.tool.driver.rules.map((r: { id: string }) => r.id);
  const summary = run.results.map((r: any) => [
    r.ruleId, r.level, r.message.text, r.locations[0].physicalLocation.artifactLocation.uri,
    r.locations[0].physicalLocation.region.startLine, r.locations[0].physicalLocation.region.startColumn,
  ]);
  assert.deepEqual(summary, [
    ['provider-not-openai', 'warning', 'Client targets api.vendor.example; Responses support there is unknown.', 'src/agent/loop.ts', 40, 7],
    ['stream-handoff', 'warning', 'Stream is consumed elsewhere (return) and expects Chat chunks.', 'src/agent/loop.ts', 40, 7],
    ['receiver-not-client', 'warning', 'Cannot reach `responses` from this receiver.', 'src/agent/loop.ts', 88, 30],
    ['no-equivalent-param', 'warning', 'Parameter logit_bias | seed has no Responses equivalent; dropping it changes behaviour.', 'src/agent/loop.ts', 88, 30],
    ['test-mock', 'note', 'Test doubles still target chat.completions.', 'test/chat.test.ts', 1, undefined],
  ]);
  for (const r of run.results) {
    assert.equal(ruleIds[r.ruleIndex], r.ruleId);
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
  }
  assert.deepEqual(run.invocations, [{
    executionSuccessful: false,
    toolExecutionNotifications: [
      { level: 'warning', message: { text: 'Clients without a baseURL are assumed to reach api.openai.com (OPENAI_BASE_URL is not read).' } },
      { level: 'error', message: { text: "')' expected. (4:10)" },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'src/broken.ts', uriBaseId: '%SRCROOT%' } } }] },
    ],
  }]);
});

test('sarif: partialFingerprints name the site and the reason, never the line', () => {
  const doc = JSON.parse(renderSarif(fixture()));
  assert.deepEqual(doc.runs[0].results.map((r: any) => r.partialFingerprints), [
    { [FINGERPRINT_KEY]: '1b2c3d4e5f6a7b8c/provider-not-openai' },
    { [FINGERPRINT_KEY]: '1b2c3d4e5f6a7b8c/stream-handoff' },
    { [FINGERPRINT_KEY]: '2c3d4e5f6a7b8c9d/receiver-not-client' },
    { [FINGERPRINT_KEY]: '2c3d4e5f6a7b8c9d/no-equivalent-param' },
    { [FINGERPRINT_KEY]: doc.runs[0].results[4].partialFingerprints[FINGERPRINT_KEY] },
  ]);
  assert.match(doc.runs[0].results[4].partialFingerprints[FINGERPRINT_KEY], /^[0-9a-f]{16}\/test-mock$/);
  // a repeated code on one site gets its own fingerprint; moving the site changes none
  const r = fixture();
  r.sites[2].reasons.push({ code: 'no-equivalent-param', detail: 'stop', message: 'Parameter stop has no Responses equivalent; dropping it changes behaviour.' });
  const moved = fixture();
  moved.sites.forEach((x) => { x.line += 7; x.column += 2; });
  const fps = (rep: Report) => JSON.parse(renderSarif(rep)).runs[0].results.map((x: any) => x.partialFingerprints[FINGERPRINT_KEY]);
  assert.equal(fps(r)[4], '2c3d4e5f6a7b8c9d/no-equivalent-param/1');
  assert.deepEqual(fps(moved), fps(fixture()));
  assert.ok(!JSON.stringify(doc).includes('primaryLocationLineHash'));
});

test('sarif: artifact URIs are relative, forward-slashed and percent-encoded, and still validate', () => {
  const r = fixture();
  r.sites = [{ ...sites()[1], file: 'src\\my dir\\#1.ts' }];
  const doc = JSON.parse(renderSarif(r));
  assert.equal(doc.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'src/my%20dir/%231.ts');
  assertValidSarif(doc);
});

// ---------------------------------------------------------------------------------------------
// index

test('render dispatches to each format', () => {
  const r = fixture();
  assert.equal(render(r, 'text', { color: false }), renderText(r, { color: false }));
  assert.equal(render(r, 'text', { color: true }), renderText(r, { color: true }));
  assert.equal(render(r, 'json', { color: true }), renderJson(r));
  assert.equal(render(r, 'markdown', { color: true }), renderMarkdown(r));
  assert.equal(render(r, 'sarif', { color: true }), renderSarif(r));
  for (const f of FORMATS) assert.doesNotMatch(render(r, f, { color: false }), /\u001b/);
});

test('formatForFile picks the format from the extension, or explains', () => {
  assert.equal(formatForFile('inventory.json'), 'json');
  assert.equal(formatForFile('out/inventory.md'), 'markdown');
  assert.equal(formatForFile('INVENTORY.Markdown'), 'markdown');
  assert.equal(formatForFile('results.sarif'), 'sarif');
  assert.equal(formatForFile('results.sarif.json'), 'sarif');
  assert.equal(formatForFile('report.txt'), 'text');
  assert.throws(() => formatForFile('report.html'), /report\.html.*\.json.*\.md.*\.sarif.*\.txt/);
  assert.throws(() => formatForFile('report'), /cannot tell the report format/);
});
