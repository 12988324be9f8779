/**
 * The TypeScript compiler ts-morph bundles, loaded with require(): importing it as an ES module
 * would make Node lex its 9 MB source for export names first, and loading it through ts-morph's
 * module (its `ts` export) would also compile ts-morph (1 MB) and its core package (3 MB, most of
 * it the lib files). Measured, that costs more than the code cache saves (README, design).
 *
 * It is compiled with the code cache made at build time when there is one that fits
 * (lib/code-cache.cts): requireWithCodeCache puts the module in require's cache, so the
 * require() below, which must stay after it, gets that instance and its types. That require()
 * looks where ts-morph looks for its dependencies (the compiler's package is ts-morph's
 * dependency and may be installed under it), so it names the same file.
 */
import { requireWithCodeCache } from '../code-cache.cjs';
import { COMPILER_CODE_CACHE, COMPILER_FILE, COMPILER_PACKAGE_JSON, TS_MORPH_LOOKUP_PATHS } from './compiler-files.cjs';

requireWithCodeCache(COMPILER_FILE, COMPILER_PACKAGE_JSON, COMPILER_CODE_CACHE);
module.paths = TS_MORPH_LOOKUP_PATHS;
import ts = require('@ts-morph/common/dist/typescript.js');

export = ts;
