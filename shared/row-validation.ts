// Validation of write rows, one row at a time (docs/API.md, "Set stock"). Pure: no I/O, so the UI
// checks a row with exactly the rules the server applies.
import { z } from 'zod';
import { MAX_BARCODE_LENGTH, MAX_DELTA, MAX_QUANTITY, MAX_REASON_LENGTH, MAX_REFERENCE_LENGTH, MIN_DELTA, MIN_QUANTITY } from './limits.ts';
import { SAFE_TEXT, findControlCharacter, findUnsafeCharacter } from './control-characters.ts';
import { fieldMessages, jsonTypeName, peopleMessages, posFieldMessages } from './messages.ts';
import { isBadgeCode } from './people.ts';
import type { AdjustRow } from './pos-schemas.ts';
import type { FieldErrors, UpdateRow } from './schemas.ts';

/** Key under which an error of the row as a whole is reported (DRF's name). */
export const NON_FIELD_ERRORS = 'non_field_errors';

const INTEGER_TEXT = /^\s*-?\d+\s*$/;

/** Reads an integer as the API accepts it: a JSON integer, or a string of digits with an optional minus. */
export function parseQuantity(input: unknown): number | string {
  return parseInteger(input, MIN_QUANTITY, MAX_QUANTITY);
}

/** parseQuantity's rules with other bounds (an adjustment's delta); the value or the message. */
export function parseInteger(input: unknown, min: number, max: number): number | string {
  if (input === undefined) return fieldMessages.required;
  if (input === null) return fieldMessages.notNull;
  let value: number;
  if (typeof input === 'number') {
    if (!Number.isInteger(input)) return fieldMessages.notAnInteger;
    value = input;
  } else if (typeof input === 'string' && INTEGER_TEXT.test(input)) {
    value = Number(input.trim());
  } else {
    return fieldMessages.notAnInteger;
  }
  if (value > max) return fieldMessages.maxValue(max);
  if (value < min) return fieldMessages.minValue(min);
  return value === 0 ? 0 : value; // never -0
}

function requiredString(input: z.core.$ZodRawIssue): string {
  if (input.input === undefined) return fieldMessages.required;
  if (input.input === null) return fieldMessages.notNull;
  return fieldMessages.notAString;
}

/**
 * A barcode as sent: kept exactly (no trimming), never a number (that would lose leading zeros), no control characters,
 * never a person's badge (shared/people.ts).
 */
export const barcodeInputSchema = z
  .string({ error: requiredString })
  .min(1, { error: fieldMessages.blank })
  .max(MAX_BARCODE_LENGTH, { error: fieldMessages.maxLength(MAX_BARCODE_LENGTH) })
  .superRefine((value, ctx) => {
    const control = findControlCharacter(value);
    if (control) ctx.addIssue({ code: 'custom', message: fieldMessages.controlCharacter(control.name, control.position) });
    // A person's badge scanned where a barcode belongs: never looked up, set or counted (it would be kept
    // as an unknown barcode of a stocktake, shown in its review and its export).
    if (isBadgeCode(value)) ctx.addIssue({ code: 'custom', message: peopleMessages.badgeIsNotABarcode });
  });

/** The message of the first unsafe character of `text` (findUnsafeCharacter), or of none. */
function unsafeCharacterMessage(text: unknown): string {
  const unsafe = typeof text === 'string' ? findUnsafeCharacter(text) : undefined;
  return unsafe ? fieldMessages.unsafeCharacter(unsafe.name, unsafe.position) : fieldMessages.notAString;
}

/**
 * Text people read, checked by a pattern (SAFE_TEXT) rather than a refinement, with the same rule and
 * message as refuseUnsafeCharacters: a schema compiled to JSON Schema (a sync push) keeps it.
 */
export const safeTextSchema = (max: number) =>
  z
    .string()
    .min(1, { error: fieldMessages.blank })
    .max(max, { error: fieldMessages.maxLength(max) })
    .regex(SAFE_TEXT, { error: (issue) => unsafeCharacterMessage(issue.input) });

/** For `superRefine` of text people read (names, references): no control or text-direction characters. */
export function refuseUnsafeCharacters(value: string, ctx: z.RefinementCtx): void {
  const unsafe = findUnsafeCharacter(value);
  if (unsafe) ctx.addIssue({ code: 'custom', message: fieldMessages.unsafeCharacter(unsafe.name, unsafe.position) });
}

/**
 * A barcode that is kept (a catalogue's, a stocktake's count): besides barcodeInputSchema's rules, no
 * space at either end. A lookup trims what it is given, so " 8690000000017 " kept as it is would be a
 * barcode no scan and no lookup ever finds, and a counted one an unknown line that looks like a known item.
 */
export const keptBarcodeSchema = barcodeInputSchema.refine((value) => value === value.trim(), { error: fieldMessages.surroundingSpace });

export const quantityInputSchema = z.unknown().transform((input, ctx) => {
  const parsed = parseQuantity(input);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

export const warehouseNameInputSchema = z.string({ error: requiredString }).min(1, { error: fieldMessages.blank });

const notAnObject = (issue: z.core.$ZodRawIssue) => fieldMessages.notAnObject(jsonTypeName(issue.input));

// Optional fields of the POS integration (docs/POS.md): absent and null both mean "not given", so a
// client that serialises unset fields as null is not refused.

/** Integer in [min, max] under parseQuantity's rules, or undefined when absent or null. */
function optionalIntegerInputSchema(min: number, max: number) {
  return z
    .unknown()
    .transform((input, ctx): number | undefined => {
      if (input === undefined || input === null) return undefined;
      const parsed = parseInteger(input, min, max);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    })
    .optional();
}

/** A guarded set's expected current quantity (a missing stock definition counts as 0, as reads show it). */
export const compareQuantityInputSchema = optionalIntegerInputSchema(MIN_QUANTITY, MAX_QUANTITY);

/** Required signed change of an adjustment; wide enough to cross the whole quantity range. */
export const deltaInputSchema = z.unknown().transform((input, ctx) => {
  const parsed = parseInteger(input, MIN_DELTA, MAX_DELTA);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/** A reason: a short code (letters, digits, `_`, `-`, `.`), the same for the local API and a sync push. */
export const REASON_PATTERN = new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_REASON_LENGTH}}$`);

/** Why stock changed: a short code (sale, receipt, correction, count, …), recorded in the history. */
export const reasonInputSchema = z
  .string({ error: () => fieldMessages.notAString })
  .min(1, { error: fieldMessages.blank })
  .regex(REASON_PATTERN, { error: posFieldMessages.reasonFormat(MAX_REASON_LENGTH) })
  .nullish()
  .transform((value) => value ?? undefined);

/** The POS's own reference of the change (receipt or delivery number), recorded in the history. */
export const referenceInputSchema = z
  .string({ error: () => fieldMessages.notAString })
  .min(1, { error: fieldMessages.blank })
  .max(MAX_REFERENCE_LENGTH, { error: fieldMessages.maxLength(MAX_REFERENCE_LENGTH) })
  .superRefine(refuseUnsafeCharacters)
  .nullish()
  .transform((value) => value ?? undefined);

const updateRowFields = {
  barcode: barcodeInputSchema,
  quantity: quantityInputSchema,
  compare_quantity: compareQuantityInputSchema,
  reason: reasonInputSchema,
  reference: referenceInputSchema,
};

/** Row schema of the warehouse scenario: warehouse_name is required. */
export const warehouseRowInputSchema = z.object({ ...updateRowFields, warehouse_name: warehouseNameInputSchema }, { error: notAnObject });

/** Row schema of the no-warehouse scenario: warehouse_name, if sent, is ignored. */
export const plainRowInputSchema = z.object(updateRowFields, { error: notAnObject });

const adjustRowFields = {
  barcode: barcodeInputSchema,
  delta: deltaInputSchema,
  reason: reasonInputSchema,
  reference: referenceInputSchema,
};

/** Adjust row of the warehouse scenario: warehouse_name is required, as on update rows. */
export const warehouseAdjustRowInputSchema = z.object(
  { ...adjustRowFields, warehouse_name: warehouseNameInputSchema },
  { error: notAnObject },
);

/** Adjust row of the no-warehouse scenario: warehouse_name, if sent, is ignored. */
export const plainAdjustRowInputSchema = z.object(adjustRowFields, { error: notAnObject });

/**
 * The outcome of validating one row: the normalised row, or every field's error (DRF reports them
 * all at once). A refused row still names its barcode and warehouse when those fields are valid, so
 * an unknown barcode is reported beside a bad quantity.
 */
export type RowCheckOf<Row> = { ok: true; row: Row } | { ok: false; errors: FieldErrors; barcode?: string; warehouseName?: string };
export type RowCheck = RowCheckOf<UpdateRow>;

/** Turns zod issues into the API's `{field: message}` map: the first message of each field. */
export function fieldErrorsFrom(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : NON_FIELD_ERRORS;
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/** Checks each field of a row schema on its own, so every field's error is known and the valid fields are kept. */
function checkRow<Row>(schema: z.ZodObject, input: unknown): RowCheckOf<Row> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: { [NON_FIELD_ERRORS]: fieldMessages.notAnObject(jsonTypeName(input)) } };
  }
  const values: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    const parsed = (fieldSchema as z.ZodType).safeParse(
      Object.hasOwn(input, field) ? (input as Record<string, unknown>)[field] : undefined,
    );
    if (!parsed.success) errors[field] = parsed.error.issues[0]?.message ?? fieldMessages.notAString;
    else if (parsed.data !== undefined) values[field] = parsed.data;
  }
  if (Object.keys(errors).length === 0) return { ok: true, row: values as Row };
  const refused: RowCheckOf<Row> = { ok: false, errors };
  if (typeof values.barcode === 'string') refused.barcode = values.barcode;
  if (typeof values.warehouse_name === 'string') refused.warehouseName = values.warehouse_name;
  return refused;
}

/** Validates one row as sent; `warehousesEnabled` is the calling account's scenario. */
export function checkUpdateRow(input: unknown, warehousesEnabled: boolean): RowCheck {
  return checkRow<UpdateRow>(warehousesEnabled ? warehouseRowInputSchema : plainRowInputSchema, input);
}

/** Validates one adjust row as sent, with the same rules and texts as update rows. */
export function checkAdjustRow(input: unknown, warehousesEnabled: boolean): RowCheckOf<AdjustRow> {
  return checkRow<AdjustRow>(warehousesEnabled ? warehouseAdjustRowInputSchema : plainAdjustRowInputSchema, input);
}
