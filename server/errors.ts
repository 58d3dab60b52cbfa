// The one family of errors that reach a user. Each refusal says its HTTP status, its text and its
// machine-readable code (shared/error-codes.ts) once, where it is raised (store, HTTP layer or CLI);
// two places turn them into output: the error middleware (`{"detail": …, "code": …}` with the status
// and headers) and the CLI (the text, exit code 1). An error raised without a code of its own carries
// the general code of its status (codeOfStatus), so every answer has one.
// Built on http-errors, which Koa's ctx.throw and the body readers use too, so their client errors
// belong to the same family.
import createHttpError from 'http-errors';
import { type ErrorCode, codeOfStatus, hardeningMessages, requestMessages } from '../shared/index.ts';

export type ApiError = createHttpError.HttpError;

/** Seconds a client should wait before retrying after the database was unavailable. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * An error whose text is meant for the user: `status`, `detail` and `code` become the answer as they
 * are; `more` adds fields to the JSON answer beside them (where to resume a sync push, say).
 */
export function apiError(
  status: number,
  detail: string,
  options: { code?: ErrorCode; headers?: Record<string, string>; cause?: unknown; more?: Record<string, unknown> } = {},
): ApiError {
  return createHttpError(status, detail, {
    expose: true,
    code: options.code ?? codeOfStatus(status),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.cause !== undefined ? { cause: options.cause } : {}),
    ...(options.more ? { more: options.more } : {}),
  });
}

/** The machine-readable code of an error of the family (its status's general code when it was raised by Koa or a body reader). */
export function codeOf(error: ApiError): ErrorCode {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? (code as ErrorCode) : codeOfStatus(error.status);
}

/** The fields an error adds to its answer beside `detail`. */
export function moreOf(error: ApiError): Record<string, unknown> {
  const more = (error as { more?: unknown }).more;
  return typeof more === 'object' && more !== null ? (more as Record<string, unknown>) : {};
}

/** True for an error of this family whose text may be shown (every 4xx, and the 503 below). */
export function isApiError(error: unknown): error is ApiError {
  return createHttpError.isHttpError(error) && error.expose;
}

export const badRequest = (detail: string, code?: ErrorCode): ApiError => apiError(400, detail, code ? { code } : {});
export const notFound = (detail: string = requestMessages.notFound, code?: ErrorCode): ApiError =>
  apiError(404, detail, code ? { code } : {});
export const conflict = (detail: string, code?: ErrorCode): ApiError => apiError(409, detail, code ? { code } : {});

/**
 * The database cannot be used right now (disk full, read-only, I/O error, locked past the busy
 * timeout, connection lost): nothing was written, and the next request tries again.
 */
export function storageUnavailable(cause: unknown): ApiError {
  return apiError(503, hardeningMessages.storageUnavailable, {
    code: 'storage_unavailable',
    headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

export function isStorageUnavailable(error: unknown): boolean {
  return isApiError(error) && error.status === 503;
}
