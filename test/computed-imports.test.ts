/**
 * lib/scan/computed-imports.ts: the folder a load by a computed path may load from (W-EDGE), and
 * which modules it may reach. The fixture follow/w63 holds the whole case (a caller unseen).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { computedLoads, loadReaches } from '../lib/scan/computed-imports.js';

const FILE = path.resolve('/app/src/index.ts');
const folders = (text: string) => computedLoads(FILE, text).map((l) => l.folder);
const at = (...parts: string[]) => path.resolve('/app/src', ...parts);

describe('computed-imports', () => {
  it('reads the folder of a template, a concatenation and path.join(__dirname, …)', () => {
    assert.deepEqual(folders('use(await import(`./providers/${name}.js`));'), [at('providers')]);
    assert.deepEqual(folders("use(require('../plugins/' + name));"), [path.resolve('/app/plugins')]);
    assert.deepEqual(folders("use(require(path.join(__dirname, 'tools', name)));"), [at('tools')]);
    assert.deepEqual(folders('use(await import(`./${name}`));'), [at()]);
  });

  it('reads globs and require.context as the folder before their first wildcard', () => {
    assert.deepEqual(folders("const all = import.meta.glob('./tools/*.ts', { eager: true }); Object.values(all);"), [at('tools')]);
    assert.deepEqual(folders("use(import.meta.glob(['./tools/a/*.ts', './tools/b/*.ts']));"), [at('tools')]);
    assert.deepEqual(folders("const ctx = require.context('./commands', true, /\\.js$/); ctx.keys().map(ctx);"), [at('commands')]);
  });

  it('knows nothing of a variable, an alias or a path built elsewhere', () => {
    assert.deepEqual(folders('use(await import(spec));'), [undefined]);
    assert.deepEqual(folders('use(await import(`@/providers/${name}`));'), [undefined]);
    assert.deepEqual(folders('use(require(resolvePlugin(name)));'), [undefined]);
  });

  it("follows a const of the file to the folder it joins (a Discord bot's command loader)", () => {
    const loader = [
      "const commandsPath = path.join(__dirname, 'commands');",
      "for (const file of files) { const command = require(path.join(commandsPath, file)); commands.set(command.data.name, command); }",
    ].join('\n');
    assert.deepEqual(folders(loader), [at('commands')]);
  });

  it('leaves out paths that end in a name no source module has', () => {
    assert.deepEqual(folders('import(`@assets/images/${name}.png`)'), []);
    assert.deepEqual(folders("require(path.resolve(process.cwd(), 'package.json'))"), []);
    assert.deepEqual(folders("import.meta.glob('./assets/*.svg')"), []);
    assert.deepEqual(folders('import(`./locales/${lang}.json`)'), []);
  });

  it('leaves out a module whose members are all read by a fixed name: a call through it names what it calls', () => {
    assert.deepEqual(folders('const files = (await import(url)) as Files; files.discoverFiles(); files.read(x);'), []);
    assert.deepEqual(folders('const { ask } = await import(`./providers/${p}.js`);'), []);
    assert.deepEqual(folders('(await import(`./providers/${p}.js`)).ask(q);'), []);
    assert.deepEqual(folders('const mod = await import(`./providers/${p}.js`); mod[method](q);'), [at('providers')]);
    assert.deepEqual(folders('const mod = await import(`./providers/${p}.js`); mod.default(q);'), [at('providers')]);
    assert.deepEqual(folders('const { default: run } = await import(`./providers/${p}.js`);'), [at('providers')]);
    assert.deepEqual(folders('function load(p) { return require(p); }'), [undefined]);
    assert.deepEqual(folders('const mod = cjs ? req(file) : await import(url); use((mod as Shape).convert);'), []);
    assert.deepEqual(folders('const mod = cjs ? req(file) : await import(url); use(mod as Shape);'), [undefined]);
    assert.deepEqual(folders('const files = 1; function f() { const files = await import(url); files.read(); } g({ files });'), []);
  });

  it('leaves out loads by a fixed string', () => {
    assert.deepEqual(folders("const m = await import('./providers/openai.js'); const n = require('./x'); const t = import(`./y.js`);"), []);
  });

  it('reaches a module under its folder, and any module of its own package when the folder is unknown', () => {
    const [load] = computedLoads(FILE, 'use(await import(`./providers/${p}.js`))');
    assert.equal(loadReaches(load!, at('providers', 'openai.ts'), true), true);
    assert.equal(loadReaches(load!, at('providers-extra', 'openai.ts'), true), false);
    assert.equal(loadReaches(load!, at('lib', 'ai.ts'), true), false);
    const [unknown] = computedLoads(FILE, 'use(await import(spec))');
    assert.equal(loadReaches(unknown!, at('lib', 'ai.ts'), true), true);
    assert.equal(loadReaches(unknown!, '/elsewhere/lib/ai.ts', false), false);
  });
});
