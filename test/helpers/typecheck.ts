/**
 * Type-check files against the real `openai` types, 6.x (the lockfile's `openai`) or 7.x (the
 * `openai7` alias), with one `tsc --noEmit` run per SDK line. Files are copied into a scratch
 * project whose node_modules/openai points at the chosen line.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './fixtures.js';

const run = promisify(execFile);

export type SdkLine = 'openai6' | 'openai7';

export interface TypeError {
  /** Path relative to the base folder the files came from. */
  file: string;
  line: number;
  message: string;
}

/**
 * `files` are absolute paths under `base`; they keep their relative layout so relative imports
 * work. Returns the errors per file (relative to base).
 */
export async function typecheck(base: string, files: string[], sdk: SdkLine): Promise<TypeError[]> {
  return typecheckTexts(base, files.map((file) => ({ file })), sdk);
}

/**
 * Like typecheck, with some files' texts replaced (a migrated version that is not on disk).
 * `compilerOptions` are added to the strict NodeNext defaults (stricter flags, another resolution).
 * `sdkAliases` are other names the SDK is installed under (`"openai-next": "npm:openai@^6"`).
 */
export async function typecheckTexts(base: string, entries: { file: string; text?: string }[], sdk: SdkLine, compilerOptions: Record<string, unknown> = {}, sdkAliases: readonly string[] = []): Promise<TypeError[]> {
  const scratch = path.join(REPO, 'test', 'tmp', `typecheck-${sdk}-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(path.join(scratch, 'node_modules'), { recursive: true });
  const line = path.join(REPO, 'node_modules', sdk === 'openai7' ? 'openai7' : 'openai');
  if (sdk === 'openai7') symlinkSync(line, path.join(scratch, 'node_modules', 'openai'), 'dir');
  for (const alias of sdkAliases) symlinkSync(line, path.join(scratch, 'node_modules', alias), 'dir');
  writeFileSync(path.join(scratch, 'package.json'), '{ "type": "module" }\n');
  const copied: string[] = [];
  for (const { file, text } of entries) {
    const rel = path.relative(base, file);
    const target = path.join(scratch, 'src', rel);
    mkdirSync(path.dirname(target), { recursive: true });
    if (text === undefined) cpSync(file, target);
    else writeFileSync(target, text);
    copied.push(path.join('src', rel));
  }
  writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext',
      skipLibCheck: true, types: ['node'], typeRoots: [path.join(REPO, 'node_modules', '@types')],
      allowJs: false, jsx: 'preserve', noUnusedLocals: false,
      ...compilerOptions,
    },
    files: copied,
  }, null, 2));
  let output = '';
  try {
    await run(process.execPath, [path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { cwd: scratch, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    output = `${(err as { stdout?: string }).stdout ?? ''}`;
    if (!output.trim()) throw err;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const errors: TypeError[] = [];
  for (const line of output.split('\n')) {
    const m = /^src\/(.+?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line.trim());
    if (m) errors.push({ file: m[1], line: Number(m[2]), message: m[3] });
  }
  return errors;
}
