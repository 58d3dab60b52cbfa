// One structured JSON log line per request (pino), each with a request id that is also sent back as
// `X-Request-Id`. At info level only method, path (no query string: it holds barcodes), status,
// time and client address are logged — never a token, a header value or row data.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { BADGE_PREFIX } from '../../shared/index.ts';

export interface RequestLogState {
  /** The request's logger: every line carries its `reqId`. */
  log: Logger;
  reqId: string;
}

/** A client-chosen id is kept only when it is short and plain, so it cannot forge log lines. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The query string with anything that looks like a person's badge cut to its prefix: a badge scanned
 * into a barcode field is refused, and must not be written to the log either (docs/SECURITY.md).
 */
export function withoutBadges(query: string): string {
  return query.replace(new RegExp(`${BADGE_PREFIX}[A-Za-z0-9]+`, 'gi'), `${BADGE_PREFIX}…`);
}

export function requestLog(logger: Logger): Middleware<RequestLogState> {
  return async (ctx, next) => {
    const offered = ctx.get('x-request-id');
    const reqId = SAFE_REQUEST_ID.test(offered) ? offered : randomUUID();
    const log = logger.child({ reqId });
    ctx.state.log = log;
    ctx.state.reqId = reqId;
    ctx.set('X-Request-Id', reqId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, remote: ctx.ip };
      if (ctx.status >= 500) log.error(line, 'request');
      else log.info(line, 'request');
      log.debug({ query: withoutBadges(ctx.querystring) }, 'request query');
    }
  };
}
