/** `--allow-base-url` entries (P-ALLOW): origins and `env:NAME` names. Kept apart from the scanner so the CLI can check them before loading the compiler. */

export interface AllowList {
  /** Lower-case origins (`https://host:port`). */
  origins: Set<string>;
  /** Environment variable names (`env:NAME` entries). */
  envNames: Set<string>;
}

export function parseAllowList(entries: string[]): AllowList {
  const origins = new Set<string>();
  const envNames = new Set<string>();
  for (const entry of entries) {
    if (entry.startsWith('env:')) {
      envNames.add(entry.slice(4));
      continue;
    }
    try {
      origins.add(new URL(entry).origin.toLowerCase());
    } catch {
      throw new Error(`--allow-base-url: "${entry}" is neither a URL (https://host) nor env:NAME`);
    }
  }
  return { origins, envNames };
}
