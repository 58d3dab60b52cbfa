// The List mode's rows, kept on this device per account on every change (as the stocktake queue is),
// so an unsent list survives a reload, F5, a crash and a restart of the app. A send on its way is
// kept with its Idempotency-Key: sent again after a reload, the server answers it without applying
// it twice.
import { readStored, writeStored } from '../common/device-storage.ts';

export type ListAction = 'set' | 'add';

export interface ListRow {
  id: number;
  /** What is sent: the catalogue's barcode once found, else the barcode as scanned. */
  barcode: string;
  /** As scanned (a GS1 scan, another GTIN form), when it differs from `barcode`. */
  scanned?: string;
  /** The counted number as the person sees and edits it. */
  quantity: string;
  /** Item (and variant) name once looked up. */
  name?: string;
  /** False for a barcode the account does not have: such rows are held back. Undefined while looking up. */
  known?: boolean;
  /** Stock per warehouse name ('' without warehouses) when looked up or saved. */
  stock?: Record<string, number>;
  batch?: string;
  expiry?: string;
  state: 'pending' | 'saved' | 'rejected';
  /** What the server made of the row: the saved quantity, or the errors of what was sent (said in words when shown). */
  result?: RowResult;
}

export type RowResult = { ok: true; quantity: number; before?: number } | { ok: false; errors: Record<string, string>; sent: string };

/** One send in progress: exactly what was sent, and under which key. */
export interface InFlight {
  key: string;
  action: ListAction;
  warehouse: string | null;
  rows: { id: number; barcode: string; quantity: string }[];
}

export interface ListState {
  rows: ListRow[];
  action: ListAction;
  inFlight: InFlight | null;
}

export const EMPTY_LIST: ListState = { rows: [], action: 'set', inFlight: null };

const key = (account: string) => `list.${account}`;

export function loadList(account: string): ListState {
  try {
    const parsed = JSON.parse(readStored(key(account)) ?? 'null') as Partial<ListState> | null;
    if (!parsed || !Array.isArray(parsed.rows)) return EMPTY_LIST;
    const rows = parsed.rows
      .filter((r): r is ListRow => typeof r?.id === 'number' && typeof r.barcode === 'string' && typeof r.quantity === 'string')
      // A result kept by an older version as words in one language is dropped: the row's state still says it.
      .map((r) => (r.result !== undefined && (typeof r.result !== 'object' || r.result === null) ? { ...r, result: undefined } : r));
    return {
      rows,
      action: parsed.action === 'add' ? 'add' : 'set',
      inFlight: parsed.inFlight && typeof parsed.inFlight.key === 'string' ? parsed.inFlight : null,
    };
  } catch {
    return EMPTY_LIST;
  }
}

export function saveList(account: string, state: ListState): void {
  const empty = state.rows.length === 0 && state.inFlight === null && state.action === 'set';
  writeStored(key(account), empty ? null : JSON.stringify(state));
}
