// The code server and UI share: wire schemas, validation, partial-result logic and message texts.
// Nothing here may import Node, Koa or browser APIs (test/shared/shared-purity.test.ts checks it).
export * from './api-paths.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './error-codes.ts';
export * from './schemas.ts';
export * from './row-validation.ts';
export * from './barcode-list.ts';
export * from './control-characters.ts';
export * from './partial-result.ts';
export * from './pos-schemas.ts';
export * from './ui-api.ts';
export * from './roles.ts';
// People on shared scanners, their badges (a Code 128), the audit log
export * from './people.ts';
export * from './code128.ts';
// Barcodes as GS1 defines them: GTIN forms and GS1 element strings
export * from './gtin.ts';
export * from './gs1.ts';
// Stocktakes, stock history and data exchange
export * from './stocktake-api-paths.ts';
export * from './stocktake-schemas.ts';
export * from './history-schemas.ts';
// Sync between instances (docs/SYNC.md)
export * from './sync-schemas.ts';
// Printable labels and the shop's own codes (docs/LABELS.md)
export * from './labels.ts';
// Reorder points and the low-stock list (docs/REORDER.md)
export * from './reorder-schemas.ts';
export * from './chart-schemas.ts';
export * from './per-day-schemas.ts';
export * from './time-zone.ts';
