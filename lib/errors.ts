/** A user mistake (e.g. a root that does not exist): the CLI maps it to exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
