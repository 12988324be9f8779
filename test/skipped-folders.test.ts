/**
 * lib/scan/skipped-folders.ts: callers in folders every run skips (build/, out/), and the output
 * folders told apart from them. The fixture follow/w64 holds the whole case.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { importsModule, mirrors, skippedFolders } from '../lib/scan/skipped-folders.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mr-skipped-'));
const write = (rel: string, text = '') => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};
after(() => rmSync(root, { recursive: true, force: true }));

describe('skipped-folders', () => {
  const target = path.join(root, 'src', 'lib', 'ai.ts');

  it('finds build/ and out/ folders with their sources, not those .gitignore excludes nor node_modules', () => {
    write('src/lib/ai.ts');
    write('src/app/build/route.ts');
    write('src/out/report.js');
    write('coverage/lcov.json');
    write('dist/lib/ai.js');
    write('node_modules/x/build/index.js');
    write('.gitignore', 'coverage/\n');
    const found = skippedFolders(root).map((s) => [path.relative(root, s.folder), s.files.map((f) => path.relative(root, f))]);
    assert.deepEqual(found.sort(), [['dist', [path.join('dist', 'lib', 'ai.js')]], [path.join('src', 'app', 'build'), [path.join('src', 'app', 'build', 'route.ts')]], [path.join('src', 'out'), [path.join('src', 'out', 'report.js')]]].sort());
  });

  it('takes a folder holding a copy of the module at its place in the tree for output', () => {
    const [dist] = skippedFolders(root).filter((s) => path.basename(s.folder) === 'dist');
    const [build] = skippedFolders(root).filter((s) => path.basename(s.folder) === 'build');
    assert.equal(mirrors(dist!, target, root), true);
    assert.equal(mirrors(build!, target, root), false);
  });

  it('reads an import of the module: relative and resolved, or an alias ending with its folder and name', () => {
    const route = path.join(root, 'src', 'app', 'build', 'route.ts');
    assert.equal(importsModule(route, "import { ask } from '../../lib/ai.js';", target), true);
    assert.equal(importsModule(route, "import { ask } from '@/lib/ai';", target), true);
    assert.equal(importsModule(route, "const { ask } = require('../../lib/ai')", target), true);
    assert.equal(importsModule(route, "import { ask } from './lib/ai.js';", target), false);
    assert.equal(importsModule(route, "import type { Chat } from 'openai/resources/chat';", path.join(root, 'src', 'lib', 'chat.ts')), false);
  });
});
