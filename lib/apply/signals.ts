/**
 * SIGINT / SIGTERM during the write phase: recorded, not obeyed at once. The write set being
 * written finishes or rolls back completely (lib/apply/commit.ts is synchronous, so the handler
 * only runs between sets), and no later set starts.
 */
export interface SignalTrap {
  /** The first signal received since the trap was set, if any. */
  received(): NodeJS.Signals | undefined;
  /** Gives a pending signal the chance to reach the trap (one turn of the event loop). */
  settle(): Promise<void>;
  /** Removes the handlers: the default behaviour (exit) applies again. */
  release(): void;
}

export function trapSignals(): SignalTrap {
  let signal: NodeJS.Signals | undefined;
  const stop = (s: NodeJS.Signals) => {
    signal ??= s;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    received: () => signal,
    settle: () => new Promise((resolve) => setImmediate(resolve)),
    release() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
