/**
 * A longer property run over generated programs (test/fuzz/):
 *
 *   node --import tsx scripts/fuzz.ts --count 3000 --seed 1
 *
 * Options:
 *   --count N         programs to generate (default 1000)
 *   --seed S          first seed (seeds S .. S+N-1; default 1)
 *   --seeds a,b,c     exactly these seeds (replay)
 *   --batch B         programs per batched type-check (default 500)
 *   --no-typecheck    skip the tsc runs over migrated programs
 *   --no-inputs       do not type-check the generated inputs (generator validation)
 *   --inputs-v7       also type-check the generated inputs against openai 7
 *   --shapes          print how many programs used each generator shape
 *   --list            print every failure (by default they are grouped by message)
 *   --lf              exploration aid: force LF line endings (same programs otherwise)
 *   --spaces          exploration aid: force two-space indentation (same programs otherwise)
 *   --classic         the programs without the generator's second and third streams (the regression seeds of
 *                     test/fuzz.test.ts were recorded so)
 *
 * Failing programs are written to test/tmp/fuzz-failures/<seed>/ (input/, output/, reason.txt);
 * the folder is emptied at the start of each run.
 * Exit code 1 when any property fails.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../test/helpers/fixtures.js';
import { generateProgram, type GenerateOptions } from '../test/fuzz/generator.js';
import { knownIssueOf } from '../test/fuzz/known.js';
import { checkPrograms, type CheckResult } from '../test/fuzz/properties.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const count = Number(arg('count') ?? 1000);
const first = Number(arg('seed') ?? 1);
const batch = Number(arg('batch') ?? 500);
const seeds = arg('seeds')?.split(',').map(Number) ?? Array.from({ length: count }, (_, i) => first + i);
if (seeds.some((s) => !Number.isInteger(s)) || !(batch > 0)) {
  console.error('usage: node --import tsx scripts/fuzz.ts [--count N] [--seed S] [--seeds a,b] [--batch B] [--no-typecheck] [--no-inputs] [--inputs-v7] [--shapes] [--lf] [--spaces] [--classic] [--list]');
  process.exit(2);
}
const failuresDir = path.join(REPO, 'test', 'tmp', 'fuzz-failures');
rmSync(failuresDir, { recursive: true, force: true });
const generate: GenerateOptions = { eol: flag('lf') ? '\n' : undefined, indent: flag('spaces') ? '  ' : undefined };
const classic = new Set(flag('classic') ? seeds : []);

const total: CheckResult = {
  programs: 0, sites: 0, migrated: 0, manual: 0, ignored: 0, changedPrograms: 0, typeChecked: 0,
  inputsTypeChecked: 0, reasons: {}, shapes: {}, failures: [], ms: 0,
};
const started = performance.now();
for (let i = 0; i < seeds.length; i += batch) {
  const chunk = seeds.slice(i, i + batch);
  const r = await checkPrograms(chunk, {
    sdkLines: flag('no-typecheck') ? [] : ['openai6', 'openai7'],
    checkInputs: !flag('no-inputs'),
    inputLines: flag('inputs-v7') ? ['openai6', 'openai7'] : ['openai6'],
    failuresDir,
    generate,
    classic,
    onProgram: (_seed, done, n) => {
      if (process.stderr.isTTY && (done % 25 === 0 || done === n)) process.stderr.write(`\r  ${i + done}/${seeds.length} programs`);
    },
  });
  if (process.stderr.isTTY) process.stderr.write('\n');
  for (const k of ['programs', 'sites', 'migrated', 'manual', 'ignored', 'changedPrograms', 'typeChecked', 'inputsTypeChecked'] as const) total[k] += r[k];
  for (const [k, v] of Object.entries(r.reasons)) total.reasons[k] = (total.reasons[k] ?? 0) + v;
  for (const [k, v] of Object.entries(r.shapes)) total.shapes[k] = (total.shapes[k] ?? 0) + v;
  total.failures.push(...r.failures);
  console.log(`seeds ${chunk[0]}..${chunk[chunk.length - 1]}: ${r.programs} programs, ${r.sites} sites, ${r.failures.length} failure(s), ${(r.ms / 1000).toFixed(1)} s`);
}
total.ms = performance.now() - started;

const failedSeeds = [...new Set(total.failures.map((f) => f.seed))];
console.log('');
console.log(`programs          ${total.programs}`);
console.log(`sites             ${total.sites}`);
console.log(`  migrated        ${total.migrated}`);
console.log(`  manual          ${total.manual}`);
console.log(`  ignored         ${total.ignored}`);
console.log(`changed programs  ${total.changedPrograms}`);
console.log(`type-checked      ${total.typeChecked} migrated file(s) per SDK line (openai6, openai7)${total.inputsTypeChecked ? `, ${total.inputsTypeChecked} input file(s)` : ''}`);
console.log(`failures          ${total.failures.length} in ${failedSeeds.length} program(s)`);
console.log(`time              ${(total.ms / 1000).toFixed(1)} s`);
console.log('');
console.log('manual reasons: ' + Object.entries(total.reasons).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', '));
if (flag('shapes')) {
  console.log('');
  console.log('shapes (programs using each):');
  for (const [k, v] of Object.entries(total.shapes).sort()) console.log(`  ${k.padEnd(40)} ${v}`);
}
if (total.failures.length) {
  const byKind = new Map<string, number>();
  for (const f of total.failures) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
  console.log('');
  console.log('failures by kind: ' + [...byKind].map(([k, v]) => `${k} ${v}`).join(', '));
  // group by a normalised message plus the formatting traits of the program, for triage; failures
  // of a known bug outside this branch (test/fuzz/known.ts) are labelled with its id
  const known = total.failures.filter((f) => knownIssueOf(f, total.failures));
  console.log(`known bugs (test/fuzz/known.ts): ${known.length} failure(s); new: ${total.failures.length - known.length}`);
  const groups = new Map<string, Set<number>>();
  for (const f of total.failures) {
    const issue = knownIssueOf(f, total.failures);
    const key = `${issue ? `[known: ${issue.id}] ` : ''}${signature(f.reason)}${traits(f.seed)}`;
    if (!groups.has(key)) groups.set(key, new Set());
    groups.get(key)!.add(f.seed);
  }
  console.log('');
  console.log('failure groups (programs, example seeds):');
  for (const [key, set] of [...groups].sort((a, b) => b[1].size - a[1].size)) {
    console.log(`  ${String(set.size).padStart(5)}  ${key}  e.g. ${[...set].slice(0, 6).join(',')}`);
  }
  if (flag('list')) {
    console.log('');
    for (const f of total.failures) console.log(`  ${f.reason}`);
  }
  console.log(`\nfailing programs written to ${path.relative(process.cwd(), failuresDir)}/<seed>/ (reason.txt, input/, output/)`);
  process.exitCode = 1;
}

/** A failure message without its seed, positions, file names and quoted snippets. */
function signature(reason: string): string {
  return reason
    .replace(/^seed \d+: /, '')
    .replace(/\b(main|chat|service|client)\.(ts|cjs)\b/g, '<file>')
    .replace(/\("[^]*?"\)|"[^"]*"/g, '"…"')
    .replace(/\[[^\]]*\]/g, '[…]')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}

/** Formatting traits of a program that often explain a failure. */
function traits(seed: number): string {
  const files = Object.values(generateProgram(seed, { ...generate, classic: classic.has(seed) }).files).join('\n');
  const out: string[] = [];
  if (files.includes('\r\n')) out.push('CRLF');
  if (/^\t/m.test(files)) out.push('tab-indented');
  return out.length ? ` [${out.join(', ')}]` : '';
}
