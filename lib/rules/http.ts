/** Raw-HTTP clients (A-HTTP) as data: the packages whose requests the scanner reads, by name. */

/** Packages that send HTTP requests; a project never names its own module like these. */
export const HTTP_MODULES: ReadonlySet<string> = new Set([
  'axios', 'got', 'ky', 'undici', 'node-fetch', 'cross-fetch', 'isomorphic-fetch', 'https', 'http', 'node:https', 'node:http',
  'superagent', 'ofetch', '@microsoft/fetch-event-source', '@fortaine/fetch-event-source',
]);

/** Node's own HTTP modules (`request(options, cb)` rather than a URL-first API). */
export const NODE_HTTP: ReadonlySet<string> = new Set(['https', 'http', 'node:https', 'node:http']);
