/** The CLI: flags → Options → run() → render → exit code (README "Using it"). Thin on purpose. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import pc from 'picocolors';
import { FORMATS, KINDS, defaultOptions, type Kind, type Options, type OutputFormat } from './options.js';
import { formatForFile, render } from './report/index.js';
import { REASON_CODES } from './rules/reasons.js';
import { RULES } from './rules/registry.js';
import { NO_PROGRESS, terminalProgress } from './progress.js';
import { run, UsageError, type Helper, type RunResult } from './run.js';
import { VERSION } from './version.js';
import { baselineOf, countOf, describeGate, gate, readBaseline, remainingSites, writeBaseline, type Baseline, type GateResult } from './ci/baseline.js';
import { command } from './report/github.js';

const EXIT_OK = 0;
export const EXIT_FOUND = 1;
const EXIT_USAGE = 2;

function kindList(flag: string) {
  return (value: string): Kind[] => {
    const kinds = value.split(',').map((k) => k.trim()).filter(Boolean);
    const bad = kinds.filter((k) => !(KINDS as readonly string[]).includes(k));
    if (bad.length) throw new UsageError(`${flag}: unknown kind ${bad.join(', ')} (expected ${KINDS.join(', ')})`);
    return kinds as Kind[];
  };
}

function program(): Command {
  return new Command()
    .name('migrate-responses')
    .description('Find OpenAI Chat Completions call sites, migrate the safe ones to the Responses API, report the rest.')
    .version(VERSION)
    .argument('[paths...]', 'directories or files to scan', ['.'])
    .option('--dry-run', 'compute everything, write nothing; print a unified diff per file')
    .addOption(new Option('--format <format>', 'what goes to stdout').choices(FORMATS).default('text'))
    .option('--report <file>', 'also write the report; format from the extension (.json, .md, .sarif); repeatable', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--only <kinds>', `only migrate these kinds (${KINDS.join(',')})`, kindList('--only'))
    .option('--skip <kinds>', 'do not migrate these kinds', kindList('--skip'))
    .option('--allow-base-url <url...>', 'treat clients with these base URLs (origins or env:NAME) as Responses-capable')
    .option('--tsconfig <file>', 'type-aware scanning with this project (found automatically at a root)')
    .option('--check', 'exit 1 while any chat call site remains, or a component file (.vue, .svelte, .astro) mentions one (with --baseline: sites beyond the recorded ones)')
    .option('--baseline <file>', 'baseline of the remaining sites: read by --check, written by --update-baseline')
    .option('--update-baseline', 'write the --baseline file from this run\'s remaining sites')
    .option('--changed-since <git-ref>', 'report and migrate only the sites in files changed since the merge base with this ref (and uncommitted ones)')
    .option('--force', 'write even when affected files have uncommitted changes')
    .option('--no-markers', 'do not insert TODO comments at manual sites')
    .option('--no-runtime-conversion', 'report messages and tools from outside the code (messages-not-local, params-not-local:tools) instead of converting them at run time with generated toResponsesInput and toResponsesTools modules')
    .option('--no-color', 'no colour in human-readable output')
    .option('--list-rules', 'print the rules and reason codes, one line each')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
}

function listRules(): string {
  const width = Math.max(...RULES.map((r) => r.id.length), ...REASON_CODES.map((r) => r.code.length));
  const lines = ['Rules:', ...RULES.map((r) => `  ${r.id.padEnd(width)}  ${r.summary}`), '', 'Reason codes:'];
  lines.push(...REASON_CODES.map((r) => `  ${r.code.padEnd(width)}  ${r.message.replace('{detail}', '…')}`));
  return `${lines.join('\n')}\n`;
}

function optionsFrom(cmd: Command, paths: string[]): Options {
  const o = cmd.opts<Record<string, unknown>>();
  const useColor = o.color !== false && !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
  return defaultOptions({
    paths: paths.length ? paths : ['.'],
    cwd: process.cwd(),
    dryRun: Boolean(o.dryRun),
    format: o.format as OutputFormat,
    reportFiles: (o.report as string[] | undefined) ?? [],
    only: (o.only as Kind[] | undefined) ?? [],
    skip: (o.skip as Kind[] | undefined) ?? [],
    allowBaseUrls: (o.allowBaseUrl as string[] | undefined) ?? [],
    tsconfig: o.tsconfig as string | undefined,
    check: Boolean(o.check),
    baseline: o.baseline as string | undefined,
    updateBaseline: Boolean(o.updateBaseline),
    changedSince: o.changedSince as string | undefined,
    force: Boolean(o.force),
    markers: o.markers !== false,
    color: useColor,
    runtimeConversion: o.runtimeConversion !== false,
  });
}

function colorDiff(patch: string, color: boolean): string {
  if (!color) return patch;
  return patch.split('\n').map((line) => {
    if (line.startsWith('+++') || line.startsWith('---')) return pc.bold(line);
    if (line.startsWith('+')) return pc.green(line);
    if (line.startsWith('-')) return pc.red(line);
    if (line.startsWith('@@')) return pc.cyan(line);
    return line;
  }).join('\n');
}

function exitCode(result: RunResult, options: Options, verdict: GateResult | undefined): number {
  const { report } = result;
  if (report.errors.length || result.interrupted) return EXIT_FOUND;
  if (verdict) return verdict.passed ? EXIT_OK : EXIT_FOUND;
  // a component file that mentions Chat Completions may hold a call: --check cannot pass over it
  if (options.check && (remainingSites(report).length || report.notices.some((n) => n.code === 'not-scanned'))) return EXIT_FOUND;
  return EXIT_OK;
}

/** Flag combinations that make no sense are usage errors, found before any work is done. */
function checkFlags(options: Options): void {
  if (options.updateBaseline && !options.baseline) throw new UsageError('--update-baseline needs --baseline <file> (where to write it)');
  if (options.baseline && !options.check && !options.updateBaseline) throw new UsageError('--baseline <file> needs --check (compare with it) or --update-baseline (write it)');
  if (options.check && options.updateBaseline) throw new UsageError('--check and --update-baseline do not go together: update the baseline, then check against it');
}

/**
 * Which files a baseline may speak about in this run: those under the paths given (a baseline may
 * cover more of the tree than one run scans) and, with --changed-since, changed or reported.
 */
function scopeOf(result: RunResult, options: Options): (file: string) => boolean {
  const roots = options.paths.map((p) => path.relative(options.cwd, path.resolve(options.cwd, p)).split(path.sep).join('/'));
  const underRoots = (file: string) => roots.some((root) => root === '' || file === root || file.startsWith(`${root}/`));
  const scope = result.scope;
  if (!scope) return underRoots;
  const reported = new Set(result.report.sites.map((s) => s.file)); // changed files and their G-UNIT siblings
  return (file) => underRoots(file) && (scope.files.has(file) || reported.has(file));
}

/** New sites beyond the baseline as error annotations, for --format github. */
function gateAnnotations(verdict: GateResult, baselineFile: string): string[] {
  const lines: string[] = [];
  for (const e of verdict.exceeded) {
    for (const s of e.sites) {
      lines.push(command('error', { file: s.file, line: s.line, col: s.column, title: `New Chat Completions call site (${s.api})` },
        `${e.file} has ${e.found} ${e.api} site(s) and the baseline ${baselineFile} allows ${e.recorded}. Migrate this call to the Responses API, or record it with --update-baseline.`));
    }
  }
  return lines;
}

/** A bad report extension is a usage error, found before any work is done. */
function reportFormatOf(file: string): OutputFormat {
  try {
    return formatForFile(file);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** An existing baseline that --update-baseline prunes (entries outside this run's scope are kept); a missing one starts empty. */
function tryReadBaseline(file: string, cwd: string): Baseline | undefined {
  try {
    return readBaseline(file, cwd);
  } catch (err) {
    if (err instanceof UsageError && /^baseline not found/.test(err.message)) return undefined;
    throw err;
  }
}

/** Runs the command line `argv`; returns the exit code. `helper`: see bin/migrate-responses.ts. */
export async function main(argv: string[], helper: Helper): Promise<number> {
  const cmd = program();
  try {
    cmd.parse(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`migrate-responses: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
  if (cmd.opts().listRules) {
    process.stdout.write(listRules());
    return EXIT_OK;
  }
  const options = optionsFrom(cmd, cmd.args);
  try {
    checkFlags(options);
    const reportFormats = options.reportFiles.map(reportFormatOf);
    const baseline: Baseline | undefined = options.check && options.baseline ? readBaseline(options.baseline, options.cwd) : undefined;
    const previous = options.updateBaseline && options.baseline ? tryReadBaseline(options.baseline, options.cwd) : undefined;
    // progress only for people watching: a terminal on stderr, and never around a JSON or SARIF document
    const watched = Boolean(process.stderr.isTTY) && (options.format === 'text' || options.format === 'markdown');
    const progress = watched ? terminalProgress() : NO_PROGRESS;
    let result: RunResult;
    try {
      result = await run(options, progress, helper);
    } finally {
      progress.done();
    }
    if (options.dryRun && options.format === 'text') {
      for (const diff of result.diffs) process.stdout.write(`${colorDiff(diff.patch, options.color)}\n`);
    }
    const verdict: GateResult | undefined = baseline && options.baseline ? gate(result.report, baseline, scopeOf(result, options)) : undefined;
    const renderOptions = { formatCommand: result.formatCommand };
    const annotations = verdict && options.baseline ? gateAnnotations(verdict, options.baseline) : [];
    process.stdout.write(render(result.report, options.format, { ...renderOptions, annotations, color: options.color && options.format === 'text' }));
    if (result.formatCommand && options.format === 'text') {
      process.stdout.write(`\nFormat the changed files with your formatter:\n  ${result.formatCommand}\n`);
    }
    options.reportFiles.forEach((file, i) => {
      const target = path.resolve(options.cwd, file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, render(result.report, reportFormats[i], { ...renderOptions, color: false }));
    });
    if (verdict && options.baseline) process.stderr.write(describeGate(verdict, options.baseline));
    if (options.updateBaseline && options.baseline) {
      const next = baselineOf(result.report, scopeOf(result, options), previous);
      writeBaseline(options.baseline, options.cwd, next);
      const now = countOf(next);
      const was = previous ? ` (was ${countOf(previous).sites} in ${countOf(previous).files})` : '';
      process.stderr.write(`migrate-responses: baseline ${options.baseline} written: ${now.sites} remaining site${now.sites === 1 ? '' : 's'} in ${now.files} file${now.files === 1 ? '' : 's'}${was}.\n`);
    }
    return exitCode(result, options, verdict);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`migrate-responses: ${err.message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`migrate-responses: internal error: ${(err as Error).stack ?? err}\n`);
    return EXIT_FOUND;
  }
}
