/**
 * Where a run-time converter of a package lives (the messages converter of M-CONTENT-UNTYPED,
 * docs/migration-spec.md §3; the tools converter of R-TOOLS-UNTYPED, §2, placed the same way under
 * its own name), and how each file imports it. One module per package (the nearest package.json, or the
 * repository top where there is none; for a TypeScript file, the folder of its nearest
 * tsconfig.json when that is inside the package), at a
 * place that depends only on the package (never on which sites a run finds), so a later run
 * finds it again:
 *
 *   <source root>/to-responses-input.<ext>   (`_to-responses-input` in a top-level `api/` folder)
 *   <source root>/to-responses-tools.<ext>   (`_to-responses-tools` there)
 *
 * The source root is the package's tsconfig/jsconfig `rootDir`, else the one folder its `include`
 * names, else its `src/` folder, else the folder of its `main` entry (not a build folder), else
 * the package folder. The module is the package's language
 * and module system: TypeScript (`.ts`) when a TypeScript file needs it, else JavaScript ESM
 * (`.js` in a `"type": "module"` package or where every importer is an ES module `.js` file,
 * `.mjs` otherwise: extensionOf), else CommonJS (`.cjs` in a
 * `"type": "module"` package, `.js` otherwise). A file of that name that this tool did not write
 * (its header says so) is never touched: the sites are reported instead. So are sites whose file
 * cannot import the module (another language or module system than the package's module), and
 * sites whose package would get a new module outside the paths given.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { relativePath } from '../files.js';
import { DEFAULT_IGNORED_DIRS } from '../options.js';
import { isFile, type PackageInfo, type ProjectLayout } from '../project/layout.js';
import ts from '../scan/typescript.cjs';
import { someNode } from '../scan/ast.js';
import { commonJsExportWrites, isRequireCall } from '../scan/commonjs.js';
import type { CreatedFile } from '../plan.js';
import { importStyleOf } from './import-style.js';
import { isOwnModule, MESSAGES_CONVERTER, renderModule, type ConverterFlavour, type ConverterModule } from './converter.js';

/** Extensions a file of the converter's name may have; any of them that is not ours blocks the package. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs'] as const;

export type Placement =
  | { ok: true; moduleFile: string; specifier: string }
  | { ok: false; why: string };

export interface PlacementResult {
  /** For each importing file (absolute path). */
  byFile: Map<string, Placement>;
  /** Modules to create (each only if a migrated site ends up importing it). */
  created: CreatedFile[];
}

interface Existing {
  file: string;
  flavour?: ConverterFlavour;
}

/**
 * What shows a file is a Deno module (a Supabase Edge Function, a Deno Deploy script): an
 * `npm:`, `jsr:` or URL import, or a deno.json between it and its package.json. Undefined for a
 * Node module.
 */
function denoModule(sf: ts.SourceFile, packageDir: string | undefined): string | undefined {
  for (const st of sf.statements) {
    const spec = (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
    if (spec && /^(npm:|jsr:|https?:\/\/)/.test(spec)) return `it imports ${spec}`;
  }
  for (let dir = path.dirname(sf.fileName); ; dir = path.dirname(dir)) {
    for (const name of ['deno.json', 'deno.jsonc']) if (isFile(path.join(dir, name))) return `${name} in ${path.basename(dir)}`;
    if (dir === packageDir || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Places the converter `module` (the messages converter, or the tools converter) for every file
 * that needs it. `roots`: absolute paths the run was given (as given and real); a new module must
 * be inside one of them, or in the folder of a file given.
 */
export function placeConverters(files: { file: string; sf: ts.SourceFile }[], layout: ProjectLayout, roots: readonly string[], cwd: string, module: ConverterModule = MESSAGES_CONVERTER): PlacementResult {
  const byFile = new Map<string, Placement>();
  const created: CreatedFile[] = [];
  const byPackage = new Map<string, { pkg: PackageInfo; files: { file: string; sf: ts.SourceFile; wants: ConverterFlavour | string }[] }>();
  for (const { file, sf } of files) {
    if (byFile.has(file)) continue;
    const pkg = layout.packageFor(file) ?? repositoryPackage(file, layout);
    const deno = denoModule(sf, pkg?.dir);
    if (deno) {
      byFile.set(file, { ok: false, why: `a Deno module (${deno}): the run-time converter module is written for Node packages, and Deno resolves neither its extensionless import nor its bare 'openai' types` });
      continue;
    }
    if (!pkg) {
      byFile.set(file, { ok: false, why: 'neither a package.json nor a repository top (.git) above this file to hold the run-time converter module' });
      continue;
    }
    const unit = placementUnit(file, pkg, layout);
    const entry = byPackage.get(unit.dir) ?? { pkg: unit, files: [] };
    entry.files.push({ file, sf, wants: flavourOf(sf, pkg) });
    byPackage.set(unit.dir, entry);
    byFile.set(file, { ok: false, why: 'pending' });
  }
  for (const { pkg, files: members } of byPackage.values()) {
    const dir = sourceRoot(pkg, layout);
    const shown = (f: string) => relativePath(cwd, f);
    const basename = converterBasename(dir, pkg, module);
    const existing = EXTENSIONS.map((ext) => path.join(dir, basename + ext)).filter(isFile).map((file) => readExisting(file, module));
    const foreign = existing.find((e) => !e.flavour);
    if (foreign) {
      for (const m of members) byFile.set(m.file, { ok: false, why: `${shown(foreign.file)} exists and was not written by migrate-responses, so the run-time converter cannot go there` });
      continue;
    }
    let placed: Existing | undefined;
    if (existing.length) {
      placed = existing.find((e) => members.some((m) => m.wants === e.flavour)) ?? existing[0];
    } else {
      const wanted = (['ts', 'esm', 'cjs'] as const).find((f) => members.some((m) => m.wants === f));
      if (!wanted) {
        for (const m of members) byFile.set(m.file, { ok: false, why: m.wants });
        continue;
      }
      const file = path.join(dir, basename + extensionOf(wanted, pkg, members.filter((m) => m.wants === wanted).map((m) => m.file)));
      if (!mayCreate(file, roots)) {
        for (const m of members) byFile.set(m.file, { ok: false, why: `the run-time converter module would be created at ${shown(file)}, outside the paths given; run the tool on the package to let it create it` });
        continue;
      }
      if (isNetlifyFunctions(dir)) {
        for (const m of members) byFile.set(m.file, { ok: false, why: `the run-time converter module would be created at ${shown(file)}, where Netlify deploys every file as a function` });
        continue;
      }
      created.push({ file, text: renderModule(module, wanted) });
      placed = { file, flavour: wanted };
    }
    const blocked = placed.flavour === 'ts' ? commonJsVerbatim(placed.file, pkg, layout) : undefined;
    for (const m of members) {
      if (blocked && m.wants === 'ts') {
        byFile.set(m.file, { ok: false, why: blocked });
        continue;
      }
      if (m.wants !== placed.flavour) {
        const why = isFlavour(m.wants) ? `the package's run-time converter ${shown(placed.file)} is ${FLAVOUR_NAMES[placed.flavour!]}, which this ${FLAVOUR_NAMES[m.wants]} file cannot import` : m.wants;
        byFile.set(m.file, { ok: false, why });
        continue;
      }
      const specifier = specifierFor(m.file, m.sf, placed.file, placed.flavour!, pkg, layout);
      if (nameTaken(m.sf, specifier, module.name)) {
        byFile.set(m.file, { ok: false, why: `the name ${module.name} is already used in this file` });
        continue;
      }
      byFile.set(m.file, { ok: true, moduleFile: placed.file, specifier });
    }
  }
  return { byFile, created };
}

/**
 * A repository without a package.json (a script beside its README, run with `node chatbot.js`)
 * is one package without a manifest: the module goes to its top, a place that does not depend on
 * which sites a run finds. Node reads its `.js` files as CommonJS (no `"type"`), as the files
 * that import the module are read. Undefined outside a repository: no stable place.
 */
function repositoryPackage(file: string, layout: ProjectLayout): PackageInfo | undefined {
  const top = layout.repositoryTopOf(path.dirname(file));
  return top === undefined ? undefined : { dir: top, json: {} };
}

/**
 * The folder a module is placed for: the package, or for a TypeScript file the folder of its
 * nearest tsconfig.json when that lies inside the package (an Nx app's `apps/api/tsconfig.json`
 * under the workspace's one package.json): such a project compiles the files its `include` names
 * (`src/**\/*.ts`), and a module at the package's root would be outside them.
 */
function placementUnit(file: string, pkg: PackageInfo, layout: ProjectLayout): PackageInfo {
  if (!/\.(c|m)?tsx?$/.test(file)) return pkg;
  const config = layout.configFor(file)?.file;
  const dir = config && path.dirname(config);
  return dir && dir !== pkg.dir && isInside(dir, pkg.dir) ? { dir, json: { ...pkg.json, main: undefined } } : pkg;
}

const FLAVOUR_NAMES: Record<ConverterFlavour, string> = { ts: 'TypeScript', esm: 'JavaScript (ES module)', cjs: 'JavaScript (CommonJS)' };

function isFlavour(s: string): s is ConverterFlavour {
  return s === 'ts' || s === 'esm' || s === 'cjs';
}

function readExisting(file: string, module: ConverterModule): Existing {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { file };
  }
  if (!isOwnModule(module, text) || file.endsWith('.d.ts')) return { file };
  const ext = path.extname(file);
  if (ext === '.ts') return { file, flavour: 'ts' };
  if (ext === '.mjs') return { file, flavour: 'esm' };
  if (ext === '.cjs') return { file, flavour: 'cjs' };
  if (ext === '.js') return { file, flavour: /^module\.exports\b/m.test(text) ? 'cjs' : 'esm' };
  return { file };
}

/**
 * What an importing file needs: its language, and for JavaScript the import form the imports
 * transform will write (an ES import unless the file uses `require`, or assigns `module.exports`
 * or `exports.x` at its top, and has no `import`). A CommonJS file that does none of these would
 * get an ES import: reported instead (the reason, as a string).
 */
function flavourOf(sf: ts.SourceFile, pkg: PackageInfo): ConverterFlavour | string {
  if (/\.(c|m)?tsx?$/.test(sf.fileName)) return 'ts';
  const hasImport = sf.statements.some((s) => ts.isImportDeclaration(s));
  // a `require` call, or a top-level `module.exports` write (transforms/imports.ts reads the same)
  const hasRequire = someNode(sf, isRequireCall) || commonJsExportWrites(sf).length > 0;
  if (hasImport || !hasRequire) {
    const commonjs = sf.fileName.endsWith('.cjs') || (!sf.fileName.endsWith('.mjs') && !isModulePackage(pkg) && !sf.statements.some((s) => ts.isExportDeclaration(s) || ts.isExportAssignment(s) || hasExportModifier(s)));
    if (!hasImport && commonjs) return 'this file neither imports nor requires anything, so the import of the run-time converter could not be written in its module system';
    return 'esm';
  }
  return 'cjs';
}

function hasExportModifier(s: ts.Statement): boolean {
  return ts.canHaveModifiers(s) && Boolean(ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
}

/**
 * TypeScript compiled to CommonJS with `verbatimModuleSyntax` rejects `export function` (TS1287):
 * such a project writes `export =`, which the generated module does not. Why, or undefined.
 */
function commonJsVerbatim(moduleFile: string, pkg: PackageInfo, layout: ProjectLayout): string | undefined {
  const options = layout.configFor(moduleFile)?.options;
  if (!options?.verbatimModuleSyntax) return undefined;
  const nodeModules = options.module === ts.ModuleKind.Node16 || options.module === ts.ModuleKind.NodeNext;
  const commonjs = options.module === ts.ModuleKind.CommonJS || (nodeModules && !isModulePackage(pkg));
  return commonjs ? 'the package compiles TypeScript to CommonJS with verbatimModuleSyntax, where the generated ES module syntax of the run-time converter is an error' : undefined;
}

function isModulePackage(pkg: PackageInfo): boolean {
  return pkg.json.type === 'module';
}

/**
 * The new module's extension. An ES module in a package that is not `"type": "module"` is `.mjs`,
 * unless every file that imports it is a `.js`/`.jsx` file written as an ES module: those run only
 * once transpiled or bundled (Babel, a bundler), which then handles a `.js` sibling the same way,
 * where Babel's CLI would compile a `.mjs` to CommonJS and keep its name (a broken module).
 */
function extensionOf(flavour: ConverterFlavour, pkg: PackageInfo, importers: string[]): string {
  if (flavour === 'ts') return '.ts';
  if (flavour === 'esm') return isModulePackage(pkg) || (importers.length > 0 && importers.every((f) => /\.jsx?$/.test(f))) ? '.js' : '.mjs';
  return isModulePackage(pkg) ? '.cjs' : '.js';
}

/**
 * The package's source root: `rootDir` of its own tsconfig/jsconfig, else the one folder its
 * `include` names, else `src/`, else the folder of `main` (`lib/index.js` → `lib/`; never a build
 * folder such as `dist/`), else the package folder.
 */
function sourceRoot(pkg: PackageInfo, layout: ProjectLayout): string {
  const config = layout.configFor(path.join(pkg.dir, 'package.json'));
  if (config?.file && path.dirname(config.file) === pkg.dir) {
    const rootDir = config.options.rootDir;
    if (rootDir && isInside(rootDir, pkg.dir) && isDirectory(rootDir)) return rootDir;
    const included = includedFolder(config.file);
    if (included && isDirectory(included)) return included;
  }
  const src = path.join(pkg.dir, 'src');
  if (isDirectory(src)) return src;
  const main = typeof pkg.json.main === 'string' ? /^(?:\.\/)?([\w.-]+)\//.exec(pkg.json.main)?.[1] : undefined;
  if (main && !(DEFAULT_IGNORED_DIRS as readonly string[]).includes(main) && isDirectory(path.join(pkg.dir, main))) return path.join(pkg.dir, main);
  return pkg.dir;
}

/**
 * The module's file name in `dir`. In a package's top-level `api/` folder every file is a
 * serverless function on Vercel, except those whose name starts with `_` (the folder's own helpers
 * are spelled `_openai.ts`): there the module is `_to-responses-input`, so no public route is added.
 */
function converterBasename(dir: string, pkg: PackageInfo, module: ConverterModule): string {
  return path.basename(dir) === 'api' && path.dirname(dir) === pkg.dir ? `_${module.basename}` : module.basename;
}

/**
 * Netlify's default functions folder (`netlify/functions`), or one named by a netlify.toml above
 * it (`functions = "…"`, `directory = "…"`): each file at its top is deployed as a function.
 */
function isNetlifyFunctions(dir: string): boolean {
  if (path.basename(dir) === 'functions' && path.basename(path.dirname(dir)) === 'netlify') return true;
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    let toml: string | undefined;
    try {
      toml = readFileSync(path.join(at, 'netlify.toml'), 'utf8');
    } catch {
      toml = undefined;
    }
    if (toml !== undefined) {
      const named = [...toml.matchAll(/^\s*(?:functions|directory)\s*=\s*["']([^"']+)["']/gm)].map((m) => path.resolve(at, m[1]));
      return named.includes(path.resolve(dir));
    }
    if (path.dirname(at) === at) return false;
  }
}

/** `"include": ["src"]`, `["src/**\/*"]`, `["src/**\/*.ts", "src/**\/*.tsx"]` → `<dir>/src`. */
function includedFolder(configFile: string): string | undefined {
  const json = ts.readConfigFile(configFile, ts.sys.readFile);
  const include = (json.config as { include?: unknown } | undefined)?.include;
  if (!Array.isArray(include) || !include.length) return undefined;
  const folders = new Set(include.map((p) => (typeof p === 'string' ? /^(?:\.\/)?([\w.-]+(?:\/[\w.-]+)*?)(?:\/\*\*(?:\/\*[\w.]*)?|\/\*[\w.]*)?\/?$/.exec(p)?.[1] : undefined)));
  if (folders.size !== 1) return undefined;
  const [folder] = [...folders];
  if (!folder || folder.includes('*') || /\.[a-z]+$/.test(folder)) return undefined;
  return path.join(path.dirname(configFile), folder);
}

/** Inside a root folder, or in the folder of a root file. */
function mayCreate(file: string, roots: readonly string[]): boolean {
  const dir = path.dirname(file);
  return roots.some((root) => (isDirectory(root) ? isInside(file, root) : dir === path.dirname(root)));
}

/** The import specifier of the module from `file`: JavaScript names the file, TypeScript follows the project (import-style.ts). */
function specifierFor(file: string, sf: ts.SourceFile, moduleFile: string, flavour: ConverterFlavour, pkg: PackageInfo, layout: ProjectLayout): string {
  let rel = path.relative(path.dirname(file), moduleFile).split(path.sep).join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (flavour !== 'ts') return rel;
  return rel.slice(0, -'.ts'.length) + importStyleOf(file, sf, pkg, layout);
}

/** The converter's function name is declared or imported in the file by something other than the converter import. */
function nameTaken(sf: ts.SourceFile, specifier: string, name: string): boolean {
  // a comment's word is no binding
  if (!new RegExp(`\\b${name}\\b`).test(sf.text) || !someNode(sf, (n) => ts.isIdentifier(n) && n.text === name)) return false;
  const sameModule = (s: string) => s.replace(/\.(m|c)?(j|t)s$/, '') === specifier.replace(/\.(m|c)?(j|t)s$/, '');
  return !sf.statements.some((s) => {
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && sameModule(s.moduleSpecifier.text)) return true;
    if (!ts.isVariableStatement(s)) return false;
    return s.declarationList.declarations.some((d) => {
      const init = d.initializer;
      return Boolean(init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' && init.arguments[0] && ts.isStringLiteral(init.arguments[0]) && sameModule(init.arguments[0].text));
    });
  });
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function isDirectory(dir: string): boolean {
  try {
    return ts.sys.directoryExists(dir);
  } catch {
    return false;
  }
}
