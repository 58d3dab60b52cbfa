// The Koa application: middleware and routes, never listening by itself (start.ts does that).
import Koa from 'koa';
import pino, { type Logger } from 'pino';
import { type AuthRateLimitOptions, DEFAULT_AUTH_RATE_LIMIT, authRateLimit } from './http/auth-rate-limit.ts';
import { errorMiddleware } from './http/error-middleware.ts';
import { hostOriginGuard } from './http/host-origin-guard.ts';
import { requestLog } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { staticUi } from './http/static-ui.ts';
import { apiRouter } from './routes/api-routes.ts';
import { historyRouter } from './routes/history-routes.ts';
import { openApiRouter } from './routes/openapi-routes.ts';
import { posRouter } from './routes/pos-routes.ts';
import { stocktakeRouter } from './routes/stocktake-routes.ts';
import { uiRouter } from './routes/ui-routes.ts';
import type { Database } from './store/database.ts';

export interface AppOptions {
  db: Database;
  logger?: Logger;
  /** Address the server listens on: loopback binds (the default) check the Host header. */
  bindHost?: string;
  /** Browser origins besides the server's own that may call the API (CORS); none by default. */
  allowedOrigins?: readonly string[];
  /** Failed-authentication limit per client address; false turns it off. */
  authRateLimit?: AuthRateLimitOptions | false;
  /** Folder of the built scanner UI to serve at `/` (docs/UI.md); none when absent. */
  uiDir?: string;
}

export function createApp({ db, logger = pino({ level: 'silent' }), uiDir, ...options }: AppOptions): Koa {
  const app = new Koa();
  app.silent = true; // every error is answered and logged by errorMiddleware
  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(errorMiddleware(logger));
  app.use(hostOriginGuard({ bindHost: options.bindHost ?? '127.0.0.1', allowedOrigins: options.allowedOrigins ?? [] }));
  if (options.authRateLimit !== false) app.use(authRateLimit(options.authRateLimit ?? DEFAULT_AUTH_RATE_LIMIT));
  const api = apiRouter(db);
  app.use(api.routes());
  app.use(posRouter(db).routes()); // POS integration: docs/POS.md
  app.use(stocktakeRouter(db).routes()); // stocktake sessions: docs/STOCKTAKE.md
  app.use(historyRouter(db).routes()); // stock history and CSV export
  app.use(openApiRouter().routes()); // /api/v1/openapi.json and the API page
  app.use(uiRouter(db).routes()); // sign-in codes, account and labels for the scanner UI: docs/UI.md
  if (uiDir) app.use(staticUi(uiDir));
  return app;
}
