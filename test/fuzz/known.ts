/**
 * Tool bugs the fuzzer finds in code this branch does not edit (lib/scan/provider.ts,
 * find-sites.ts, index.ts are being changed by the lead), each reported with a reproduction. The
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

const ALIASED = new Set(['completions-alias', 'completions-destructure', 'detached-call']);

export const KNOWN_ISSUES: KnownIssue[] = [
  {
    id: 'completions-alias-missed',
    summary:
      'lib/scan/find-sites.ts: a call through a completions resource (`const completions = client.chat.completions`, ' +
      '`const { completions } = client.chat`) and a destructured detached create (`const { create } = client.chat.completions`) ' +
      'are not listed at all (a silent miss; `const chat = client.chat` and `const create = client.chat.completions.create` are)',
    matches: (f) => {
      const m = f.mismatch;
      return f.kind === 'outcome' && m?.what === 'count' && m.listed === 0 && ALIASED.has(m.expected?.receiver ?? '');
    },
  },
  {
    id: 'indirect-call-not-analysed',
    summary:
      'lib/scan/index.ts (analyseSite): a site called through .call/.apply/.bind is not analysed past its receiver, ' +
      'so the reasons of its request and result are not listed (G-ATOMIC: every failing reason is listed)',
    matches: (f) => {
      const m = f.mismatch;
      return f.kind === 'outcome' && m?.what === 'reasons' && (m.reasons ?? []).some((r) => r.startsWith('receiver-not-client')) &&
        (m.expected?.receiver === 'bind' || m.expected?.receiver === 'call');
    },
  },
];

/**
 * The known issue a failure is a case of. A `sites` failure (the total count) is known when its
 * program has per-function count failures and every one of them is known.
 */
export function knownIssueOf(f: Failure, all: readonly Failure[]): KnownIssue | undefined {
  if (f.kind !== 'outcome' && f.kind !== 'sites') return undefined;
  const program = generateProgram(f.seed, { classic: f.classic });
  if (f.kind === 'outcome') return KNOWN_ISSUES.find((k) => k.matches(f, program));
  const counts = all.filter((g) => g.seed === f.seed && g.kind === 'outcome' && g.mismatch?.what === 'count');
  const issues = counts.map((g) => KNOWN_ISSUES.find((k) => k.matches(g, program)));
  return counts.length && issues.every(Boolean) ? issues[0] : undefined;
}
