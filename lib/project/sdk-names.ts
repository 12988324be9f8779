/**
 * The names a package.json installs the SDK under. Usually `openai`; an npm alias
 * (`"openai-v4": "npm:openai@^4"`, kept beside a v3 `openai` during an upgrade) installs it under
 * another name, and `"openai": "npm:@acme/llm@1"` installs another package under `openai`. Module
 * resolution, the imports the rewrite adds and the SDK version warning all read this.
 */
import type { PackageJson } from './layout.js';

export interface SdkDeclaration {
  /** The name code imports (`openai`, `openai-v4`). */
  name: string;
  /** The version range, without the alias prefix (`^4.20.0`). */
  range: string;
}

const DEPENDENCY_LISTS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
/** `npm:<package>@<range>` (the range is optional). */
const NPM_ALIAS = /^npm:((?:@[^/@]+\/)?[^/@]+)(?:@(.*))?$/;

/** The version range (or `npm:` alias) a package.json declares for `name`, in any dependency list. */
export function declaredRange(json: PackageJson, name: string): string | undefined {
  for (const list of DEPENDENCY_LISTS) {
    const deps = json[list];
    if (deps && Object.hasOwn(deps, name) && typeof deps[name] === 'string') return deps[name];
  }
  return undefined;
}

/** A declared range that is an npm alias: the package it installs and its own range (`npm:openai@4` → `openai`, `4`). */
function npmAlias(range: string): { target: string; range: string } | undefined {
  const m = NPM_ALIAS.exec(range.trim());
  return m ? { target: m[1] === '@openai/openai' ? 'openai' : m[1], range: m[2] ?? '' } : undefined;
}

/** The package a declared range installs when it is an npm alias (`npm:openai@4` → `openai`). */
export function aliasTarget(range: string): string | undefined {
  return npmAlias(range)?.target;
}

/** Every name the package.json installs the SDK under, with its range. */
export function sdkDeclarations(json: PackageJson): SdkDeclaration[] {
  const found: SdkDeclaration[] = [];
  for (const list of DEPENDENCY_LISTS) {
    for (const [name, range] of Object.entries(json[list] ?? {})) {
      if (typeof range !== 'string' || found.some((d) => d.name === name)) continue;
      const alias = npmAlias(range);
      if (alias ? alias.target === 'openai' : name === 'openai') found.push({ name, range: alias ? alias.range : range });
    }
  }
  return found;
}

/** The first SDK line the rewritten code is verified on (H-BETA). */
const VERIFIED_MAJOR = 6;

/**
 * The declaration the rewritten code should import from: `openai` itself when it installs a
 * verified line (an alias beside it, such as `"openai7": "npm:openai@7"` kept to type-check against
 * the next line, is not the project's SDK); otherwise the newest major line declared, `openai`
 * when majors tie.
 */
export function preferredSdk(declarations: readonly SdkDeclaration[]): SdkDeclaration | undefined {
  const own = declarations.find((d) => d.name === 'openai');
  if (own && majorOf(own.range) >= VERIFIED_MAJOR) return own;
  let best: SdkDeclaration | undefined;
  for (const d of declarations) {
    if (!best || majorOf(d.range) > majorOf(best.range) || (majorOf(d.range) === majorOf(best.range) && d.name === 'openai')) best = d;
  }
  return best;
}

/** The first major version a range names (`^4.20.0` → 4, `latest` → Infinity: the newest). */
export function majorOf(range: string): number {
  const m = /(\d+)/.exec(range);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** A module of the SDK under the name its package installs it as: `openai/helpers/zod` → `openai-v4/helpers/zod`. */
export function withSdkName(module: string, name: string): string {
  return name === 'openai' ? module : module.replace(/^openai(?=\/|$)/, name);
}

/** Every SDK module a generated file imports (`from 'openai/…'`), under the name given. */
export function withSdkNameInText(text: string, name: string): string {
  return name === 'openai' ? text : text.replace(/(\bfrom\s+|\brequire\(\s*)(['"])openai(?=[/'"])/g, `$1$2${name}`);
}

/**
 * How a file spells the SDK when it imports it by a runtime's own specifier rather than a bare
 * name (Deno, Supabase Edge Functions): the imports a rewrite adds spell it the same way, since a
 * bare `openai/…` does not resolve there without an import map. `npm:openai@6.9.0` →
 * `npm:openai@6.9.0/…`; esm.sh mirrors the package's paths (`https://esm.sh/openai@6/…`);
 * deno.land/x serves TypeScript files (`…/openai@v4.20.1/resources/….ts`). Undefined when the
 * file imports the SDK by its bare name, or only by a spelling whose subpaths are not known
 * (jsr:, other CDNs): the added import is then left bare.
 */
export function sdkSpellingIn(text: string): ((module: string) => string) | undefined {
  const specs = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])((?:npm:|https?:\/\/)[^'"\n]+)\1/gm);
  for (const [, , spec] of specs) {
    const npm = /^(npm:\/?openai(?:@[^/]*)?)(?:\/|$)/.exec(spec);
    if (npm) return (module) => withSdkName(module, npm[1]);
    const esm = /^(https?:\/\/esm\.sh\/(?:v\d+\/|stable\/)?openai(?:@[^/?]*)?)(?:[/?]|$)/.exec(spec);
    if (esm) return (module) => withSdkName(module, esm[1]);
    const denoLand = /^(https?:\/\/deno\.land\/x\/openai(?:@[^/]*)?)\//.exec(spec);
    if (denoLand) return (module) => (module === 'openai' ? `${denoLand[1]}/mod.ts` : `${module.replace(/^openai/, denoLand[1])}.ts`);
  }
  return undefined;
}
