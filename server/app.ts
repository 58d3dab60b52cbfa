// The Koa application: middleware and routes, never listening by itself (start.ts does that).
import Koa from 'koa';
import pino, { type Logger } from 'pino';
import { errorMiddleware } from './http/error-middleware.ts';
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
  /** Folder of the built scanner UI to serve at `/` (docs/UI.md); none when absent. */
  uiDir?: string;
}

export function createApp({ db, logger = pino({ level: 'silent' }), uiDir }: AppOptions): Koa {
  const app = new Koa();
  app.silent = true; // every error is answered and logged by errorMiddleware
  app.use(errorMiddleware(logger));
  const api = apiRouter(db);
  app.use(api.routes());
  app.use(posRouter(db).routes()); // POS integration: docs/POS.md
  app.use(stocktakeRouter(db).routes()); // issue 5: stocktakes
  app.use(historyRouter(db).routes()); // issue 5: stock history, CSV export
  app.use(openApiRouter().routes()); // issue 5: /api/v1/openapi.json and the API page
  app.use(uiRouter(db).routes());
  if (uiDir) app.use(staticUi(uiDir));
  return app;
}
