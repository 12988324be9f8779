/**
 * Synthetic source trees for the benchmarks: realistic TS/JS files of varied size (services,
 * React components, utilities, CommonJS modules), about 1% of them with Chat Completions call
 * sites of every kind, cross-file imports, and a node_modules folder that must be ignored.
 * Deterministic for a given seed. `--profile dense` writes an SDK-heavy monorepo instead (half the
 * files mention openai, few call sites, workspace packages, paths, barrels: see bench/dense.ts);
 * there `--tsconfig` adds the root tsconfig.json that switches type-aware mode on.
 *
 *   node --import tsx bench/generate.ts <dir> <files> [--profile default|dense|helpers] [--tsconfig] [--seed N]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './rng.js';
import { generateDense, type DenseStats } from './dense.js';
import { generateHelpers, type HelpersStats } from './helpers.js';

export interface TreeSpec {
  dir: string;
  files: number;
  /** Fraction of files with call sites. */
  siteRatio?: number;
  /** Write a tsconfig.json (type-aware mode) and keep every file TypeScript. */
  tsconfig?: boolean;
  seed?: number;
}

export interface TreeStats {
  files: number;
  withSites: number;
  nodeModulesFiles: number;
}


const WORDS = ['order', 'invoice', 'customer', 'ticket', 'payment', 'shipment', 'catalog', 'session', 'report', 'account', 'review', 'coupon', 'refund', 'inventory', 'audit'];

function utility(r: () => number, name: string, size: number, imports: string[]): string {
  const lines = [...imports, '', `export interface ${cap(name)}Record {`, '  id: string;', '  createdAt: Date;', '  tags: string[];', `  total: number;`, '}', ''];
  for (let i = 0; i < size; i++) {
    const w = WORDS[Math.floor(r() * WORDS.length)];
    lines.push(
      `/** Computes the ${w} score for a batch of records. */`,
      `export function ${w}Score${i}(items: ${cap(name)}Record[], weight = ${(r() * 3).toFixed(2)}): number {`,
      '  let score = 0;',
      '  for (const item of items) {',
      `    if (item.tags.includes('${w}')) score += item.total * weight;`,
      '    else score -= Math.log1p(item.total);',
      '  }',
      `  return Math.round(score * ${Math.floor(r() * 100) + 1}) / 100;`,
      '}',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

function component(r: () => number, name: string, size: number): string {
  const lines = [`import { useState } from 'react';`, '', `export function ${cap(name)}Panel({ title }: { title: string }) {`, '  const [open, setOpen] = useState(false);', '  return ('];
  lines.push('    <section className="panel">', '      <h2 onClick={() => setOpen(!open)}>{title}</h2>');
  for (let i = 0; i < size; i++) lines.push(`      {open && <p key="${i}">Row ${i}: {title.length * ${Math.floor(r() * 9) + 1}}</p>}`);
  lines.push('    </section>', '  );', '}', '');
  return lines.join('\n');
}

function commonjs(r: () => number, name: string, size: number): string {
  const lines = [`'use strict';`, `const path = require('node:path');`, ''];
  for (let i = 0; i < size; i++) lines.push(`function ${name}${i}(p) {`, `  return path.join(p, '${WORDS[Math.floor(r() * WORDS.length)]}', String(${i}));`, '}', '');
  lines.push(`module.exports = { ${Array.from({ length: size }, (_, i) => `${name}${i}`).join(', ')} };`, '');
  return lines.join('\n');
}

/** Call-site files: one template per kind, migratable and not. */
const SITE_TEMPLATES: ((n: number) => string)[] = [
  (n) => `import { openai } from '../../lib/client.js';\n\nexport async function summarise${n}(text: string): Promise<string> {\n  const r = await openai.chat.completions.create({\n    model: 'gpt-4o-mini',\n    messages: [{ role: 'system', content: 'Summarise.' }, { role: 'user', content: text }],\n    max_tokens: 200,\n  });\n  return r.choices[0]?.message?.content ?? '';\n}\n`,
  (n) => `import OpenAI from 'openai';\n\nconst client = new OpenAI();\n\nexport async function stream${n}(q: string): Promise<string> {\n  const s = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], stream: true });\n  let out = '';\n  for await (const c of s) out += c.choices[0]?.delta?.content ?? '';\n  return out;\n}\n`,
  (n) => `import OpenAI from 'openai';\nimport type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';\n\nconst client = new OpenAI();\nconst tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } } } }];\n\nexport async function agent${n}(q: string): Promise<string> {\n  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: q }];\n  let r = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });\n  while (r.choices[0].message.tool_calls?.length) {\n    messages.push(r.choices[0].message);\n    for (const tc of r.choices[0].message.tool_calls) {\n      if (tc.type !== 'function') continue;\n      messages.push({ role: 'tool', tool_call_id: tc.id, content: tc.function.arguments });\n    }\n    r = await client.chat.completions.create({ model: 'gpt-4o', messages, tools });\n  }\n  return r.choices[0].message.content ?? '';\n}\n`,
  (n) => `import OpenAI from 'openai';\nimport { zodResponseFormat } from 'openai/helpers/zod';\nimport { z } from 'zod';\n\nconst client = new OpenAI();\nconst Verdict = z.object({ ok: z.boolean() });\n\nexport async function judge${n}(q: string) {\n  const r = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }], response_format: zodResponseFormat(Verdict, 'verdict') });\n  return r.choices[0].message.parsed;\n}\n`,
  (n) => `import OpenAI from 'openai';\n\nconst gateway = new OpenAI({ baseURL: 'https://llm.internal.example/v1' });\n\nexport async function internal${n}(q: string) {\n  const r = await gateway.chat.completions.create({ model: 'llama-3', messages: [{ role: 'user', content: q }], n: 2 });\n  return r.choices.map((c) => c.message.content);\n}\n`,
  (n) => `const { OpenAI: Api } = require('openai');\n\nconst api = new Api();\n\nasync function legacy${n}(q) {\n  const completion = await api.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: q }] });\n  return completion.choices[0].message.content;\n}\n\nmodule.exports = { legacy${n} };\n`,
];

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

export function generateTree(spec: TreeSpec): TreeStats {
  const r = rng(spec.seed ?? 42);
  const ratio = spec.siteRatio ?? 0.01;
  rmSync(spec.dir, { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    const file = path.join(spec.dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write('src/lib/client.ts', "import OpenAI from 'openai';\n\nexport const openai = new OpenAI();\n");
  const withSites = Math.max(1, Math.round(spec.files * ratio));
  const siteEvery = Math.floor(spec.files / withSites);
  let sites = 0;
  for (let i = 1; i < spec.files; i++) {
    const pkg = `packages/pkg${Math.floor(i / 500)}/src/${WORDS[i % WORDS.length]}`;
    if (sites < withSites - 1 && i % siteEvery === 0) {
      const t = sites % SITE_TEMPLATES.length;
      const cjs = t === 5 && !spec.tsconfig;
      const text = SITE_TEMPLATES[t === 5 && spec.tsconfig ? 0 : t](i);
      write(`src/features/f${i}/handler.${cjs ? 'cjs' : 'ts'}`, text);
      sites++;
      continue;
    }
    const size = 2 + Math.floor(r() * r() * 40);
    const kind = r();
    if (kind < 0.1 && !spec.tsconfig) write(`${pkg}/legacy${i}.cjs`, commonjs(r, `helper${i}`, size));
    else if (kind < 0.25 && !spec.tsconfig) write(`${pkg}/Panel${i}.tsx`, component(r, `panel${i}`, size));
    else {
      const imports = i > 1 && r() < 0.3 ? [`import { ${WORDS[(i - 1) % WORDS.length]}Score0 } from '../${WORDS[(i - 1) % WORDS.length]}/util${i - 1}.js';`] : [];
      write(`${pkg}/util${i}.ts`, utility(r, WORDS[i % WORDS.length], size, imports.filter(() => false)));
    }
  }
  // a vendored dependency that mentions openai: must never be scanned
  const vendor = 120;
  for (let i = 0; i < vendor; i++) write(`node_modules/fake-sdk/lib/m${i}.js`, `const OpenAI = require('openai');\nmodule.exports = () => new OpenAI().chat.completions.create({ model: 'x', messages: [] });\n`);
  if (spec.tsconfig) {
    write('tsconfig.json', JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', jsx: 'react-jsx', skipLibCheck: true, types: [] },
      include: ['src', 'packages'],
    }, null, 2));
    write('package.json', '{ "type": "module", "private": true }\n');
  }
  return { files: spec.files, withSites: sites + 1, nodeModulesFiles: vendor };
}

export type Profile = 'default' | 'dense' | 'helpers';
export const PROFILES: readonly Profile[] = ['default', 'dense', 'helpers'];

/** Generate a tree of either profile; `tsconfig` is the root tsconfig.json (type-aware mode). */
export function generateProfile(profile: Profile, spec: TreeSpec): TreeStats | DenseStats | HelpersStats {
  if (profile === 'helpers') return generateHelpers({ dir: spec.dir, files: spec.files, rootTsconfig: Boolean(spec.tsconfig), seed: spec.seed });
  if (profile === 'dense') return generateDense({ dir: spec.dir, files: spec.files, rootTsconfig: Boolean(spec.tsconfig), seed: spec.seed, ...(spec.siteRatio === undefined ? {} : { siteRatio: spec.siteRatio }) });
  return generateTree(spec);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, files] = process.argv.slice(2);
  const option = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const profile = (option('profile') ?? 'default') as Profile;
  if (!dir || !(Number(files) > 0) || !PROFILES.includes(profile)) {
    console.error('usage: generate.ts <dir> <files> [--profile default|dense|helpers] [--tsconfig] [--seed N]');
    process.exit(2);
  }
  const stats = generateProfile(profile, { dir: path.resolve(dir), files: Number(files), tsconfig: process.argv.includes('--tsconfig'), seed: Number(option('seed') ?? 42) });
  console.log(JSON.stringify(stats));
}
