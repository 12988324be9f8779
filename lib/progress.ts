/**
 * Progress on stderr for long runs: a spinner with the current phase, shown only when stderr is a
 * terminal and stdout is not a machine-readable report, and only after a short delay so quick
 * runs print nothing extra.
 */
import yoctoSpinner from 'yocto-spinner';

export interface ProgressHooks {
  phase(text: string): void;
  done(): void;
}

export const NO_PROGRESS: ProgressHooks = { phase() {}, done() {} };

/** A spinner that appears once a run has lasted `delayMs`. */
export function terminalProgress(delayMs = 400): ProgressHooks {
  // the write phase handles SIGINT/SIGTERM itself (a write set is finished, never cut): no signal traps here
  const spinner = yoctoSpinner({ stream: process.stderr, handleSignals: false });
  let text = '';
  let started = false;
  const timer = setTimeout(() => {
    started = true;
    spinner.start(text);
  }, delayMs);
  timer.unref();
  return {
    phase(next) {
      text = next;
      if (started) spinner.text = next;
    },
    done() {
      clearTimeout(timer);
      if (started) spinner.clear();
      started = false;
    },
  };
}
