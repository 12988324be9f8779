/**
 * P-DEFAULT assumes OPENAI_BASE_URL is unset, since the SDK reads it whenever `baseURL` is
 * omitted. Where the project itself shows otherwise, a default client is not proven: an env
 * file beside the package that sets it to another host (`.env`, or a template such as `.env.example`),
 * or one the code loads by its path, or code that assigns `process.env.OPENAI_BASE_URL` (or writes
 * the environment without naming it) before the client is built.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { escapeRegExp } from '../regexp.js';
import { SDK_BASE_URL_ENV, isOpenAIHost } from '../rules/providers.js';
import { TEST_FILE } from './writes.js';

/**
 * The env files that dotenv, Next.js, Vite and Nuxt load, first; then every other env file of the
 * folder (`.env.example`, `.envExample`, `example.env`): those are not loaded, but a committed
 * template that sets another host says what the deployments set (probe of multi-provider code:
 * a package whose `.env` is ignored ships `.env.example` with OpenRouter's URL).
 */
const ENV_FILES = ['.env', '.env.local', '.env.development', '.env.development.local', '.env.production', '.env.production.local'];
const ENV_FILE_NAME = /^\.env[\w.-]*$|^[\w.-]+\.env$/i;

function envFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => ENV_FILE_NAME.test(n));
  } catch {
    return [];
  }
  const loaded = ENV_FILES.filter((n) => names.includes(n));
  return [...loaded, ...names.filter((n) => !loaded.includes(n)).sort()];
}

const ENV_LINE = new RegExp(`^\\s*(?:export\\s+)?${SDK_BASE_URL_ENV}\\s*=\\s*(.*)$`);
const NAME = escapeRegExp(SDK_BASE_URL_ENV);
/** `process.env.OPENAI_BASE_URL = …`, `process.env['OPENAI_BASE_URL'] ??= …`, `env.OPENAI_BASE_URL = …` (`const { env } = process`). */
export const BASE_URL_ENV_WRITE = new RegExp(`\\benv(?:\\.${NAME}|\\[\\s*['"\`]${NAME}['"\`]\\s*\\])\\s*(?:=(?![=>])|\\?\\?=|\\|\\|=)`);

/**
 * A write to the environment that may set OPENAI_BASE_URL without naming it (probe of gateways):
 * a computed key (`process.env[key] = value`, settings copied into the environment in a loop),
 * `Object.assign(process.env, …)`, `Object.defineProperty(process.env, …)`, `process.env = {…}`.
 */
export const UNNAMED_ENV_WRITE = /process\.env\[(?!\s*['"`][A-Za-z_]\w*['"`]\s*\])[^\]]+\]\s*(?:=(?![=>])|\?\?=|\|\|=)|Object\.(?:assign|defineProperty|defineProperties)\(\s*process\.env\b|process\.env\s*=(?![=>])/;

/**
 * Files whose environment is not the application's: tests (TEST_FILE), tool configurations
 * (`vitest.config.mts`) and scripts (`scripts/seed.ts`), which npm runs as processes of their own.
 */
export function runsInOwnProcess(file: string): boolean {
  return TEST_FILE.test(file) || /(?:^|[\\/])scripts?[\\/]|\.config\.[cm]?[jt]sx?$/.test(file);
}

/** The text without its comments (a commented-out `process.env = {…}` writes nothing). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[^]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

/**
 * Where an env file at or above `dir` (up to the nearest package.json) sets OPENAI_BASE_URL to a
 * host other than OpenAI's. A loaded file that sets it to OpenAI's own host settles it: the
 * templates are read only when no loaded file sets it.
 */
export function envFileBaseURL(dir: string, cache: Map<string, string | null>): string | undefined {
  const cached = cache.get(dir);
  if (cached !== undefined) return cached ?? undefined;
  let found: string | undefined;
  let settled = false;
  for (const name of envFilesIn(dir)) {
    const loaded = ENV_FILES.includes(name);
    if (settled && !loaded) break;
    const file = path.join(dir, name);
    let lines: string[];
    try {
      lines = readFileSync(file, 'utf8').split(/\r?\n/);
    } catch {
      continue; // a folder named like one, or unreadable
    }
    const index = lines.findIndex((line) => hostSet(line) === 'other');
    if (index >= 0) {
      found = `${file}:${index + 1}`;
      break;
    }
    if (loaded && lines.some((line) => hostSet(line) === 'openai')) settled = true;
  }
  const parent = path.dirname(dir);
  if (!found && !settled && !existsSync(path.join(dir, 'package.json')) && parent !== dir) found = envFileBaseURL(parent, cache);
  cache.set(dir, found ?? null);
  return found;
}

/** What `OPENAI_BASE_URL=…` on this line sets: OpenAI's own host, another (`${OTHER}` or a bare host too), or nothing. */
function hostSet(line: string): 'openai' | 'other' | undefined {
  const m = ENV_LINE.exec(line);
  if (!m) return undefined;
  const value = m[1].replace(/\s+#.*$/, '').trim().replace(/^(['"])(.*)\1$/, '$2').trim();
  if (value === '') return undefined;
  try {
    return isOpenAIHost(new URL(value).host) ? 'openai' : 'other';
  } catch {
    return 'other';
  }
}

/** A string that names an env file (`'config/lmstudio.env'`, `'../.env.local'`): the last segment is one. */
const ENV_FILE_LITERAL = /['"`]([^'"`\n$]*?(?:\.env[\w.-]*|[\w.-]+\.env))['"`]/g;

/**
 * Where an env file that a source file names (`dotenv.config({ path: 'config/lmstudio.env' })`,
 * Nest's `ConfigModule.forRoot({ envFilePath: 'config/local.env' })`) sets OPENAI_BASE_URL to a
 * host other than OpenAI's (probe of gateways): such a file is loaded although it is not one of
 * the names looked for beside the package. The path is tried from the source file's folder and
 * from its package root `root` (dotenv resolves it from the working directory, usually the root).
 */
export function namedEnvFileBaseURL(file: string, text: string, root: string): string | undefined {
  const dir = path.dirname(file);
  for (const m of text.matchAll(ENV_FILE_LITERAL)) {
    const name = m[1];
    if (!ENV_FILE_NAME.test(path.basename(name))) continue;
    for (const candidate of new Set([path.resolve(dir, name), path.resolve(root, name)])) {
      let lines: string[];
      try {
        lines = readFileSync(candidate, 'utf8').split(/\r?\n/);
      } catch {
        continue;
      }
      const index = lines.findIndex((line) => hostSet(line) === 'other');
      if (index >= 0) return `${candidate}:${index + 1}`;
    }
  }
  return undefined;
}

