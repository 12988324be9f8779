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

const LAZY = new Set(['class:lazy-getter', 'class:static-lazy']);

export const KNOWN_ISSUES: KnownIssue[] = [
  {
    id: 'lazy-client-field',
    summary:
      'lib/scan/provider.ts (fromThisField): a client field filled lazily is not followed to its construction: ' +
      '`this._c ??= new OpenAI()` is not an assignment there, a `null` initialiser counts as an unproven client, ' +
      'a static field assigned through the class name (`Cls._c = …`, `Cls.#c = …`) is never seen; ' +
      'the site gets provider-unknown:injected instead of its client\'s provider',
    matches: (f, program) => {
      const m = f.mismatch;
      if (f.kind !== 'outcome' || !m || !program.shapes.some((s) => LAZY.has(s))) return false;
      // an ignored site lists no reasons: the provider and its evidence say it
      if (m.what === 'provider' && m.status === 'ignored') return m.provider === 'unknown' && /never constructed in view|never assigned in view|^null in /.test(m.evidence ?? '');
      if (!m.reasons?.includes('provider-unknown:injected')) return false;
      return m.what === 'provider' || (m.what === 'reasons' && (m.missing ?? []).every((r) => r.startsWith('provider-')));
    },
  },
];

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
