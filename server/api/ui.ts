// What the scanner UI needs beyond the service spec (docs/UI.md): sign-in with a one-time code,
// sign-out (revoking the device's token), who the token belongs to and its role, and the names behind
// barcodes.
import {
  ACCOUNT_PATH,
  LABELS_PATH,
  MAY,
  SIGNIN_PATH,
  SIGNOUT_PATH,
  accountInfoSchema,
  labelsResponseSchema,
  parseBarcodeList,
  signInMessages,
  signInRequestSchema,
  signInResponseSchema,
} from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { barcodesQuery } from './barcodes-query.ts';
import { PUBLIC, type Resource, endpoint } from './endpoint.ts';

export const ui: Resource = {
  tag: 'Scanner UI',
  endpoints: [
    endpoint({
      method: 'POST',
      path: SIGNIN_PATH,
      summary: 'Exchange a one-time sign-in code for a token',
      roles: PUBLIC,
      description: 'The code comes from a sign-in link (`barcode-inventory signin-link`); it works once and expires.',
      body: { schema: signInRequestSchema, invalid: () => signInMessages.codeRequired },
      responses: {
        200: { description: 'A new API token of the account.', schema: signInResponseSchema },
        400: { description: 'Missing, used, expired or mistyped code.' },
      },
      async handler({ store, body }) {
        const redeemed = await store.signIn.redeem(body.code);
        if (!redeemed) throw badRequest(signInMessages.invalidCode, 'signin_code_invalid');
        const { account, token, role } = redeemed;
        return { body: { account: account.name, warehouses_enabled: account.warehousesEnabled, role, token } };
      },
    }),
    endpoint({
      method: 'POST',
      path: SIGNOUT_PATH,
      summary: 'Sign out: revoke the token of this request',
      roles: MAY.anyToken,
      description:
        'The scanner UI calls it when a device signs out, so the token it forgets cannot be used again by anyone. ' +
        'Any token may revoke itself this way; a request with it answers 401 from then on.',
      responses: { 204: { description: 'The token is revoked.' } },
      async handler({ store, caller }) {
        await store.tokens.revoke(caller.tokenId);
        return { status: 204, body: null };
      },
    }),
    endpoint({
      method: 'GET',
      path: ACCOUNT_PATH,
      summary: 'Who the token belongs to',
      roles: MAY.anyToken,
      description: "The scanner UI hides what the token's role may not do.",
      responses: {
        200: {
          description: "Account name, scenario, whether GTINs match by their 14-digit form, and the token's role.",
          schema: accountInfoSchema,
        },
      },
      handler: ({ caller }) => ({
        body: {
          account: caller.name,
          warehouses_enabled: caller.warehousesEnabled,
          gtin_equivalence: caller.gtinEquivalence === true,
          role: caller.role,
        },
      }),
    }),
    endpoint({
      method: 'GET',
      path: LABELS_PATH,
      summary: 'Names behind barcodes',
      roles: MAY.scannerUi,
      query: barcodesQuery,
      responses: {
        200: { description: 'Barcode → item and variant name; unknown barcodes are absent.', schema: labelsResponseSchema },
        400: { description: 'Missing barcodes or too many.' },
      },
      async handler({ store, caller, query }) {
        const parsed = parseBarcodeList(query.barcodes);
        if (!parsed.ok) throw badRequest(parsed.detail, 'invalid_barcodes');
        return { body: { labels: await store.stock.labels(caller, parsed.barcodes) } };
      },
    }),
  ],
};
