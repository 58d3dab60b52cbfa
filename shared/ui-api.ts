// Wire shapes of the few endpoints the scanner UI needs beyond the service spec: exchanging a one-time
// sign-in code for a token, who the token belongs to, and the names behind barcodes.
import { z } from 'zod';
import { API_BASE } from './api-paths.ts';
import { ROLES } from './roles.ts';

export const UI_API_BASE = `${API_BASE}/ui`;
export const SIGNIN_PATH = `${UI_API_BASE}/signin/`;
/** Revokes the token the request is made with: what signing out of a device does. */
export const SIGNOUT_PATH = `${UI_API_BASE}/signout/`;
/** The answer of sign-out: 204, no body. */
export const noContentSchema = z.undefined();
export const ACCOUNT_PATH = `${UI_API_BASE}/account/`;
export const LABELS_PATH = `${UI_API_BASE}/labels/`;

/** Where a sign-in link puts its one-time code: `http://host:port/#signin=<code>`. */
export const SIGNIN_FRAGMENT_KEY = 'signin';

export const signInRequestSchema = z.object({ code: z.string().min(1).max(200) });
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** The person signed in with a token of a shared scanner (docs/API.md, "People"). */
export const signedInPersonSchema = z.strictObject({ id: z.number().int(), name: z.string() });
export type SignedInPerson = z.infer<typeof signedInPersonSchema>;

export const accountInfoSchema = z.strictObject({
  account: z.string(),
  warehouses_enabled: z.boolean(),
  /** Barcodes that are valid GTINs match by their 14-digit form (docs/API.md, "GTIN equivalence"). */
  gtin_equivalence: z.boolean(),
  /** The token's role (docs/API.md, "Roles"): the UI hides what it may not do. */
  role: z.enum(ROLES),
  /** The person this token is of (signed in on a shared scanner), or null for a token of no person. */
  person: signedInPersonSchema.nullable(),
  /** Minutes without use after which a shared scanner signs its person out (the account's setting). */
  person_idle_minutes: z.number().int(),
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;

/** The UI reads the account's settings from the account endpoint after signing in. */
export const signInResponseSchema = accountInfoSchema
  .pick({ account: true, warehouses_enabled: true, role: true })
  .extend({ token: z.string().min(1) });
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** Names of what a barcode stands for: the item, and the variant when the barcode names one. */
export const barcodeLabelSchema = z.strictObject({
  item_name: z.string(),
  variant_name: z.string().nullable(),
});
export type BarcodeLabel = z.infer<typeof barcodeLabelSchema>;

/** Barcode → names; barcodes the account does not have are absent. */
export const labelsResponseSchema = z.strictObject({ labels: z.record(z.string(), barcodeLabelSchema) });
export type LabelsResponse = z.infer<typeof labelsResponseSchema>;
