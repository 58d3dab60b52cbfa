// Wire shapes of a warehouse's movements per day (docs/REORDER.md, "Movements per day"): for each
// calendar day of a period, how many sales, receipts, counts and sets there were and what they moved,
// and the day's net change of stock. Aggregated on the server; an answer has one entry per day of
// the period (at most MAX_PER_DAY_DAYS), whatever the number of movements.
import { z } from 'zod';
import { API_BASE } from './api-paths.ts';
import { MAX_TIME_ZONE_LENGTH, dateIn, isTimeZone } from './time-zone.ts';

export const MOVEMENTS_PER_DAY_PATH = `${API_BASE}/stock-history/per-day/`;
export const MAX_PER_DAY_DAYS = 366;
export const DEFAULT_PER_DAY_DAYS = 30;
/** The periods the scanner UI offers; the API takes any `days` from 1 to MAX_PER_DAY_DAYS, or `from`/`to`. */
export const PER_DAY_PERIODS = [7, 30, 90] as const;
/** Minutes east of UTC that a shop's clock may be (UTC−12:00 … UTC+14:00). */
export const MIN_UTC_OFFSET = -720;
export const MAX_UTC_OFFSET = 840;

const DAY_MS = 24 * 60 * 60 * 1000;
const dateSchema = z.iso.date();

/** The period a query asks for, as the first and last calendar day (both included, YYYY-MM-DD) on the shop's clock. */
export function perDayPeriod(
  query: { days?: number; from?: string; to?: string; utc_offset: number; time_zone?: string | undefined },
  nowMs: number,
) {
  if (query.from !== undefined && query.to !== undefined) return { from: query.from, to: query.to };
  const today =
    query.time_zone !== undefined ? dateIn(query.time_zone, nowMs) : new Date(nowMs + query.utc_offset * 60_000).toISOString().slice(0, 10);
  const days = query.days ?? DEFAULT_PER_DAY_DAYS;
  return { from: addDays(today, 1 - days), to: today };
}

/** `date` (YYYY-MM-DD) moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

export const movementsPerDayQuerySchema = z
  .object({
    warehouse: z.coerce.number().int().positive().optional().describe('Only this warehouse id; all of the account when absent.'),
    days: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PER_DAY_DAYS)
      .optional()
      .describe(`The last this many days, today included (default ${DEFAULT_PER_DAY_DAYS}); not with from/to.`),
    from: dateSchema.optional().describe('First day of the period (YYYY-MM-DD), with `to`.'),
    to: dateSchema.optional().describe('Last day of the period (YYYY-MM-DD, included), with `from`.'),
    utc_offset: z.coerce
      .number()
      .int()
      .min(MIN_UTC_OFFSET)
      .max(MAX_UTC_OFFSET)
      .default(0)
      .describe(
        "The shop's clock in minutes east of UTC (Istanbul: 180); a day runs from its midnight there. Default 0 (UTC). Ignored when `time_zone` is given.",
      ),
    time_zone: z
      .string()
      .max(MAX_TIME_ZONE_LENGTH)
      .refine(isTimeZone, { message: 'Not a time zone: give an IANA name such as Europe/Berlin, or UTC.' })
      .optional()
      .describe(
        "The shop's time zone, an IANA name (`Europe/Berlin`); a day runs from its midnight there, summer time included (a period across a change of the clocks counts every hour on its own day). Wins over `utc_offset`.",
      ),
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { message: 'Give both from and to, or neither.', path: ['to'] })
  .refine((q) => q.days === undefined || q.from === undefined, { message: 'Give days, or from and to, not both.', path: ['days'] })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: 'from is after to.', path: ['from'] })
  .refine((q) => q.from === undefined || q.to === undefined || daysBetween(q.from, q.to) <= MAX_PER_DAY_DAYS, {
    message: `A period of at most ${MAX_PER_DAY_DAYS} days.`,
    path: ['to'],
  })
  .meta({ id: 'MovementsPerDayQuery' });
export type MovementsPerDayQuery = z.infer<typeof movementsPerDayQuerySchema>;

const tallySchema = z.strictObject({
  movements: z.number().int().describe('How many movements of this kind.'),
  quantity: z.number().int().describe('What they moved: units sold or received; for counts and sets, the change they made.'),
});
export type PerDayTally = z.infer<typeof tallySchema>;

const dayFields = {
  sales: tallySchema.describe('Adjusts that took stock out (a till, a POS, a negative delta).'),
  receipts: tallySchema.describe('Adjusts that put stock in (a delivery, a positive delta).'),
  counts: tallySchema.describe('Stocktake counts.'),
  sets: tallySchema.describe('Quantities set (the API, an import, the scanner UI).'),
  net: z.number().int().describe('The net change of stock: the quantity at the end less the quantity at the start.'),
};
export const PER_DAY_KINDS = ['sales', 'receipts', 'counts', 'sets'] as const;
export type PerDayKind = (typeof PER_DAY_KINDS)[number];

export const perDaySchema = z
  .strictObject({ date: z.string().describe('The calendar day, YYYY-MM-DD.'), ...dayFields })
  .meta({ id: 'PerDay' });
export type PerDay = z.infer<typeof perDaySchema>;

export const movementsPerDaySchema = z
  .strictObject({
    warehouse: z
      .number()
      .int()
      .nullable()
      .describe('The warehouse asked for; null for all of the account, or an account without warehouses.'),
    warehouse_name: z.string().nullable(),
    from: z.string(),
    to: z.string(),
    utc_offset: z.number().int(),
    time_zone: z.string().nullable().describe('The time zone asked for; null when the days ran at `utc_offset`.'),
    days: z.array(perDaySchema).describe('Every day of the period, oldest first, days without movements included.'),
    totals: z.strictObject(dayFields),
  })
  .meta({ id: 'MovementsPerDay' });
export type MovementsPerDay = z.infer<typeof movementsPerDaySchema>;
