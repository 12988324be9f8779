/**
 * The step of the GitHub Action (action.yml at the repository root): runs the CLI of this checkout
 * with the action's inputs and hands its results to GitHub. Workflow-command annotations go to
 * the log (the CLI's `--format github`), the Markdown report is appended to $GITHUB_STEP_SUMMARY,
 * the step outputs are written to $GITHUB_OUTPUT, and on request a SARIF file is written for
 * github/codeql-action/upload-sarif. In `migrate` mode the files are rewritten and the Markdown
 * report becomes the pull-request body file.
 *
 * Inputs come from the environment (action.yml maps each `inputs.<name>` to `INPUT_<NAME>`), so
 * nothing from a workflow is ever spliced into a shell command line. The exit code is the CLI's.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatterCommand } from '../formatter.js';

export const MODES = ['check', 'report', 'migrate'] as const;
export type Mode = (typeof MODES)[number];

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'migrate-responses.js');

/** The `INPUT_*` variables action.yml sets from its inputs (`pr-body` → `INPUT_PR_BODY`). */
export const INPUT_NAMES = ['paths', 'mode', 'baseline', 'only', 'args', 'sarif', 'pr-body'] as const;
/** The step outputs written to $GITHUB_OUTPUT (action.yml declares each). */
export const OUTPUT_NAMES = ['sites', 'manual', 'migrated', 'changed-files', 'pr-body', 'sarif', 'format-command'] as const;

export interface ActionInputs {
  paths: string[];
  mode: Mode;
  baseline?: string;
  only?: string;
  args: string[];
  sarif?: string;
  prBody?: string;
}

/** The inputs, from `INPUT_*` variables; a bad one throws with a message for the log. */
export function inputsFrom(env: NodeJS.ProcessEnv): ActionInputs {
  const get = (name: string) => (env[`INPUT_${name}`] ?? '').trim();
  const mode = get('MODE') || 'check';
  if (!(MODES as readonly string[]).includes(mode)) throw new Error(`input mode: "${mode}" is not one of ${MODES.join(', ')}`);
  const paths = splitWords(get('PATHS'));
  return {
    paths: paths.length ? paths : ['.'],
    mode: mode as Mode,
    baseline: get('BASELINE') || undefined,
    only: get('ONLY') || undefined,
    args: splitWords(get('ARGS')),
    sarif: get('SARIF') || undefined,
    prBody: get('PR_BODY') || undefined,
  };
}

/** The CLI's arguments for these inputs; `reports` are the files the step reads back. */
export function cliArgs(inputs: ActionInputs, reports: { json: string; markdown: string }): string[] {
  const args = [...inputs.paths, '--format', 'github', '--report', reports.json, '--report', reports.markdown];
  if (inputs.sarif) args.push('--report', inputs.sarif);
  if (inputs.only) args.push('--only', inputs.only);
  if (inputs.mode === 'check') {
    args.push('--dry-run', '--check');
    if (inputs.baseline) args.push('--baseline', inputs.baseline);
  } else if (inputs.mode === 'report') {
    args.push('--dry-run');
  } else if (inputs.baseline) {
    args.push('--update-baseline', '--baseline', inputs.baseline); // what remains after migrating: the baseline tightens
  }
  return [...args, ...inputs.args];
}

/**
 * Splits an input into words the way a shell would, without running one: blanks separate words,
 * '…' keeps everything literally, "…" and a backslash escape the next character.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error(`unbalanced ' in: ${text}`);
      word += text.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        word += text[j];
      }
      if (j >= text.length) throw new Error(`unbalanced " in: ${text}`);
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** `name<<delimiter` blocks: safe for any value, newlines included (the runner's own format). */
export function outputBlock(name: string, value: string): string {
  let delimiter = `ghadelimiter_${randomUUID()}`;
  while (value.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

interface JsonReport {
  summary: { sites: number; byStatus: Record<string, number> };
  changedFiles: string[];
}

/** Runs the step; returns its exit code. `log` receives the step's own lines (the CLI's go to stdout). */
export function runAction(env: NodeJS.ProcessEnv, cwd: string, log: (line: string) => void): number {
  let inputs: ActionInputs;
  try {
    inputs = inputsFrom(env);
  } catch (err) {
    log(`::error title=migrate-responses::${(err as Error).message}`);
    return 2;
  }
  const temp = mkdtempSync(path.join(env.RUNNER_TEMP || os.tmpdir(), 'migrate-responses-'));
  const reports = { json: path.join(temp, 'report.json'), markdown: path.join(temp, 'report.md') };
  const args = cliArgs(inputs, reports);
  log(`migrate-responses ${args.map((a) => (/^[\w./:=@,+-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}`);
  const child = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = child.status ?? 1;
  if (!existsSync(reports.json)) {
    log(`::error title=migrate-responses::the run stopped before writing its report (exit ${code})`);
    return code || 1;
  }
  const report = JSON.parse(readFileSync(reports.json, 'utf8')) as JsonReport;
  const markdown = readFileSync(reports.markdown, 'utf8');
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown);
  let prBody: string | undefined;
  if (inputs.mode === 'migrate') {
    prBody = path.resolve(cwd, inputs.prBody ?? path.join(temp, 'pull-request-body.md'));
    copyFileSync(reports.markdown, prBody);
  }
  if (env.GITHUB_OUTPUT) {
    const outputs: [(typeof OUTPUT_NAMES)[number], string][] = [
      ['sites', String(report.summary.sites)],
      ['manual', String(report.summary.byStatus.manual ?? 0)],
      ['migrated', String(report.summary.byStatus.migrated ?? 0)],
      ['changed-files', report.changedFiles.join('\n')],
      ['pr-body', prBody ?? ''],
      ['format-command', inputs.mode === 'migrate' && report.changedFiles.length ? formatterCommand(cwd, report.changedFiles) : ''],
      ['sarif', inputs.sarif ? path.resolve(cwd, inputs.sarif) : ''],
    ];
    appendFileSync(env.GITHUB_OUTPUT, outputs.map(([k, v]) => outputBlock(k, v)).join(''));
  }
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = runAction(process.env, process.cwd(), (line) => process.stdout.write(`${line}\n`));
}
