/**
 * Issue 12's second corpus figure: what the migrated code of the real-world corpus looks like.
 * For every repository whose last report (bench/out/corpus/<name>.report.json, from run.ts)
 * changes a file, copy its export, run the built tool on the copy for real (not --dry-run), and check:
 *
 *   1. every changed or created file parses (its original did);
 *   2. a second run on the migrated copy changes nothing (idempotent);
 *   3. type-checking adds no diagnostic: the changed TypeScript files and the files importing them,
 *      under the repository's own tsconfig, before and after, against openai 6 and the openai 7
 *      declarations (`openai7` alias). Third-party modules are not installed, so both sides see
 *      the same unresolved imports; a diagnostic only the migrated side has is a regression.
 *
 *   node --import tsx bench/corpus/verify.ts [--only a+b,c+d] [--keep]
 *
 * Prints one line per repository and the totals; exits 1 when any check fails. The copies go to
 * a temporary directory that is removed unless --keep is given.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, type Dirent } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const OUT = path.join(REPO, 'bench', 'out', 'corpus');
const BIN = path.join(REPO, 'dist', 'bin', 'migrate-responses.js');
const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const ONLY = onlyAt >= 0 ? args[onlyAt + 1]?.split(',') : undefined;
const KEEP = args.includes('--keep');

const TS_FILE = /\.(?:[cm]?ts|tsx)$/;
const PARSED = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SDK_LINES = [{ name: 'openai 6', pkg: 'openai' }, { name: 'openai 7', pkg: 'openai7' }];

interface Saved { root: string; report?: { changedFiles: string[] } }
interface RepoCheck { name: string; changed: number; problems: string[]; typeChecked: number }

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

function parseErrors(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, scriptKind(file));
  // parseDiagnostics is internal but stable: the syntax errors of one file, without a program
  const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  return diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

function runTool(cwd: string, root: string, dryRun: boolean): { status: number | null; report?: { changedFiles: string[] }; stderr: string } {
  const flags = dryRun ? ['--dry-run', '--format', 'json'] : ['--force', '--format', 'json'];
  const run = spawnSync(process.execPath, [BIN, root, ...flags], { cwd, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: '1' } });
  try {
    return { status: run.status, report: JSON.parse(run.stdout), stderr: run.stderr };
  } catch {
    return { status: run.status, stderr: run.stderr };
  }
}

function walkSources(dir: string, out: string[] = []): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkSources(p, out);
    else if (TS_FILE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function nearestTsconfig(file: string, top: string): string | undefined {
  for (let dir = path.dirname(file); dir.startsWith(top); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dir === top) break;
  }
  return undefined;
}

const FALLBACK_OPTIONS: ts.CompilerOptions = {
  strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve, esModuleInterop: true,
};

function compilerOptions(tsconfig: string | undefined): ts.CompilerOptions {
  let options = FALLBACK_OPTIONS;
  if (tsconfig) {
    // an `extends` into an uninstalled package fails; what the file itself says is still used
    const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (parsed) options = parsed.options;
  }
  return {
    // @types/node as every Node project has it: without it (or the DOM lib) the SDK's fetch types
    // are missing and its results `any`
    ...options, noEmit: true, skipLibCheck: true, typeRoots: [path.join(REPO, 'node_modules', '@types')], types: ['node'],
    allowJs: false, checkJs: false,
    incremental: false, composite: false, declaration: false, emitDeclarationOnly: false, tsBuildInfoFile: undefined,
  };
}

/**
 * Diagnostics of `roots` (paths relative to `top`), by "file: TSnnnn" with their messages. Counted
 * by code, not by text: a message prints a union in the order its types were created, which
 * differs between two programs.
 */
function diagnostics(top: string, roots: string[], options: ts.CompilerOptions, sdkPackage: string): Map<string, string[]> {
  const host = ts.createCompilerHost(options);
  const sdkOptions: ts.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext };
  const anchor = path.join(REPO, 'index.ts');
  host.resolveModuleNames = (names, containing) => names.map((name) => {
    if (name === 'openai' || name.startsWith('openai/')) {
      return ts.resolveModuleName(sdkPackage + name.slice('openai'.length), anchor, sdkOptions, ts.sys).resolvedModule;
    }
    // zod is the SDK helpers' peer: a schema typed `any` would make the parsed result `any`
    if (name === 'zod' || name.startsWith('zod/')) return ts.resolveModuleName(name, anchor, sdkOptions, ts.sys).resolvedModule;
    // the SDK's own declarations import zod and the like, installed with it in this repository
    if (!containing.startsWith(top)) return ts.resolveModuleName(name, containing, sdkOptions, ts.sys).resolvedModule;
    const resolved = ts.resolveModuleName(name, containing, options, host).resolvedModule;
    // the export lives under this repository, whose node_modules the copy does not see: only
    // what the repository itself holds resolves, the same on both sides
    return resolved && !path.relative(top, resolved.resolvedFileName).startsWith('..') ? resolved : undefined;
  });
  const files = roots.map((r) => path.join(top, r)).filter((f) => existsSync(f));
  const program = ts.createProgram(files, options, host);
  const found = new Map<string, string[]>();
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const key = `${path.relative(top, file)}: TS${d.code}`;
      const line = d.start === undefined ? '?' : sf.getLineAndCharacterOfPosition(d.start).line + 1;
      const text = ts.flattenDiagnosticMessageText(d.messageText, ' ').split(top + path.sep).join('');
      found.set(key, [...(found.get(key) ?? []), `line ${line}: ${text}`]);
    }
  }
  return found;
}

/** The changed TypeScript files and the files of the same project that import one of them. */
function typeCheckRoots(top: string, changed: string[]): Map<string | undefined, string[]> {
  const byProject = new Map<string | undefined, string[]>();
  const changedTs = changed.filter((f) => TS_FILE.test(f) && !f.endsWith('.d.ts'));
  for (const rel of changedTs) {
    const tsconfig = nearestTsconfig(path.join(top, rel), top);
    byProject.set(tsconfig, [...(byProject.get(tsconfig) ?? []), rel]);
  }
  for (const [tsconfig, files] of byProject) {
    const dir = tsconfig ? path.dirname(tsconfig) : top;
    const stems = files.map((f) => path.basename(f).replace(/\.[^.]+$/, ''));
    for (const candidate of walkSources(dir)) {
      const rel = path.relative(top, candidate);
      if (files.includes(rel)) continue;
      const text = readFileSync(candidate, 'utf8');
      if (stems.some((stem) => text.includes(`/${stem}'`) || text.includes(`/${stem}"`) || text.includes(`/${stem}.js'`) || text.includes(`/${stem}.js"`))) files.push(rel);
    }
  }
  return byProject;
}

function checkRepo(name: string, saved: Saved, scratch: string): RepoCheck {
  const original = path.join(OUT, name);
  const copy = path.join(scratch, name);
  const check: RepoCheck = { name, changed: 0, problems: [], typeChecked: 0 };
  cpSync(original, copy, { recursive: true });
  const first = runTool(copy, saved.root, false);
  if (!first.report) {
    check.problems.push(`the tool wrote no report (exit ${first.status}): ${first.stderr.trim().slice(-300)}`);
    return check;
  }
  const changed = first.report.changedFiles; // relative to the working directory, the export
  check.changed = changed.length;

  for (const rel of changed.filter((f) => PARSED.test(f))) {
    const before = path.join(original, rel);
    if (existsSync(before) && parseErrors(before).length > 0) continue;
    const errors = parseErrors(path.join(copy, rel));
    if (errors.length > 0) check.problems.push(`${rel} does not parse: ${errors[0]}`);
  }

  const second = runTool(copy, saved.root, true);
  if (!second.report) check.problems.push(`the second run wrote no report (exit ${second.status})`);
  else if (second.report.changedFiles.length > 0) check.problems.push(`a second run changes ${second.report.changedFiles.join(', ')}`);

  for (const [tsconfig, roots] of typeCheckRoots(copy, changed)) {
    const options = compilerOptions(tsconfig);
    const beforeOptions = compilerOptions(tsconfig && path.join(original, path.relative(copy, tsconfig)));
    check.typeChecked += roots.length;
    for (const sdk of SDK_LINES) {
      const before = diagnostics(original, roots, beforeOptions, sdk.pkg);
      const after = diagnostics(copy, roots, options, sdk.pkg);
      for (const [key, messages] of after) {
        const had = before.get(key) ?? [];
        if (messages.length <= had.length) continue;
        const added = messages.filter((m) => !had.some((h) => h.slice(h.indexOf(':')) === m.slice(m.indexOf(':'))));
        check.problems.push(`${sdk.name}: ${key} (${had.length} before, ${messages.length} after) ${(added[0] ?? messages[0]).slice(0, 400)}`);
      }
    }
  }
  return check;
}

function main(): void {
  if (!existsSync(BIN)) {
    console.error('dist/bin/migrate-responses.js is missing: run npm run build first');
    process.exit(2);
  }
  const names = readdirSync(OUT).filter((f) => f.endsWith('.report.json')).map((f) => f.replace(/\.report\.json$/, ''))
    .filter((n) => !ONLY || ONLY.includes(n)).sort();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'corpus-verify-'));
  const checks: RepoCheck[] = [];
  try {
    for (const name of names) {
      const saved = JSON.parse(readFileSync(path.join(OUT, `${name}.report.json`), 'utf8')) as Saved;
      if (!saved.report?.changedFiles.length) continue;
      const check = checkRepo(name, saved, scratch);
      checks.push(check);
      console.log(`${check.problems.length ? 'FAIL' : 'ok  '} ${name}: ${check.changed} files changed, ${check.typeChecked} type-checked`);
      for (const p of check.problems) console.log(`       ${p}`);
    }
  } finally {
    if (KEEP) console.log(`copies kept in ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  const failed = checks.filter((c) => c.problems.length > 0);
  const changed = checks.reduce((n, c) => n + c.changed, 0);
  const typeChecked = checks.reduce((n, c) => n + c.typeChecked, 0);
  console.log(`\n${checks.length} repositories changed ${changed} files; ${typeChecked} files type-checked before and after on openai 6 and 7; ${failed.length} with a problem.`);
  process.exit(failed.length > 0 ? 1 : 0);
}

main();
