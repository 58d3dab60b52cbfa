// The catalogue file format of `barcode-inventory import` (README, "Catalogue format"), as zod
// schemas whose errors point at the place: `accounts[0].items[3].barcode: …`. The parts (account,
// item) are exported so the streaming import checks a file one item at a time with the same rules.
import { z } from 'zod';
// From their own modules, not shared/index.ts: the import's parse worker loads this file, and the
// rest of shared/ would cost that thread about 10 MB more (catalogue-parse-worker.ts).
import { MAX_QUANTITY, MIN_QUANTITY } from '../../shared/limits.ts';
import { keptBarcodeSchema, refuseUnsafeCharacters } from '../../shared/row-validation.ts';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = z.string().trim().min(1, { error: 'This field may not be blank.' }).superRefine(refuseUnsafeCharacters);
const quantity = z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY);
const barcode = keptBarcodeSchema;

const stockEntry = z.strictObject({ warehouse: z.string().optional(), quantity });
// A reorder point (docs/REORDER.md): low at or below `minimum`; a purchase orders up to `target`.
const level = z.number().int().min(0).max(MAX_QUANTITY);
const reorderEntry = z.strictObject({ warehouse: z.string().optional(), minimum: level, target: level.optional() });
const variant = z.strictObject({ id, name, barcode, stock: z.array(stockEntry).optional(), reorder: z.array(reorderEntry).optional() });
export const catalogueItemSchema = z.strictObject({
  id,
  name,
  barcode: barcode.optional(),
  variants: z.array(variant).min(1).optional(),
  stock: z.array(stockEntry).optional(),
  reorder: z.array(reorderEntry).optional(),
});
const warehouse = z.strictObject({ id, name });
const accountFields = {
  name,
  warehouses_enabled: z.boolean(),
  warehouses: z.array(warehouse).optional(),
};
export const catalogueAccountSchema = z.strictObject({ ...accountFields, items: z.array(catalogueItemSchema).default([]) });
/** An account's own fields, without its items; unknown keys are left to the full account schema. */
export const catalogueAccountHeaderSchema = z.object(accountFields);

/** The document's structure; the rules across fields are CatalogueChecker's (parseCatalogue runs both). */
export const catalogueSchema = z.strictObject({ accounts: z.array(catalogueAccountSchema) });

/** The document's own level; the accounts are checked one by one. */
export const catalogueRootSchema = z.strictObject({ accounts: z.array(z.unknown()) });

export type Catalogue = z.infer<typeof catalogueSchema>;
export type CatalogueAccount = Catalogue['accounts'][number];
export type CatalogueAccountHeader = z.infer<typeof catalogueAccountHeaderSchema>;
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;
export type CatalogueStockEntry = z.infer<typeof stockEntry>;
export type CatalogueReorderEntry = z.infer<typeof reorderEntry>;

export type JsonObject = Record<string, unknown>;

/** A JSON object (not an array, not null): what a catalogue's document, account and item must be. */
export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `value` without the keys that `issues` (all unrecognized_keys) name. */
export function withoutUnknownKeys(value: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  const copy = structuredClone(value);
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    let node: unknown = copy;
    for (const key of issue.path) node = (node as Record<PropertyKey, unknown>)[key];
    for (const key of issue.keys) delete (node as Record<string, unknown>)[key];
  }
  return copy;
}
