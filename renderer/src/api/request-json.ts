// The one place the UI calls fetch: a same-origin request whose answer is parsed with a shared zod
// schema (or taken as a file), and whose failure becomes an ApiError carrying a message the user can read.
import type { z } from 'zod';
import { requestErrorSchema } from '../../../shared/index.ts';
import { apiTexts } from '../common/texts.ts';

/**
 * A request the server refused as a whole (`{"detail": …, "code": …}`), or that never got an answer
 * (status 0). The message is the UI's, worded from the code; the server's English detail is not shown.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The server's code (shared/error-codes.ts); empty for no answer or an answer without one. */
  readonly code: string;
  constructor(status: number, message: string, code = '') {
    super(message);
    this.status = status;
    this.code = code;
  }
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** How a request is sent; the body, if any, goes as JSON. */
export interface RequestOptions {
  method?: string;
  body?: unknown;
  token?: string | null;
  /** What the user is told when the request never gets an answer: each screen says what happens to its work. */
  unreachable?: string;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
}

/** A GET whose answer is a file (a CSV export), as a Blob; an ApiError with a message for the user otherwise. */
export async function requestFile(path: string, options: Pick<RequestOptions, 'token' | 'unreachable'> = {}): Promise<Blob> {
  const { token, unreachable = apiTexts.unreachable } = options;
  const headers = new Headers(token ? { Authorization: `Token ${token}` } : {});
  let response: Response;
  try {
    response = await fetch(path, { headers, cache: 'no-store' });
    if (response.ok) return await response.blob();
  } catch {
    throw new ApiError(0, unreachable);
  }
  throw refusal(response.status, await response.json().catch(() => undefined));
}

/** One request to the server: an answer that matches `schema`, or an ApiError with a message for the user. */
export async function requestJson<S extends z.ZodType>(schema: S, path: string, options: RequestOptions = {}): Promise<z.infer<S>> {
  const { method = 'GET', body, token, unreachable = apiTexts.unreachable } = options;
  const headers = new Headers({ Accept: 'application/json', ...options.headers });
  if (token) headers.set('Authorization', `Token ${token}`);
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { method, headers, cache: 'no-store', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new ApiError(0, unreachable);
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw refusal(response.status, json);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(response.status, apiTexts.notUnderstood);
  return parsed.data;
}

/** The error of a refused request, in the UI's words for its code (the status's words without one). */
function refusal(status: number, body: unknown): ApiError {
  const parsed = requestErrorSchema.safeParse(body);
  const code = parsed.success ? (parsed.data.code ?? '') : '';
  return new ApiError(status, code ? apiTexts.refused(code) : apiTexts.answered(status), code);
}
