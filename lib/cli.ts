/** The CLI: flags → Options → run() → render → exit code (DESIGN.md §2). Thin on purpose. */
import { writeFileSync } from 'node:fs';
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
    .option('--report <file>', 'also write the report; format from the extension (.json, .md, .sarif)')
    .option('--only <kinds>', `only migrate these kinds (${KINDS.join(',')})`, kindList('--only'))
    .option('--skip <kinds>', 'do not migrate these kinds', kindList('--skip'))
    .option('--allow-base-url <url...>', 'treat clients with these base URLs (origins or env:NAME) as Responses-capable')
    .option('--tsconfig <file>', 'type-aware scanning with this project (found automatically at a root)')
    .option('--check', 'exit 1 while any chat call site remains')
    .option('--force', 'write even when affected files have uncommitted changes')
    .option('--no-markers', 'do not insert TODO comments at manual sites')
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
    reportFile: o.report as string | undefined,
    only: (o.only as Kind[] | undefined) ?? [],
    skip: (o.skip as Kind[] | undefined) ?? [],
    allowBaseUrls: (o.allowBaseUrl as string[] | undefined) ?? [],
    tsconfig: o.tsconfig as string | undefined,
    check: Boolean(o.check),
    force: Boolean(o.force),
    markers: o.markers !== false,
    color: useColor,
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

function exitCode(result: RunResult, options: Options): number {
  const { report } = result;
  if (report.errors.length) return EXIT_FOUND;
  if (options.check) {
    const remaining = report.sites.filter((s) => s.status !== 'ignored' && !(s.status === 'migrated' && !report.dryRun));
    if (remaining.length) return EXIT_FOUND;
  }
  return EXIT_OK;
}

/** A bad report extension is a usage error, found before any work is done. */
function reportFormatOf(file: string): OutputFormat {
  try {
    return formatForFile(file);
  } catch (err) {
    throw new UsageError((err as Error).message);
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
    const reportFormat = options.reportFile ? reportFormatOf(options.reportFile) : undefined;
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
    process.stdout.write(render(result.report, options.format, { color: options.color && options.format === 'text' }));
    if (result.formatCommand && options.format === 'text') {
      process.stdout.write(`\nFormat the changed files with your formatter:\n  ${result.formatCommand}\n`);
    }
    if (options.reportFile && reportFormat) {
      writeFileSync(path.resolve(options.cwd, options.reportFile), render(result.report, reportFormat, { color: false }));
    }
    return exitCode(result, options);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`migrate-responses: ${err.message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`migrate-responses: internal error: ${(err as Error).stack ?? err}\n`);
    return EXIT_FOUND;
  }
}
