/**
 * Module resolution without an install (lib/project): specifiers of the SDK however a runtime
 * spells them, workspace patterns, and the resolver's three answers (project file, package,
 * unresolved) on the fixture layouts and on small trees made here.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { expandPattern, pnpmPackages, ProjectLayout } from '../lib/project/layout.js';
import { ModuleResolver, type Resolution } from '../lib/project/resolver.js';
import { canonicalModule, packageSpecifier } from '../lib/project/specifiers.js';
import { sdkSpellingIn } from '../lib/project/sdk-names.js';
import { importDepths } from '../lib/scan/import-depth.js';
import { runTextReader } from '../lib/scan/endpoint-importers.js';
import { PublishedPackages, findCallerFiles } from '../lib/scan/injected.js';
import { createCallerSearch } from '../lib/scan/caller-search.js';
import ts from '../lib/scan/typescript.cjs';
import { FIXTURES } from './helpers/fixtures.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mr-project-'));
  dirs.push(dir);
  // a repository top of its own, so nothing above the temp folder is read
  mkdirSync(path.join(dir, '.git'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

function resolver(): ModuleResolver {
  return new ModuleResolver(new ProjectLayout());
}

/** A resolution with the project file relative to `base`, for readable assertions. */
function shown(r: Resolution, base: string): string {
  if (r.kind === 'project') return `project ${path.relative(base, r.file)}`;
  if (r.kind === 'package') return `package ${r.module}`;
  return 'unresolved';
}

describe('SDK specifiers', () => {
  const cases: [string, string | undefined][] = [
    ['openai', 'openai'],
    ['openai/index.mjs', 'openai'],
    ['openai/helpers/zod.mjs', 'openai/helpers/zod'],
    ['npm:openai@^4.77.0', 'openai'],
    ['npm:openai@4/resources/chat', 'openai/resources/chat'],
    ['jsr:@openai/openai', 'openai'],
    ['jsr:@openai/openai@^4/helpers/zod', 'openai/helpers/zod'],
    ['https://esm.sh/openai@4.77.0', 'openai'],
    ['https://cdn.jsdelivr.net/npm/openai@4/+esm', 'openai'],
    ['https://deno.land/x/openai@v4.69.0/mod.ts', 'openai'],
    ['https://unpkg.com/openai@4.0.0/index.mjs', 'openai'],
    ['@acme/llm/client', '@acme/llm/client'],
    ['npm:groq-sdk@0.9', 'groq-sdk'],
    ['./client', undefined],
    ['#ai', undefined],
    ['https://example.com/x.js', undefined],
  ];
  for (const [spec, expected] of cases) {
    it(`${spec} → ${expected ?? 'not a package'}`, () => {
      const p = packageSpecifier(spec);
      assert.equal(p ? canonicalModule(p) : undefined, expected);
    });
  }
});

describe('the SDK as a file spells it (lib/project/sdk-names.ts sdkSpellingIn)', () => {
  const spell = (text: string, module: string) => sdkSpellingIn(text)?.(module);
  it('npm:, esm.sh and deno.land/x spellings give the added imports the same prefix; a bare import gives none', () => {
    assert.equal(spell('import OpenAI from "npm:openai@6.9.0";', 'openai/resources/responses/responses'), 'npm:openai@6.9.0/resources/responses/responses');
    assert.equal(spell("import { zodTextFormat } from 'npm:openai@^6/helpers/zod';", 'openai/helpers/zod'), 'npm:openai@^6/helpers/zod');
    assert.equal(spell("import OpenAI from 'https://esm.sh/openai@6.1.0';", 'openai/helpers/zod'), 'https://esm.sh/openai@6.1.0/helpers/zod');
    assert.equal(spell("import OpenAI from 'https://esm.sh/openai@6.1.0?target=deno';", 'openai/helpers/zod'), 'https://esm.sh/openai@6.1.0/helpers/zod');
    assert.equal(spell("import OpenAI from 'https://deno.land/x/openai@v4.69.0/mod.ts';", 'openai/resources/responses/responses'), 'https://deno.land/x/openai@v4.69.0/resources/responses/responses.ts');
    assert.equal(sdkSpellingIn("import OpenAI from 'openai';\nimport { z } from 'npm:zod@3';"), undefined);
    assert.equal(sdkSpellingIn("import { OpenAI } from 'jsr:@openai/openai@^4';"), undefined);
  });
});

describe('workspace patterns', () => {
  it('reads the packages list of a pnpm-workspace.yaml (quotes, comments, negations, inline list)', () => {
    assert.deepEqual(pnpmPackages("# comment\npackages:\n  - 'apps/*'\n  - \"packages/**\" # all\n  - '!packages/old'\ncatalog:\n  react: ^18\n"), ['apps/*', 'packages/**', '!packages/old']);
    assert.deepEqual(pnpmPackages("packages: ['a/*', \"b\"]\n"), ['a/*', 'b']);
  });

  it('expands *, ** and literal segments, never into node_modules or hidden folders', () => {
    const dir = tree({
      'apps/web/package.json': '{}', 'apps/api/package.json': '{}', 'libs/ui/core/package.json': '{}',
      'node_modules/x/package.json': '{}', '.hidden/y/package.json': '{}',
    });
    assert.deepEqual(expandPattern(dir, 'apps/*').map((d) => path.relative(dir, d)).sort(), ['apps/api', 'apps/web']);
    assert.ok(expandPattern(dir, 'libs/**').map((d) => path.relative(dir, d)).includes('libs/ui/core'));
    assert.deepEqual(expandPattern(dir, '*').map((d) => path.relative(dir, d)).sort(), ['apps', 'libs']);
  });
});

describe('the resolver on the fixture layouts', () => {
  const from = (fixture: string, file: string) => path.join(FIXTURES, 'realworld', fixture, file);

  it('tsconfig paths (@/*) and jsconfig paths (~/*) resolve to project files', () => {
    const r = resolver();
    const next = path.join(FIXTURES, 'realworld', 'r02-next-path-alias');
    assert.equal(shown(r.resolve('@/lib/ai', from('r02-next-path-alias', 'app/api/chat/route.ts')), next), 'project lib/ai.ts');
    const js = path.join(FIXTURES, 'realworld', 'r03-jsconfig-alias');
    assert.equal(shown(r.resolve('~/lib/client', from('r03-jsconfig-alias', 'src/services/summarize.js')), js), 'project src/lib/client.js');
  });

  it('Nx: tsconfig.base.json paths reached through extends', () => {
    const base = path.join(FIXTURES, 'realworld', 'r04-nx-base-paths-barrel');
    assert.equal(shown(resolver().resolve('@acme/ai-client', from('r04-nx-base-paths-barrel', 'apps/api/src/main.ts')), base), 'project libs/ai-client/src/index.ts');
  });

  it('workspace packages by name, their exports mapped from dist/ back to src/', () => {
    const base = path.join(FIXTURES, 'realworld', 'r05-workspace-by-name');
    const file = from('r05-workspace-by-name', 'apps/web/src/chat.ts');
    const r = resolver();
    assert.equal(shown(r.resolve('@acme/llm', file), base), 'project packages/llm/src/index.ts');
    assert.equal(shown(r.resolve('@acme/llm/azure', file), base), 'project packages/llm/src/azure.ts');
    assert.equal(shown(r.resolve('@acme/llm/missing', file), base), 'unresolved');
    assert.equal(shown(r.resolve('openai', file), base), 'package openai');
  });

  it('package.json #imports, a source target and a dist/ pattern', () => {
    const base = path.join(FIXTURES, 'realworld', 'r07-package-imports');
    const file = from('r07-package-imports', 'src/routes/ask.js');
    assert.equal(shown(resolver().resolve('#ai', file), base), 'project src/lib/ai.js');
    assert.equal(shown(resolver().resolve('#lib/vendor', file), base), 'project src/lib/vendor.js');
    assert.equal(shown(resolver().resolve('#nope', file), base), 'unresolved');
  });

  it('declared packages are packages; an undeclared, uninstalled one is unresolved', () => {
    const base = path.join(FIXTURES, 'realworld', 'r10-unresolved-modules');
    const file = from('r10-unresolved-modules', 'input.ts');
    assert.equal(shown(resolver().resolve('zod', file), base), 'package zod');
    assert.equal(shown(resolver().resolve('@acme/private-llm', file), base), 'unresolved');
    assert.equal(shown(resolver().resolve('./generated/client', file), base), 'unresolved');
    assert.equal(shown(resolver().resolve('node:https', file), base), 'package node:https');
    assert.equal(shown(resolver().resolve('https', file), base), 'package https');
  });
});

describe('the resolver on small trees', () => {
  it('an installed package that no package.json declares is still a package', () => {
    const dir = tree({ 'src/a.ts': '', 'node_modules/groq-sdk/package.json': '{"name":"groq-sdk"}' });
    assert.equal(shown(resolver().resolve('groq-sdk', path.join(dir, 'src/a.ts')), dir), 'package groq-sdk');
  });

  it('a solution-style tsconfig keeps its paths in a referenced project', () => {
    const dir = tree({
      'tsconfig.json': '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }',
      'tsconfig.app.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"] } }, "include": ["src"] }',
      'src/client.ts': 'export const x = 1;',
      'src/main.ts': '',
    });
    assert.equal(shown(resolver().resolve('@app/client', path.join(dir, 'src/main.ts')), dir), 'project src/client.ts');
  });

  it('a paths alias whose target is missing is unresolved, not a package', () => {
    const dir = tree({ 'tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }', 'src/main.ts': '' });
    assert.equal(shown(resolver().resolve('@/lib/gone', path.join(dir, 'src/main.ts')), dir), 'unresolved');
  });

  it('a broken tsconfig resolves like no tsconfig', () => {
    const dir = tree({ 'tsconfig.json': '{ "compilerOptions": { ', 'src/a.ts': '', 'src/b.ts': '' });
    assert.equal(shown(resolver().resolve('./b', path.join(dir, 'src/a.ts')), dir), 'project src/b.ts');
  });

  it('a workspace package whose entry points at output with no source is unresolved (generated code)', () => {
    const dir = tree({
      'package.json': '{ "private": true, "workspaces": ["packages/*"] }',
      'packages/gen/package.json': '{ "name": "@x/gen", "main": "dist/index.js" }',
      'packages/gen/dist/index.js': 'module.exports = {};',
      'app/main.ts': '',
    });
    assert.equal(shown(resolver().resolve('@x/gen', path.join(dir, 'app/main.ts')), dir), 'unresolved');
  });

  it('a tsconfig `paths` entry for `openai` puts a project file behind the name; other paths, and the SDK\'s own source, leave it the SDK', () => {
    const dir = tree({
      'shimmed/tsconfig.json': '{ "compilerOptions": { "paths": { "openai": ["./llm-shim.ts"], "@/*": ["./*"] } } }',
      'shimmed/llm-shim.ts': 'export default class OpenAI {}',
      'shimmed/main.ts': '',
      'plain/tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./src/*"] } } }',
      'plain/main.ts': '',
      // the SDK's own repository maps its name to its source, for its examples
      'sdk/package.json': '{ "name": "openai" }',
      'sdk/tsconfig.json': '{ "compilerOptions": { "paths": { "openai": ["./src/index.ts"], "openai/*": ["./src/*"] } } }',
      'sdk/src/index.ts': 'export default class OpenAI {}',
      'sdk/examples/demo.ts': '',
    });
    const r = resolver();
    assert.equal(shown(r.resolve('openai', path.join(dir, 'shimmed/main.ts')), dir), 'project shimmed/llm-shim.ts');
    assert.equal(shown(r.resolve('openai', path.join(dir, 'plain/main.ts')), dir), 'package openai');
    assert.equal(shown(r.resolve('openai/helpers/zod', path.join(dir, 'plain/main.ts')), dir), 'package openai/helpers/zod');
    assert.equal(shown(r.resolve('openai', path.join(dir, 'sdk/examples/demo.ts')), dir), 'package openai');
  });

  it('npm aliases: a name that installs the SDK is the SDK; `openai` that installs another package is that package', () => {
    const dir = tree({
      'package.json': '{ "dependencies": { "openai": "^3.3.0", "openai-next": "npm:openai@^6.9.0", "llm": "npm:@openai/openai@6" } }',
      'src/main.ts': '',
      'vendored/package.json': '{ "dependencies": { "openai": "npm:@acme/llm-client@^1.0.0" } }',
      'vendored/ask.ts': '',
      'groq/package.json': '{ "devDependencies": { "openai": "npm:groq-sdk" } }',
      'groq/ask.ts': '',
      'plain/package.json': '{ "dependencies": { "openai": "^6.9.0", "openai-old": "npm:openai@^4" }, "devDependencies": { "openai7": "npm:openai@^7" } }',
      'plain/ask.ts': '',
    });
    const r = resolver();
    const at = (rel: string) => path.join(dir, rel);
    assert.equal(shown(r.resolve('openai-next', at('src/main.ts')), dir), 'package openai');
    assert.equal(shown(r.resolve('openai-next/resources/responses/responses', at('src/main.ts')), dir), 'package openai/resources/responses/responses');
    assert.equal(shown(r.resolve('llm', at('src/main.ts')), dir), 'package openai');
    assert.equal(shown(r.resolve('openai', at('src/main.ts')), dir), 'package openai');
    assert.equal(shown(r.resolve('openai', at('vendored/ask.ts')), dir), 'package @acme/llm-client');
    assert.equal(shown(r.resolve('openai/helpers/zod', at('groq/ask.ts')), dir), 'package groq-sdk/helpers/zod');
    // the imports a rewrite adds use the newest line the nearest package.json declares
    assert.equal(r.sdkNameFor(at('src/main.ts')), 'openai-next');
    assert.equal(r.sdkNameFor(at('plain/ask.ts')), 'openai');
    assert.equal(r.sdkNameFor(at('vendored/ask.ts')), 'openai-next'); // no SDK declared there: the root's
  });
});

describe('which files the program loads (lib/scan/import-depth.ts)', () => {
  const depthsOf = (dir: string, roots: string[], expand: string[] = []) => {
    const parsed: string[] = [];
    const depths = importDepths(roots.map((r) => path.join(dir, r)), resolver(), {
      sourceOf: (f) => {
        parsed.push(path.relative(dir, f));
        return ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.ESNext, true);
      },
      textOf: (f) => readFileSync(f, 'utf8'),
    }, undefined, new Set(expand.map((r) => path.join(dir, r))));
    return { loaded: Object.fromEntries([...depths].map(([f, d]) => [path.relative(dir, f), d])), parsed: [...new Set(parsed)].sort() };
  };
  const CALL = "export const go = () => client.chat.completions.create({ model: 'm', messages: [] });\n";

  it('through a barrel only the target that can export the imported name is loaded (and parsed)', () => {
    const dir = tree({
      'site.ts': `import { client } from './lib';\n${CALL}`,
      'lib/index.ts': "export * from './client';\nexport * from './tools';\nexport { helper } from './helper';\n",
      'lib/client.ts': "import OpenAI from 'openai';\nexport const client = new OpenAI();\n",
      'lib/tools.ts': 'export const tools = [];\n',
      'lib/helper.ts': 'export function helper() {}\n',
    });
    const { loaded, parsed } = depthsOf(dir, ['site.ts']);
    assert.deepEqual(loaded, { 'site.ts': 0, 'lib/index.ts': 1, 'lib/client.ts': 1 });
    assert.deepEqual(parsed, ['lib/client.ts', 'lib/index.ts', 'site.ts']);
  });

  it('a namespace import loads every target; two steps are followed, not three; a file that calls nothing expands nothing', () => {
    const dir = tree({
      'site.ts': `import * as lib from './lib';\nimport { a } from './a';\nconst client = lib.client;\n${CALL}`,
      'mock.test.ts': "import { a } from './a';\nclient.chat.completions.create.mockResolvedValue(a);\n",
      'lib/index.ts': "export * from './client';\nexport * from './tools';\n",
      'lib/client.ts': 'export const client = 1;\n',
      'lib/tools.ts': 'export const tools = [];\n',
      'a.ts': "import { b } from './b';\nexport const a = b;\n",
      'b.ts': "import { c } from './c';\nexport const b = c;\n",
      'c.ts': 'export const c = 1;\n',
    });
    const { loaded } = depthsOf(dir, ['site.ts', 'mock.test.ts']);
    assert.deepEqual(loaded, { 'site.ts': 0, 'mock.test.ts': 0, 'lib/index.ts': 1, 'lib/client.ts': 1, 'lib/tools.ts': 1, 'a.ts': 1, 'b.ts': 2 });
  });

  it('a root named in `expand` (a caller of an injected client\'s holder) expands its imports although it calls nothing', () => {
    const dir = tree({
      'service.ts': `export class Service { constructor(private client: any) {} }\n${CALL}`,
      'routes.ts': "import { openai } from './client';\nimport { Service } from './service';\nexport const s = new Service(openai);\n",
      'client.ts': "import OpenAI from 'openai';\nexport const openai = new OpenAI();\n",
    });
    assert.deepEqual(depthsOf(dir, ['service.ts', 'routes.ts']).loaded, { 'service.ts': 0, 'routes.ts': 0 });
    assert.deepEqual(depthsOf(dir, ['service.ts', 'routes.ts'], ['routes.ts']).loaded, { 'service.ts': 0, 'routes.ts': 0, 'client.ts': 1 });
  });
});

describe('W-INJECTED: the callers of an exported holder, and published packages (lib/scan/injected.ts)', () => {
  it('the files that may import an export: its name as a word, or its module named in a string (a default export, an index by its folder)', () => {
    const dir = tree({
      'svc/chat-service.ts': 'export class ChatService {}\n',
      'svc/index.ts': 'export default function summarise() {}\n',
      'a.ts': "import { ChatService } from './svc/chat-service';\n",
      'b.ts': "import { ChatServiceFactory } from './other';\n",
      'c.cjs': "const S = require('./svc/chat-service.js');\n",
      'd.ts': "import summarise from './svc';\n",
      'e.ts': 'const x = 1;\n',
    });
    const files = ['a.ts', 'b.ts', 'c.cjs', 'd.ts', 'e.ts'].map((f) => path.join(dir, f));
    const found = findCallerFiles([
      { file: path.join(dir, 'svc/chat-service.ts'), name: 'ChatService' },
      { file: path.join(dir, 'svc/index.ts'), name: 'default' },
    ], files, runTextReader(new Map([[path.join(dir, 'e.ts'), "import { ChatService } from './svc/chat-service';\n"]])));
    const rel = (list: string[] | undefined) => (list ?? []).map((f) => path.relative(dir, f));
    // e.ts is read from memory (the candidates' texts), not from disk
    assert.deepEqual(rel(found.get(`${path.join(dir, 'svc/chat-service.ts')}\0ChatService`)), ['a.ts', 'c.cjs', 'e.ts']);
    assert.deepEqual(rel(found.get(`${path.join(dir, 'svc/index.ts')}\0default`)), ['d.ts']);
  });

  it('a package is published unless private; its public files are those its entry points reach', () => {
    const dir = tree({
      'package.json': '{ "private": true, "workspaces": ["packages/*"] }',
      'packages/pub/package.json': '{ "name": "@x/pub", "main": "./dist/index.js" }',
      'packages/pub/src/index.ts': "export { Svc } from './svc';\n",
      'packages/pub/src/svc.ts': "import { helper } from './helper';\nexport class Svc {}\n",
      'packages/pub/src/helper.ts': 'export const helper = 1;\n',
      'packages/pub/src/internal.ts': 'export class Internal {}\n',
      'packages/star/package.json': '{ "name": "@x/star", "exports": { ".": "./src/index.ts", "./*": "./src/*.ts" } }',
      'packages/star/src/index.ts': 'export {};\n',
      'packages/star/src/deep.ts': 'export class Deep {}\n',
      'packages/priv/package.json': '{ "name": "@x/priv", "private": true, "main": "src/index.ts" }',
      'packages/priv/src/index.ts': 'export class P {}\n',
      'app/main.ts': 'export {};\n',
    });
    const layout = new ProjectLayout();
    const published = new PublishedPackages(layout, new ModuleResolver(layout), runTextReader(new Map()));
    const of = (rel: string) => published.publishedBy(path.join(dir, rel));
    assert.equal(of('packages/pub/src/svc.ts'), '@x/pub');
    assert.equal(of('packages/pub/src/helper.ts'), '@x/pub');
    assert.equal(of('packages/pub/src/internal.ts'), undefined);
    // an exports pattern makes every file of the package public
    assert.equal(of('packages/star/src/deep.ts'), '@x/star');
    assert.equal(of('packages/priv/src/index.ts'), undefined);
    // the private root package
    assert.equal(of('app/main.ts'), undefined);
  });
});

describe('W-FOLLOW: the files that name a function (lib/scan/caller-search.ts)', () => {
  it('answers the same before and after the run\'s words are indexed (a run asking for many names)', () => {
    const files: Record<string, string> = {
      'a.ts': 'export async function ask() {}\nconst $ask = 1; // ask$ 2ask',
      'b.ts': "import { ask } from './a';\nask();",
      'c.ts': 'const task = 1; const asking = 2; const éask = 3;',
      'd.ts': 'const x = { ask$: 1, $ask: 2 }; // café',
      'e.ts': 'export const café = 1;',
      'lib/index.ts': 'export const x = 1;',
      'f.ts': "import { x } from '$lib';",
    };
    const dir = tree(files);
    const paths = Object.keys(files).map((f) => path.join(dir, f));
    const search = () => createCallerSearch({ files: paths, components: [], read: runTextReader(new Map()), layout: new ProjectLayout(), roots: [dir], cwd: dir });
    const names = ['ask', '$ask', 'ask$', '2ask', 'task', 'café', 'éask', 'missing'];
    const named = (s: ReturnType<typeof search>, name: string) => s.filesNaming(name).map((f) => path.relative(dir, f));
    const byScan = search();
    const scanned = names.map((n) => named(byScan, n));
    const byIndex = search();
    // ask for enough other names first that the index is built
    for (let i = 0; i < 40; i++) byIndex.filesNaming(`filler${i}`);
    assert.deepEqual(names.map((n) => named(byIndex, n)), scanned);
    // a SvelteKit alias names the folder after a `$`: the index still offers the file
    const importing = (s: ReturnType<typeof search>) => s.filesImporting(path.join(dir, 'lib/index.ts')).map((f) => path.relative(dir, f));
    assert.deepEqual(importing(byIndex), importing(byScan));
    assert.deepEqual(importing(byScan), ['f.ts']);
    // `éask` names `ask` to the pattern (é is no \w): a file too many is read, none is missed
    assert.deepEqual(scanned, [['a.ts', 'b.ts', 'c.ts'], ['a.ts', 'd.ts'], ['a.ts', 'd.ts'], ['a.ts'], ['c.ts'], ['d.ts', 'e.ts'], ['c.ts'], []]);
  });
});

describe('W-EDGE outside the paths given (lib/scan/caller-search.ts)', () => {
  const files: Record<string, string> = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'package.json': '{ "name": "app", "private": true }',
    'src/ai.ts': 'export async function ask() {}',
    'src/routes/title.ts': "import { ask } from '../ai';\nask();",
    'lib/plugins.ts': 'export const load = (name: string) => import(`../src/${name}.js`).then((m) => m.default);',
  };
  const dir = tree(files);
  const target = path.join(dir, 'src/ai.ts');
  const search = (maxOutsideFiles?: number) =>
    createCallerSearch({ files: [target], components: [], read: runTextReader(new Map()), layout: new ProjectLayout(), roots: [target], cwd: dir, maxOutsideFiles });

  it('finds a caller and a computed load among the package\'s files outside the paths given', () => {
    assert.equal(search().namedOutside(target, 'ask'), 'named in src/routes/title.ts, outside the paths given');
    assert.equal(search().loadedByComputedPath(target), 'lib/plugins.ts:1');
  });

  it('stops, saying why, when the package has too many such files to read', () => {
    assert.equal(search(1).namedOutside(target, 'ask'), 'its package (.) has too many files outside the paths given to check');
    assert.equal(search(1).loadedByComputedPath(target), 'a file of its package (.), which has too many files outside the paths given to check');
  });
});
