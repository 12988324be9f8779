/**
 * The baseline ratchet (`--baseline`, `--update-baseline`): a committed file that records the
 * call sites a codebase still has, so that `--check` stops new ones without failing on the old.
 *
 * The file holds, per file and per api, the ids of the remaining sites (lib/scan/site-id.ts); no
 * line numbers. The check compares counts only (the number of ids): a file/api with more sites
 * than recorded fails, and the sites whose ids are not recorded are named as the new ones. Fewer
 * sites than recorded pass, with a hint that the baseline can be tightened. One line per file,
 * keys sorted, so a pull request that migrates a site changes one line of it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../files.js';
import type { Report, SiteRecord } from '../report/model.js';

export const BASELINE_VERSION = 1;

export interface Baseline {
  version: typeof BASELINE_VERSION;
  /** file (relative to the current directory, forward slashes) → api → ids of its remaining sites. */
  files: Record<string, Record<string, string[]>>;
}

/** What `--check` counts: every site but the ignored ones and those this run really migrated. */
export function remainingSites(report: Report): SiteRecord[] {
  return report.sites.filter((s) => s.status !== 'ignored' && !(s.status === 'migrated' && !report.dryRun));
}

/** Reads a baseline; a missing or malformed file is a usage error (exit 2). */
export function readBaseline(file: string, cwd: string): Baseline {
  const abs = path.resolve(cwd, file);
  if (!existsSync(abs)) throw new UsageError(`baseline not found: ${file} (create it with --update-baseline --baseline ${file})`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (err) {
    throw new UsageError(`baseline ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const problem = shapeProblem(doc);
  if (problem) throw new UsageError(`baseline ${file} is malformed: ${problem} (regenerate it with --update-baseline)`);
  return doc as Baseline;
}

function shapeProblem(doc: unknown): string | undefined {
  if (!isObject(doc)) return 'not a JSON object';
  if (doc.version !== BASELINE_VERSION) return `unsupported version ${JSON.stringify(doc.version)} (expected ${BASELINE_VERSION})`;
  if (!isObject(doc.files)) return '"files" is not an object';
  for (const [file, apis] of Object.entries(doc.files)) {
    if (!isObject(apis)) return `the entry of ${file} is not an object`;
    for (const [api, ids] of Object.entries(apis)) {
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return `${file} → ${api} is not a list of site ids`;
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The baseline of this run: the recorded entries outside `inScope`, this run's remaining sites inside it. */
export function baselineOf(report: Report, inScope: (file: string) => boolean, previous?: Baseline): Baseline {
  const files: Record<string, Record<string, string[]>> = {};
  for (const [file, apis] of Object.entries(previous?.files ?? {})) if (!inScope(file)) files[file] = apis;
  for (const site of remainingSites(report)) {
    const apis = (files[site.file] ??= {});
    (apis[site.api] ??= []).push(site.id);
  }
  return { version: BASELINE_VERSION, files };
}

/** Sorted keys, one line per file, a trailing newline. */
export function serializeBaseline(baseline: Baseline): string {
  const files = Object.keys(baseline.files).filter((f) => Object.keys(baseline.files[f]).length > 0).sort(compare);
  const lines = files.map((file, i) => {
    const apis = baseline.files[file];
    const entry = Object.keys(apis).sort(compare).map((api) => `${JSON.stringify(api)}: [${[...apis[api]].sort(compare).map((id) => JSON.stringify(id)).join(', ')}]`).join(', ');
    return `    ${JSON.stringify(file)}: { ${entry} }${i < files.length - 1 ? ',' : ''}`;
  });
  return [
    '{',
    `  "version": ${baseline.version},`,
    '  "tool": "migrate-responses",',
    '  "about": "Chat Completions call sites that remain, per file and api (the number of ids is the count --check allows). Regenerate with --update-baseline.",',
    files.length ? '  "files": {' : '  "files": {}',
    ...(files.length ? [...lines, '  }'] : []),
    '}',
    '',
  ].join('\n');
}

export function writeBaseline(file: string, cwd: string, baseline: Baseline): void {
  const target = path.resolve(cwd, file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, serializeBaseline(baseline));
}

export function countOf(baseline: Baseline): { sites: number; files: number } {
  let sites = 0;
  let files = 0;
  for (const apis of Object.values(baseline.files)) {
    const n = Object.values(apis).reduce((sum, ids) => sum + ids.length, 0);
    sites += n;
    if (n > 0) files++;
  }
  return { sites, files };
}

export interface Exceeded {
  file: string;
  api: string;
  recorded: number;
  found: number;
  /** The sites whose ids the baseline does not record (at least `found - recorded` of them). */
  sites: SiteRecord[];
}

export interface Shrunk {
  file: string;
  api: string;
  recorded: number;
  found: number;
}

export interface GateResult {
  passed: boolean;
  exceeded: Exceeded[];
  /** Entries that record more sites than remain: the baseline can be tightened. */
  shrunk: Shrunk[];
  remaining: number;
}

/** `--check --baseline`: compare this run's remaining sites with the recorded counts, within `inScope`. */
export function gate(report: Report, baseline: Baseline, inScope: (file: string) => boolean): GateResult {
  const found = new Map<string, SiteRecord[]>();
  const remaining = remainingSites(report);
  for (const site of remaining) {
    const key = keyOf(site.file, site.api);
    const list = found.get(key) ?? [];
    list.push(site);
    found.set(key, list);
  }
  const exceeded: Exceeded[] = [];
  for (const sites of found.values()) {
    const { file, api } = sites[0];
    const ids = baseline.files[file]?.[api] ?? [];
    if (sites.length <= ids.length) continue;
    const known = new Set(ids);
    const unknown = sites.filter((s) => !known.has(s.id));
    exceeded.push({ file, api, recorded: ids.length, found: sites.length, sites: unknown.length >= sites.length - ids.length ? unknown : sites });
  }
  const shrunk: Shrunk[] = [];
  for (const [file, apis] of Object.entries(baseline.files)) {
    if (!inScope(file)) continue;
    for (const [api, ids] of Object.entries(apis)) {
      const n = found.get(keyOf(file, api))?.length ?? 0;
      if (n < ids.length) shrunk.push({ file, api, recorded: ids.length, found: n });
    }
  }
  const order = (a: { file: string; api: string }, b: { file: string; api: string }) => compare(a.file, b.file) || compare(a.api, b.api);
  return { passed: exceeded.length === 0, exceeded: exceeded.sort(order), shrunk: shrunk.sort(order), remaining: remaining.length };
}

/** The gate's verdict for people (stderr): what is new and where, or what can be tightened. */
export function describeGate(result: GateResult, baselineFile: string): string {
  const out: string[] = [];
  if (!result.passed) {
    const n = result.exceeded.reduce((sum, e) => sum + e.found - e.recorded, 0);
    out.push(`migrate-responses: --check failed: ${n} new Chat Completions call site${n === 1 ? '' : 's'} beyond the baseline ${baselineFile}:`);
    for (const e of result.exceeded) {
      out.push(`  ${e.file}: ${e.found} ${e.api} site${e.found === 1 ? '' : 's'}, the baseline allows ${e.recorded}; ${e.sites.length === e.found - e.recorded ? 'new' : 'not in the baseline'}:`);
      for (const s of e.sites) out.push(`    ${siteLine(s)}`);
    }
    out.push(`Migrate ${n === 1 ? 'it' : 'them'} (or mark ${n === 1 ? 'it' : 'them'} // migrate-responses-ignore); to accept ${n === 1 ? 'it' : 'them'}, run with --dry-run --update-baseline --baseline ${baselineFile}.`);
  } else {
    out.push(`migrate-responses: --check passed: ${result.remaining} remaining site${result.remaining === 1 ? '' : 's'}, none beyond the baseline ${baselineFile}.`);
  }
  if (result.shrunk.length) {
    const list = result.shrunk.map((s) => `${s.file} ${s.api} ${s.recorded} → ${s.found}`).join('; ');
    out.push(`migrate-responses: the baseline can be tightened (${list}): run --update-baseline --baseline ${baselineFile} and commit it.`);
  }
  return out.join('\n') + '\n';
}

export function siteLine(s: SiteRecord): string {
  const why = s.reasons.length ? ` (${s.reasons.map((r) => r.code).join(', ')})` : '';
  return `${s.file}:${s.line}:${s.column} ${s.api} ${s.status}${why}`;
}

function keyOf(file: string, api: string): string {
  return `${file}\0${api}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
