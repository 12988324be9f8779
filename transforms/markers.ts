/**
 * Markers (README "Using it"): `// TODO(migrate-responses): <code>: <message>` on its own line above the
 * statement of a manual site, indented like it; never duplicated, never inside a string, a
 * template or JSX text (the marker goes right before a statement, which is always code).
 */
import type { Reason } from '../lib/report/model.js';
import type { TransformContext } from './context.js';

export const MARKER_PREFIX = 'TODO(migrate-responses):';

export function markerText(reason: Reason): string {
  const message = reason.message
    .replace(/\*\//g, '* /')
    .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
    // a position (`src/a.ts:12:5`) moves when markers are added: it would make a re-run add another marker
    .replace(/\S+:\d+:\d+/g, 'another site')
    // so does a line (`(src/ai.ts:27)`, where W-FOLLOW stopped): the file is kept, the line dropped
    .replace(/([\w./@-]+\.[cm]?[jt]sx?):\d+/g, '$1')
    .trim();
  return `// ${MARKER_PREFIX} ${reason.code}: ${message}`;
}

export function insertMarkers(ctx: TransformContext, statementStart: number, reasons: readonly Reason[]): void {
  const { editor } = ctx;
  const lineStart = editor.lineStart(statementStart);
  const indent = editor.indentAt(statementStart);
  const above = precedingLines(ctx.text, lineStart, reasons.length + 4);
  const present = new Set(above.map(markerKey));
  const lines = reasons.map(markerText).filter((m) => !present.has(markerKey(m)));
  if (!lines.length) return;
  const eol = editor.eol;
  if (indent !== undefined) {
    editor.insert(lineStart, lines.map((l) => `${indent}${l}${eol}`).join(''));
  } else {
    // the statement shares its line with other code: put the marker on a line of its own before it
    const lineIndent = /^[ \t]*/.exec(ctx.text.slice(lineStart))![0];
    editor.insert(statementStart, `${eol}${lines.map((l) => `${lineIndent}${l}${eol}`).join('')}${lineIndent}`);
  }
}

/**
 * A marker as a re-run compares it: its files by name alone, since their paths are relative to the
 * directory the tool ran in (a run from the package after one from the repository's top).
 */
function markerKey(line: string): string {
  return line.trim().replace(/(?:[\w.@-]+\/)+([\w.@-]+\.[cm]?[jt]sx?)/g, '$1');
}

function precedingLines(text: string, lineStart: number, count: number): string[] {
  const out: string[] = [];
  let end = lineStart - 1;
  while (out.length < count && end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    out.push(text.slice(start, end).replace(/\r$/, ''));
    end = start - 1;
  }
  return out;
}
