// Endpoints of the scanner UI beyond the service spec (docs/UI.md): sign-in with a one-time code,
// who the token belongs to, and the names behind barcodes. Same auth and error rules as the API.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  ACCOUNT_PATH,
  LABELS_PATH,
  SIGNIN_PATH,
  type AccountInfo,
  type LabelsResponse,
  type SignInResponse,
  parseBarcodeList,
  requestMessages,
  signInMessages,
  signInRequestSchema,
} from '../../shared/index.ts';
import { type CallerState, authenticateCaller } from '../http/authenticate.ts';
import { HttpError } from '../http/http-error.ts';
import { readJsonBody } from '../http/json-body.ts';
import { readBarcodeLabels } from '../store/barcode-labels.ts';
import type { Database } from '../store/database.ts';
import { redeemSignInCode } from '../store/signin-codes.ts';

/** `/a/b/` → a pattern matching `/a/b` and `/a/b/`. */
function withOptionalSlash(path: string): string {
  return `${path.replace(/\/$/, '')}{/}`;
}

export function uiRouter(db: Database): Router<CallerState> {
  const router = new Router<CallerState>();
  const auth = authenticateCaller(db);

  router.post(withOptionalSlash(SIGNIN_PATH), async (ctx) => {
    const parsed = signInRequestSchema.safeParse(await readJsonBody(ctx));
    if (!parsed.success) throw new HttpError(400, signInMessages.codeRequired);
    const redeemed = redeemSignInCode(db, parsed.data.code);
    if (!redeemed) throw new HttpError(400, signInMessages.invalidCode);
    const body: SignInResponse = {
      account: redeemed.account.name,
      warehouses_enabled: redeemed.account.warehousesEnabled,
      token: redeemed.token,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get(withOptionalSlash(ACCOUNT_PATH), auth, (ctx) => {
    const body: AccountInfo = { account: ctx.state.caller.name, warehouses_enabled: ctx.state.caller.warehousesEnabled };
    ctx.body = body;
  });

  router.get(withOptionalSlash(LABELS_PATH), auth, (ctx) => {
    const parsed = parseBarcodeList(ctx.query.barcodes);
    if (!parsed.ok) throw new HttpError(400, parsed.detail);
    const body: LabelsResponse = { labels: readBarcodeLabels(db, ctx.state.caller, parsed.barcodes) };
    ctx.body = body;
  });

  const methodNotAllowed = (allow: string): Middleware => (ctx) => {
    ctx.set('Allow', allow);
    if (ctx.method === 'OPTIONS') return void (ctx.status = 204);
    throw new HttpError(405, requestMessages.methodNotAllowed(ctx.method), { Allow: allow });
  };
  router.all(withOptionalSlash(SIGNIN_PATH), methodNotAllowed('POST, OPTIONS'));
  router.all(withOptionalSlash(ACCOUNT_PATH), methodNotAllowed('GET, HEAD, OPTIONS'));
  router.all(withOptionalSlash(LABELS_PATH), methodNotAllowed('GET, HEAD, OPTIONS'));
  return router;
}
