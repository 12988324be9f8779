// SSE framing for both APIs. Handlers build a list of frames; the server writes them in order.
//
// Chat Completions: `data: <chunk>` frames without an `event:` line, ended by `data: [DONE]`. A failure is a
// frame whose data has an `error` key; the SDK's Stream throws APIError on it (core/streaming.js).
// Responses: `event: <type>` + `data: <event>` frames; every event carries a `sequence_number` assigned here.
// There is no `[DONE]`: the stream ends after response.completed / response.incomplete / response.failed.

export const sseData = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;

export const SSE_DONE = 'data: [DONE]\n\n';

/** Collects chat chunk frames. */
export class ChatSseWriter {
  readonly frames: string[] = [];

  chunk(chunk: unknown): void {
    this.frames.push(sseData(chunk));
  }

  error(error: { message: string; type: string; param: string | null; code: string | null }): void {
    this.frames.push(sseData({ error }));
  }

  done(): void {
    this.frames.push(SSE_DONE);
  }
}

/** Collects Responses event frames, numbering them from 0. */
export class ResponsesSseWriter {
  readonly frames: string[] = [];
  private seq = 0;

  event<T extends { type: string }>(event: T): void {
    const withSeq = { ...event, sequence_number: this.seq++ };
    this.frames.push(`event: ${event.type}\ndata: ${JSON.stringify(withSeq)}\n\n`);
  }
}
