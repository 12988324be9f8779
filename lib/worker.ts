/**
 * The helper thread (see lib/helper.ts). Given the paths, it walks and reads the tree while the
 * main thread loads the compiler; then it loads the transforms (jscodeshift, Babel) and parses the
 * candidates for them while the main thread scans, and runs the transforms the plan asks for. On
 * 2 cores the stages overlap.
 */
import { parentPort } from 'node:worker_threads';
import type { TransformJob, TransformResult } from './apply.js';
import type { TransformContext } from '../transforms/index.js';
import { callsSomething, discoverFiles, readCandidates } from './files.js';

export type HelperRequest =
  | { type: 'begin'; paths: string[]; cwd: string }
  | { type: 'transform'; jobs: TransformJob[] };
export type HelperReply =
  | { type: 'io'; ok: true; discovery: ReturnType<typeof discoverFiles>; read: Awaited<ReturnType<typeof readCandidates>> }
  | { type: 'io'; ok: false; name: string; message: string }
  | { type: 'transform'; results: TransformResult[] };

const port = parentPort!;

async function walkAndRead(paths: string[], cwd: string): Promise<{ path: string; text: string }[]> {
  try {
    const discovery = discoverFiles(paths, cwd);
    const read = await readCandidates(discovery.files, cwd);
    port.postMessage({ type: 'io', ok: true, discovery, read } satisfies HelperReply);
    // only the files that call something a site can be are parsed ahead (a test that only mocks
    // `create` is never rewritten); another file the plan edits is parsed when its transform runs
    return read.candidates.filter((c) => callsSomething(c.text));
  } catch (err) {
    const e = err as Error;
    port.postMessage({ type: 'io', ok: false, name: e.name, message: e.message } satisfies HelperReply);
    return [];
  }
}

// While the main thread scans: load the transforms and parse the site files for them, one file at a
// time so a transform request is served as soon as it arrives.
const prepared = new Map<string, TransformContext>();
let requested = false;
async function prepare(candidates: { path: string; text: string }[]) {
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
}

let ready: ReturnType<typeof prepare> | undefined;
port.on('message', async (request: HelperRequest) => {
  if (request.type === 'begin') {
    const candidates = await walkAndRead(request.paths, request.cwd);
    ready = prepare(candidates);
    return;
  }
  requested = true;
  const { runTransformsWith } = await (ready ?? prepare([]));
  const results = await runTransformsWith(request.jobs, (file) => {
    const ctx = prepared.get(file);
    prepared.delete(file);
    return ctx;
  });
  port.postMessage({ type: 'transform', results } satisfies HelperReply);
});
