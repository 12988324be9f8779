/** Summary counts of a Report (README "The report"), built from its sites and errors. */
import { KINDS, type Kind } from '../options.js';
import { STATUSES, type FileError, type SiteRecord, type SiteStatus, type Summary } from './model.js';

/**
 * Count the sites of a run.
 * - `files`: files scanned; `errors`: the file errors (or their number).
 * - `filesWithSites`: distinct files with at least one site, whatever its status.
 * - `byKind` counts a site once per kind it has, so its total can exceed `sites`.
 * - every Kind and Status key is present, zero included, in the order of KINDS and STATUSES.
 */
export function summarize(
  sites: readonly SiteRecord[],
  files: number,
  errors: readonly FileError[] | number,
): Summary {
  const byKind = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<SiteStatus, number>;
  const withSites = new Set<string>();
  for (const site of sites) {
    withSites.add(site.file);
    byStatus[site.status] += 1;
    for (const kind of new Set(site.kinds)) byKind[kind] += 1;
  }
  return {
    files,
    filesWithSites: withSites.size,
    sites: sites.length,
    byKind,
    byStatus,
    errors: typeof errors === 'number' ? errors : errors.length,
  };
}
