/**
 * Tool bugs the fuzzer finds in code this branch does not edit (lib/scan/provider.ts,
 * find-sites.ts, index.ts, streams.ts, transforms/ are the lead's), each reported with a reproduction. The
 * bounded test (test/fuzz.test.ts) lists their failures under a todo test instead of failing on
 * them, and scripts/fuzz.ts labels them; every other failure still fails. A matcher is as narrow
 * as its bug: the failure kind, the generator shape that triggers it, and what the report says.
 * Remove an entry when its bug is fixed (the todo test then says it no longer occurs).
 */
import { generateProgram, type GeneratedProgram } from './generator.js';
import type { Failure } from './properties.js';

export interface KnownIssue {
  id: string;
  /** Where the bug is and what it does. */
  summary: string;
  matches(f: Failure, program: GeneratedProgram): boolean;
}

export const KNOWN_ISSUES: KnownIssue[] = [];

/**
 * The known issue a failure is a case of. A `sites` failure (the total count) is known when its
 * program has per-function count failures and every one of them is known.
 */
export function knownIssueOf(f: Failure, all: readonly Failure[]): KnownIssue | undefined {
  if (f.kind !== 'outcome' && f.kind !== 'sites' && f.kind !== 'idempotency') return undefined;
  const program = generateProgram(f.seed, { classic: f.classic });
  if (f.kind !== 'sites') return KNOWN_ISSUES.find((k) => k.matches(f, program));
  const counts = all.filter((g) => g.seed === f.seed && g.kind === 'outcome' && g.mismatch?.what === 'count');
  const issues = counts.map((g) => KNOWN_ISSUES.find((k) => k.matches(g, program)));
  return counts.length && issues.every(Boolean) ? issues[0] : undefined;
}
