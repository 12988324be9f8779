/**
 * Test seams read from the environment, for the tests that drive the built CLI in a child process
 * (DEVELOPERS.md, "Test seams"). A normal run does not set the variable, and then nothing here
 * changes anything.
 *
 * - `MIGRATE_RESPONSES_TEST_PAUSE_MS=<ms>`: in write mode, once a write set is staged and between
 *   two of its renames, say so on stderr (`migrate-responses: test pause: …`) and wait that long,
 *   so that a test can send a signal in the middle of a set.
 */
import type { CommitSeams } from './commit.js';

export interface ApplySeams {
  commit: CommitSeams;
}

export const NO_SEAMS: ApplySeams = { commit: {} };

export function seamsFromEnv(env: NodeJS.ProcessEnv): ApplySeams {
  const seams: ApplySeams = { commit: {} };
  const pauseMs = Number(env.MIGRATE_RESPONSES_TEST_PAUSE_MS);
  if (pauseMs > 0) {
    const pause = (point: string) => {
      process.stderr.write(`migrate-responses: test pause: ${point}\n`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pauseMs); // a signal waits for the set
    };
    seams.commit = {
      staged: (changes) => pause(`staged ${changes.map((c) => c.rel).join(', ')}`),
      renaming: (change, index) => {
        if (index > 0) pause(`renamed ${index}, next ${change.rel}`);
      },
    };
  }
  return seams;
}
