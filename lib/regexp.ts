/** A string matched literally inside a regular expression. Dependency-free: the transforms use it too. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `name` as a whole identifier: neither a word character nor `$` either side (`ask`, not `$ask` or `task`). */
export function wordPattern(name: string): RegExp {
  return new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`);
}
