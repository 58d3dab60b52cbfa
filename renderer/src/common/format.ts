// Numbers, dates and plurals as the person's browser writes them: quantities in the browser's
// locale (1,234 or 1.234), dates in its order and words; the UI's own words are English, counted with
// English plural rules.

const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const dateTimes = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const plurals = new Intl.PluralRules('en');

/** A whole number in the browser's locale: 1,234 / 1.234 / 1 234. */
export function formatNumber(n: number): string {
  return numbers.format(n);
}

/** A signed difference: +3, −2 (a real minus sign), 0. */
export function formatDifference(n: number): string {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `−${formatNumber(-n)}`;
  return formatNumber(0);
}

/** An instant (ISO 8601) as a date and time in the browser's locale and time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimes.format(date);
}

const times = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** An instant as a short time when it is today, as a date and time otherwise: "14:02", "Nov 21, 2026, 9:15 AM". */
export function formatSince(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === now.toDateString() ? times.format(date) : dateTimes.format(date);
}

/** A calendar date YYYY-MM-DD (an expiry date) in the browser's locale. */
export function formatDate(ymd: string): string {
  const date = new Date(`${ymd}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? ymd : dates.format(date);
}

/** "1 row", "3 rows", "1,204 rows". */
export function count(n: number, one: string, other: string): string {
  return `${formatNumber(n)} ${plurals.select(n) === 'one' ? one : other}`;
}
