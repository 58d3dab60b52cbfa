// The scanner UI's own endpoints (issue 3, docs/UI.md), described for the OpenAPI document.
import { z } from 'zod';
import { ACCOUNT_PATH, LABELS_PATH, SIGNIN_PATH, accountInfoSchema, labelsResponseSchema, signInRequestSchema, signInResponseSchema } from '../../shared/index.ts';
import type { EndpointDoc } from './endpoint-doc.ts';

const tag = 'Scanner UI';

export const uiEndpoints: EndpointDoc[] = [
  {
    method: 'post',
    path: SIGNIN_PATH,
    tag,
    summary: 'Exchange a one-time sign-in code for a token',
    description: 'The code comes from a sign-in link (`barcode-inventory signin-link`); it works once and expires.',
    auth: false,
    body: { schema: signInRequestSchema },
    responses: { 200: { description: 'A new API token of the account.', schema: signInResponseSchema }, 400: { description: 'Missing, used, expired or mistyped code.' } },
  },
  {
    method: 'get',
    path: ACCOUNT_PATH,
    tag,
    summary: 'Who the token belongs to',
    responses: { 200: { description: 'Account name and scenario.', schema: accountInfoSchema } },
  },
  {
    method: 'get',
    path: LABELS_PATH,
    tag,
    summary: 'Names behind barcodes',
    query: z.object({ barcodes: z.string().min(1).describe('Comma-separated barcodes, as for the read endpoint.') }),
    responses: { 200: { description: 'Barcode → item and variant name; unknown barcodes are absent.', schema: labelsResponseSchema }, 400: { description: 'Missing barcodes or too many.' } },
  },
];
