/**
 * The project-wide view W-FOLLOW needs (lib/scan/callers.ts): which files of the run name a
 * function, and whether a module's importers can all be in view (W-EDGE). Files are read only
 * when a site's value first leaves through an exported function, and once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProjectLayout } from '../project/layout.js';
import type { CallerSearch } from './callers.js';

export interface CallerSearchInput {
  /** Every source file of the run (absolute paths). */
  files: readonly string[];
  /** Texts already read (the candidates). */
  texts: ReadonlyMap<string, string>;
  layout: ProjectLayout;
  /** The paths given, absolute and real. */
  roots: readonly string[];
}

export function createCallerSearch(input: CallerSearchInput): CallerSearch {
  let texts: Map<string, string> | undefined;
  const named = new Map<string, string[]>();
  const allTexts = (): Map<string, string> => {
    if (texts) return texts;
    texts = new Map();
    for (const file of input.files) {
      const key = path.normalize(file);
      let text = input.texts.get(key);
      if (text === undefined) {
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue; // unreadable files are reported by discovery
        }
      }
      texts.set(key, text);
    }
    return texts;
  };
  const covered = (dir: string) => input.roots.some((r) => dir === r || dir.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
  return {
    wanted: new Set(),
    filesNaming(name) {
      let files = named.get(name);
      if (!files) {
        const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}($|[^\\w$])`);
        files = [...allTexts()].filter(([, text]) => text.includes(name) && word.test(text)).map(([file]) => file);
        named.set(name, files);
      }
      return files;
    },
    edgeOf(file) {
      if (input.layout.isPublished(file)) return 'exported from a published package (its callers live elsewhere)';
      const root = input.layout.importersRootOf(file) ?? path.dirname(file);
      if (!covered(root)) return `its module may be imported from outside the paths given (${root})`;
      return undefined;
    },
  };
}
