/** The one place that says what a run can be asked to do, and the defaults. */

export const KINDS = ['simple', 'tool-using', 'streaming', 'structured-output'] as const;
export type Kind = (typeof KINDS)[number];

export const FORMATS = ['text', 'json', 'markdown', 'sarif', 'github'] as const;
export type OutputFormat = (typeof FORMATS)[number];

export interface Options {
  /** Roots to scan: directories or single files, as given (relative to `cwd`). */
  paths: string[];
  /** Directory that report paths are relative to. */
  cwd: string;
  /** Compute everything, write nothing. */
  dryRun: boolean;
  /** What goes to stdout. */
  format: OutputFormat;
  /** Also write the report to these files; the format of each follows its extension. */
  reportFiles: string[];
  /** Only these kinds are migrated; other sites are `skipped`. Empty = all. */
  only: Kind[];
  /** These kinds are not migrated; their sites are `skipped`. */
  skip: Kind[];
  /** Origins (`https://host`) or `env:NAME` entries treated as Responses-capable (P-ALLOW). */
  allowBaseUrls: string[];
  /** tsconfig for type-aware scanning; undefined = look for one at a root. */
  tsconfig?: string;
  /** Exit 1 while any chat call site remains (beyond `baseline`, when one is given). */
  check: boolean;
  /** Baseline file (`--baseline`): read by `check`, written by `updateBaseline`. */
  baseline?: string;
  /** Write `baseline` from this run's remaining sites. */
  updateBaseline: boolean;
  /** Report and migrate only the sites of files changed since the merge base with this git ref. */
  changedSince?: string;
  /** Write even when affected files have uncommitted changes. */
  force: boolean;
  /** Insert TODO markers at manual sites in write mode. */
  markers: boolean;
  /** Colour in human-readable output. */
  color: boolean;
  /**
   * Messages from outside the code that cannot be proven simple are converted when the program
   * runs by a generated module (M-CONTENT-UNTYPED); false (`--no-runtime-conversion`): reported.
   */
  runtimeConversion: boolean;
  /**
   * Where the project ends, for a run inside another project (not a command-line flag: the
   * fixture tests, whose fixtures lie inside this repository's own package). The files outside
   * the paths given that are read for callers and writes (W-EDGE) are looked for in no package
   * above `top` (default: the repository top, the nearest folder holding `.git`), and `absent`
   * files (a fixture's expected outputs, beside its inputs) are not among them.
   */
  boundary?: ProjectBoundary;
}

export interface ProjectBoundary {
  /** Absolute. */
  top: string;
  /** Absolute paths. */
  absent: readonly string[];
}

export function defaultOptions(overrides: Partial<Options> = {}): Options {
  return {
    paths: ['.'],
    cwd: process.cwd(),
    dryRun: false,
    format: 'text',
    reportFiles: [],
    only: [],
    skip: [],
    allowBaseUrls: [],
    check: false,
    updateBaseline: false,
    force: false,
    markers: true,
    color: false,
    runtimeConversion: true,
    ...overrides,
  };
}

/** Source extensions the tool reads (README "Using it"); `.d.ts` files are never read. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;
/**
 * Single-file component formats whose script blocks can call the API but which the tool does not
 * parse: a file of these that mentions Chat Completions is listed as a `not-scanned` notice.
 */
export const COMPONENT_EXTENSIONS = ['.vue', '.svelte', '.astro'] as const;

/** Directories never entered, whatever the ignore files say. */
export const DEFAULT_IGNORED_DIRS = [
  'node_modules', '.git', 'dist', 'build', 'coverage', '.next', '.nuxt', '.output', '.svelte-kit',
  '.turbo', '.vercel', '.cache', 'out', '.yarn', 'bower_components', 'jspm_packages', '.pnpm-store',
] as const;
