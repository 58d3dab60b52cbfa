// The history's time order, said once (docs/SYNC.md, "How the log is stored in time order"). The
// indexes hold each movement's order key (`hlc_key`, hlc.ts: hlcKey), which now and then ties (a
// counter past 1023, two instances at the same millisecond and counter); the timestamp's text (`hlc`)
// breaks the ties. So every query in time order orders by both, and every range on the text is also
// a range on the key, which is what the index seeks. Ordering or ranging by one of the two alone is
// the bug these helpers exist to prevent (test/store/hlc-keys.test.ts fails on it). Applied with
// kysely's `$call`: `select.$call(newestFirst('h'))`.
import { type SelectQueryBuilder, sql } from 'kysely';
import { hlcKey } from './hlc.ts';

/** Any select on the history, whatever else it joins. */
type HistorySelect = SelectQueryBuilder<any, any, any>;

/** A timestamp (or a bound made of one: hlc.ts, hlcKey) with its order key; values or a statement's parameters. */
// A type, not an interface: a statement's parameters (engine.ts, Params) need its implicit index signature.
export type TimeBound = { hlc: string; key: number };

/** The bound at `hlc` (a timestamp, '' before all of them, or a text past them all): with its key. */
export const timeBound = (hlc: string): TimeBound => ({ hlc, key: hlcKey(hlc) });

/** The key and text columns of the history row `alias` (no alias: the query's one history table). */
function columnsOf(alias: string | undefined) {
  const prefix = alias === undefined ? '' : `${alias}.`;
  return { key: sql.ref<number>(`${prefix}hlc_key`), hlc: sql.ref<string>(`${prefix}hlc`) };
}

/** In time order, oldest first. */
export function oldestFirst(alias?: string) {
  const c = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q => query.orderBy(c.key).orderBy(c.hlc) as Q;
}

/** In time order, newest first. */
export function newestFirst(alias?: string) {
  const c = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q => query.orderBy(c.key, 'desc').orderBy(c.hlc, 'desc') as Q;
}

/** Movements strictly before `bound`. */
export function before(bound: TimeBound, alias?: string) {
  const c = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q => query.where(c.key, '<=', bound.key).where(c.hlc, '<', bound.hlc) as Q;
}

/** Movements strictly after `bound`. */
export function after(bound: TimeBound, alias?: string) {
  const c = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q => query.where(c.key, '>=', bound.key).where(c.hlc, '>', bound.hlc) as Q;
}

/** Movements at `bound` or after it. */
export function from(bound: TimeBound, alias?: string) {
  const c = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q => query.where(c.key, '>=', bound.key).where(c.hlc, '>=', bound.hlc) as Q;
}
