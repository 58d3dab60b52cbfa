// Set stock's work in progress, kept on this device per account: the item on screen and the quantity
// typed for it but not yet confirmed, so a reload, a crash or a restart of the app does not lose it.
import { readStored, writeStored } from '../common/device-storage.ts';

export interface SetDraft {
  barcode: string;
  quantity: string;
}

const key = (account: string) => `set-draft.${account}`;

export function loadSetDraft(account: string): SetDraft | null {
  try {
    const parsed: unknown = JSON.parse(readStored(key(account)) ?? 'null');
    if (parsed && typeof parsed === 'object') {
      const { barcode, quantity } = parsed as Record<string, unknown>;
      if (typeof barcode === 'string' && barcode !== '' && typeof quantity === 'string') return { barcode, quantity };
    }
  } catch {
    // unreadable: nothing to restore
  }
  return null;
}

export function saveSetDraft(account: string, draft: SetDraft | null): void {
  writeStored(key(account), draft ? JSON.stringify(draft) : null);
}
