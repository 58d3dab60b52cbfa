// Generated catalogues for the load, hostile-input and isolation tests: accounts with given
// barcodes and warehouse names, ids kept unique across the database as the import requires.
export interface AccountSpec {
  name: string;
  /** Warehouse names; an empty list means the no-warehouse scenario. */
  warehouses: string[];
  barcodes: string[];
  /** Starting quantity of every barcode in every warehouse. */
  quantity?: number;
}

export function generatedCatalogue(accounts: readonly AccountSpec[], idBase = 1000): unknown {
  let nextId = idBase;
  return {
    accounts: accounts.map((spec) => {
      const warehouses = spec.warehouses.map((name) => ({ id: nextId++, name }));
      const stock =
        spec.warehouses.length === 0
          ? [{ quantity: spec.quantity ?? 0 }]
          : spec.warehouses.map((warehouse) => ({ warehouse, quantity: spec.quantity ?? 0 }));
      return {
        name: spec.name,
        warehouses_enabled: spec.warehouses.length > 0,
        ...(spec.warehouses.length > 0 ? { warehouses } : {}),
        items: spec.barcodes.map((barcode) => ({ id: nextId++, name: `item ${barcode}`, barcode, stock })),
      };
    }),
  };
}

/** `n` distinct barcodes with a prefix: `P0001`, `P0002`, … */
export function barcodes(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(4, '0')}`);
}
