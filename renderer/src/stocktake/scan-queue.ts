// Stocktake scans on their way to the server, kept in localStorage until the server has them: a closed
// tab, a lost connection or a restarting server loses no scan.

/** Each scan carries its own scan_id, so a scan sent again after an answer was lost is counted once. */
export interface QueuedScan {
  scan_id: string;
  barcode: string;
  amount: number;
  /**
   * A GS1 scan's GTIN in every form it may be stored in: the first one the catalogue has becomes
   * `barcode` before the scan is sent (and stays, so a resend carries the same barcode).
   */
  candidates?: string[];
}

const key = (stocktakeId: number) => `barcode-inventory.stocktake-queue.${stocktakeId}`;

export function loadQueue(stocktakeId: number): QueuedScan[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key(stocktakeId)) ?? '[]');
    return Array.isArray(parsed)
      ? (parsed as QueuedScan[]).filter((s) => typeof s?.scan_id === 'string' && typeof s.barcode === 'string')
      : [];
  } catch {
    return [];
  }
}

export function saveQueue(stocktakeId: number, queue: readonly QueuedScan[]): void {
  try {
    if (queue.length === 0) localStorage.removeItem(key(stocktakeId));
    else localStorage.setItem(key(stocktakeId), JSON.stringify(queue));
  } catch {
    // storage disabled: the queue still lives in memory for this visit
  }
}

/** A per-tab name sent with each scan, so "undo" takes back this terminal's last scan, not another's. */
export function terminalName(): string {
  const stored = sessionStorage.getItem('barcode-inventory.terminal');
  if (stored) return stored;
  const name = `tab-${crypto.randomUUID().slice(0, 8)}`;
  sessionStorage.setItem('barcode-inventory.terminal', name);
  return name;
}

export const newScanId = (): string => crypto.randomUUID();
