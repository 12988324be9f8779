/**
 * Write sets: the parts of a plan that are written all-or-nothing (G-UNIT, W-ALL-OR-NOTHING).
 *
 * Two sites are in the same write set when they must go together: they share a key. Today a
 * site's keys are its unit (G-UNIT) and every file it edits, marks or creates, so that one file
 * is transformed once, by one write set. A later kind of grouping (the whole-program groups of
 * DESIGN §4, which span a callee's module and its callers' modules) is one more key per site:
 * see `siteKeys`. The sets are the connected components of the sites under "shares a key".
 */
import type { CreatedFile, Edit, FilePlan, SitePlan } from '../plan.js';
import type { MarkerRequest } from '../../transforms/index.js';

/**
 * The connected components of `items` when two items that share a key are connected
 * (union-find). Components come in the order of their first item; items keep their order.
 */
export function componentsByKeys<T>(items: readonly T[], keysOf: (item: T) => Iterable<string>): T[][] {
  const parent = items.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const owner = new Map<string, number>();
  items.forEach((item, i) => {
    for (const key of keysOf(item)) {
      const other = owner.get(key);
      if (other === undefined) owner.set(key, i);
      else {
        const [a, b] = [find(i), find(other)];
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b); // the smaller index roots: first-item order
      }
    }
  });
  const components = new Map<number, T[]>();
  items.forEach((item, i) => {
    const root = find(i);
    const list = components.get(root);
    if (list) list.push(item);
    else components.set(root, [item]);
  });
  return [...components.values()];
}

/** What a write set does to one file. */
export interface FileWork {
  /** Absolute path. */
  file: string;
  edits: Edit[];
  markers: MarkerRequest[];
  /** The text of a file the set creates (it has no edits and no markers). */
  create?: string;
  /** Sites with edits, markers or a creation in this file. */
  sites: SitePlan[];
}

export interface WriteSet {
  /** Its sites, in plan order. */
  sites: SitePlan[];
  /** The files it touches, in the order their first edit, marker or creation appears. */
  files: FileWork[];
  /** Set when the plan asks to create a file and to edit it: the set cannot be written. */
  conflict?: { file: string; message: string };
}

export interface WriteSetOptions {
  /** Manual sites get their TODO markers (`--no-markers` turns them off). */
  markers: boolean;
  /**
   * Files the run may create, by absolute path (the converter modules of M-CONTENT-UNTYPED): one
   * is created with the sites whose edits import it (`convert-messages` naming it).
   */
  created?: ReadonlyMap<string, string>;
  /** More keys that must go together, per site (another kind of group than units and files). */
  extraKeys?: (site: SitePlan) => Iterable<string>;
}

/** What a site does to the files: its edits and the files they import when migrated, its marker when manual. */
function work(site: SitePlan, options: WriteSetOptions): { edits: Edit[]; marker: boolean; creates: CreatedFile[] } {
  if (site.record.status !== 'migrated') return { edits: [], marker: site.record.status === 'manual' && options.markers, creates: [] };
  const creates: CreatedFile[] = [];
  for (const e of site.edits) {
    if (e.op !== 'convert-messages') continue;
    const text = options.created?.get(e.moduleFile);
    if (text !== undefined && !creates.some((c) => c.file === e.moduleFile)) creates.push({ file: e.moduleFile, text });
  }
  return { edits: site.edits, marker: false, creates };
}

/**
 * The keys that tie a site to others. Add a key here to make a new kind of group written
 * all-or-nothing: e.g. `group:<id>` for a whole-program group that spans modules.
 */
export function siteKeys(site: SitePlan, options: WriteSetOptions): string[] {
  const w = work(site, options);
  const files = new Set<string>([...w.edits.map((e) => e.file), ...w.creates.map((c) => c.file)]);
  if (w.marker) files.add(site.file);
  return [`unit:${site.unit}`, ...[...files].map((f) => `file:${f}`), ...(options.extraKeys?.(site) ?? [])];
}

/** The write sets of a plan: only sites that change something are in one. */
export function writeSets(plans: readonly FilePlan[], options: WriteSetOptions): WriteSet[] {
  const active = plans.flatMap((p) => p.sites).filter((s) => {
    const w = work(s, options);
    return w.edits.length > 0 || w.marker || w.creates.length > 0;
  });
  return componentsByKeys(active, (s) => siteKeys(s, options)).map((sites) => collect(sites, options));
}

function collect(sites: SitePlan[], options: WriteSetOptions): WriteSet {
  const set: WriteSet = { sites, files: [] };
  const byFile = new Map<string, FileWork>();
  const fileWork = (file: string, site: SitePlan): FileWork => {
    let f = byFile.get(file);
    if (!f) {
      f = { file, edits: [], markers: [], sites: [] };
      byFile.set(file, f);
      set.files.push(f);
    }
    if (!f.sites.includes(site)) f.sites.push(site);
    return f;
  };
  for (const site of sites) {
    const w = work(site, options);
    for (const edit of w.edits) fileWork(edit.file, site).edits.push(edit);
    if (w.marker) fileWork(site.file, site).markers.push({ statementStart: site.statementStart, reasons: site.record.reasons });
    for (const created of w.creates) fileWork(created.file, site).create = created.text;
  }
  for (const f of set.files) {
    if (f.create !== undefined && (f.edits.length || f.markers.length)) set.conflict ??= { file: f.file, message: 'the plan asks to create this file and to edit it' };
  }
  return set;
}

/**
 * A set one of whose files failed to transform (nothing is written yet): the sites that must go
 * with that file (its own, and every site tied to them by a unit, a group or another edited
 * file), and the write sets the other sites form without them. A module the run creates ties its
 * importers only because each needs it: it does not hold them back when one of them fails.
 */
export function splitAfterFailure(set: WriteSet, failedFile: string, options: WriteSetOptions): { dropped: SitePlan[]; rest: WriteSet[] } {
  const created = new Set(set.files.filter((f) => f.create !== undefined).map((f) => `file:${f.file}`));
  const keys = new Map(set.sites.map((s) => [s, siteKeys(s, options).filter((k) => !created.has(k))]));
  const dropping = new Set<string>([`file:${failedFile}`]);
  const dropped = new Set<SitePlan>();
  for (let grew = true; grew;) {
    grew = false;
    for (const site of set.sites) {
      if (dropped.has(site) || !keys.get(site)!.some((k) => dropping.has(k))) continue;
      dropped.add(site);
      for (const k of keys.get(site)!) dropping.add(k);
      grew = true;
    }
  }
  const remaining = set.sites.filter((s) => !dropped.has(s));
  return { dropped: [...dropped], rest: componentsByKeys(remaining, (s) => siteKeys(s, options)).map((sites) => collect(sites, options)) };
}
