/**
 * The JSON rendering: the public, versioned contract of README "The report". Objects are rebuilt field by
 * field so the key order is fixed (§3 order, then the additive `warnings` and `changedFiles`) and
 * nothing outside the contract leaks into the document.
 */
import { KINDS } from '../options.js';
import {
  STATUSES,
  type FileError,
  type Note,
  type Notice,
  type Reason,
  type Report,
  type SiteRecord,
  type Summary,
} from './model.js';

export function renderJson(report: Report): string {
  return JSON.stringify(toJsonReport(report), null, 2) + '\n';
}

/** The report as a plain object in contract key order (also what `renderJson` serializes). */
export function toJsonReport(report: Report): Record<string, unknown> {
  return {
    tool: report.tool,
    version: report.version,
    schemaVersion: report.schemaVersion,
    dryRun: report.dryRun,
    roots: [...report.roots],
    summary: summaryJson(report.summary),
    sites: report.sites.map(siteJson),
    notices: report.notices.map(noticeJson),
    errors: report.errors.map(errorJson),
    warnings: [...report.warnings],
    changedFiles: [...report.changedFiles],
    changedSince: report.changedSince ? { ref: report.changedSince.ref, mergeBase: report.changedSince.mergeBase, files: report.changedSince.files } : null,
  };
}

function summaryJson(s: Summary) {
  return {
    files: s.files,
    filesWithSites: s.filesWithSites,
    sites: s.sites,
    byKind: Object.fromEntries(KINDS.map((k) => [k, s.byKind[k] ?? 0])),
    byStatus: Object.fromEntries(STATUSES.map((st) => [st, s.byStatus[st] ?? 0])),
    errors: s.errors,
  };
}

function siteJson(site: SiteRecord) {
  return {
    id: site.id,
    file: site.file,
    line: site.line,
    column: site.column,
    api: site.api,
    kinds: [...site.kinds],
    client: { provider: site.client.provider, evidence: site.client.evidence },
    status: site.status,
    reasons: site.reasons.map(reasonJson),
    notes: site.notes.map(noteJson),
    groupFiles: [...(site.groupFiles ?? [])],
  };
}

function reasonJson(r: Reason) {
  return r.detail === undefined
    ? { code: r.code, message: r.message }
    : { code: r.code, detail: r.detail, message: r.message };
}

function noteJson(n: Note) {
  return { rule: n.rule, level: n.level, message: n.message };
}

function noticeJson(n: Notice) {
  return { file: n.file, code: n.code, message: n.message };
}

function errorJson(e: FileError) {
  return { file: e.file, message: e.message };
}
