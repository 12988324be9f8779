/**
 * The SARIF 2.1.0 rendering, for GitHub code scanning (README "The report"): one run, one rule per reason
 * code (from the REASON_CODES table), one `warning` result per reason of a manual site, one `note`
 * result per file-level notice, and file errors as tool execution notifications. No timestamps or
 * absolute paths: the same Report always gives the same bytes.
 *
 * Every result carries `partialFingerprints` built from the site's stable id (never from a line
 * number), so code scanning keeps one alert per site and reason while lines move. The key is our
 * own: `primaryLocationLineHash` is computed by GitHub from the line's content and must not be set.
 */
import { createHash } from 'node:crypto';
import { REASON_CODES } from '../rules/reasons.js';
import type { Report } from './model.js';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json';
/** Placeholder until the project has a public home. */
export const INFORMATION_URI = 'https://github.com/migrate-responses/migrate-responses';
/** The partialFingerprints key of a result: `<site id>/<reason code>` (`/<n>` for a repeated code). */
export const FINGERPRINT_KEY = 'migrateResponsesSite/v1';
const SRCROOT = '%SRCROOT%';

const RULE_INDEX = new Map<string, number>(REASON_CODES.map((info, i) => [info.code, i]));

export function renderSarif(report: Report): string {
  return JSON.stringify(toSarif(report), null, 2) + '\n';
}

export function toSarif(report: Report): Record<string, unknown> {
  const rules = REASON_CODES.map((info) => {
    const short = info.message.replaceAll('{detail}', '…');
    return {
      id: info.code,
      shortDescription: { text: short },
      fullDescription: {
        text: `${short} Reported for a ${info.fileLevel ? 'file' : 'call site'} by migration-spec rule${info.rules.length === 1 ? '' : 's'} ${info.rules.join(', ')}.`,
      },
      help: { text: info.fix },
      defaultConfiguration: { level: 'warning' },
    };
  });

  const results: Record<string, unknown>[] = [];
  for (const site of report.sites) {
    if (site.status !== 'manual') continue;
    const seen = new Map<string, number>();
    for (const reason of site.reasons) {
      const n = seen.get(reason.code) ?? 0;
      seen.set(reason.code, n + 1);
      results.push({
        ...ruleRef(reason.code),
        level: 'warning',
        message: { text: reason.message },
        locations: [location(site.file, { startLine: site.line, startColumn: site.column })],
        partialFingerprints: { [FINGERPRINT_KEY]: `${site.id}/${reason.code}${n ? `/${n}` : ''}` },
      });
    }
  }
  for (const notice of report.notices) {
    results.push({
      ...ruleRef(notice.code),
      level: 'note',
      message: { text: notice.message },
      // File-level finding: code scanning wants a region, so it points at the first line.
      locations: [location(notice.file, { startLine: 1 })],
      partialFingerprints: { [FINGERPRINT_KEY]: `${hash(notice.file)}/${notice.code}` },
    });
  }

  const notifications = [
    ...report.warnings.map((w) => ({ level: 'warning', message: { text: w } })),
    ...report.errors.map((e) => ({
      level: 'error',
      message: { text: e.message },
      locations: [location(e.file)],
    })),
  ];

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'migrate-responses',
            version: report.version,
            informationUri: INFORMATION_URI,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: report.errors.length === 0,
            ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function ruleRef(code: string): { ruleId: string; ruleIndex?: number } {
  const index = RULE_INDEX.get(code);
  return index === undefined ? { ruleId: code } : { ruleId: code, ruleIndex: index };
}

function location(file: string, region?: { startLine: number; startColumn?: number }) {
  return {
    physicalLocation: {
      artifactLocation: { uri: fileUri(file), uriBaseId: SRCROOT },
      ...(region ? { region } : {}),
    },
  };
}

/** A relative URI reference: forward slashes, each segment percent-encoded. */
export function fileUri(file: string): string {
  return file.replace(/\\/g, '/').split('/').map(encodeURIComponent).join('/');
}
