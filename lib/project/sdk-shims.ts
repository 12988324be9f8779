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

export function findSdkShims(declarations: readonly string[], layout: ProjectLayout): SdkShim[] {
  const shims: SdkShim[] = [];
  for (const file of declarations) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // a `responses` member declared (`responses: …`, `responses?: …`, `get responses()`)
    if (!DECLARES_SDK.test(text) || /\bresponses\s*(\?\s*)?[:(]/.test(text)) continue;
    shims.push({ file, dir: layout.packageFor(file)?.dir ?? path.dirname(file) });
  }
  return shims;
}

/** The shim that types `file`, if any. */
export function shimFor(shims: readonly SdkShim[], file: string): SdkShim | undefined {
  return shims.find((s) => file === s.dir || file.startsWith(s.dir.endsWith(path.sep) ? s.dir : s.dir + path.sep));
}
