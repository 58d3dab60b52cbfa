// The one place where failures become responses: HttpError → its status and `{"detail": …}`;
// client errors raised by libraries (bad framing, aborted bodies) keep their 4xx; anything else is a
// 500 with a fixed text and no stack trace, logged. Unmatched paths become `404 {"detail": "Not found."}`.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { hardeningMessages, requestMessages } from '../../shared/index.ts';
import { HttpError } from './http-error.ts';
import { STORAGE_RETRY_AFTER_SECONDS, isStorageFault } from './storage-fault.ts';

function isClientError(error: unknown): error is { status: number; expose: boolean; message: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}

export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw new HttpError(404, requestMessages.notFound);
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.set(error.headers);
        ctx.body = { detail: error.message };
      } else if (isClientError(error)) {
        ctx.status = error.status;
        ctx.body = { detail: error.message };
      } else if (isStorageFault(error)) {
        // Disk full, read-only file, I/O error, lock held past the busy timeout: SQLite rolled the
        // transaction back, so say so and let the client retry (issue 4).
        (ctx.state.log ?? logger).warn({ code: (error as { code: string }).code, method: ctx.method, path: ctx.path }, 'storage unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
        ctx.body = { detail: hardeningMessages.storageUnavailable };
      } else {
        (ctx.state.log ?? logger).error({ err: error, method: ctx.method, path: ctx.path }, 'request failed');
        ctx.status = 500;
        ctx.body = { detail: requestMessages.internal };
      }
    }
  };
}
