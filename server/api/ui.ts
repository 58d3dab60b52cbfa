// What the scanner UI needs beyond the service spec (docs/UI.md): sign-in with a one-time code,
// sign-out (revoking the device's token), who the token belongs to and its role, and the names behind
// barcodes.
import {
  ACCOUNT_PATH,
  DEFAULT_PERSON_IDLE_MINUTES,
  LABELS_PATH,
  MAY,
  SIGNIN_PATH,
  SIGNOUT_PATH,
  accountInfoSchema,
  accountSettingsSchema,
  labelsResponseSchema,
  parseBarcodeList,
  signInMessages,
  signInRequestSchema,
  signInResponseSchema,
} from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { type Caller, actorOf } from '../store/store.ts';
import { barcodesQuery } from './barcodes-query.ts';
import { PUBLIC, type Resource, endpoint } from './endpoint.ts';

function accountInfo(caller: Caller) {
  return {
    account: caller.name,
    warehouses_enabled: caller.warehousesEnabled,
    gtin_equivalence: caller.gtinEquivalence === true,
    role: caller.role,
    person: caller.person ?? null,
    person_idle_minutes: caller.personIdleMinutes ?? DEFAULT_PERSON_IDLE_MINUTES,
  };
}

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
        // A person signing out of a shared scanner is an everyday thing, not a change to audit.
        await store.tokens.revoke(caller.tokenId, caller.person ? undefined : actorOf(caller));
        return { status: 204, body: null };
      },
    }),
    endpoint({
      method: 'GET',
      path: ACCOUNT_PATH,
      summary: 'Who the token belongs to',
      roles: MAY.anyToken,
      description: "The scanner UI hides what the token's role may not do, and shows the person signed in on a shared scanner.",
      responses: {
        200: {
          description:
            "Account name, scenario, whether GTINs match by their 14-digit form, the token's role, its person (on a shared scanner) " +
            'and how soon a shared scanner signs its person out.',
          schema: accountInfoSchema,
        },
      },
      handler: ({ caller }) => ({ body: accountInfo(caller) }),
    }),
    endpoint({
      method: 'PATCH',
      path: ACCOUNT_PATH,
      summary: "Change the account's settings for shared scanners",
      roles: MAY.people,
      description:
        "`person_idle_minutes`: how long a shared scanner keeps a person signed in without use (1–720); applies to the people's " +
        'sign-ins made already too.',
      body: { schema: accountSettingsSchema },
      responses: {
        200: { description: 'The account as the token sees it now.', schema: accountInfoSchema },
        400: { description: 'Out of range.' },
      },
      async handler({ store, caller, body }) {
        await store.people.setIdleMinutes(caller, actorOf(caller), body.person_idle_minutes);
        return { body: accountInfo({ ...caller, personIdleMinutes: body.person_idle_minutes }) };
      },
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
