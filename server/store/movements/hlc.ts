// Hybrid logical clock timestamps (Kulkarni et al.): wall time in milliseconds, a counter for events
// in the same millisecond (or while the wall clock is behind a time already seen), and the instance
// that made the event. Written as fixed-width text, `0001763900000000-00000-k3f9x2ab`, so that text
// order is time order in every engine and the instance id breaks ties: every movement has its own
// place in one total order that respects causality — whatever an instance has seen happened before
// what it does next, even when machines' clocks disagree.
export interface Hlc {
  wall: number;
  counter: number;
  instance: string;
}

export const WALL_DIGITS = 16;
export const COUNTER_DIGITS = 5;
const MAX_COUNTER = 10 ** COUNTER_DIGITS - 1;
const PATTERN = /^(\d{16})-(\d{5})-([a-z0-9]{4,32})$/;

export function formatHlc({ wall, counter, instance }: Hlc): string {
  return `${String(wall).padStart(WALL_DIGITS, '0')}-${String(counter).padStart(COUNTER_DIGITS, '0')}-${instance}`;
}

/** The timestamp, or undefined when the text is not one. */
export function parseHlc(text: string): Hlc | undefined {
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  return { wall: Number(match[1]), counter: Number(match[2]), instance: match[3]! };
}

/** The earliest timestamp at or after `wallMs`, for range filters on time (`hlc >= hlcFloor(t)`). */
export function hlcFloor(wallMs: number): string {
  return `${String(Math.max(0, Math.floor(wallMs))).padStart(WALL_DIGITS, '0')}`;
}

/**
 * The next timestamp of a local event: after `last` (everything this instance has made or seen) and
 * at `now` when the wall clock is ahead of it.
 */
export function tick(last: Hlc | undefined, now: number, instance: string): Hlc {
  if (!last || now > last.wall) return { wall: now, counter: 0, instance };
  if (last.counter < MAX_COUNTER) return { wall: last.wall, counter: last.counter + 1, instance };
  return { wall: last.wall + 1, counter: 0, instance };
}

/** The clock after seeing `remote`: later than both, so the next local event comes after it. */
export function receive(last: Hlc | undefined, remote: Hlc, now: number, instance: string): Hlc {
  const latest = !last || remote.wall > last.wall || (remote.wall === last.wall && remote.counter > last.counter) ? remote : last;
  return tick({ ...latest, instance }, now, instance);
}

/**
 * The timestamp's order key, stored beside its text in `stock_history.hlc_key` (migration
 * 0035_hlc_keys) and held by the history's indexes instead of the 33-character text: wall time ×
 * 1024 + counter, the counter capped at 1023, an integer of 8 bytes exact in JavaScript (below
 * 2^53 until the year 2248). Never decreasing in text order, so `hlc < X` implies
 * `hlc_key <= hlcKey(X)`: every range on the text is also one on the key (which the index seeks), and
 * text order is `hlc_key, hlc` (the text breaks the rare ties: a counter past 1023, or two instances
 * at the same millisecond and counter). Takes a whole timestamp or a bound made of one: a floor
 * (hlcFloor), '' (before all) or '9…' (after all).
 */
export function hlcKey(text: string): number {
  if (text === '') return -1;
  if (text[0] === '9') return Number.MAX_SAFE_INTEGER; // past every timestamp of our time
  const wall = Number(text.slice(0, WALL_DIGITS).padEnd(WALL_DIGITS, '0'));
  const counter =
    text.length > WALL_DIGITS + 1 ? Number(text.slice(WALL_DIGITS + 1, WALL_DIGITS + 1 + COUNTER_DIGITS).padEnd(COUNTER_DIGITS, '0')) : 0;
  if (!Number.isSafeInteger(wall) || !Number.isSafeInteger(counter)) throw new Error(`not a timestamp or a bound of one: ${text}`);
  return wall * HLC_KEY_COUNTERS + Math.min(counter, HLC_KEY_COUNTERS - 1);
}

/** The counter of a whole timestamp: stored beside the key, from which the engine makes the text again (migration 0037_lean_history_rows). */
export function hlcCounter(text: string): number {
  return Number(text.slice(WALL_DIGITS + 1, WALL_DIGITS + 1 + COUNTER_DIGITS));
}

/** Counter values an order key tells apart (see hlcKey). */
export const HLC_KEY_COUNTERS = 1024;
