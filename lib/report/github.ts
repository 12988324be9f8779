/**
 * The GitHub Actions rendering (`--format github`): workflow commands that the runner turns into
 * annotations on the pull request. One `::warning` per manual site (its reason codes as the title,
 * each reason with its fix in the message), one `::notice` per migrated site (its notes), a
 * `::warning` per file-level notice, an `::error` per file error (and any annotations the caller
 * adds: the baseline gate's), then a one-line summary.
 * Ignored and skipped sites get no annotation (they are counted in the summary).
 *
 * Escaping follows the runner's rules for workflow commands: in the message (data) `%`, CR and LF
 * are percent-encoded; in a property value `:` and `,` are too, since they delimit properties.
 */
import { reasonInfo } from '../rules/reasons.js';
import type { Report, SiteRecord } from './model.js';

export function renderGithub(report: Report, annotations: readonly string[] = []): string {
  const out: string[] = [];
  for (const w of report.warnings) out.push(command('warning', { title: 'migrate-responses' }, w));
  for (const site of sortedSites(report.sites)) {
    if (site.status === 'manual') out.push(command('warning', where(site, site.reasons.map((r) => r.code).join(', ')), manualMessage(site)));
    else if (site.status === 'migrated') out.push(command('notice', where(site, report.dryRun ? 'migratable' : 'migrated'), migratedMessage(site, report.dryRun)));
  }
  for (const n of report.notices) out.push(command('warning', { file: n.file, title: n.code }, `${n.message}\nFix: ${fixOf(n.code)}`));
  for (const e of report.errors) out.push(command('error', { file: e.file, title: 'migrate-responses' }, e.message));
  out.push(...annotations, summaryLine(report));
  return out.join('\n') + '\n';
}

/** The closing line: counts by status, and what a dry run would change. */
export function summaryLine(report: Report): string {
  const s = report.summary;
  const b = s.byStatus;
  return `migrate-responses: ${s.sites} call site${s.sites === 1 ? '' : 's'} in ${s.filesWithSites} file${s.filesWithSites === 1 ? '' : 's'}: ` +
    `${b.migrated} ${report.dryRun ? 'to migrate' : 'migrated'}, ${b.manual} manual, ${b.ignored} ignored, ${b.skipped} skipped; ` +
    `${s.errors} error${s.errors === 1 ? '' : 's'}`;
}

function where(site: SiteRecord, title: string): Record<string, string | number> {
  return { file: site.file, line: site.line, col: site.column, title: `${title} (${site.api})` };
}

function manualMessage(site: SiteRecord): string {
  const lines = [`Left on Chat Completions (${site.api}, provider ${site.client.provider}):`];
  for (const r of site.reasons) lines.push(`${r.code}: ${r.message} Fix: ${fixOf(r.code)}`);
  return lines.join('\n');
}

function migratedMessage(site: SiteRecord, dryRun: boolean): string {
  const lines = [`${dryRun ? 'Can be migrated' : 'Migrated'} to the Responses API (${site.api}).`];
  for (const n of site.notes) lines.push(`${n.rule}${n.level === 'warn' ? ' (review)' : ''}: ${n.message}`);
  return lines.join('\n');
}

function fixOf(code: string): string {
  return reasonInfo(code)?.fix ?? 'see docs/rules.md';
}

function sortedSites(sites: readonly SiteRecord[]): SiteRecord[] {
  return [...sites].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
}

/** `::<name> <k>=<v>,…::<message>`, escaped. */
export function command(name: 'error' | 'warning' | 'notice', props: Record<string, string | number | undefined>, message: string): string {
  const list = Object.entries(props).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}=${escapeProperty(String(v))}`);
  return `::${name}${list.length ? ` ${list.join(',')}` : ''}::${escapeData(message)}`;
}

/** Workflow-command data: `%`, CR and LF percent-encoded (`%` first). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Workflow-command property values: as data, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
