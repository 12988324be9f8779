/**
 * Fixture folders (fixtures/<group>/<case>/): `input.<ext>` plus optional context files, an
 * `expected.json` with the report entries reviewed by hand, an optional `output.<ext>` with the
 * expected rewrite, an optional `created/` folder with the files the run must create (at the same
 * path relative to the case folder: the run-time converter module, M-CONTENT-UNTYPED), and an
 * optional `case.json` with run options.
 *
 * A multi-file case has no `output.<ext>` but an `out/` folder that mirrors the case folder: every
 * file under it is the exact expected text of the file at that path after the run (an input it
 * changes, or a file it creates), and every input not under it must stay as it is. The tool never
 * enters a folder named `out` (DEFAULT_IGNORED_DIRS), so the expected files are never read as part
 * of the project (W-FOLLOW reads a package's files outside the paths given, looking for callers).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultOptions, type Kind, type Options } from '../../lib/options.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(REPO, 'fixtures');

export interface ExpectedSite {
  file: string;
  line: number;
  column: number;
  api: string;
  kinds: Kind[];
  provider: string;
  status: string;
  /** `code` or `code:detail`; a bare code matches any detail. */
  reasons: string[];
  /** The report's `client.evidence`, exactly; checked only when the fixture gives it. */
  evidence?: string;
}

export interface Expected {
  description: string;
  sites: ExpectedSite[];
  notices?: { file: string; code: string }[];
  errors?: { file: string }[];
}

export interface CaseOptions {
  allowBaseUrls?: string[];
  only?: Kind[];
  skip?: Kind[];
  /** Use the fixture's tsconfig.json (type-aware mode). */
  tsconfig?: boolean;
  /** Differential run against the fake OpenAI server (test/migrate-fixtures.test.ts). */
  run?: boolean;
  /** The program's entry, relative to the case, when it is not `input.<ext>` (multi-file cases). */
  main?: string;
  /**
   * The paths given to the tool, relative to the fixture (default: every input file). A folder
   * covers its package, so a function exported there is followed to its callers (W-EDGE).
   */
  paths?: string[];
  /** `false`: run with --no-runtime-conversion. */
  runtimeConversion?: boolean;
  /**
   * The program sends malformed messages on purpose: a request the original sent and the fake
   * server answered with HTTP 400 may be missing from the migrated run, because the run-time
   * converter rejected those messages before sending (M-CONTENT-UNTYPED). Every other request
   * must still match, in order, and the program must print the same.
   */
  rejectedBeforeSending?: boolean;
  /**
   * The API each request of the migrated run goes to, in order, when some of the program's sites
   * stay on Chat Completions (reported manual, their callers unchanged): by default, every one is
   * 'responses'.
   */
  apis?: Array<'chat' | 'responses'>;
}

export interface Fixture {
  name: string;
  dir: string;
  /** Files scanned: everything but output.*, expected.json, case.json and tsconfig.json. */
  inputs: string[];
  input?: string;
  output?: string;
  /** Multi-file case: the `out/` folder mirroring the inputs that change. */
  outputDir?: string;
  /** Files the run must create: path relative to the case folder → expected text (from `created/`). */
  created: Map<string, string>;
  expected: Expected;
  options: CaseOptions;
}

const META = /^(output\.[a-z]+|expected\.json|case\.json|tsconfig\.json|README\.md)$/;
/** Project configuration at any depth: read by the tool's module resolution, never scanned. */
const CONFIG = /^(package\.json|jsconfig\.json|tsconfig(\.[\w-]+)?\.json|pnpm-workspace\.yaml|lerna\.json)$/;

export function loadFixtures(group?: string): Fixture[] {
  const out: Fixture[] = [];
  const groups = group ? [group] : readdirSync(FIXTURES).filter((g) => statSync(path.join(FIXTURES, g)).isDirectory());
  for (const g of groups) {
    const groupDir = path.join(FIXTURES, g);
    for (const name of readdirSync(groupDir).sort()) {
      const dir = path.join(groupDir, name);
      if (!statSync(dir).isDirectory() || !existsSync(path.join(dir, 'expected.json'))) continue;
      const outputDir = existsSync(path.join(dir, 'out')) && statSync(path.join(dir, 'out')).isDirectory() ? path.join(dir, 'out') : undefined;
      const createdDir = path.join(dir, 'created');
      const inputs = listFiles(dir).filter((f) => (!META.test(path.basename(f)) || path.dirname(f) !== dir) && !CONFIG.test(path.basename(f)) && !f.startsWith(createdDir + path.sep) && !(outputDir && f.startsWith(outputDir + path.sep)));
      const created = new Map(existsSync(createdDir) ? listFiles(createdDir).map((f) => [path.relative(createdDir, f), readFileSync(f, 'utf8')] as const) : []);
      const input = inputs.find((f) => /^input\.[a-z]+$/.test(path.basename(f)) && path.dirname(f) === dir);
      const outputName = input && `output${path.extname(input)}`;
      const output = outputName && existsSync(path.join(dir, outputName)) ? path.join(dir, outputName) : undefined;
      out.push({
        name: `${g}/${name}`,
        dir,
        inputs,
        input,
        output,
        outputDir,
        created,
        expected: JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected,
        options: existsSync(path.join(dir, 'case.json')) ? (JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as CaseOptions) : {},
      });
    }
  }
  return out;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out.sort();
}

/** Multi-file case: each path that `out/` mirrors (an input, or a file the run creates), with its expected output file. */
export function expectedOutputs(f: Fixture): Map<string, string> {
  const out = new Map<string, string>();
  if (!f.outputDir) return out;
  for (const file of listFiles(f.outputDir)) out.set(path.join(f.dir, path.relative(f.outputDir, file)), file);
  return out;
}

/** A fixture's expected outputs: output.*, and the files of out/ and created/. */
function expectedFiles(f: Fixture): string[] {
  const created = path.join(f.dir, 'created');
  return [
    ...(f.output ? [f.output] : []),
    ...(f.outputDir ? listFiles(f.outputDir) : []),
    ...(existsSync(created) ? listFiles(created) : []),
  ];
}

export function fixtureOptions(f: Fixture, overrides: Partial<Options> = {}): Options {
  return defaultOptions({
    paths: f.options.paths ?? f.inputs.map((i) => path.relative(f.dir, i)),
    cwd: f.dir,
    // the fixture is a project of its own: this repository around it, and its expected outputs
    // beside its inputs, are none of the project's files
    boundary: { top: f.dir, absent: expectedFiles(f) },
    dryRun: true,
    format: 'json',
    allowBaseUrls: f.options.allowBaseUrls ?? [],
    only: f.options.only ?? [],
    skip: f.options.skip ?? [],
    tsconfig: f.options.tsconfig ? 'tsconfig.json' : undefined,
    runtimeConversion: f.options.runtimeConversion ?? true,
    ...overrides,
  });
}
