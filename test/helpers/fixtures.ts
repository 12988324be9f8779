/**
 * Fixture folders (fixtures/<group>/<case>/): `input.<ext>` plus optional context files, an
 * `expected.json` with the report entries reviewed by hand, an optional `output.<ext>` with the
 * expected rewrite, and an optional `case.json` with run options.
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
}

export interface Fixture {
  name: string;
  dir: string;
  /** Files scanned: everything but output.*, expected.json, case.json and tsconfig.json. */
  inputs: string[];
  input?: string;
  output?: string;
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
      const inputs = listFiles(dir).filter((f) => (!META.test(path.basename(f)) || path.dirname(f) !== dir) && !CONFIG.test(path.basename(f)));
      const input = inputs.find((f) => /^input\.[a-z]+$/.test(path.basename(f)) && path.dirname(f) === dir);
      const outputName = input && `output${path.extname(input)}`;
      const output = outputName && existsSync(path.join(dir, outputName)) ? path.join(dir, outputName) : undefined;
      out.push({
        name: `${g}/${name}`,
        dir,
        inputs,
        input,
        output,
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

export function fixtureOptions(f: Fixture, overrides: Partial<Options> = {}): Options {
  return defaultOptions({
    paths: f.inputs.map((i) => path.relative(f.dir, i)),
    cwd: f.dir,
    dryRun: true,
    format: 'json',
    allowBaseUrls: f.options.allowBaseUrls ?? [],
    only: f.options.only ?? [],
    skip: f.options.skip ?? [],
    tsconfig: f.options.tsconfig ? 'tsconfig.json' : undefined,
    ...overrides,
  });
}
