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

/** The key, text and id columns of the history row `alias` (no alias: the query's one history table). */
function columnsOf(alias: string | undefined) {
  const prefix = alias === undefined ? '' : `${alias}.`;
  return { key: sql.ref<number>(`${prefix}hlc_key`), hlc: sql.ref<string>(`${prefix}hlc`), id: sql.ref<number>(`${prefix}id`) };
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

/** A row of the history in a paged read: its timestamp (with the key) and its id, which breaks what ties remain. */
export type RowBound = TimeBound & { id: number };

/**
 * The rows after `bound` in the order of `oldestFirstById`, for reading a long stretch in pages: two
 * rows may share a timestamp only if a batch of an older version stored them (the sync door refuses
 * it now), and the id keeps them apart so no page skips or repeats one. An `id` of 0 starts at the
 * timestamp itself (ids are positive).
 */
export function afterRow(bound: RowBound, alias?: string) {
  const c = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q =>
    query
      .where(c.key, '>=', bound.key)
      .where((eb) => eb.or([eb(c.hlc, '>', bound.hlc), eb.and([eb(c.hlc, '=', bound.hlc), eb(c.id, '>', bound.id)])])) as Q;
}

/** In time order, oldest first, and by id where timestamps tie (see afterRow). */
export function oldestFirstById(alias?: string) {
  const { id } = columnsOf(alias);
  return <Q extends HistorySelect>(query: Q): Q => oldestFirst(alias)(query).orderBy(id) as Q;
}
