/**
 * The terminal rendering: a summary, run-level warnings, one aligned line per site, then notices
 * and errors. Colour only when asked (picocolors with `createColors(opts.color)`): with
 * `color: false` the output contains no escape codes at all.
 */
import pc from 'picocolors';
import { KINDS } from '../options.js';
import { STATUSES, type Report, type SiteRecord, type SiteStatus } from './model.js';

type Colors = ReturnType<typeof pc.createColors>;
type Paint = (s: string) => string;

export function renderText(report: Report, opts: { color: boolean }): string {
  const c = pc.createColors(opts.color);
  const s = report.summary;
  const out: string[] = [];

  out.push(c.bold(`migrate-responses ${report.version}`) + (report.dryRun ? ' (dry run: nothing written)' : ''));
  const roots = report.roots.length > 0 ? ` in ${report.roots.join(', ')}` : '';
  out.push(
    `Scanned ${plural(s.files, 'file')}${roots}: ` +
      `${plural(s.sites, 'call site')} in ${plural(s.filesWithSites, 'file')}, ` +
      (s.errors > 0 ? c.red(plural(s.errors, 'error')) : plural(s.errors, 'error')) + '.',
  );
  if (s.sites > 0) {
    out.push(`  status  ${STATUSES.map((st) => `${st} ${s.byStatus[st] ?? 0}`).join(', ')}`);
    out.push(`  kinds   ${KINDS.map((k) => `${k} ${s.byKind[k] ?? 0}`).join(', ')}`);
  }
  if (report.changedFiles.length > 0) {
    out.push(`  ${report.dryRun ? 'would change' : 'changed'} ${plural(report.changedFiles.length, 'file')}`);
  }
  if (report.changedSince) {
    const c = report.changedSince;
    out.push(`  scope   only the ${plural(c.files, 'file')} changed since ${c.ref} (merge base ${c.mergeBase.slice(0, 12)}, uncommitted changes included)`);
  }

  if (report.warnings.length > 0) {
    out.push('');
    for (const w of report.warnings) out.push(`${c.yellow('warning:')} ${oneLine(w)}`);
  }

  out.push('');
  if (report.sites.length === 0) {
    out.push('No OpenAI Chat Completions call sites found.');
  } else {
    const rows = report.sites.map((site) => siteCells(site, c));
    out.push(...table(rows));
  }

  if (report.notices.length > 0) {
    out.push('', c.bold('notices:'));
    const rows = report.notices.map((n) => [
      cell(n.file),
      cell(n.code, c.yellow),
      cell(oneLine(n.message)),
    ]);
    out.push(...table(rows).map((l) => '  ' + l));
  }

  if (report.errors.length > 0) {
    out.push('', c.bold(c.red('errors:')));
    const rows = report.errors.map((e) => [cell(e.file), cell(oneLine(e.message), c.red)]);
    out.push(...table(rows).map((l) => '  ' + l));
  }

  return out.join('\n') + '\n';
}

interface Cell {
  text: string;
  paint?: Paint;
}

function cell(text: string, paint?: Paint): Cell {
  return { text, paint };
}

function siteCells(site: SiteRecord, c: Colors): Cell[] {
  return [
    cell(`${site.file}:${site.line}:${site.column}`, c.cyan),
    cell(site.api),
    cell(`[${site.kinds.join(',')}]`, c.dim),
    cell(site.status, statusPaint(site.status, c)),
    cell(site.client.provider),
    cell(outcomeDetail(site), site.status === 'manual' ? c.yellow : undefined),
  ];
}

/** Manual sites: reason codes with their detail (`code:detail`); migrated sites: the notes' rule ids. */
function outcomeDetail(site: SiteRecord): string {
  if (site.reasons.length > 0) {
    return site.reasons.map((r) => (r.detail === undefined ? r.code : `${r.code}:${oneLine(r.detail)}`)).join(', ');
  }
  // one entry per rule: two comparisons rewritten by O-FINISH are one thing to review
  const notes = [...new Set(site.notes.map((n) => (n.level === 'warn' ? `${n.rule} (warn)` : n.rule)))].join(', ');
  // a group is one change: name the other files it rewrites (W-FOLLOW)
  return site.groupFiles?.length ? `${notes}${notes ? '; ' : ''}with ${site.groupFiles.join(', ')}` : notes;
}

function statusPaint(status: SiteStatus, c: Colors): Paint {
  switch (status) {
    case 'migrated': return c.green;
    case 'manual': return c.yellow;
    default: return c.dim;
  }
}

/** Align columns on the plain text, then paint; no trailing blanks after the last non-empty cell. */
function table(rows: Cell[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cl, i) => { widths[i] = Math.max(widths[i] ?? 0, cl.text.length); });
  }
  return rows.map((row) => {
    let last = row.length - 1;
    while (last > 0 && row[last].text === '') last--;
    return row
      .slice(0, last + 1)
      .map((cl, i) => {
        const text = i < last ? cl.text.padEnd(widths[i]) : cl.text;
        return cl.paint && cl.text !== '' ? cl.paint(cl.text) + text.slice(cl.text.length) : text;
      })
      .join('  ');
  });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Keep one entry on one terminal line: line breaks (e.g. in parser messages) become single spaces. */
function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ').trim();
}
