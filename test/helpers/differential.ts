/**
 * The differential run: a program before and after migration, both run with the real `openai`
 * SDK against the fake OpenAI server (loopback), must print the same thing and ask for the same
 * thing (canonical requests, effective defaults included).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import type { FakeServer, RecordedRequest } from '../fake-openai/index.js';
import { REPO } from './fixtures.js';
import type { PackageJson } from '../../lib/project/layout.js';
import { sdkDeclarations } from '../../lib/project/sdk-names.js';

const exec = promisify(execFile);

export interface ProgramRun {
  stdout: string;
  stderr: string;
  exitCode: number;
  requests: RecordedRequest[];
}

/** Files of one program version: relative path → source text. `main` is the entry (relative). */
export interface ProgramFiles {
  files: Map<string, string>;
  main: string;
  /** The package.json the program runs under (its `type` decides what `.js` is); default `{ "type": "module" }`. */
  packageJson?: string;
}

/** Transpile TypeScript to ESM JavaScript next to each other, keeping relative layout. */
function emit(dir: string, program: ProgramFiles): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), program.packageJson ?? '{ "type": "module" }\n');
  // the SDK installed under an npm alias (`"openai-next": "npm:openai@^6"`) is this repository's openai
  for (const { name } of program.packageJson ? sdkDeclarations(JSON.parse(program.packageJson) as PackageJson) : []) {
    if (name === 'openai') continue;
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules', 'openai'), path.join(dir, 'node_modules', name), 'dir');
  }
  let main = program.main;
  for (const [rel, text] of program.files) {
    const ext = path.extname(rel);
    let outRel = rel;
    let out = text;
    if (ext === '.ts' || ext === '.mts' || ext === '.cts') {
      outRel = rel.slice(0, -ext.length) + (ext === '.cts' ? '.cjs' : '.js');
      out = ts.transpileModule(text, {
        fileName: rel,
        compilerOptions: { module: ext === '.cts' ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      }).outputText;
    }
    if (rel === program.main) main = outRel;
    const target = path.join(dir, outRel);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, out);
  }
  return main;
}

export async function runProgram(server: FakeServer, program: ProgramFiles, label: string): Promise<ProgramRun> {
  const key = `sk-${label}-${randomBytes(6).toString('hex')}`;
  const dir = path.join(REPO, 'test', 'tmp', 'run', key);
  try {
    const main = emit(dir, program);
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    try {
      const r = await exec(process.execPath, [main], {
        cwd: dir,
        timeout: 30_000,
        env: { PATH: process.env.PATH, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: key, NODE_NO_WARNINGS: '1' },
      });
      stdout = r.stdout;
      stderr = r.stderr;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; code?: number };
      stdout = e.stdout ?? '';
      stderr = e.stderr ?? '';
      exitCode = typeof e.code === 'number' ? e.code : 1;
    }
    return { stdout, stderr, exitCode, requests: server.requests(key) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export { cpSync };
