// The Koa application: middleware and routes, never listening by itself (start.ts does that).
import Koa from 'koa';
import pino, { type Logger } from 'pino';
import { errorMiddleware } from './http/error-middleware.ts';
import { apiRouter } from './routes/api-routes.ts';
import { posRouter } from './routes/pos-routes.ts';
import type { Database } from './store/database.ts';

export interface AppOptions {
  db: Database;
  logger?: Logger;
}

export function createApp({ db, logger = pino({ level: 'silent' }) }: AppOptions): Koa {
  const app = new Koa();
  app.silent = true; // every error is answered and logged by errorMiddleware
  app.use(errorMiddleware(logger));
  const api = apiRouter(db);
  app.use(api.routes());
  app.use(posRouter(db).routes()); // POS integration: docs/POS.md
  return app;
}
