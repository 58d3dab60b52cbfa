// What the UI remembers on this device: localStorage under one prefix, where a disabled or full
// storage never breaks the page (it only forgets).
const PREFIX = 'barcode-inventory.';

export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

/** Stores `value` under `key`; null removes it. */
export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Storage may be disabled (private windows): the UI still works for this visit.
  }
}
