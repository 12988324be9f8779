/**
 * The one Report model (README "The report"). Text, JSON, Markdown and SARIF are renderings of it.
 * The JSON rendering is a public contract: change it only with a schemaVersion bump.
 */
import type { RuleId } from '../rules/ids.js';
import type { Kind } from '../options.js';

export const SCHEMA_VERSION = 2 as const;

export type Provider = 'openai' | 'azure-v1' | 'azure-legacy' | 'other' | 'unknown';
export type SiteStatus = 'migrated' | 'manual' | 'ignored' | 'skipped';
export const STATUSES: readonly SiteStatus[] = ['migrated', 'manual', 'ignored', 'skipped'];

/** `chat.completions.<m>`, `beta.chat.completions.<m>`, `http` (A-HTTP), `batches.create` (A-BATCH) or `createChatCompletion` (A-V3). */
export type Api = string;

export interface Reason {
  /** Base token from docs/migration-spec.md §9, e.g. `provider-not-openai`. */
  code: string;
  /** The part after the colon in the spec (`api.vendor.example`, `stop`, `return`…), when there is one. */
  detail?: string;
  message: string;
}

export interface Note {
  /** Rule id (docs/migration-spec.md), e.g. `R-STORE`. */
  rule: RuleId;
  level: 'info' | 'warn';
  message: string;
}

export interface ClientInfo {
  provider: Provider;
  /** Where the provider was proven, e.g. `new OpenAI() in src/client.ts:3`. */
  evidence: string;
}

export interface SiteRecord {
  /**
   * Stable identity (16 hex digits): a hash of the file, the api, the enclosing declarations, the
   * callee text and the ordinal among identical calls there; no line or column (lib/scan/site-id.ts).
   */
  id: string;
  /** Relative to the run's cwd, forward slashes. */
  file: string;
  /** 1-based position of the method-name token (create/parse/stream/runTools), or of the URL for HTTP. */
  line: number;
  column: number;
  api: Api;
  kinds: Kind[];
  client: ClientInfo;
  status: SiteStatus;
  reasons: Reason[];
  notes: Note[];
  /**
   * Other files the rewrite of this site's group changes (W-FOLLOW: the callers that read its
   * result, a builder in another module), relative like `file`; absent when there are none.
   */
  groupFiles?: string[];
}

/** File-level findings that are not sites (e.g. `test-mock`). */
export interface Notice {
  file: string;
  code: string;
  message: string;
}

export interface FileError {
  file: string;
  message: string;
}

export interface Summary {
  files: number;
  filesWithSites: number;
  sites: number;
  byKind: Record<Kind, number>;
  byStatus: Record<SiteStatus, number>;
  errors: number;
}

export interface Report {
  tool: 'migrate-responses';
  version: string;
  schemaVersion: typeof SCHEMA_VERSION;
  dryRun: boolean;
  roots: string[];
  summary: Summary;
  sites: SiteRecord[];
  notices: Notice[];
  errors: FileError[];
  /** Run-level statements the user must see once (e.g. the OPENAI_BASE_URL assumption of P-DEFAULT). */
  warnings: string[];
  /** Files the run changed (write mode) or would change (dry run), relative to cwd. */
  changedFiles: string[];
  /**
   * `--changed-since`: the ref, the merge base it was compared from and how many files changed;
   * only the sites of those files (and their G-UNIT siblings) are in the report. Null otherwise.
   */
  changedSince: ChangedSince | null;
}

export interface ChangedSince {
  ref: string;
  mergeBase: string;
  files: number;
}
