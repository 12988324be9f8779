/** Render a Report in one of the output formats, and pick the format of a `--report` file. */
import type { OutputFormat } from '../options.js';
import type { Report } from './model.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { renderText } from './text.js';
import { renderGithub } from './github.js';

export { renderGithub, renderJson, renderMarkdown, renderSarif, renderText };
export { summarize } from './summary.js';

export interface RenderOptions {
  color: boolean;
  /** Write mode: the command that formats the changed files (the Markdown report names it). */
  formatCommand?: string;
  /** `github`: more annotation lines (the baseline gate's errors), printed before the summary line. */
  annotations?: string[];
}

export function render(report: Report, format: OutputFormat, opts: RenderOptions): string {
  switch (format) {
    case 'text': return renderText(report, opts);
    case 'json': return renderJson(report);
    case 'markdown': return renderMarkdown(report, { formatCommand: opts.formatCommand });
    case 'sarif': return renderSarif(report);
    case 'github': return renderGithub(report, opts.annotations);
    default: {
      const never: never = format;
      throw new Error(`unknown report format: ${String(never)}`);
    }
  }
}

/** The format of a report file, from its extension (case-insensitive). */
export function formatForFile(file: string): OutputFormat {
  const name = file.toLowerCase();
  if (name.endsWith('.sarif') || name.endsWith('.sarif.json')) return 'sarif';
  if (name.endsWith('.json')) return 'json';
  if (name.endsWith('.md') || name.endsWith('.markdown')) return 'markdown';
  if (name.endsWith('.txt')) return 'text';
  throw new Error(
    `cannot tell the report format of "${file}" from its extension: use .json, .md (or .markdown), .sarif (or .sarif.json) or .txt`,
  );
}
