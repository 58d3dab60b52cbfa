// The three endpoints of the service spec (section 4) on one router.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  INVENTORY_PATH,
  WAREHOUSES_PATH,
  assembleReadResponse,
  parseBarcodeList,
  requestMessages,
} from '../../shared/index.ts';
import { type CallerState, authenticateCaller } from '../http/authenticate.ts';
import { HttpError } from '../http/http-error.ts';
import { idempotencyKey, respondOnce } from '../http/idempotency.ts';
import { readJsonBody } from '../http/json-body.ts';
import { requireRowList } from '../http/row-list.ts';
import type { Database } from '../store/database.ts';
import { listWarehouses, readStockRecords } from '../store/stock-read.ts';
import { updateStock } from '../store/stock-write.ts';

/** `/a/b/` → a pattern matching `/a/b` and `/a/b/`. */
export function withOptionalSlash(path: string): string {
  return `${path.replace(/\/$/, '')}{/}`;
}

/** Answers a known path's unsupported method: OPTIONS lists the methods, anything else is 405. */
export function otherMethods(allowed: string[]): Middleware {
  const allow = [...allowed, 'HEAD', 'OPTIONS'].join(', ');
  return (ctx) => {
    ctx.set('Allow', allow);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    throw new HttpError(405, requestMessages.methodNotAllowed(ctx.method), { Allow: allow });
  };
}

export function apiRouter(db: Database): Router<CallerState> {
  const router = new Router<CallerState>();
  const auth = authenticateCaller(db);
  const inventory = withOptionalSlash(INVENTORY_PATH);
  const warehouses = withOptionalSlash(WAREHOUSES_PATH);

  router.get(inventory, auth, (ctx) => {
    const parsed = parseBarcodeList(ctx.query.barcodes);
    if (!parsed.ok) throw new HttpError(400, parsed.detail);
    const records = readStockRecords(db, ctx.state.caller, parsed.barcodes);
    ctx.body = assembleReadResponse(parsed.barcodes, (barcode) => records.get(barcode));
  });

  // Idempotency-Key and the optional POS row fields: docs/POS.md.
  router.post(inventory, auth, idempotencyKey(db), async (ctx) => {
    const body = await readJsonBody(ctx);
    respondOnce(db, ctx, body, () => {
      const rows = requireRowList(body);
      return { status: 200, body: updateStock(db, ctx.state.caller, rows, { source: 'api', tokenId: ctx.state.caller.tokenId }) };
    });
  });

  router.get(warehouses, auth, (ctx) => {
    ctx.body = listWarehouses(db, ctx.state.caller);
  });

  router.all(inventory, otherMethods(['GET', 'POST']));
  router.all(warehouses, otherMethods(['GET']));
  return router;
}
