/**
 * Declarations a project writes for the SDK itself (`declare module 'openai' { … }` in a `.d.ts`
 * of its own), which TypeScript reads in place of the package's: when they declare no
 * `responses`, a call rewritten to `client.responses.create(…)` no longer type-checks in that
 * project (TS2339), so its sites are reported instead. The shim covers the package it sits in
 * (the nearest package.json above it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProjectLayout } from './layout.js';

export interface SdkShim {
  /** The declaration file, absolute. */
  file: string;
  /** The folder of the package it types. */
  dir: string;
}

const DECLARES_SDK = /declare\s+module\s+['"]openai['"]/;

/** The project's declaration files, each read once (unreadable ones left out). */
export function readDeclarations(declarations: readonly string[]): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const file of declarations) {
    try {
      out.push({ file, text: readFileSync(file, 'utf8') });
    } catch {
      // unreadable: as if absent
    }
  }
  return out;
}

export function findSdkShims(declarations: readonly { file: string; text: string }[], layout: ProjectLayout): SdkShim[] {
  const shims: SdkShim[] = [];
  for (const { file, text } of declarations) {
    // a `responses` member declared (`responses: …`, `responses?: …`, `get responses()`)
    if (!DECLARES_SDK.test(text) || /\bresponses\s*(\?\s*)?[:(]/.test(text)) continue;
    shims.push({ file, dir: layout.packageFor(file)?.dir ?? path.dirname(file) });
  }
  return shims;
}

/**
 * The type names the project's global declaration files (no import or export: a script, whose
 * declarations are global) declare at their top (`interface ChatGptPrompt`, `type Answer`): the
 * program's own types, though no import loads them (lib/scan/site.ts, ownShapeType).
 */
export function globalTypeNames(declarations: readonly { file: string; text: string }[]): Set<string> {
  const names = new Set<string>();
  for (const { text } of declarations) {
    if (/^\s*(?:import|export)\s/m.test(text)) continue;
    for (const m of text.matchAll(/^\s*(?:declare\s+)?(?:interface|type)\s+([A-Za-z_$][\w$]*)/gm)) names.add(m[1]);
  }
  return names;
}

/** The shim that types `file`, if any. */
export function shimFor(shims: readonly SdkShim[], file: string): SdkShim | undefined {
  return shims.find((s) => file === s.dir || file.startsWith(s.dir.endsWith(path.sep) ? s.dir : s.dir + path.sep));
}
