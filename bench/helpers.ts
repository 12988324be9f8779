/**
 * The helpers profile: the worst case for following a result to its callers (W-FOLLOW) and the
 * caller searches of the API-error wording and S-FAILED tests, which look callers up by the
 * helper's name. Every module of `src/lib/` exports a helper of the same name, `ask()`, that makes
 * one Chat Completions call and returns the content; half of the modules have one caller in
 * `src/routes/` that imports it and tests its answer, and a quarter of those callers catch the
 * helper's errors and test the message, so that the error searches are not skipped. Plain padding
 * (comments, a utility function) brings each file to a realistic size.
 *
 * Until c7941c7 a caller search per non-streaming site made the run grow with the square of the
 * number of helpers (1,500 helpers: 6 s at aff4844, 69 s at 1351a97); `bench/run.ts --profile
 * helpers` keeps the ratio to the I/O floor in view. Deterministic for a given seed.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rng } from './rng.js';

export interface HelpersSpec {
  dir: string;
  /** Source files to write: helpers and their callers together. */
  files: number;
  /** Write a root tsconfig.json (type-aware mode). */
  rootTsconfig: boolean;
  seed?: number;
}

export interface HelpersStats {
  profile: 'helpers';
  files: number;
  helpers: number;
  callers: number;
  catchingCallers: number;
}

function padding(r: () => number, name: string): string[] {
  const lines = [`/** Formatting kept next to ${name}'s helper. */`, `export function format${name}(values: number[]): string {`];
  const n = 20 + Math.floor(r() * 60);
  for (let i = 0; i < n; i++) lines.push(`  // step ${i}: values are rounded to two places before they are joined (${name})`);
  lines.push("  return values.map((v) => v.toFixed(2)).join(', ');", '}');
  return lines;
}

function helper(r: () => number, i: number): string {
  const name = `M${i}`;
  return [
    "import OpenAI from 'openai';",
    '',
    'const client = new OpenAI();',
    '',
    `export async function ask(question: string): Promise<string> {`,
    '  const completion = await client.chat.completions.create({',
    "    model: 'gpt-4o-mini',",
    `    messages: [{ role: 'system', content: 'You answer for module ${i}.' }, { role: 'user', content: question }],`,
    '  });',
    "  return completion.choices[0].message.content ?? '';",
    '}',
    '',
    ...padding(r, name),
    '',
  ].join('\n');
}

function caller(r: () => number, i: number, catches: boolean): string {
  const body = catches
    ? [
        '  try {',
        "    const answer = await ask('How many?');",
        "    return answer.length > 0 ? answer : 'none';",
        '  } catch (err) {',
        "    if (err instanceof Error && err.message.includes('maximum context length')) return 'too long';",
        '    throw err;',
        '  }',
      ]
    : ["  const answer = await ask('How many?');", "  return answer.length > 0 ? answer : 'none';"];
  return [`import { ask } from '../lib/m${i}.js';`, '', `export async function route${i}(): Promise<string> {`, ...body, '}', '', ...padding(r, `R${i}`), ''].join('\n');
}

export function generateHelpers(spec: HelpersSpec): HelpersStats {
  const r = rng(spec.seed ?? 42);
  rmSync(spec.dir, { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    const file = path.join(spec.dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  // two files per helper with a caller, one without: helpers ≈ files / 1.5
  const helpers = Math.max(1, Math.round(spec.files / 1.5));
  let callers = 0;
  let catchingCallers = 0;
  for (let i = 0; i < helpers; i++) {
    write(`src/lib/m${i}.ts`, helper(r, i));
    if (i % 2 === 0) {
      const catches = i % 8 === 0;
      write(`src/routes/r${i}.ts`, caller(r, i, catches));
      callers++;
      if (catches) catchingCallers++;
    }
  }
  write('package.json', '{ "name": "helpers-bench", "private": true, "type": "module" }\n');
  if (spec.rootTsconfig) write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }, null, 2) + '\n');
  return { profile: 'helpers', files: helpers + callers, helpers, callers, catchingCallers };
}
