/**
 * Inputs the parsers cannot take safely. Both parsers are recursive: Babel overflows the stack
 * near 500 nested brackets, TypeScript near 1000, and one such file must not take the run down.
 */

/** Deeper than any real code; well under what the parsers survive. */
export const MAX_NESTING = 256;

const BACKTICK = 96;
const BACKSLASH = 92;
const DOLLAR = 36;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * Maximum bracket nesting, skipping strings, comments and the text of template literals (their
 * `${…}` substitutions are code and count). A linear scan: this runs before any parse.
 */
export function maxNesting(text: string): number {
  let depth = 0;
  let max = 0;
  // the bracket depth at which each open `${` substitution started: its `}` resumes the template
  const substitutions: number[] = [];
  /** From just inside a template's text: the index of its closing backtick, or of the `{` of a `${`. */
  const templateText = (from: number): number => {
    let j = from;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === BACKSLASH) j++;
      else if (c === BACKTICK) return j;
      else if (c === DOLLAR && text.charCodeAt(j + 1) === OPEN_BRACE) {
        depth++;
        if (depth > max) max = depth;
        substitutions.push(depth);
        return j + 1;
      }
    }
    return j;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === OPEN_BRACE) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 41 || c === 93 || c === CLOSE_BRACE) {
      if (c === CLOSE_BRACE && substitutions.length && substitutions[substitutions.length - 1] === depth) {
        substitutions.pop();
        depth--;
        i = templateText(i + 1);
      } else if (depth > 0) depth--;
    } else if (c === BACKTICK) {
      i = templateText(i + 1);
    } else if (c === 39 || c === 34) {
      // '…' or "…": skip to the closing quote on the same line
      const quote = c;
      for (i++; i < text.length && text.charCodeAt(i) !== quote && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
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
