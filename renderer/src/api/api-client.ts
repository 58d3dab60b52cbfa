// The UI's only way to the server: same-origin HTTP with the account's token. Every answer is parsed
// with the shared zod schemas, and rows are checked with the server's own rules before they are sent.
import type { z } from 'zod';
import {
  ACCOUNT_PATH,
  INVENTORY_PATH,
  LABELS_PATH,
  MAX_BARCODES_PER_READ,
  MAX_ROWS_PER_UPDATE,
  SIGNIN_PATH,
  WAREHOUSES_PATH,
  type AccountInfo,
  type BarcodeLabel,
  type FieldErrors,
  type ReadResponse,
  type SignInResponse,
  type UpdateResponse,
  type UpdateRow,
  type Warehouse,
  accountInfoSchema,
  checkUpdateRow,
  labelsResponseSchema,
  readResponseSchema,
  requestErrorSchema,
  signInResponseSchema,
  updateResponseSchema,
  warehouseListSchema,
} from '../../../shared/index.ts';

/** A request the server refused as a whole (`{"detail": …}`), or that never got an answer. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** How a request is sent; the body, if any, goes as JSON. */
export interface RequestOptions {
  method?: string;
  body?: unknown;
  token?: string | null;
  /** What the user is told when the request never gets an answer: each screen says what happens to its work. */
  unreachable?: string;
}

/** One request to the server: an answer that matches `schema`, or an ApiError with a message for the user. */
export async function requestJson<S extends z.ZodType>(schema: S, path: string, options: RequestOptions = {}): Promise<z.infer<S>> {
  const { method = 'GET', body, token, unreachable = 'The server cannot be reached. Is barcode-inventory still running?' } = options;
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Token ${token}`);
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { method, headers, cache: 'no-store', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new ApiError(0, unreachable);
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = requestErrorSchema.safeParse(json);
    throw new ApiError(response.status, parsed.success ? parsed.data.detail : `The server answered ${response.status}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(response.status, 'The server sent an answer this UI does not understand.');
  return parsed.data;
}

/** Exchanges a one-time code of a sign-in link for the account's token. */
export function redeemSignInCode(code: string): Promise<SignInResponse> {
  return requestJson(signInResponseSchema, SIGNIN_PATH, { method: 'POST', body: { code } });
}

/** A row as the user entered it: the quantity is still text. */
export interface RowInput {
  barcode: string;
  quantity: string;
  warehouse_name?: string;
}

/** Outcome of a row sent in an update: its record, or its errors (found locally or by the server). */
export type RowOutcome = { ok: true; quantity: number } | { ok: false; errors: FieldErrors };

export interface ApiClient {
  account(): Promise<AccountInfo>;
  warehouses(): Promise<Warehouse[]>;
  readStock(barcodes: readonly string[]): Promise<ReadResponse>;
  labels(barcodes: readonly string[]): Promise<Record<string, BarcodeLabel>>;
  /** Posts valid rows in one request; returns one outcome per given row, in order. */
  updateStock(rows: readonly RowInput[], warehousesEnabled: boolean): Promise<RowOutcome[]>;
}

function barcodesQuery(barcodes: readonly string[]): string {
  if (barcodes.length === 0 || barcodes.length > MAX_BARCODES_PER_READ) {
    throw new ApiError(400, `Between 1 and ${MAX_BARCODES_PER_READ} barcodes at a time.`);
  }
  // Commas separate barcodes on the wire; a barcode containing one cannot be read by this endpoint.
  return `?barcodes=${encodeURIComponent(barcodes.join(','))}`;
}

export function createApiClient(token: string): ApiClient {
  return {
    account: () => requestJson(accountInfoSchema, ACCOUNT_PATH, { token }),
    warehouses: () => requestJson(warehouseListSchema, WAREHOUSES_PATH, { token }),
    readStock: (barcodes) => requestJson(readResponseSchema, INVENTORY_PATH + barcodesQuery(barcodes), { token }),
    labels: async (barcodes) => (await requestJson(labelsResponseSchema, LABELS_PATH + barcodesQuery(barcodes), { token })).labels,

    async updateStock(rows, warehousesEnabled) {
      if (rows.length > MAX_ROWS_PER_UPDATE) throw new ApiError(400, `At most ${MAX_ROWS_PER_UPDATE} rows at a time.`);
      const outcomes: (RowOutcome | undefined)[] = rows.map(() => undefined);
      const send: { index: number; row: UpdateRow }[] = [];
      rows.forEach((row, index) => {
        const check = checkUpdateRow(row, warehousesEnabled);
        if (check.ok) send.push({ index, row: check.row }); // normalised: quantity as a JSON integer
        else outcomes[index] = { ok: false, errors: check.errors };
      });
      if (send.length > 0) {
        const answer: UpdateResponse = await requestJson(updateResponseSchema, INVENTORY_PATH, {
          method: 'POST',
          body: send.map((s) => s.row),
          token,
        });
        // The server answers applied rows in request order in `results`, rejected ones in `errors`
        // with the row echoed; match the rejected ones by identity of what was sent.
        const rejected = answer.errors.slice();
        const results = answer.results.slice();
        for (const { index, row } of send) {
          const at = rejected.findIndex((e) => sameRow(e.data, row));
          if (at >= 0) {
            outcomes[index] = { ok: false, errors: rejected[at]!.errors };
            rejected.splice(at, 1);
          } else {
            const record = results.shift();
            outcomes[index] = record ? { ok: true, quantity: record.quantity } : { ok: false, errors: { non_field_errors: 'No answer for this row.' } };
          }
        }
      }
      return outcomes.map((o) => o ?? { ok: false, errors: { non_field_errors: 'Not sent.' } });
    },
  };
}

function sameRow(data: unknown, row: UpdateRow): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return d.barcode === row.barcode && d.quantity === row.quantity && d.warehouse_name === row.warehouse_name;
}
