// Numbers, dates and times as the person's language writes them: quantities in the UI's locale
// (1,234 / 1.234 / 1 234), dates in its order and words. Plurals are the catalogues' (ICU, by the
// locale's rules), never built here.
import { currentLocale } from './i18n.ts';

/** One set of formatters per language, made when the language is first used. */
const formatters = new Map<string, ReturnType<typeof makeFormatters>>();

function makeFormatters(locale: string) {
  return {
    numbers: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    dateTimes: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    dates: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
    times: new Intl.DateTimeFormat(locale, { timeStyle: 'short' }),
  };
}

function format() {
  const locale = currentLocale();
  let made = formatters.get(locale);
  if (!made) formatters.set(locale, (made = makeFormatters(locale)));
  return made;
}

/** A whole number in the UI's locale: 1,234 / 1.234 / 1 234. */
export function formatNumber(n: number): string {
  return format().numbers.format(n);
}

/** A signed difference: +3, −2 (a real minus sign), 0. */
export function formatDifference(n: number): string {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `−${formatNumber(-n)}`;
  return formatNumber(0);
}

/** An instant (ISO 8601) as a date and time in the UI's locale and the browser's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format().dateTimes.format(date);
}

/** An instant as a short time when it is today, as a date and time otherwise: "14:02", "Nov 21, 2026, 9:15 AM". */
export function formatSince(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === now.toDateString() ? format().times.format(date) : format().dateTimes.format(date);
}

/** A calendar date YYYY-MM-DD (an expiry date) in the UI's locale. */
export function formatDate(ymd: string): string {
  const date = new Date(`${ymd}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? ymd : format().dates.format(date);
}
