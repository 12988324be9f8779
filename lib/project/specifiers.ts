/**
 * The npm package a module specifier names, whatever the runtime spells it (docs/migration-spec.md §7,
 * "Module resolution"): a bare name (`openai`, `openai/helpers/zod.mjs`), Deno's `npm:` and
 * `jsr:` specifiers, and CDN URLs (esm.sh, jsDelivr, unpkg, Skypack, deno.land/x, jsr.io).
 * The SDK's own aliases (`jsr:@openai/openai`, `deno.land/x/openai`) all name `openai`.
 */

export interface PackageSpecifier {
  /** The package name, `openai` for every spelling of the SDK. */
  name: string;
  /** The path inside the package, without a leading slash ('' for the package itself). */
  subpath: string;
}

/** Other names the SDK is published under. */
const SDK_ALIASES: ReadonlySet<string> = new Set(['@openai/openai']);

/** CDN hosts, and the path prefix before the package name on each. */
const CDN_PREFIXES: readonly { host: RegExp; prefix: RegExp }[] = [
  { host: /^esm\.sh$/, prefix: /^\/(?:v\d+\/|stable\/)?/ },
  { host: /^cdn\.jsdelivr\.net$/, prefix: /^\/npm\// },
  { host: /^(?:unpkg\.com|cdn\.skypack\.dev|esm\.run|ga\.jspm\.io)$/, prefix: /^\/(?:npm:)?/ },
  { host: /^deno\.land$/, prefix: /^\/x\// },
  { host: /^jsr\.io$/, prefix: /^\// },
];

/** `name@version/sub/path` (with an optional scope) → name and subpath. */
function splitNameAndPath(rest: string): PackageSpecifier | undefined {
  const m = /^((?:@[^/@]+\/)?[^/@]+)(?:@[^/]*)?(?:\/(.*))?$/.exec(rest);
  if (!m) return undefined;
  const name = SDK_ALIASES.has(m[1]) ? 'openai' : m[1];
  return { name, subpath: m[2] ?? '' };
}

export function packageSpecifier(spec: string): PackageSpecifier | undefined {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('#') || /^[a-zA-Z]:[\\/]/.test(spec)) return undefined;
  if (spec.startsWith('npm:')) return splitNameAndPath(spec.slice(4).replace(/^\//, ''));
  if (spec.startsWith('jsr:')) return splitNameAndPath(spec.slice(4).replace(/^\//, ''));
  if (/^https?:\/\//.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      return undefined;
    }
    const cdn = CDN_PREFIXES.find((c) => c.host.test(url.hostname));
    if (!cdn) return undefined;
    const path = url.pathname.replace(cdn.prefix, '');
    const found = splitNameAndPath(path.replace(/\/\+esm$/, ''));
    return found;
  }
  if (spec.startsWith('node:')) return { name: spec, subpath: '' };
  return splitNameAndPath(spec);
}

/**
 * A canonical id for a package module: 'openai', 'openai/helpers/zod'. File extensions and an
 * `index`/`mod` entry file are dropped (`openai/index.mjs` and Deno's `openai/mod.ts` are 'openai').
 */
export function canonicalModule(p: PackageSpecifier): string {
  let sub = p.subpath.replace(/\.(d\.ts|d\.mts|d\.cts|mts|cts|ts|mjs|cjs|js)$/, '').replace(/\/$/, '');
  if (sub === 'index' || sub === 'mod' || (p.name === 'openai' && (sub === 'src' || sub === 'src/index'))) sub = '';
  return sub ? `${p.name}/${sub}` : p.name;
}
