// Where each id and barcode of a catalogue was first used, to name the place of a duplicate. In
// memory for a parsed document; in the engine's scratch table for a streamed file, whose million
// barcodes would otherwise cost the importer a hundred megabytes of JavaScript maps.
import type { ScratchKeys } from '../store/engine.ts';

/** Item ids, variant ids, and the barcodes of one account (barcodes are unique per account). */
export type UseKind = 'item' | 'variant' | { barcodesOfAccount: number };

export interface FirstUses {
  /** Records `code` as the first use of `key`; when `key` was used before, returns that earlier code instead. */
  claim(kind: UseKind, key: string | number, code: number): Promise<number | undefined>;
}

export class MemoryFirstUses implements FirstUses {
  private readonly maps = new Map<string, Map<string | number, number>>();

  async claim(kind: UseKind, key: string | number, code: number): Promise<number | undefined> {
    const name = typeof kind === 'string' ? kind : `barcode:${kind.barcodesOfAccount}`;
    let map = this.maps.get(name);
    if (!map) this.maps.set(name, (map = new Map()));
    const first = map.get(key);
    if (first === undefined) map.set(key, code);
    return first;
  }
}

/** First uses kept in the store's scratch table, inside the import's transaction. */
export class ScratchFirstUses implements FirstUses {
  private readonly keys: ScratchKeys;

  constructor(keys: ScratchKeys) {
    this.keys = keys;
  }

  claim(kind: UseKind, key: string | number, code: number): Promise<number | undefined> {
    return this.keys.claim(kind === 'item' ? 0 : kind === 'variant' ? 1 : 2 + kind.barcodesOfAccount, key, code);
  }
}
