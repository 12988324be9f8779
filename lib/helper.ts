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
  /** Runs the transforms in the helper thread; absent when there is no thread (run them here). */
  runTransforms?: TransformRunner;
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
  // until it is given work, the thread must not keep the process alive (`--help`, usage errors)
  worker.unref();
  let bootError: Error | undefined;
  let onIo: ((m: Extract<HelperReply, { type: 'io' }>) => void) | undefined;
  let onTransform: ((results: TransformResult[]) => void) | undefined;
  let onError: ((err: Error) => void) | undefined;
  worker.on('message', (m: HelperReply) => {
    if (m.type === 'io') onIo?.(m);
    else if (m.type === 'transform') onTransform?.(m.results);
  });
  worker.on('error', (err) => {
    bootError ??= err;
    onError?.(err);
  });
  return {
    begin(paths, cwd) {
      return new Promise<Found>((resolve, reject) => {
        if (bootError) return reject(bootError);
        onError = reject;
        onIo = (m) => {
          if (m.ok) resolve({ discovery: m.discovery, read: m.read });
          else reject(m.name === 'UsageError' ? new UsageError(m.message) : new Error(m.message));
        };
        worker.ref();
        worker.postMessage({ type: 'begin', paths, cwd } satisfies HelperRequest);
      });
    },
    runTransforms: (jobs) => new Promise((resolve, reject) => {
      onTransform = resolve;
      onError = reject;
      worker.postMessage({ type: 'transform', jobs } satisfies HelperRequest);
    }),
    close: () => void worker.terminate(),
  };
}
