/**
 * The helper thread (lib/worker.ts), seen from the main thread. A run has two fixed costs that do
 * not depend on each other: walking and reading the tree, and loading the TypeScript compiler.
 * The helper does the first while the main thread does the second, then runs the transforms.
 *
 * It can be started before the paths are known: the CLI starts it first thing, so that the
 * thread boots while the CLI's own modules load, and `begin` sends it the paths.
 */
import { Worker } from 'node:worker_threads';
import type { TransformResult, TransformRunner } from './apply.js';
import type { Discovery, ReadResult } from './files.js';
import { UsageError } from './errors.js';
import type { HelperReply, HelperRequest } from './worker.js';

export interface Found {
  discovery: Discovery;
  read: ReadResult;
}

export interface Helper {
  /** Walk and read `paths` (once per helper); settles with what was found. */
  begin(paths: string[], cwd: string): Promise<Found>;
  /** Runs the transforms in the helper thread (here, when there is none). */
  runTransforms: TransformRunner;
  close(): void;
}

/** No thread: the same work, done in this thread when asked. */
function inThread(): Helper {
  return {
    async begin(paths, cwd) {
      const { discoverFiles, readCandidates } = await import('./files.js');
      const discovery = discoverFiles(paths, cwd);
      return { discovery, read: await readCandidates(discovery.files, cwd) };
    },
    async runTransforms(jobs) {
      const { runTransformsHere } = await import('./apply.js');
      return runTransformsHere(jobs);
    },
    close() {},
  };
}

export function startHelper(): Helper {
  // run from TypeScript sources (tests), a worker could not load the .ts entry: stay in this thread
  if (import.meta.url.endsWith('.ts')) return inThread();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.js', import.meta.url));
  } catch {
    return inThread();
  }
  // A thread that failed to start or stopped (a Node option workers refuse, a crash) is not the
  // end of the run: what was asked of it is done here instead, only slower.
  const here = inThread();
  let failed = false;
  let closed = false;
  let onIo: ((m: Extract<HelperReply, { type: 'io' }>) => void) | undefined;
  let onTransform: ((results: TransformResult[]) => void) | undefined;
  let onFailure: (() => void) | undefined;
  const fail = () => {
    if (closed || failed) return;
    failed = true;
    onFailure?.();
  };
  worker.on('message', (m: HelperReply) => {
    if (m.type === 'io') onIo?.(m);
    else if (m.type === 'transform') onTransform?.(m.results);
  });
  worker.on('error', fail);
  worker.on('exit', fail);
  // until it is given work, the thread must not keep the process alive (`--help`, usage errors);
  // after the listeners, as listening on the thread's messages would take a reference again
  worker.unref();
  return {
    begin(paths, cwd) {
      if (failed || closed) return here.begin(paths, cwd);
      return new Promise<Found>((resolve, reject) => {
        onFailure = () => here.begin(paths, cwd).then(resolve, reject);
        onIo = (m) => {
          onFailure = undefined;
          if (m.ok) resolve({ discovery: m.discovery, read: m.read });
          else reject(m.name === 'UsageError' ? new UsageError(m.message) : new Error(m.message));
        };
        worker.ref();
        worker.postMessage({ type: 'begin', paths, cwd } satisfies HelperRequest);
      });
    },
    runTransforms(jobs) {
      if (failed || closed) return here.runTransforms(jobs);
      return new Promise((resolve, reject) => {
        onFailure = () => here.runTransforms(jobs).then(resolve, reject);
        onTransform = (results) => {
          onFailure = undefined;
          resolve(results);
        };
        worker.postMessage({ type: 'transform', jobs } satisfies HelperRequest);
      });
    },
    close() {
      closed = true;
      void worker.terminate();
    },
  };
}
