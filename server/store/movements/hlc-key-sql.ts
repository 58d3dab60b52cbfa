// The timestamp's order key (hlc.ts, hlcKey) computed in SQL, for the migration that fills it and
// the consistency check that proves every stored key; and the timestamp text made again from a row.
// Apart from hlc.ts, which imports nothing.
import { type RawBuilder, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { COUNTER_DIGITS, HLC_KEY_COUNTERS, WALL_DIGITS } from './hlc.ts';

/**
 * hlcKey in SQL, of a column holding whole timestamps (both engines: text functions and bigint
 * arithmetic they share): for migrations that fill the key, and the consistency check that proves it.
 */
export function hlcKeyInSql(column: string): RawBuilder<number> {
  const counter = hlcCounterInSql(column);
  return sql<number>`cast(substr(${sql.ref(column)}, 1, ${sql.lit(WALL_DIGITS)}) as bigint) * ${sql.lit(HLC_KEY_COUNTERS)} + case when ${counter} > ${sql.lit(HLC_KEY_COUNTERS - 1)} then ${sql.lit(HLC_KEY_COUNTERS - 1)} else ${counter} end`;
}

/**
 * A movement's timestamp text made again from its row (migration 0037_lean_history_rows): the wall
 * time is the order key's (hlcKey: wall × 1024 + the counter capped at 1023), the counter is
 * `hlc_counter` and the instance is the row's `origin` (a push whose timestamp names another instance
 * is refused: sync/apply-movements.ts). SQL that both engines compute as `stock_history.hlc`.
 */
export function hlcTextInSql(needs: SchemaNeeds): RawBuilder<string> {
  const wall = needs.zeroPadded(sql<number>`${sql.ref('hlc_key')} / ${sql.lit(HLC_KEY_COUNTERS)}`, WALL_DIGITS);
  const counter = needs.zeroPadded(sql.ref('hlc_counter'), COUNTER_DIGITS);
  return sql<string>`${wall} || '-' || ${counter} || '-' || ${sql.ref('origin')}`;
}

/** The counter of a column holding whole timestamps, as an integer (for the migration that fills `hlc_counter`). */
export function hlcCounterInSql(column: string): RawBuilder<number> {
  return sql<number>`cast(substr(${sql.ref(column)}, ${sql.lit(WALL_DIGITS + 2)}, ${sql.lit(COUNTER_DIGITS)}) as integer)`;
}
