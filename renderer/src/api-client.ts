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
} from '../../shared/index.ts';

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

async function call<S extends z.ZodType>(schema: S, path: string, init: RequestInit, token?: string): Promise<z.infer<S>> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (token) headers.set('Authorization', `Token ${token}`);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Is barcode-inventory still running?');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = requestErrorSchema.safeParse(body);
    throw new ApiError(response.status, parsed.success ? parsed.data.detail : `The server answered ${response.status}.`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, 'The server sent an answer this UI does not understand.');
  return parsed.data;
}

/** Exchanges a one-time code of a sign-in link for the account's token. */
export function redeemSignInCode(code: string): Promise<SignInResponse> {
  return call(signInResponseSchema, SIGNIN_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
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
    account: () => call(accountInfoSchema, ACCOUNT_PATH, {}, token),
    warehouses: () => call(warehouseListSchema, WAREHOUSES_PATH, {}, token),
    readStock: (barcodes) => call(readResponseSchema, INVENTORY_PATH + barcodesQuery(barcodes), {}, token),
    labels: async (barcodes) => (await call(labelsResponseSchema, LABELS_PATH + barcodesQuery(barcodes), {}, token)).labels,

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
        const answer: UpdateResponse = await call(
          updateResponseSchema,
          INVENTORY_PATH,
          { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(send.map((s) => s.row)) },
          token,
        );
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
