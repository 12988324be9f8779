// Error shape shared by both APIs: `{ error: { message, type, param, code } }`.
// The SDK turns the `error` object into APIError#error / #code / #param / #type.

export interface ApiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Thrown by validators and handlers; the server turns it into an HTTP error response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly type: string = status >= 500 ? 'server_error' : 'invalid_request_error',
  ) {
    super(message);
  }

  body(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export const badRequest = (message: string, param: string | null = null, code: string | null = null): HttpError =>
  new HttpError(400, message, param, code);

export const unknownParameter = (name: string): HttpError =>
  badRequest(`Unknown parameter: '${name}'.`, name, 'unknown_parameter');

export const missingParameter = (name: string, extra = ''): HttpError =>
  badRequest(`Missing required parameter: '${name}'.${extra}`, name, 'missing_required_parameter');

/** The scripted `[[fail]]` scenario, non-streaming (both APIs): HTTP 500, never retried by the SDK. */
export const modelFailed = (): HttpError =>
  new HttpError(500, 'The model failed', null, 'server_error', 'server_error');
