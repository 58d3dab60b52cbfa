// The one place where failures become responses: an error of the family (server/errors.ts, and the
// client errors of Koa and the body readers) answers its status, headers and `{"detail": …}`;
// anything else is a 500 with a fixed text and no stack trace, logged. Every answer carries its
// machine-readable `code` beside the text (shared/error-codes.ts). Unmatched paths become
// `404 {"detail": "Not found.", "code": "not_found"}`.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { requestMessages } from '../../shared/index.ts';
import { codeOf, isApiError, moreOf, notFound } from '../errors.ts';

export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw notFound();
    } catch (error) {
      const log = (ctx.state.log as Logger | undefined) ?? logger;
      if (isApiError(error)) {
        if (error.status >= 500) log.warn({ err: error.cause ?? error, method: ctx.method, path: ctx.path }, 'storage unavailable');
        ctx.status = error.status;
        if (error.headers) ctx.set(error.headers);
        ctx.body = { detail: error.message, code: codeOf(error), ...moreOf(error) };
      } else {
        log.error({ err: error, method: ctx.method, path: ctx.path }, 'request failed');
        ctx.status = 500;
        ctx.body = { detail: requestMessages.internal, code: 'internal' };
      }
    }
  };
}
