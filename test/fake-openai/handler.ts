// The contract between the HTTP layer (server.ts) and the per-API handlers (chat.ts, responses.ts).
// Handlers are synchronous and pure apart from `nextId`; they throw HttpError to reject a request.

export interface HandlerContext {
  /** Bearer token of the caller. */
  key: string;
  /** Next per-key, per-API response number (1, 2, …); call it only for accepted requests. */
  nextId(): number;
}

export type HandlerResult =
  | { status: number; json: unknown; sse?: undefined }
  /** Pre-framed SSE frames, written in order as text/event-stream. */
  | { status: number; sse: string[]; json?: undefined };
