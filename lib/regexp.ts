/** A string matched literally inside a regular expression. Dependency-free: the transforms use it too. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
