/**
 * Scanner fixtures: for every pattern of the catalogue (docs/migration-spec.md §10: P01–P32) and every
 * look-alike (N01–N10), the report entries must be exactly the hand-reviewed ones in
 * expected.json: same sites, positions, api, kinds, provider, status and reason codes, and the
 * client's evidence where a fixture states it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SiteRecord } from '../lib/report/model.js';
import { run } from '../lib/run.js';
import { fixtureOptions, loadFixtures, type ExpectedSite } from './helpers/fixtures.js';

function actualEntry(s: SiteRecord, expected?: ExpectedSite): ExpectedSite {
  const reasons = s.reasons.map((r) => {
    const full = r.detail !== undefined ? `${r.code}:${r.detail}` : r.code;
    // a bare expected code matches any detail
    return expected?.reasons.includes(r.code) ? r.code : full;
  });
  return {
    file: s.file, line: s.line, column: s.column, api: s.api, kinds: s.kinds,
    provider: s.client.provider, status: s.status, reasons: reasons.sort(),
    // the evidence is compared where the fixture states it (the constructions that prove a client)
    ...(expected?.evidence !== undefined ? { evidence: s.client.evidence } : {}),
  };
}

describe('scanner fixtures', () => {
  for (const fixture of loadFixtures()) {
    it(`${fixture.name}: ${fixture.expected.description}`, async () => {
      const { report } = await run(fixtureOptions(fixture));
      const expectedSites = [...fixture.expected.sites]
        .map((s) => ({ ...s, reasons: [...s.reasons].sort() }))
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
      const actual = [...report.sites]
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column)
        .map((s) => actualEntry(s, expectedSites.find((e) => e.file === s.file && e.line === s.line && e.column === s.column)));
      assert.deepEqual(actual, expectedSites);
      const notices = report.notices.map((n) => ({ file: n.file, code: n.code }));
      assert.deepEqual(notices, fixture.expected.notices ?? []);
      assert.deepEqual(report.errors.map((e) => ({ file: e.file })), fixture.expected.errors ?? []);
    });
  }
});
