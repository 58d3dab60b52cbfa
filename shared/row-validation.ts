// Validation of update rows, one row at a time (decisions.md, "Update"). Pure: no I/O, so the UI
// checks a row with exactly the rules the server applies.
import { z } from 'zod';
import { MAX_BARCODE_LENGTH, MAX_QUANTITY, MIN_QUANTITY } from './limits.ts';
import { fieldMessages, jsonTypeName } from './messages.ts';
import type { FieldErrors, UpdateRow } from './schemas.ts';

/** Key under which an error of the row as a whole is reported (DRF's name). */
export const NON_FIELD_ERRORS = 'non_field_errors';

const INTEGER_TEXT = /^\s*-?\d+\s*$/;

/** Reads an integer the way decisions.md allows: a JSON integer, or a string of digits with an optional minus. */
export function parseQuantity(input: unknown): number | string {
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
  if (value > MAX_QUANTITY) return fieldMessages.maxValue(MAX_QUANTITY);
  if (value < MIN_QUANTITY) return fieldMessages.minValue(MIN_QUANTITY);
  return value === 0 ? 0 : value; // never -0
}

function requiredString(input: z.core.$ZodRawIssue): string {
  if (input.input === undefined) return fieldMessages.required;
  if (input.input === null) return fieldMessages.notNull;
  return fieldMessages.notAString;
}

/** A barcode as sent: kept exactly (no trimming), never a number (that would lose leading zeros). */
export const barcodeInputSchema = z
  .string({ error: requiredString })
  .min(1, { error: fieldMessages.blank })
  .max(MAX_BARCODE_LENGTH, { error: fieldMessages.maxLength(MAX_BARCODE_LENGTH) });

export const quantityInputSchema = z.unknown().transform((input, ctx) => {
  const parsed = parseQuantity(input);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

export const warehouseNameInputSchema = z
  .string({ error: requiredString })
  .min(1, { error: fieldMessages.blank });

const notAnObject = (issue: z.core.$ZodRawIssue) => fieldMessages.notAnObject(jsonTypeName(issue.input));

/** Row schema of the warehouse scenario: warehouse_name is required. */
export const warehouseRowInputSchema = z.object(
  { barcode: barcodeInputSchema, quantity: quantityInputSchema, warehouse_name: warehouseNameInputSchema },
  { error: notAnObject },
);

/** Row schema of the no-warehouse scenario: warehouse_name, if sent, is ignored. */
export const plainRowInputSchema = z.object(
  { barcode: barcodeInputSchema, quantity: quantityInputSchema },
  { error: notAnObject },
);

export type RowCheck = { ok: true; row: UpdateRow } | { ok: false; errors: FieldErrors };

/** Turns zod issues into the API's `{field: message}` map: the first message of each field. */
export function fieldErrorsFrom(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : NON_FIELD_ERRORS;
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/** Validates one row as sent; `warehousesEnabled` is the calling account's scenario. */
export function checkUpdateRow(input: unknown, warehousesEnabled: boolean): RowCheck {
  const parsed = (warehousesEnabled ? warehouseRowInputSchema : plainRowInputSchema).safeParse(input);
  if (!parsed.success) return { ok: false, errors: fieldErrorsFrom(parsed.error.issues) };
  return { ok: true, row: parsed.data };
}
