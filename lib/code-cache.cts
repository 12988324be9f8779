/**
 * Loading a large CommonJS file with a V8 code cache. The TypeScript compiler is a 9 MB script:
 * compiling it costs ~0.2 s of every run, before the first line of it runs. A code cache holds
 * V8's compiled form of it (and of the functions a warm-up scan compiled); with it, loading takes
 * ~0.07 s.
 *
 * The cache is made once, at build time (scripts/build-code-cache.mjs, run by `postbuild`), and
 * only read at run time: a run never writes anything outside the files it migrates. It is used
 * only when it was made for the same file (package version and length) by the same Node.js on
 * the same architecture; otherwise, or when V8 rejects it (other V8 flags, say), the file is
 * compiled as usual. Either way the module is the same.
 */
import { isAscii } from 'node:buffer';
import fs = require('node:fs');
import Module = require('node:module');
import path = require('node:path');
import vm = require('node:vm');

/** What a cache was made for. */
export interface CacheStamp {
  /** The version in the package.json of the package the file belongs to. */
  packageVersion: string;
  /** Length of the file's source text, in UTF-16 code units. */
  sourceLength: number;
  node: string;
  arch: string;
}

export type CacheOutcome = 'accepted' | 'rejected' | 'absent' | 'stale';

/** How each file loaded here was compiled (for the timing output and the tests). */
export const outcomes = new Map<string, CacheOutcome>();

/** The scripts compiled here and what they were compiled from, so that the build can make their caches after a warm-up. */
const scripts = new Map<string, { script: vm.Script; stamp: CacheStamp }>();

/** The file's text. An ASCII file (the compiler is one) is decoded as latin1: the same text, half the cost. */
function readSource(file: string): string {
  const bytes = fs.readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function stampFor(source: string, packageJson: string): CacheStamp {
  const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string };
  return { packageVersion: version, sourceLength: source.length, node: process.version, arch: process.arch };
}

function sameStamp(a: CacheStamp, b: CacheStamp): boolean {
  return a.packageVersion === b.packageVersion && a.sourceLength === b.sourceLength && a.node === b.node && a.arch === b.arch;
}

function readCache(cacheFile: string, expected: CacheStamp): { data?: Buffer; outcome: CacheOutcome } {
  let stamp: CacheStamp;
  try {
    stamp = JSON.parse(fs.readFileSync(`${cacheFile}.json`, 'utf8')) as CacheStamp;
  } catch {
    return { outcome: 'absent' };
  }
  if (!sameStamp(stamp, expected)) return { outcome: 'stale' };
  try {
    return { data: fs.readFileSync(cacheFile), outcome: 'accepted' };
  } catch {
    return { outcome: 'absent' };
  }
}

/**
 * require(file), compiled with the code cache at `cacheFile` when it fits. `packageJson` is the
 * package.json of the package the file belongs to. The module goes into require's cache, so a
 * later require() of the same file (by another package) gets this instance.
 */
export function requireWithCodeCache(file: string, packageJson: string, cacheFile: string): unknown {
  const fileRequire = Module.createRequire(file);
  // require's module cache (shared by every require function of this process)
  const moduleCache = fileRequire.cache;
  const loaded = moduleCache[file];
  if (loaded) return loaded.exports;
  const source = readSource(file);
  const stamp = stampFor(source, packageJson);
  const cache = readCache(cacheFile, stamp);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cache.data });
  outcomes.set(file, cache.data && script.cachedDataRejected ? 'rejected' : cache.outcome);
  scripts.set(file, { script, stamp });

  const dir = path.dirname(file);
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = fileRequire.resolve.paths('node_modules') ?? []; // where a bare require() from the file looks
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, fileRequire, mod, file, dir);
  mod.loaded = true;
  moduleCache[file] = mod;
  return mod.exports;
}

/**
 * Write the code cache of a file loaded by requireWithCodeCache (build time only). Made after a
 * warm-up, it also holds the functions the warm-up compiled. Written whole or not at all.
 */
export function writeCodeCache(file: string, cacheFile: string): number {
  const loaded = scripts.get(file);
  if (!loaded) throw new Error(`${file} was not loaded with requireWithCodeCache`);
  const data = loaded.script.createCachedData();
  const { stamp } = loaded;
  for (const [target, content] of [[cacheFile, data], [`${cacheFile}.json`, `${JSON.stringify(stamp)}\n`]] as const) {
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, target);
  }
  return data.length;
}
