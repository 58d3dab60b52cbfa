// Where each id and barcode of a catalogue was first used, to name the place of a duplicate. In
// memory for a parsed document; in the engine's scratch table for a streamed file, whose million
// barcodes would otherwise cost the importer a hundred megabytes of JavaScript maps.
import type { ScratchKeys } from '../store/engine.ts';

/** Item ids, variant ids, and the barcodes of one account (barcodes are unique per account). */
export type UseKind = 'item' | 'variant' | { barcodesOfAccount: number };

export interface FirstUse {
  kind: UseKind;
  key: string | number;
  code: number;
}

export interface FirstUses {
  /**
   * Records each `code` as the first use of its `key`, in order; for each, the earlier code when its
   * key was used before (by an earlier one of the same call too), else undefined. An item's keys go
   * in one call.
   */
  claimAll(uses: readonly FirstUse[]): Promise<(number | undefined)[]>;
}

export class MemoryFirstUses implements FirstUses {
  private readonly maps = new Map<string, Map<string | number, number>>();

  async claimAll(uses: readonly FirstUse[]): Promise<(number | undefined)[]> {
    return uses.map(({ kind, key, code }) => {
      const name = typeof kind === 'string' ? kind : `barcode:${kind.barcodesOfAccount}`;
      let map = this.maps.get(name);
      if (!map) this.maps.set(name, (map = new Map()));
      const first = map.get(key);
      if (first === undefined) map.set(key, code);
      return first;
    });
  }
}

/** First uses kept in the store's scratch table, inside the import's transaction. */
export class ScratchFirstUses implements FirstUses {
  private readonly keys: ScratchKeys;

  constructor(keys: ScratchKeys) {
    this.keys = keys;
  }

  claimAll(uses: readonly FirstUse[]): Promise<(number | undefined)[]> {
    return this.keys.claimAll(
      uses.map(({ kind, key, code }) => ({ kind: kind === 'item' ? 0 : kind === 'variant' ? 1 : 2 + kind.barcodesOfAccount, key, code })),
    );
  }
}
