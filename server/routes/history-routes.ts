// Stock history (GET /api/v1/stock-history/) and the stock CSV export (GET /api/v1/export/stock.csv),
// behind token auth (issue 5).
import Router from '@koa/router';
import { STOCK_EXPORT_PATH, STOCK_HISTORY_PATH, historyQuerySchema } from '../../shared/index.ts';
import { ExportError, stockCsv } from '../csv/stock-csv.ts';
import { type CallerState, authenticateCaller } from '../http/authenticate.ts';
import { HttpError } from '../http/http-error.ts';
import { parseQuery } from '../http/validated-input.ts';
import type { Database } from '../store/database.ts';
import { readStockHistory } from '../store/stock-history.ts';
import { otherMethods, withOptionalSlash } from './api-routes.ts';

export function historyRouter(db: Database): Router<CallerState> {
  const router = new Router<CallerState>();
  const auth = authenticateCaller(db);
  const history = withOptionalSlash(STOCK_HISTORY_PATH);

  router.get(history, auth, (ctx) => {
    const query = parseQuery(ctx, historyQuerySchema);
    const page = readStockHistory(db, ctx.state.caller, query);
    let next: string | null = null;
    if (page.nextCursor !== null) {
      const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
      params.set('cursor', page.nextCursor);
      next = `${STOCK_HISTORY_PATH}?${params.toString()}`;
    }
    ctx.body = { results: page.results, next_cursor: page.nextCursor, next };
  });

  router.get(STOCK_EXPORT_PATH, auth, (ctx) => {
    const warehouse = ctx.query.warehouse_name;
    const name = Array.isArray(warehouse) ? warehouse.at(-1) : warehouse;
    try {
      ctx.body = stockCsv(db, ctx.state.caller, name === undefined || name === '' ? undefined : name);
    } catch (error) {
      if (error instanceof ExportError) throw new HttpError(400, error.message);
      throw error;
    }
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', 'attachment; filename="stock.csv"');
  });

  router.all(history, otherMethods(['GET']));
  router.all(STOCK_EXPORT_PATH, otherMethods(['GET']));
  return router;
}
