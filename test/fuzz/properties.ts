/**
 * Property checks over generated programs (test/fuzz/generator.ts). For each seed the program is
 * written to a scratch folder under test/tmp/ and the tool is run on it (dry run, JSON report):
 *  1. the run does not throw;
 *  2. the report has no `errors` (the generator never writes deliberately invalid input) and no
 *     site carries `transform-failed` (a rewrite the tool had to roll back);
 *  3. every output (`changes[].after`) parses, with the transform parser and TypeScript's parser;
 *  4. running the tool again on the outputs changes nothing (G-IDEMP);
 *  5. `report.sites.length` equals the number of call sites the generator wrote;
 *  6. every site is where the generator put one (the function or method it names) and has the
 *     expected outcome: the exact provider, the status when the generator knows it (`ignored`,
 *     `manual`, `migrated`), every reason its shapes force, and for a migrated group the other
 *     files it certainly changes, in the report's `groupFiles` (GeneratedProgram.expected);
 *  7. the migrated programs type-check against openai 6 and openai 7 (one batched tsc run per SDK
 *     line over every changed program).
 * With `checkInputs` the generated inputs are type-checked against openai 6 in the same tsc run,
 * so that a generator bug (invalid Chat code) is told apart from a tool bug.
 * The scratch folder is removed afterwards; failing programs can be copied to `failuresDir`.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { defaultOptions } from '../../lib/options.js';
import { run } from '../../lib/run.js';
import { assertParses } from '../../transforms/parser.js';
import { REPO } from '../helpers/fixtures.js';
import { typecheckTexts, type SdkLine, type TypeError } from '../helpers/typecheck.js';
import { generateProgram, type GenerateOptions, type GeneratedProgram, type SiteExpectation } from './generator.js';

export type FailureKind =
  | 'exception' | 'report-errors' | 'transform-failed' | 'parse' | 'idempotency' | 'sites' | 'outcome'
  | 'typecheck-openai6' | 'typecheck-openai7' | 'generator';

export interface Failure {
  seed: number;
  kind: FailureKind;
  /** One line, starting with the seed so it can be replayed. */
  reason: string;
  /** For `outcome` failures: what differs. */
  mismatch?: Mismatch;
  /** The program was generated in `classic` mode. */
  classic?: boolean;
}

export interface CheckOptions {
  /** SDK lines the migrated programs are type-checked against (default both; `[]` skips). */
  sdkLines?: SdkLine[];
  /** Also type-check the generated inputs (against openai 6 by default) to catch generator bugs. */
  checkInputs?: boolean;
  /** SDK lines for `checkInputs` (default `['openai6']`). */
  inputLines?: SdkLine[];
  /** Copy every failing program (input, output, reason.txt) to `<failuresDir>/<seed>/`. */
  failuresDir?: string;
  /** Generator overrides (exploration only; the tests use none). */
  generate?: GenerateOptions;
  /** Seeds generated in `classic` mode (GenerateOptions.classic: the regression seeds). */
  classic?: ReadonlySet<number>;
  /** Called after each program's tool runs (before type-checking). */
  onProgram?: (seed: number, done: number, total: number) => void;
}

export interface CheckResult {
  programs: number;
  /** Call sites the generator wrote. */
  sites: number;
  /** Site statuses from the first run's report. */
  migrated: number;
  manual: number;
  ignored: number;
  /** Programs with at least one changed file. */
  changedPrograms: number;
  /** Files type-checked per SDK line (migrated programs, every TypeScript file). */
  typeChecked: number;
  /** Input files type-checked (generator validation). */
  inputsTypeChecked: number;
  /** Manual reason codes, with counts. */
  reasons: Record<string, number>;
  /** Shapes the generator used, with the number of programs using each. */
  shapes: Record<string, number>;
  failures: Failure[];
  ms: number;
}

let scratchCounter = 0;

const isTs = (file: string) => /\.(ts|mts|cts|tsx)$/.test(file) && !file.endsWith('.d.ts');

function tsParseErrors(file: string, text: string): string[] {
  const ext = path.extname(file).toLowerCase();
  const kind = ext === '.tsx' ? ts.ScriptKind.TSX : isTs(file) ? ts.ScriptKind.TS : ext === '.jsx' ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const diagnostics = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => {
    const pos = d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${pos ? `${pos.line + 1}:${pos.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/**
 * The name of the innermost function declaration, method or accessor around a 1-based position
 * (`#name` for a private method); arrow functions and function expressions belong to it.
 */
export function holderAt(file: string, text: string, line: number, column: number): string | undefined {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, isTs(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const pos = sf.getPositionOfLineAndCharacter(line - 1, column - 1);
  let name: string | undefined;
  const visit = (node: ts.Node): void => {
    if (pos < node.getStart(sf) || pos >= node.getEnd()) return;
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node)) && node.name) name = node.name.getText(sf);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return name;
}

interface ReportSite {
  file: string;
  line: number;
  column: number;
  status: string;
  client: { provider: string; evidence: string };
  reasons: { code: string; detail?: string }[];
  groupFiles?: string[];
}

/** One way a site differs from the generator's expectation (property 6). */
export interface Mismatch {
  what: 'unexpected-site' | 'provider' | 'status' | 'reasons' | 'count' | 'group';
  message: string;
  expected?: SiteExpectation;
  /** The site's status and reasons (`code` or `code:detail`). */
  status?: string;
  reasons?: string[];
  /** The site's provider and the evidence the report gives for it. */
  provider?: string;
  evidence?: string;
  /** The expected reasons the site lacks. */
  missing?: string[];
  /** Sites listed in the expected place (`count`). */
  listed?: number;
}

/**
 * An expected reason against a reported one: a bare code matches any detail; `code:detail` matches
 * that detail, also when it goes on with `: <where following stopped>` (W-FOLLOW, W-EDGE: a value
 * returned or passed on is followed first, and the detail says where it stopped:
 * `result-escapes:return: ask has no caller in view (main.ts:5)` is `result-escapes:return`).
 */
function reasonMatches(want: string, r: { code: string; detail?: string }): boolean {
  if (!want.includes(':')) return r.code === want;
  const got = `${r.code}:${r.detail ?? ''}`;
  return got === want || got.startsWith(`${want}: `);
}

/** Property 6: each site against the generator's expectations; one entry per mismatch. */
export function outcomeMismatches(program: GeneratedProgram, sites: readonly ReportSite[]): Mismatch[] {
  const out: Mismatch[] = [];
  const found = new Map<SiteExpectation, number>();
  for (const s of sites) {
    const text = program.files[s.file];
    const fn = text === undefined ? undefined : holderAt(s.file, text, s.line, s.column);
    const expected = program.expected.find((e) => e.file === s.file && e.fn === fn);
    const reasons = s.reasons.map((r) => (r.detail ? `${r.code}:${r.detail}` : r.code));
    if (!expected) {
      out.push({ what: 'unexpected-site', reasons, message: `${s.file}:${s.line}:${s.column} is listed, but the generator wrote no site in ${fn ?? 'that place'}` });
      continue;
    }
    found.set(expected, (found.get(expected) ?? 0) + 1);
    const where = `${s.file}:${s.line}:${s.column} (${fn})`;
    if (expected.provider && s.client.provider !== expected.provider) {
      out.push({ what: 'provider', expected, status: s.status, reasons, provider: s.client.provider, evidence: s.client.evidence, message: `${where}: provider ${s.client.provider}, expected ${expected.provider} [${reasons.join(', ')}]` });
    }
    if (expected.status && s.status !== expected.status) {
      const want = `${expected.status}${expected.reasons.length ? ` with ${expected.reasons.join(', ')}` : ''}`;
      out.push({ what: 'status', expected, reasons, message: `${where}: ${s.status}, expected ${want} [${reasons.join(', ')}]` });
      continue;
    }
    if (expected.status === 'migrated' && expected.groupFiles) {
      const missing = expected.groupFiles.filter((f) => !(s.groupFiles ?? []).includes(f));
      if (missing.length) out.push({ what: 'group', expected, status: s.status, reasons, missing, message: `${where}: its group does not list ${missing.join(', ')} [groupFiles: ${(s.groupFiles ?? []).join(', ')}]` });
    }
    if (expected.status !== 'manual') continue;
    const missing = expected.reasons.filter((want) => !s.reasons.some((r) => reasonMatches(want, r)));
    if (missing.length) out.push({ what: 'reasons', expected, reasons, missing, message: `${where}: missing reason ${missing.join(', ')} [${reasons.join(', ')}]` });
  }
  for (const e of program.expected) {
    const n = found.get(e) ?? 0;
    if (n !== e.sites) out.push({ what: 'count', expected: e, listed: n, message: `${e.file} ${e.fn}: ${n} site(s) listed, the generator wrote ${e.sites}` });
  }
  return out;
}

/** The text tsc checks: specifiers only the tool's resolution knows (aliases, workspaces) made relative. */
function forTypecheck(program: GeneratedProgram, file: string, text: string): string | undefined {
  let out = text;
  for (const r of program.typecheckSpecifiers) {
    if (r.file !== file) continue;
    for (const q of ["'", '"']) out = out.split(`${q}${r.from}${q}`).join(`${q}${r.to}${q}`);
  }
  return out === text ? undefined : out;
}

/**
 * A program without a package.json of its own gets a private one: the scratch folder is inside
 * this repository, whose package.json (published, ESM) would otherwise be the program's package
 * for W-EDGE (its exported functions' callers "live elsewhere") and for the files searched for
 * callers. ESM like this repository's, which the programs were written and type-checked for.
 */
/**
 * What makes a program a project of its own inside this repository's test/tmp: a package.json,
 * and a `.git` folder, so that the tool takes the program's folder for the repository top (no
 * outer package is searched, and this repository's .gitignore, which ignores test/tmp, does not
 * hide the program's files that are outside the paths given).
 */
function isolation(program: GeneratedProgram): Record<string, string> {
  const git = { '.git/HEAD': 'ref: refs/heads/main\n' };
  return 'package.json' in program.files ? git : { ...git, 'package.json': '{ "name": "fuzz-program", "private": true, "type": "module" }\n' };
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

function firstLine(err: unknown): string {
  const e = err as Error;
  const where = e?.stack?.split('\n').find((l) => /^\s+at /.test(l))?.trim() ?? '';
  return `${e?.name ?? 'Error'}: ${String(e?.message ?? err).split('\n')[0]}${where ? ` (${where})` : ''}`;
}

export async function checkPrograms(seeds: number[], opts: CheckOptions = {}): Promise<CheckResult> {
  const started = performance.now();
  const sdkLines = opts.sdkLines ?? ['openai6', 'openai7'];
  const inputLines = opts.checkInputs ? opts.inputLines ?? ['openai6'] : [];
  const scratch = path.join(REPO, 'test', 'tmp', `fuzz-${process.pid}-${scratchCounter++}`);
  const result: CheckResult = {
    programs: 0, sites: 0, migrated: 0, manual: 0, ignored: 0, changedPrograms: 0, typeChecked: 0,
    inputsTypeChecked: 0, reasons: {}, shapes: {}, failures: [], ms: 0,
  };
  const failed = new Set<number>();
  const fail = (seed: number, kind: FailureKind, reason: string, mismatch?: Mismatch) => {
    failed.add(seed);
    const classic = opts.classic?.has(seed) ?? false;
    result.failures.push({ seed, kind, reason: `seed ${seed}${classic ? ' (classic)' : ''}: ${kind}: ${reason}`, ...(mismatch ? { mismatch } : {}), ...(classic ? { classic } : {}) });
  };
  /** Per SDK line: the files to type-check, relative to `scratch`. */
  const toCheck = new Map<SdkLine, string[]>();
  /** Texts tsc checks instead of the file's (forTypecheck). */
  const checkTexts = new Map<string, string>();
  const add = (line: SdkLine, file: string, program?: GeneratedProgram, text?: string) => {
    if (!toCheck.has(line)) toCheck.set(line, []);
    toCheck.get(line)!.push(file);
    const rel = file.split(path.sep).slice(2).join('/');
    const replaced = program && text !== undefined ? forTypecheck(program, rel, text) : undefined;
    if (replaced !== undefined) checkTexts.set(file, replaced);
  };
  const outputs = new Map<number, Record<string, string>>();
  rmSync(scratch, { recursive: true, force: true });
  try {
    let done = 0;
    for (const seed of seeds) {
      const program = generateProgram(seed, { ...opts.generate, classic: opts.classic?.has(seed) });
      result.programs++;
      result.sites += program.sites;
      for (const s of program.shapes) result.shapes[s] = (result.shapes[s] ?? 0) + 1;
      const names = Object.keys(program.files).sort();
      const inDir = path.join(scratch, 'in', String(seed));
      const outDir = path.join(scratch, 'out', String(seed));
      writeFiles(inDir, { ...isolation(program), ...program.files });
      for (const line of inputLines) for (const f of names) if (isTs(f)) add(line, path.join('in', String(seed), f), program, program.files[f]);
      await checkOne(seed, program, names, inDir, outDir);
      opts.onProgram?.(seed, ++done, seeds.length);
    }

    // batched type-checks, one tsc run per SDK line (the lines run in parallel)
    const lines = [...new Set<SdkLine>([...sdkLines, ...inputLines])];
    // a canary with a known error proves each tsc run really checked the files
    const canary = path.join('canary', 'canary.ts');
    writeFiles(scratch, { [canary]: "import OpenAI from 'openai';\nexport const broken: number = new OpenAI().chat.completions;\n" });
    const errors = await Promise.all(lines.map(async (line) => {
      const files = toCheck.get(line) ?? [];
      if (!files.length) return [line, []] as const;
      const errs = await typecheckTexts(scratch, [...files, canary].map((f) => ({ file: path.join(scratch, f), text: checkTexts.get(f) })), line);
      if (!errs.some((e) => e.file === 'canary/canary.ts')) throw new Error(`the ${line} type-check reported nothing for its canary: tsc did not check the files`);
      return [line, errs.filter((e) => e.file !== 'canary/canary.ts')] as const;
    }));
    result.typeChecked = sdkLines.length ? (toCheck.get(sdkLines[0]) ?? []).filter((f) => f.startsWith('out')).length : 0;
    result.inputsTypeChecked = inputLines.length ? (toCheck.get(inputLines[0]) ?? []).filter((f) => f.startsWith('in')).length : 0;
    const badInputs = new Set<number>();
    const bySeed = (errs: readonly TypeError[], prefix: 'in' | 'out') => {
      const m = new Map<number, TypeError[]>();
      for (const e of errs) {
        const [top, seed] = e.file.split('/');
        if (top !== prefix) continue;
        const n = Number(seed);
        if (!m.has(n)) m.set(n, []);
        m.get(n)!.push(e);
      }
      return m;
    };
    const describe = (errs: TypeError[]) => {
      const e = errs[0];
      const rel = e.file.split('/').slice(2).join('/');
      return `${rel}:${e.line} ${e.message}${errs.length > 1 ? ` (+${errs.length - 1} more)` : ''}`;
    };
    for (const [line, errs] of errors) {
      for (const [seed, list] of bySeed(errs, 'in')) {
        badInputs.add(seed);
        fail(seed, 'generator', `the generated input does not type-check against ${line}: ${describe(list)}`);
      }
    }
    for (const [line, errs] of errors) {
      if (!sdkLines.includes(line)) continue;
      for (const [seed, list] of bySeed(errs, 'out')) {
        if (badInputs.has(seed)) continue;
        fail(seed, line === 'openai6' ? 'typecheck-openai6' : 'typecheck-openai7', `migrated output does not type-check: ${describe(list)}`);
      }
    }

    if (opts.failuresDir) {
      for (const seed of failed) {
        const dir = path.join(opts.failuresDir, String(seed));
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        cpSync(path.join(scratch, 'in', String(seed)), path.join(dir, 'input'), { recursive: true });
        const out = outputs.get(seed);
        if (out) writeFiles(path.join(dir, 'output'), out);
        writeFileSync(path.join(dir, 'reason.txt'), result.failures.filter((f) => f.seed === seed).map((f) => f.reason).join('\n') + '\n');
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  result.failures.sort((a, b) => a.seed - b.seed);
  result.ms = performance.now() - started;
  return result;

  async function checkOne(seed: number, program: GeneratedProgram, names: string[], inDir: string, outDir: string): Promise<void> {
    const { files, sites } = program;
    for (const name of program.roots[0] === '.' ? names.filter((n) => !n.endsWith('.json')) : program.roots) {
      // the generator's own contract: every input parses
      try {
        assertParses(name, files[name]);
      } catch (err) {
        fail(seed, 'generator', `the generated ${name} does not parse: ${(err as Error).message.split('\n')[0]}`);
      }
      const diags = tsParseErrors(name, files[name]);
      if (diags.length) fail(seed, 'generator', `the generated ${name} has TypeScript parse errors: ${diags[0]}`);
    }
    let first;
    try {
      first = await run(defaultOptions({ paths: program.roots, cwd: inDir, dryRun: true, format: 'json' }));
    } catch (err) {
      fail(seed, 'exception', firstLine(err));
      return;
    }
    const { report, changes } = first;
    for (const e of report.errors) fail(seed, 'report-errors', `${e.file}: ${e.message.split('\n')[0]}`);
    for (const s of report.sites) {
      if (s.status === 'migrated') result.migrated++;
      else if (s.status === 'manual') result.manual++;
      else if (s.status === 'ignored') result.ignored++;
      for (const r of s.reasons) {
        result.reasons[r.code] = (result.reasons[r.code] ?? 0) + 1;
        if (r.code === 'transform-failed') fail(seed, 'transform-failed', `${s.file}:${s.line}:${s.column} ${r.detail ?? r.message}`.split('\n')[0]);
      }
    }
    if (report.sites.length !== sites) {
      const listed = report.sites.map((s) => `${s.file}:${s.line}:${s.column}`).join(', ');
      fail(seed, 'sites', `expected ${sites} site(s), the report lists ${report.sites.length} [${listed}]`);
    }
    for (const m of outcomeMismatches(program, report.sites)) fail(seed, 'outcome', m.message, m);
    const out: Record<string, string> = { ...files };
    let parsed = true;
    for (const c of changes) {
      const rel = path.relative(inDir, c.file).split(path.sep).join('/');
      // M-CONTENT-UNTYPED, R-TOOLS-UNTYPED: the run writes its package's converter modules once, next to the code
      const converter = c.created && /(^|\/)to-responses-(input|tools)\.(ts|js|mjs|cjs)$/.test(rel) && c.before === '';
      if (!(rel in files) && !converter) {
        fail(seed, 'exception', `changed a file outside the program: ${c.rel}`);
        continue;
      }
      out[rel] = c.after;
      try {
        assertParses(c.file, c.after);
      } catch (err) {
        parsed = false;
        fail(seed, 'parse', `${rel} does not parse: ${(err as Error).message.split('\n')[0]}`);
      }
      const diags = tsParseErrors(c.file, c.after);
      if (diags.length) {
        parsed = false;
        fail(seed, 'parse', `${rel} has TypeScript parse errors: ${diags[0]}${diags.length > 1 ? ` (+${diags.length - 1} more)` : ''}`);
      }
    }
    if (changes.length === 0) return;
    outputs.set(seed, out);
    result.changedPrograms++;
    writeFiles(outDir, { ...isolation(program), ...out });
    if (!parsed) return; // already a failure; tsc would only repeat it
    for (const line of sdkLines) for (const f of Object.keys(out)) if (isTs(f)) add(line, path.join('out', String(seed), f), program, out[f]);
    try {
      const again = await run(defaultOptions({ paths: program.roots, cwd: outDir, dryRun: true, format: 'json' }));
      for (const e of again.report.errors) fail(seed, 'idempotency', `second run reports an error: ${e.file}: ${e.message.split('\n')[0]}`);
      for (const c of again.changes) {
        const before = c.before.split(/\r?\n/);
        const after = c.after.split(/\r?\n/);
        let i = 0;
        while (i < before.length && before[i] === after[i]) i++;
        fail(seed, 'idempotency', `second run changes ${c.rel} at line ${i + 1}: ${JSON.stringify((before[i] ?? '').trim())} -> ${JSON.stringify((after[i] ?? '').trim())}`);
      }
    } catch (err) {
      fail(seed, 'idempotency', `second run throws: ${firstLine(err)}`);
    }
  }
}
