// The POS integration's endpoint beside the spec's (docs/POS.md): atomic stock adjustments.
import Router from '@koa/router';
import { ADJUST_PATH } from '../../shared/index.ts';
import { authenticateCaller } from '../http/authenticate.ts';
import { type IdempotencyState, idempotencyKey, respondOnce } from '../http/idempotency.ts';
import { readJsonBody } from '../http/json-body.ts';
import { requireRowList } from '../http/row-list.ts';
import type { Database } from '../store/database.ts';
import { adjustStock } from '../store/stock-write.ts';
import { otherMethods, withOptionalSlash } from './api-routes.ts';

export function posRouter(db: Database): Router<IdempotencyState> {
  const router = new Router<IdempotencyState>();
  const adjust = withOptionalSlash(ADJUST_PATH);
  router.post(adjust, authenticateCaller(db), idempotencyKey(db), async (ctx) => {
    const body = await readJsonBody(ctx);
    respondOnce(db, ctx, body, () => {
      const rows = requireRowList(body);
      return { status: 200, body: adjustStock(db, ctx.state.caller, rows, { source: 'api', tokenId: ctx.state.caller.tokenId }) };
    });
  });
  router.all(adjust, otherMethods(['POST']));
  return router;
}
