// Small shared helpers: loose JSON access, stable stringify, short hashes, word counting.
import { createHash } from 'node:crypto';

export type Json = Record<string, unknown>;

/** `created` / `created_at` of every completion and response. */
export const CREATED = 1700000000;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const has = (o: Json, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key) && o[key] !== undefined;

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** JSON.stringify with sorted object keys, so equal values always hash the same. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const shortHash = (value: unknown, length = 12): string =>
  createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, length);

/** One token per whitespace-separated word. */
export const countWords = (text: string): number => (text.match(/\S+/g) ?? []).length;

/** Keep the first `n` words, preserving the original spacing between them. */
export function firstWords(text: string, n: number): string {
  if (n <= 0) return '';
  const re = /\S+/g;
  let end = 0;
  for (let i = 0; i < n; i++) {
    const m = re.exec(text);
    if (!m) return text;
    end = m.index + m[0].length;
  }
  return text.slice(0, end);
}

/**
 * Split text into stream deltas: one word (with its trailing whitespace) per piece, and
 * pieces longer than `max` characters (compact JSON) cut into `max`-character slices.
 * Concatenating the pieces always gives back `text`.
 */
export function splitDeltas(text: string, max = 12): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\s*\S+\s*/g) ?? (text ? [text] : [])) {
    for (let i = 0; i < word.length; i += max) pieces.push(word.slice(i, i + max));
  }
  return pieces;
}

/** Fixed-size fragments (tool-call argument deltas). */
export function splitFixed(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
