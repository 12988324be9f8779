#!/usr/bin/env node
/**
 * The entry point. The helper thread (lib/helper.ts) is started before anything else is loaded,
 * so that it boots while the CLI's modules load; the CLI itself is lib/cli.ts.
 */
import { startHelper } from '../lib/helper.js';

const helper = startHelper();
// output piped into a reader that stops early (`| head`): stop quietly, as other CLIs do
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});
const { main, EXIT_FOUND } = await import('../lib/cli.js');
main(process.argv, helper).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`migrate-responses: internal error: ${(err as Error).stack ?? err}\n`);
    process.exitCode = EXIT_FOUND;
  },
).finally(() => helper.close());
