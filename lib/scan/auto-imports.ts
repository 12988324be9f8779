/**
 * Nuxt auto-imports (nuxt.com/docs/guide/directory-structure/utils): a Nuxt app's file uses the
 * exports of server/utils (server code) or of composables/ and utils/ (app code), and of
 * shared/utils (both), without importing them. A client built in server/utils/openai.ts and
 * called as `openai.chat.completions.create` in a route has no declaration in the route's file.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isNuxtRoot, nuxtSourceDir } from '../project/layout.js';

const MODULE = /\.(?:[cm]?[jt]s)$/;
const MAX_UP = 30;

/** The app root above `file`: the nearest directory with a package.json, if it holds a nuxt.config. */
function nuxtRootOf(file: string): string | undefined {
  let dir = path.dirname(file);
  for (let i = 0; i < MAX_UP; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return isNuxtRoot(dir) ? dir : undefined;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

const inside = (dir: string, file: string): boolean => !path.relative(dir, file).startsWith('..');

/**
 * The modules Nuxt auto-imports into `file`: the top-level modules of the directories it scans,
 * and the index module of their subdirectories. Empty outside a Nuxt app.
 */
export function autoImportSources(file: string): string[] {
  const root = nuxtRootOf(file);
  if (!root) return [];
  const src = path.join(root, nuxtSourceDir(root));
  // Nuxt 4 keeps server/ at the root, Nuxt 3 in the source directory
  const server = [path.join(root, 'server'), path.join(src, 'server')].find((dir) => inside(dir, file));
  const dirs = server
    ? [path.join(server, 'utils'), path.join(root, 'shared', 'utils')]
    : [path.join(src, 'composables'), path.join(src, 'utils'), path.join(root, 'shared', 'utils')];
  return [...new Set(dirs)].flatMap(modulesIn);
}

function modulesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isFile()) return MODULE.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
      if (!e.isDirectory()) return [];
      return ['index.ts', 'index.js', 'index.mjs'].map((n) => path.join(full, n)).filter((f) => existsSync(f)).slice(0, 1);
    });
  } catch {
    return []; // no such directory
  }
}
