/**
 * Reading a rules table with a name taken from the scanned source. A plain `table[name]` finds
 * `Object.prototype` members too: `result.hasOwnProperty('choices')` once looked up the step
 * `hasOwnProperty`, got a function and crashed the scan of the whole file.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function hasEntry(table: object, key: string): boolean {
  return Object.hasOwn(table, key);
}
