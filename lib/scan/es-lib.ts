/**
 * The ECMAScript library import tracking loads: lib.es2022.d.ts and the files it references, no
 * DOM and no @types (84 kB, minified by ts-morph). The build extracts them into a small JSON file
 * (scripts/build-es-lib.mjs), so a run does not compile ts-morph's 3 MB bundle of every lib file
 * to get them; from sources (tests), or if that file is missing, they come from the bundle.
 */
import { readFileSync } from 'node:fs';
import { ES_LIB_FILE } from './compiler-files.cjs';

export interface LibFile {
  fileName: string;
  text: string;
}

export const ES_LIB_ROOT = 'lib.es2022.d.ts';

/** `root` and every lib file it references (`/// <reference lib="…" />`), transitively. */
export function libChain(all: readonly LibFile[], root = ES_LIB_ROOT): LibFile[] {
  const byName = new Map(all.map((f) => [f.fileName, f]));
  const out: LibFile[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const file = byName.get(name);
    if (!file) return;
    out.push(file);
    for (const m of file.text.matchAll(/\/\/\/\s*<reference\s+lib="([^"]+)"\s*\/>/g)) visit(`lib.${m[1].toLowerCase()}.d.ts`);
  };
  visit(root);
  return out;
}

export function esLibFiles(bundle: () => readonly LibFile[]): LibFile[] {
  try {
    return JSON.parse(readFileSync(ES_LIB_FILE, 'utf8')) as LibFile[];
  } catch {
    return libChain(bundle());
  }
}
