// Build step (postbuild, before the code cache): extract the compiler's lib files from ts-morph's
// bundle into dist/lib/scan/lib-files.json (lib/scan/lib-files.ts), so that a run reads a JSON
// file instead of compiling the 3 MB bundle. Plain JavaScript: it runs right after tsc, from dist/.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (p) => path.join(repo, 'dist', 'lib', p);
const { LIB_FILES } = require(dist('scan/compiler-files.cjs'));
const { libChain } = await import(dist('scan/lib-files.js'));
const { tsMorphCommon } = await import(dist('scan/project.js'));

const files = tsMorphCommon().getLibFiles().map(({ fileName, text }) => ({ fileName, text }));
if (!libChain(files).some((f) => f.fileName === 'lib.es5.d.ts')) throw new Error('lib.es5.d.ts not found among the bundled lib files');
writeFileSync(LIB_FILES, JSON.stringify(files));
console.log(`lib files: ${path.relative(repo, LIB_FILES)} (${files.length} files)`);
