/**
 * Inputs the parsers cannot take safely. Both parsers are recursive: Babel overflows the stack
 * near 500 nested brackets, TypeScript near 1000, and one such file must not take the run down.
 */

/** Deeper than any real code; well under what the parsers survive. */
export const MAX_NESTING = 256;

/** Maximum bracket nesting, skipping strings, templates and comments (a linear scan). */
export function maxNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 41 || c === 93 || c === 125) {
      if (depth > 0) depth--;
    } else if (c === 39 || c === 34) {
      // '…' or "…": skip to the closing quote on the same line
      const quote = c;
      for (i++; i < text.length && text.charCodeAt(i) !== quote && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    }
  }
  return max;
}
