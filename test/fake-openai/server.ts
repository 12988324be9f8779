// HTTP server and routing: reads the body, identifies the caller by its bearer token, dispatches to the
// per-API handler, writes JSON or SSE, and records every request per key.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalize, type CanonicalRequest } from './canonical.js';
import { handleChat } from './chat.js';
import { HttpError, badRequest } from './errors.js';
import type { HandlerContext, HandlerResult } from './handler.js';
import { handleResponses } from './responses.js';
import { isObject, type Json } from './util.js';

export type Api = 'chat' | 'responses';

export interface RecordedRequest {
  key: string;
  api: Api;
  method: string;
  path: string;
  status: number;
  body: unknown;
  canonical: CanonicalRequest | null;
  error?: string;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>/v1`, for OPENAI_BASE_URL or the `baseURL` client option. */
  baseURL: string;
  /** Recorded requests in arrival order, all of them or only those made with API key `key`. */
  requests(key?: string): RecordedRequest[];
  /** Forget recorded requests and restart the per-key id counters. */
  reset(): void;
  close(): Promise<void>;
}

const ROUTES = new Map<string, { api: Api; handle: (body: Json, ctx: HandlerContext) => HandlerResult }>([
  ['/v1/chat/completions', { api: 'chat', handle: handleChat }],
  ['/v1/responses', { api: 'responses', handle: handleResponses }],
]);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function bearer(req: IncomingMessage): string {
  const m = /^Bearer\s+(.*)$/i.exec(req.headers.authorization ?? '');
  return m ? m[1].trim() : '';
}

export async function startFakeOpenAI(): Promise<FakeServer> {
  let recorded: RecordedRequest[] = [];
  let counters = new Map<string, number>();
  let requestNo = 0;

  const send = (res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${++requestNo}`, ...headers });
    res.end(JSON.stringify(json));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    const key = bearer(req);
    const raw = await readBody(req);
    const route = method === 'POST' ? ROUTES.get(path) : undefined;
    const api: Api = route?.api ?? (path.includes('/chat/') ? 'chat' : 'responses');
    const record: RecordedRequest = { key, api, method, path, status: 0, body: raw, canonical: null };
    recorded.push(record);

    let body: unknown;
    let parsed = false;
    try {
      body = JSON.parse(raw);
      parsed = true;
      record.body = body;
    } catch {
      // recorded as the raw text
    }

    try {
      if (!route) throw new HttpError(404, `Invalid URL (${method} ${path})`);
      if (!parsed) {
        throw badRequest(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        );
      }
      if (!isObject(body)) throw badRequest('The request body must be a JSON object.');
      record.canonical = canonicalize(route.api, body);
      const ctx: HandlerContext = {
        key,
        nextId: () => {
          const k = `${route.api}\u0000${key}`;
          const n = (counters.get(k) ?? 0) + 1;
          counters.set(k, n);
          return n;
        },
      };
      const result = route.handle(body, ctx);
      record.status = result.status;
      if (result.sse) {
        res.writeHead(result.status, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          'x-request-id': `req_${++requestNo}`,
        });
        for (const frame of result.sse) res.write(frame);
        res.end();
      } else {
        send(res, result.status, result.json);
      }
    } catch (e) {
      const err = e instanceof HttpError ? e : new HttpError(500, `fake-openai internal error: ${e instanceof Error ? e.stack : String(e)}`);
      record.status = err.status;
      record.error = err.message;
      // Never let the SDK retry: every request a program makes is recorded exactly once.
      send(res, err.status, err.body(), { 'x-should-retry': 'false' });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, new HttpError(500, String(e)).body(), { 'x-should-retry': 'false' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: (key?: string) => recorded.filter((r) => key === undefined || r.key === key),
    reset: () => {
      recorded = [];
      counters = new Map();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
