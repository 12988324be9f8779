/**
 * P-DEFAULT assumes OPENAI_BASE_URL is unset, since the SDK reads it whenever `baseURL` is
 * omitted. Where the project itself shows otherwise, a default client is not proven: a `.env`
 * file beside the package that sets it to another host (dotenv and the frameworks load these),
 * or code that assigns `process.env.OPENAI_BASE_URL` before the client is built.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeRegExp } from '../regexp.js';
import { SDK_BASE_URL_ENV, isOpenAIHost } from '../rules/providers.js';

/** The env files that dotenv, Next.js, Vite and Nuxt load (examples and templates are not). */
const ENV_FILES = ['.env', '.env.local', '.env.development', '.env.development.local', '.env.production', '.env.production.local'];

const ENV_LINE = new RegExp(`^\\s*(?:export\\s+)?${SDK_BASE_URL_ENV}\\s*=\\s*(.*)$`);
const NAME = escapeRegExp(SDK_BASE_URL_ENV);
/** `process.env.OPENAI_BASE_URL = …`, `process.env['OPENAI_BASE_URL'] ??= …`. */
export const BASE_URL_ENV_WRITE = new RegExp(`process\\.env(?:\\.${NAME}|\\[\\s*['"\`]${NAME}['"\`]\\s*\\])\\s*(?:=(?![=>])|\\?\\?=|\\|\\|=)`);

/** Where an env file at or above `dir` (up to the nearest package.json) sets OPENAI_BASE_URL to a host other than OpenAI's. */
export function envFileBaseURL(dir: string, cache: Map<string, string | null>): string | undefined {
  const cached = cache.get(dir);
  if (cached !== undefined) return cached ?? undefined;
  let found: string | undefined;
  for (const name of ENV_FILES) {
    const file = path.join(dir, name);
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    const index = lines.findIndex((line) => overridesHost(line));
    if (index >= 0) {
      found = `${file}:${index + 1}`;
      break;
    }
  }
  const parent = path.dirname(dir);
  if (!found && !existsSync(path.join(dir, 'package.json')) && parent !== dir) found = envFileBaseURL(parent, cache);
  cache.set(dir, found ?? null);
  return found;
}

/** `OPENAI_BASE_URL=https://openrouter.ai/api/v1` (not empty, not OpenAI's own host). */
function overridesHost(line: string): boolean {
  const m = ENV_LINE.exec(line);
  if (!m) return false;
  const value = m[1].replace(/\s+#.*$/, '').trim().replace(/^(['"])(.*)\1$/, '$2').trim();
  if (value === '') return false;
  try {
    return !isOpenAIHost(new URL(value).host);
  } catch {
    return true; // `${OTHER}` or a bare host: not provably OpenAI's
  }
}
