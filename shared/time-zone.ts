// A shop's clock as a named time zone (`Europe/Berlin`), for reports by calendar day: a fixed UTC
// offset is right only until the next change of summer time, so a period across one would count the
// hours around midnight on the wrong day. Only the language's own Intl (ECMA-402): the same answers
// in Node and in the browser, from the time zone data both carry.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The longest IANA name (`America/Argentina/ComodRivadavia` is 32). */
export const MAX_TIME_ZONE_LENGTH = 64;

const formatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    if (formatters.size >= 100) formatters.clear(); // a handful in practice; never unbounded
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `name` is a time zone this runtime knows (an IANA name such as `Europe/Istanbul`, or `UTC`). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > MAX_TIME_ZONE_LENGTH) return false;
  try {
    offsetFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC in `timeZone` at the instant `ms` (Berlin in summer: 120). */
export function zoneOffsetMinutes(timeZone: string, ms: number): number {
  const name = offsetFormatter(timeZone)
    .formatToParts(ms)
    .find((part) => part.type === 'timeZoneName')!.value; // `GMT+02:00`, `GMT-03:30`, or `GMT` for zero
  const match = /([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The instant the calendar day `date` (YYYY-MM-DD) begins in `timeZone`. */
export function startOfDay(timeZone: string, date: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // The offset just before midnight there, then again at the instant it gives (exact but for a zone
  // whose clock jumps over midnight itself: the day then begins where the jump lands, as here).
  const guess = utcMidnight - zoneOffsetMinutes(timeZone, utcMidnight) * MINUTE_MS;
  return utcMidnight - zoneOffsetMinutes(timeZone, guess) * MINUTE_MS;
}

/** Today's date (YYYY-MM-DD) in `timeZone` at the instant `ms`. */
export function dateIn(timeZone: string, ms: number): string {
  return new Date(ms + zoneOffsetMinutes(timeZone, ms) * MINUTE_MS).toISOString().slice(0, 10);
}

export interface OffsetStretch {
  fromMs: number;
  untilMs: number;
  /** Minutes east of UTC throughout [fromMs, untilMs). */
  offsetMinutes: number;
}

/**
 * [fromMs, untilMs) cut where `timeZone`'s offset changes (summer time), each piece with its offset:
 * a period of a year has at most three. The offset is looked at every 12 hours and a change found to
 * the millisecond; zones change at most once in a day.
 */
export function offsetStretches(timeZone: string, fromMs: number, untilMs: number): OffsetStretch[] {
  const stretches: OffsetStretch[] = [];
  let start = fromMs;
  let offset = zoneOffsetMinutes(timeZone, fromMs);
  for (let probe = fromMs; probe < untilMs;) {
    const next = Math.min(probe + DAY_MS / 2, untilMs - 1);
    if (next <= probe) break;
    const nextOffset = zoneOffsetMinutes(timeZone, next);
    if (nextOffset !== offset) {
      // The change lies in (probe, next]: its first millisecond, by halving (26 looks for 12 hours).
      let low = probe;
      let high = next;
      while (high - low > 1) {
        const middle = low + Math.floor((high - low) / 2);
        if (zoneOffsetMinutes(timeZone, middle) === offset) low = middle;
        else high = middle;
      }
      stretches.push({ fromMs: start, untilMs: high, offsetMinutes: offset });
      start = high;
      offset = nextOffset;
    }
    probe = next;
  }
  stretches.push({ fromMs: start, untilMs, offsetMinutes: offset });
  return stretches;
}
