/**
 * P-DEFAULT's search for code that sets OPENAI_BASE_URL (lib/scan/base-url-env.ts): the writes
 * that name the variable, and those that may set it without naming it (probe of gateways). The
 * end-to-end side is in fixtures/realworld/r101 (a settings loop) and r102 (a test's own writes).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_URL_ENV_WRITE, UNNAMED_ENV_WRITE } from '../lib/scan/base-url-env.js';

describe('writes that name OPENAI_BASE_URL', () => {
  for (const text of ["process.env.OPENAI_BASE_URL = 'http://localhost:1234/v1'", "process.env['OPENAI_BASE_URL'] ??= url", 'const { env } = process;\nenv.OPENAI_BASE_URL = url']) {
    it(text, () => assert.ok(BASE_URL_ENV_WRITE.test(text)));
  }
  for (const text of ['if (process.env.OPENAI_BASE_URL === url) {}', 'const u = process.env.OPENAI_BASE_URL', 'process.env.OPENAI_BASE_URL => 1']) {
    it(`not: ${text}`, () => assert.ok(!BASE_URL_ENV_WRITE.test(text)));
  }
});

describe('writes that may set it without naming it', () => {
  for (const text of [
    'for (const [k, v] of Object.entries(settings)) process.env[k] = v;',
    'const KEY = "OPENAI_BASE_URL"; process.env[KEY] = url;',
    'process.env[name] ??= value',
    'Object.assign(process.env, profile)',
    "Object.defineProperty(process.env, 'OPENAI_BASE_URL', { value: url })",
    'process.env = { ...process.env, ...overrides }',
  ]) {
    it(text, () => assert.ok(UNNAMED_ENV_WRITE.test(text)));
  }
  for (const text of ["process.env['LOG_LEVEL'] = 'debug'", 'if (process.env[k] === undefined) {}', 'const v = process.env[k]', 'process.env == null']) {
    it(`not: ${text}`, () => assert.ok(!UNNAMED_ENV_WRITE.test(text)));
  }
});
