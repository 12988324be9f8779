/** Where the TypeScript compiler the scanner uses lives, and where its code cache goes. */
import path = require('node:path');

export const COMPILER_FILE = require.resolve('@ts-morph/common/dist/typescript.js');
export const COMPILER_PACKAGE_JSON = path.join(path.dirname(COMPILER_FILE), '..', 'package.json');
/** Next to the compiled scanner (dist/lib/scan), made by scripts/build-code-cache.mjs. */
export const COMPILER_CODE_CACHE = path.join(__dirname, 'typescript.v8cache');
/** The ECMAScript lib files import tracking loads, extracted at build time (scripts/build-es-lib.mjs). */
export const ES_LIB_FILE = path.join(__dirname, 'es-lib.json');
