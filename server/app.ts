// The Koa application: middleware and the API router built from the endpoint table, never listening
// by itself (start.ts does that).
import Koa from 'koa';
import pino, { type Logger } from 'pino';
import { resources as allResources } from './api/resources.ts';
import type { Resource } from './api/endpoint.ts';
import { apiRouter, servedMethods } from './api/router.ts';
import { type AuthRateLimitOptions, DEFAULT_AUTH_RATE_LIMIT, authRateLimit } from './http/auth-rate-limit.ts';
import { errorMiddleware } from './http/error-middleware.ts';
import { hostOriginGuard } from './http/host-origin-guard.ts';
import { requestLog } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { staticUi } from './http/static-ui.ts';
import type { Store } from './store/store.ts';

export interface AppOptions {
  store: Store;
  logger?: Logger;
  /** Address the server listens on: loopback binds (the default) check the Host header. */
  bindHost?: string;
  /** Browser origins besides the server's own that may call the API (CORS); none by default. */
  allowedOrigins?: readonly string[];
  /** Failed-authentication limit per client address; false turns it off. */
  authRateLimit?: AuthRateLimitOptions | false;
  /** Folder of the built scanner UI to serve at `/` (docs/UI.md); none when absent. */
  uiDir?: string;
  /** The endpoint table; the whole API unless a test or benchmark serves a part of it. */
  resources?: readonly Resource[];
}

export function createApp({ store, logger = pino({ level: 'silent' }), uiDir, resources = allResources, ...options }: AppOptions): Koa {
  const app = new Koa();
  app.silent = true; // every error is answered and logged by errorMiddleware
  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(errorMiddleware(logger));
  app.use(
    hostOriginGuard({
      bindHost: options.bindHost ?? '127.0.0.1',
      allowedOrigins: options.allowedOrigins ?? [],
      methods: servedMethods(resources),
    }),
  );
  if (options.authRateLimit !== false) app.use(authRateLimit(options.authRateLimit ?? DEFAULT_AUTH_RATE_LIMIT));
  app.use(apiRouter(store, resources).routes());
  if (uiDir) app.use(staticUi(uiDir));
  return app;
}
