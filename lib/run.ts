/**
 * The programmatic API: run(options) → the Report (and, in a dry run, the diffs). The CLI is one
 * caller; tests are another. Nothing here prints or exits.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FileChange } from './apply.js';
import { componentMentionsChat, relativePath, UsageError } from './files.js';
import { startHelper, type Found, type Helper } from './helper.js';
import { formatterCommand } from './formatter.js';
import { reasonMessage } from './rules/reasons.js';
import type { Options } from './options.js';
import type { PackageJson } from './project/layout.js';
import { majorOf, preferredSdk, sdkDeclarations } from './project/sdk-names.js';
import { SCHEMA_VERSION, type Notice, type Report, type SiteRecord } from './report/model.js';
import { summarize } from './report/summary.js';
import { NO_PROGRESS, type ProgressHooks } from './progress.js';
import { parseAllowList, type AllowList } from './allow.js';
import { VERSION } from './version.js';
import { changedScope, scopePlans, type ChangedScope } from './ci/changed.js';

export { UsageError, startHelper, type Helper };

export interface FileDiff {
  /** Relative to cwd. */
  file: string;
  /** Unified diff text. */
  patch: string;
}

export interface RunResult {
  report: Report;
  /** Dry run: one unified diff per file that would change (computed when asked for). */
  readonly diffs: FileDiff[];
  /** Write mode: the command that formats the changed files, when any changed. */
  formatCommand?: string;
  /** Every file the run changed (or would change), with its text before and after. */
  changes: FileChange[];
  /** `--changed-since`: the files in scope (the report holds only their sites). */
  scope?: ChangedScope;
  /** Write mode: the SIGINT/SIGTERM that stopped the write phase (the CLI then exits 1). */
  interrupted?: NodeJS.Signals;
}

/** Phase timings on stderr when MIGRATE_RESPONSES_TIMING is set (used by the benchmarks). */
function timer(): (phase: string) => void {
  if (!process.env.MIGRATE_RESPONSES_TIMING) return () => {};
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    const { rss, heapUsed } = process.memoryUsage();
    process.stderr.write(`timing ${phase} ${(now - last).toFixed(1)}ms (rss ${(rss / 1048576).toFixed(0)} MB, heap ${(heapUsed / 1048576).toFixed(0)} MB)\n`);
    last = now;
  };
}

/**
 * `helper`: a helper thread started earlier (the CLI starts one before loading its modules); run
 * takes it over and closes it. One is started here otherwise.
 */
export async function run(options: Options, progress: ProgressHooks = NO_PROGRESS, helper?: Helper): Promise<RunResult> {
  const mark = timer();
  progress.phase('Reading files…');
  const thread = helper ?? startHelper();
  try {
    let allow;
    try {
      allow = parseAllowList(options.allowBaseUrls);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const tsconfig = findTsconfig(options);
    const scope = options.changedSince ? changedScope(options.cwd, options.changedSince) : undefined;
    // the file system is walked in the helper thread while the compiler loads here
    const found = thread.begin(options.paths, options.cwd);
    found.catch(() => {}); // handled below, once the modules are loaded
    return await runWith(thread, found, options, progress, allow, tsconfig, mark, scope);
  } finally {
    thread.close();
  }
}

async function runWith(helper: Helper, found: Promise<Found>, options: Options, progress: ProgressHooks, allow: AllowList, tsconfig: string | undefined, mark: (phase: string) => void, scope?: ChangedScope): Promise<RunResult> {
  const [{ scan }, { applyPlans, unifiedDiff }] = await Promise.all([import('./scan/index.js'), import('./apply.js')]);
  mark('load');
  if (process.env.MIGRATE_RESPONSES_TIMING) {
    const { outcomes } = await import('./code-cache.cjs');
    for (const [file, outcome] of outcomes) process.stderr.write(`code cache ${outcome} for ${path.basename(file)}\n`);
  }
  const { discovery, read } = await found;
  mark('discover+read');
  progress.phase(`Scanning ${read.candidates.length} of ${discovery.files.length} files…`);
  const warnings: string[] = [];
  if (read.candidates.length === 0) {
    warnings.push(`no files that import or require \`openai\` under ${options.paths.map(shown).join(', ')}`);
  }
  const result = read.candidates.length
    ? scan({
        candidates: read.candidates.map((c) => ({ path: c.path, text: c.text })),
        files: discovery.files,
        components: discovery.components,
        declarations: discovery.declarations,
        roots: rootsOf(options),
        cwd: options.cwd,
        boundary: options.boundary,
        tsconfig,
        allow,
        only: options.only,
        skip: options.skip,
        runtimeConversion: options.runtimeConversion,
      })
    : { plans: [], createdFiles: [], notices: [], errors: [], warnings: [], typeAware: false, sdkNames: new Map<string, string>() };
  mark('scan');
  progress.phase(options.dryRun ? 'Computing the rewrites…' : 'Rewriting files…');
  warnings.push(...result.warnings);
  const plans = scope ? scopePlans(result.plans, scope) : result.plans;
  const outcome = await applyPlans({
    plans,
    texts: new Map(read.candidates.map((c) => [c.path, { text: c.text, bom: c.bom }])),
    roots: rootsOf(options),
    cwd: options.cwd,
    dryRun: options.dryRun,
    markers: options.markers,
    force: options.force,
    createdFiles: result.createdFiles,
    sdkNames: result.sdkNames,
  }, helper.runTransforms);
  mark('transform');
  for (const [site, { code, detail }] of outcome.failed) {
    site.record.status = 'manual';
    site.record.notes = [];
    delete site.record.groupFiles; // its group changed no file
    site.record.reasons.push({ code, detail, message: reasonMessage(code, detail) });
  }
  const sites: SiteRecord[] = plans.flatMap((p) => p.sites.map((s) => s.record));
  const inScope = (e: { file: string }) => !scope || scope.files.has(e.file) || sites.some((s) => s.file === e.file);
  const errors = [...discovery.errors, ...read.errors, ...result.errors, ...outcome.errors].filter(inScope);
  const changedFiles = options.dryRun ? outcome.changes.map((c) => c.rel) : outcome.written;
  warnings.push(...sdkVersionWarnings(options, sites), ...pinnedSdkWarnings(sites, read.candidates, options.cwd));
  if (outcome.interrupted) warnings.push(`interrupted by ${outcome.interrupted}: ${outcome.written.length} file(s) written, the others left as they were; no write set was left half-written`);
  const report: Report = {
    tool: 'migrate-responses',
    version: VERSION,
    schemaVersion: SCHEMA_VERSION,
    dryRun: options.dryRun,
    roots: options.paths.map(shown),
    summary: summarize(sites, discovery.files.length, errors),
    sites,
    notices: [...result.notices, ...componentNotices(discovery.components, options.cwd)].filter(inScope),
    errors,
    warnings,
    changedFiles,
    changedSince: scope ? { ref: scope.ref, mergeBase: scope.mergeBase, files: scope.files.size } : null,
  };
  let diffs: FileDiff[] | undefined;
  return {
    report,
    get diffs() {
      diffs ??= options.dryRun ? outcome.changes.map((c) => ({ file: c.rel, patch: unifiedDiff(c) })) : [];
      return diffs;
    },
    formatCommand: !options.dryRun && changedFiles.length ? formatterCommand(options.cwd, changedFiles) : undefined,
    changes: outcome.changes,
    scope,
    interrupted: outcome.interrupted,
  };
}

/** The roots as given and as real paths (a file root counts as itself). */
function rootsOf(options: Options): string[] {
  return options.paths.flatMap((p) => {
    const abs = path.resolve(options.cwd, p);
    try {
      return [abs, realpathSync(abs)];
    } catch {
      return [abs];
    }
  });
}

/** `./src` as the user wrote it, without a trailing slash. */
function shown(p: string): string {
  return p.replace(/[\\/]+$/, '') || p;
}

/** `--tsconfig`, or a tsconfig.json sitting at one of the roots. */
function findTsconfig(options: Options): string | undefined {
  if (options.tsconfig) {
    const file = path.resolve(options.cwd, options.tsconfig);
    if (!existsSync(file)) throw new UsageError(`tsconfig not found: ${options.tsconfig}`);
    return file;
  }
  for (const root of options.paths) {
    const dir = path.resolve(options.cwd, root);
    try {
      if (!statSync(dir).isDirectory()) continue;
    } catch {
      continue; // a missing root is reported by discovery
    }
    const candidate = path.join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** What every H-BETA warning says after naming its evidence. */
const H_BETA = 'the rewritten code targets client.responses and helpers verified on openai 6.49 and 7.59 only (H-BETA)';

/**
 * H-BETA: a package that declares openai below 6 gets rewritten code verified on 6 and 7 only.
 * Read for the paths given and for the folder of every migrated site (a monorepo's package, or a
 * Deno import map, below the root): the nearest package.json, and the nearest deno.json(c)'s pin.
 */
function sdkVersionWarnings(options: Options, sites: readonly SiteRecord[]): string[] {
  const starts = new Set([
    ...options.paths.map((p) => path.resolve(options.cwd, p)),
    ...sites.filter((s) => s.status === 'migrated').map((s) => path.dirname(path.resolve(options.cwd, s.file))),
  ]);
  const read = new Set<string>();
  const warnings: string[] = [];
  for (const start of starts) {
    const pkgFile = nearest(start, ['package.json']);
    if (pkgFile && !read.has(pkgFile)) {
      read.add(pkgFile);
      const warning = declaredSdkWarning(pkgFile, options.cwd);
      if (warning) warnings.push(warning);
    }
    const denoFile = nearest(start, ['deno.json', 'deno.jsonc']);
    if (denoFile && !read.has(denoFile)) {
      read.add(denoFile);
      const pin = [...(readText(denoFile) ?? '').matchAll(PINNED_SDK)].find((m) => Number(m[1]) < 6);
      if (pin) warnings.push(`${relativePath(options.cwd, denoFile)} maps openai to ${pin[0]}: ${H_BETA}; update that import first.`);
    }
  }
  // `beta.chat.completions.*` exists in openai 4 only: a project that calls it runs 4, declared or not
  const beta = sites.find((s) => s.status === 'migrated' && s.api.startsWith('beta.chat.completions.'));
  if (beta && !warnings.length) {
    warnings.push(`${beta.file}:${beta.line} calls ${beta.api}, which only openai 4 has: ${H_BETA}; upgrade the SDK first.`);
  }
  return warnings;
}

/** The first of `names` in `start` or a folder above it (8 levels at most). */
function nearest(start: string, names: readonly string[]): string | undefined {
  let dir = start;
  for (let i = 0; i < 8; i++) {
    for (const name of names) if (existsSync(path.join(dir, name))) return path.join(dir, name);
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** A file's text, or undefined when it cannot be read. */
function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function declaredSdkWarning(pkgFile: string, cwd: string): string | undefined {
  try {
    // the line the rewritten code imports: `openai`, or an npm alias of it (`openai-v4`)
    const sdk = preferredSdk(sdkDeclarations(JSON.parse(readFileSync(pkgFile, 'utf8')) as PackageJson));
    if (!sdk || majorOf(sdk.range) >= 6) return undefined;
    const declared = sdk.name === 'openai' ? `openai ${sdk.range}` : `openai ${sdk.range} as ${sdk.name}`;
    return `${relativePath(cwd, pkgFile)} declares ${declared}: ${H_BETA}; upgrade the SDK first.`;
  } catch {
    return undefined; // an unreadable package.json says nothing about the SDK version
  }
}

/** A version of the SDK pinned in an import specifier: Deno, npm: and CDN spellings (`openai@v4.20.1`). */
const PINNED_SDK = /(?:deno\.land\/x\/openai|npm:openai|esm\.sh\/openai|cdn\.jsdelivr\.net\/npm\/openai|unpkg\.com\/openai|cdn\.skypack\.dev\/openai)@v?(\d+)(?:\.\d+)*(?:\.\d+)?/g;

/**
 * The package.json warning's twin for a version pinned where the SDK is imported (corpus:
 * woodshed's Deno scripts import `https://deno.land/x/openai@v4.20.1/mod.ts`, which has no
 * client.responses): when any site is migrated, one warning per scanned file that pins an older
 * major (the client may be built in a module other than the call's).
 */
function pinnedSdkWarnings(sites: readonly SiteRecord[], candidates: readonly { path: string; text: string }[], cwd: string): string[] {
  if (!sites.some((s) => s.status === 'migrated')) return [];
  const warnings: string[] = [];
  for (const c of candidates) {
    const rel = relativePath(cwd, c.path);
    for (const m of c.text.matchAll(PINNED_SDK)) {
      if (Number(m[1]) >= 6) continue;
      warnings.push(`${rel} imports ${m[0]}: ${H_BETA}; update that import first.`);
      break;
    }
  }
  return warnings;
}

/**
 * `not-scanned` notices: the component files (.vue, .svelte, .astro) that mention Chat
 * Completions. Their script blocks are not parsed, so their calls are listed by file, never
 * dropped; an unreadable one is listed too.
 */
function componentNotices(components: readonly string[], cwd: string): Notice[] {
  const notices: Notice[] = [];
  for (const file of components) {
    const text = readText(file);
    if (text === undefined || componentMentionsChat(text)) notices.push({ file: relativePath(cwd, file), code: 'not-scanned', message: reasonMessage('not-scanned') });
  }
  return notices;
}
