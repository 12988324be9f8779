// Build step (postbuild): make the V8 code cache of the TypeScript compiler the scanner loads
// (lib/code-cache.cts). The compiler is loaded, warmed up by scanning the demo codebase in both
// modes (import tracking, then type-aware with its tsconfig), and its compiled code is written
// next to the compiled scanner. Plain JavaScript: it runs right after tsc, from dist/.
import { createRequire } from 'node:module';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = (p) => path.join(repo, 'dist', 'lib', p);
const { COMPILER_CODE_CACHE, COMPILER_FILE } = require(dist('scan/compiler-files.cjs'));

// a cache from an earlier build must not be the one warmed up (it may not fit this compiler)
for (const f of [COMPILER_CODE_CACHE, `${COMPILER_CODE_CACHE}.json`]) rmSync(f, { force: true });

const { writeCodeCache } = require(dist('code-cache.cjs'));
const { discoverFiles, readCandidates } = await import(dist('files.js'));
const { scan } = await import(dist('scan/index.js'));
const { parseAllowList } = await import(dist('allow.js'));

const demo = path.join(repo, 'examples', 'demo');
const { candidates } = await readCandidates(discoverFiles([demo], repo).files, repo);
const input = { candidates: candidates.map((c) => ({ path: c.path, text: c.text })), cwd: repo, allow: parseAllowList([]), only: [], skip: [] };
const plain = scan(input);
const typed = scan({ ...input, tsconfig: path.join(demo, 'tsconfig.json') });
if (!plain.plans.length || !typed.typeAware) throw new Error('the warm-up scan of examples/demo found nothing: the code cache would be cold');

const bytes = writeCodeCache(COMPILER_FILE, COMPILER_CODE_CACHE);
console.log(`code cache: ${path.relative(repo, COMPILER_CODE_CACHE)} (${(bytes / 1048576).toFixed(1)} MB)`);
