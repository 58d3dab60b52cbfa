// Stocktake (count) session endpoints under /api/v1/stocktakes/ (issue 5), behind token auth.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  STOCKTAKES_PATH,
  commitBodySchema,
  createStocktakeBodySchema,
  scanBodySchema,
  undoBodySchema,
  updateLineBodySchema,
} from '../../shared/index.ts';
import { type CallerState, authenticateCaller } from '../http/authenticate.ts';
import { HttpError } from '../http/http-error.ts';
import { idempotencyKey, respondOnce } from '../http/idempotency.ts';
import { parseBody, pathId } from '../http/validated-input.ts';
import type { Database } from '../store/database.ts';
import { commitStocktake } from '../store/stocktake-commit.ts';
import {
  StocktakeError,
  createStocktake,
  getStocktake,
  listLines,
  listStocktakes,
  recordScan,
  reviewStocktake,
  undoLastScan,
  updateLine,
} from '../store/stocktakes.ts';
import { otherMethods, withOptionalSlash } from './api-routes.ts';
import { sessionCountsCsv } from '../csv/stocktake-csv.ts';

const base = STOCKTAKES_PATH.replace(/\/$/, '');
const one = `${base}/:id`;

/** The store's refusals become request-level errors. */
const storeErrors: Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (error instanceof StocktakeError) throw new HttpError(error.status, error.message);
    throw error;
  }
};

export function stocktakeRouter(db: Database): Router<CallerState> {
  const router = new Router<CallerState>();
  const auth = authenticateCaller(db);
  // Every synchronous write takes an optional Idempotency-Key (docs/POS.md); the commit is
  // asynchronous and safe to resend by design (it resumes and never applies a line twice).
  const once = idempotencyKey(db);
  const at = (path: string) => withOptionalSlash(`${path}/`);

  router.get(at(base), auth, (ctx) => {
    ctx.body = listStocktakes(db, ctx.state.caller);
  });
  router.post(at(base), auth, storeErrors, once, async (ctx) => {
    const body = await parseBody(ctx, createStocktakeBodySchema);
    respondOnce(db, ctx, body, () => ({ status: 201, body: createStocktake(db, ctx.state.caller, body) }));
  });
  router.get(at(one), auth, storeErrors, (ctx) => {
    ctx.body = getStocktake(db, ctx.state.caller, pathId(ctx.params.id));
  });
  router.get(at(`${one}/lines`), auth, storeErrors, (ctx) => {
    ctx.body = listLines(db, ctx.state.caller, pathId(ctx.params.id));
  });
  router.patch(at(`${one}/lines/:line`), auth, storeErrors, once, async (ctx) => {
    const id = pathId(ctx.params.id);
    const line = pathId(ctx.params.line);
    const body = await parseBody(ctx, updateLineBodySchema);
    respondOnce(db, ctx, body, () => ({ status: 200, body: updateLine(db, ctx.state.caller, id, line, body) }));
  });
  router.post(at(`${one}/scans`), auth, storeErrors, once, async (ctx) => {
    const id = pathId(ctx.params.id);
    const body = await parseBody(ctx, scanBodySchema);
    respondOnce(db, ctx, body, () => {
      const result = recordScan(db, ctx.state.caller, id, body);
      return { status: result.scan.duplicate ? 200 : 201, body: result };
    });
  });
  router.post(at(`${one}/undo`), auth, storeErrors, once, async (ctx) => {
    const id = pathId(ctx.params.id);
    const body = await parseBody(ctx, undoBodySchema);
    respondOnce(db, ctx, body, () => ({ status: 200, body: undoLastScan(db, ctx.state.caller, id, body) }));
  });
  router.get(at(`${one}/review`), auth, storeErrors, (ctx) => {
    ctx.body = reviewStocktake(db, ctx.state.caller, pathId(ctx.params.id));
  });
  router.post(at(`${one}/commit`), auth, storeErrors, async (ctx) => {
    const id = pathId(ctx.params.id);
    const body = await parseBody(ctx, commitBodySchema);
    ctx.body = await commitStocktake(db, ctx.state.caller, id, body);
  });
  router.get(`${one}/counts.csv`, auth, storeErrors, (ctx) => {
    const id = pathId(ctx.params.id);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="stocktake-${id}.csv"`);
    ctx.body = sessionCountsCsv(db, ctx.state.caller, id);
  });

  router.all(at(base), otherMethods(['GET', 'POST']));
  router.all(at(one), otherMethods(['GET']));
  router.all(at(`${one}/lines`), otherMethods(['GET']));
  router.all(at(`${one}/lines/:line`), otherMethods(['PATCH']));
  router.all(at(`${one}/scans`), otherMethods(['POST']));
  router.all(at(`${one}/undo`), otherMethods(['POST']));
  router.all(at(`${one}/review`), otherMethods(['GET']));
  router.all(at(`${one}/commit`), otherMethods(['POST']));
  router.all(`${one}/counts.csv`, otherMethods(['GET']));
  return router;
}
