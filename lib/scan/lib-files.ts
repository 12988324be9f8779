/**
 * The compiler's lib files (lib.es5.d.ts, lib.dom.d.ts…). ts-morph ships them inside a 3 MB
 * JavaScript bundle whose compilation costs a run about 0.3 s; the build extracts them into a
 * JSON file instead (scripts/build-lib-files.mjs), read in a few milliseconds. From sources
 * (tests), or if that file is missing, they come from the bundle.
 */
import { readFileSync } from 'node:fs';
import { LIB_FILES } from './compiler-files.cjs';

export interface LibFile {
  fileName: string;
  text: string;
}

/** The ECMAScript lib import tracking loads when a site needs it: no DOM, no @types. */
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

let cached: LibFile[] | undefined;

/** Every lib file: from the extracted JSON, else from ts-morph's bundle (`bundle`). */
export function libFiles(bundle: () => readonly LibFile[]): LibFile[] {
  if (!cached) {
    try {
      cached = JSON.parse(readFileSync(LIB_FILES, 'utf8')) as LibFile[];
    } catch {
      cached = bundle().map(({ fileName, text }) => ({ fileName, text }));
    }
  }
  return cached;
}
