/**
 * The TypeScript compiler ts-morph bundles, loaded with require(): importing it as an ES module
 * would make Node lex its 9 MB source for export names first, and importing ts-morph's core
 * package would also compile its 3 MB of lib files. Together that is 0.1 s of every run.
 *
 * It is compiled with the code cache made at build time when there is one that fits
 * (lib/code-cache.cts): requireWithCodeCache puts the module in require's cache, so the
 * require() below, which must stay after it, gets that instance and its types.
 */
import { requireWithCodeCache } from '../code-cache.cjs';
import { COMPILER_CODE_CACHE, COMPILER_FILE, COMPILER_PACKAGE_JSON } from './compiler-files.cjs';

requireWithCodeCache(COMPILER_FILE, COMPILER_PACKAGE_JSON, COMPILER_CODE_CACHE);
import ts = require('@ts-morph/common/dist/typescript.js');

export = ts;
