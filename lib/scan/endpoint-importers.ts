/**
 * Raw HTTP whose endpoint is a constant of another module (`fetch(this.path(OpenaiPath.ChatPath))`
 * with `OpenaiPath` in constant.ts): the file that sends the request never spells
 * `chat/completions`, so the text prefilter alone would never look at it. The modules that export
 * such a constant are found among the site files; the files that import them are found here, and
 * are scanned for raw HTTP too. The same holds for a completions resource exported as a const
 * (find-sites.ts, exportedCompletionsResources).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from './typescript.cjs';
import type { ModuleResolver } from '../project/resolver.js';
import { escapeRegExp } from '../regexp.js';

/** The endpoint (a URL or a path), not the SDK's module path `openai/resources/chat/completions`. */
const CHAT_ENDPOINT = /(^|(?<!resources)\/)chat\/completions\/?(\?|$)/;

/** The file exports (or module.exports) a string or template that names the Chat Completions endpoint. */
export function exportsChatEndpoint(sf: ts.SourceFile): boolean {
  if (!sf.text.includes('chat/completions')) return false;
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if ((ts.isStringLiteralLike(n) && CHAT_ENDPOINT.test(n.text)) ||
      (ts.isTemplateExpression(n) && [n.head, ...n.templateSpans.map((s) => s.literal)].some((p) => /(?<!resources\/)chat\/completions/.test(p.text)))) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  for (const statement of sf.statements) {
    const exported = ts.getModifiers(statement as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      || ts.isExportAssignment(statement)
      || (ts.isExpressionStatement(statement) && /^(module\.)?exports\b/.test(statement.expression.getText(sf)));
    if (exported) visit(statement);
    if (found) return true;
  }
  return false;
}

/**
 * The project files that import one of `modules` (resolved the way the scan resolves), among
 * `files`, apart from `skip`. A file is read only when its text names one of the modules in a
 * string, or, given `exportNames`, one of those names as a word (the importers of a workspace
 * package's entry spell the package's name, not the module's).
 */
export function importersOf(
  modules: ReadonlySet<string>, files: readonly string[], skip: ReadonlySet<string>, resolver: ModuleResolver, texts: ReadonlyMap<string, string>,
  exportNames?: readonly string[],
): string[] {
  // a folder's index module is imported by the folder's name (`'../constants'`, `'@/constants'`)
  const names = [...new Set([...modules].flatMap((m) => {
    const base = path.basename(m).replace(/\.[^.]+$/, '');
    return base === 'index' ? [base, path.basename(path.dirname(m))] : [base];
  }))];
  const mention = exportNames
    ? new RegExp(`(?<![\\w$])(${exportNames.map(escapeRegExp).join('|')})(?![\\w$])`)
    : new RegExp(`['"\`][^'"\`\\n]*\\b(${names.map(escapeRegExp).join('|')})(\\.[a-z]+)?['"\`]`);
  const out: string[] = [];
  for (const file of files) {
    if (skip.has(path.normalize(file))) continue;
    const text = textOf(file, texts);
    if (text === undefined || !mention.test(text)) continue;
    const imports = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    if (imports.some((spec) => {
      const r = resolver.resolve(spec, file);
      return r.kind === 'project' && modules.has(path.normalize(r.file));
    })) out.push(file);
  }
  return out;
}

/** A file's text: from the texts already in memory, else read from disk (undefined when unreadable: discovery reports it). */
export function textOf(file: string, texts: ReadonlyMap<string, string>): string | undefined {
  const text = texts.get(path.normalize(file));
  if (text !== undefined) return text;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A file's text by path (undefined when unreadable). */
export type TextReader = (file: string) => string | undefined;

/**
 * The run's texts for the searches that look at every file (the callers of W-FOLLOW and
 * W-INJECTED, the public files of published packages): the candidates' from memory, any other
 * file read from disk once and kept, so that two searches, or two rounds of one, never read a
 * file twice.
 */
export function runTextReader(known: ReadonlyMap<string, string>): TextReader {
  const read = new Map<string, string | undefined>();
  return (file) => {
    const key = path.normalize(file);
    const text = known.get(key);
    if (text !== undefined) return text;
    if (!read.has(key)) read.set(key, textOf(key, known));
    return read.get(key);
  };
}
