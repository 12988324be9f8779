/**
 * Discovery and reading in a worker thread, so the file-system work overlaps with loading the
 * TypeScript compiler on the main thread (the two biggest fixed costs of a run, on separate cores).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { discoverFiles, readCandidates } from './files.js';

const { paths, cwd } = workerData as { paths: string[]; cwd: string };
try {
  const discovery = await discoverFiles(paths, cwd);
  const read = await readCandidates(discovery.files, cwd);
  parentPort!.postMessage({ ok: true, discovery, read });
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({ ok: false, name: e.name, message: e.message });
}
