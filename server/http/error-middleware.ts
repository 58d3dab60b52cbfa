// The one place where failures become responses: HttpError → its status and `{"detail": …}`;
// client errors raised by libraries (bad framing, aborted bodies) keep their 4xx; anything else is a
// 500 with a fixed text and no stack trace, logged. Unmatched paths become `404 {"detail": "Not found."}`.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { requestMessages } from '../../shared/index.ts';
import { HttpError } from './http-error.ts';

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
      } else {
        logger.error({ err: error, method: ctx.method, path: ctx.path }, 'request failed');
        ctx.status = 500;
        ctx.body = { detail: requestMessages.internal };
      }
    }
  };
}
