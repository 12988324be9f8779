/** The command that formats the files a run changed: the project's own formatter when one is configured. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const FORMATTERS: { files: string[]; command: string }[] = [
  { files: ['biome.json', 'biome.jsonc'], command: 'npx @biomejs/biome format --write' },
  { files: ['dprint.json', '.dprint.json'], command: 'npx dprint fmt' },
  {
    files: ['.prettierrc', '.prettierrc.json', '.prettierrc.yaml', '.prettierrc.yml', '.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs', 'prettier.config.js', 'prettier.config.cjs', 'prettier.config.mjs', '.prettierrc.toml'],
    command: 'npx prettier --write',
  },
];

export function formatterCommand(cwd: string, files: string[]): string {
  const quoted = files.map((f) => (/^[\w./@-]+$/.test(f) ? f : `'${f.replace(/'/g, `'\\''`)}'`)).join(' ');
  let dir = cwd;
  for (let i = 0; i < 10; i++) {
    for (const f of FORMATTERS) if (f.files.some((name) => existsSync(path.join(dir, name)))) return `${f.command} ${quoted}`;
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { prettier?: unknown }).prettier) return `npx prettier --write ${quoted}`;
      } catch {
        // not JSON: ignore
      }
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return `npx prettier --write ${quoted}`;
}
