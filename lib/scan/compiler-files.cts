/**
 * Where the TypeScript compiler the scanner uses lives, and where its code cache goes.
 *
 * The compiler is the one ts-morph bundles, in its core package @ts-morph/common. That package is
 * ts-morph's dependency, not ours (it may be installed under ts-morph rather than beside it), so
 * it is resolved the way ts-morph resolves it. Only the compiler file is loaded, not ts-morph's
 * own module (lib/scan/typescript.cts says why).
 */
import Module = require('node:module');
import path = require('node:path');

/** require() as seen from ts-morph's main module (resolving only: nothing of ts-morph is loaded). */
export const tsMorphRequire = Module.createRequire(require.resolve('ts-morph'));
export const COMPILER_FILE = tsMorphRequire.resolve('@ts-morph/common/dist/typescript.js');
export const COMPILER_PACKAGE_JSON = path.join(path.dirname(COMPILER_FILE), '..', 'package.json');
/** Where a bare require() from ts-morph looks for its dependencies. */
export const TS_MORPH_LOOKUP_PATHS = tsMorphRequire.resolve.paths('@ts-morph/common') ?? [];
/** Next to the compiled scanner (dist/lib/scan), made by scripts/build-code-cache.mjs. */
export const COMPILER_CODE_CACHE = path.join(__dirname, 'typescript.v8cache');
/** The compiler's lib files, extracted at build time (scripts/build-lib-files.mjs). */
export const LIB_FILES = path.join(__dirname, 'lib-files.json');
