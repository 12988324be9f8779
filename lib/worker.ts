/**
 * The helper thread. A run has two fixed costs that do not depend on each other: walking and
 * reading the tree, and loading the TypeScript compiler. This thread does the first while the
 * main thread does the second; then it loads the transforms (jscodeshift, Babel) while the main
 * thread scans, and runs the transforms the plan asks for. On 2 cores the stages overlap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TransformJob, TransformResult } from './apply.js';
import type { TransformContext } from '../transforms/index.js';
import { discoverFiles, readCandidates } from './files.js';

export type HelperRequest = { type: 'transform'; jobs: TransformJob[] };
export type HelperReply =
  | { type: 'io'; ok: true; discovery: ReturnType<typeof discoverFiles>; read: Awaited<ReturnType<typeof readCandidates>> }
  | { type: 'io'; ok: false; name: string; message: string }
  | { type: 'transform'; results: TransformResult[] };

const { paths, cwd } = workerData as { paths: string[]; cwd: string };
const port = parentPort!;

let candidates: { path: string; text: string }[] = [];
try {
  const discovery = discoverFiles(paths, cwd);
  const read = await readCandidates(discovery.files, cwd);
  candidates = read.candidates;
  port.postMessage({ type: 'io', ok: true, discovery, read } satisfies HelperReply);
} catch (err) {
  const e = err as Error;
  port.postMessage({ type: 'io', ok: false, name: e.name, message: e.message } satisfies HelperReply);
}

// While the main thread scans: load the transforms and parse the candidates for them, one file at a
// time so a transform request is served as soon as it arrives.
const prepared = new Map<string, TransformContext>();
let requested = false;
const ready = (async () => {
  const [apply, { TransformContext: Context }] = await Promise.all([import('./apply.js'), import('../transforms/index.js')]);
  for (const c of candidates) {
    if (requested) break;
    try {
      prepared.set(c.path, new Context(c.path, c.text));
    } catch {
      // a parse error is reported by the transform itself
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return apply;
})();

port.on('message', async (request: HelperRequest) => {
  if (request.type !== 'transform') return;
  requested = true;
  const { runTransformsWith } = await ready;
  const results = await runTransformsWith(request.jobs, (file) => {
    const ctx = prepared.get(file);
    prepared.delete(file);
    return ctx;
  });
  port.postMessage({ type: 'transform', results } satisfies HelperReply);
});
