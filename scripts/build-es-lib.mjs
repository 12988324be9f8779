// Build step (postbuild, before the code cache): extract the ECMAScript lib files that import
// tracking loads from ts-morph's bundle of every lib file into dist/lib/scan/es-lib.json
// (lib/scan/es-lib.ts). Plain JavaScript: it runs right after tsc, from dist/.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (p) => path.join(repo, 'dist', 'lib', p);
const { ES_LIB_FILE } = require(dist('scan/compiler-files.cjs'));
const { libChain } = await import(dist('scan/es-lib.js'));
const { tsMorphCommon } = await import(dist('scan/project.js'));

const files = libChain(tsMorphCommon().getLibFiles());
if (!files.some((f) => f.fileName === 'lib.es5.d.ts')) throw new Error('lib.es5.d.ts not found among the bundled lib files');
writeFileSync(ES_LIB_FILE, JSON.stringify(files.map(({ fileName, text }) => ({ fileName, text }))));
console.log(`ECMAScript lib: ${path.relative(repo, ES_LIB_FILE)} (${files.length} files)`);
