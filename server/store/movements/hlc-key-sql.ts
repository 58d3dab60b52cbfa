// The timestamp's order key (hlc.ts, hlcKey) computed in SQL, for the migration that fills it and
// the consistency check that proves every stored key, and the counter. Apart from hlc.ts, which
// imports nothing.
import { type RawBuilder, sql } from 'kysely';
import { COUNTER_DIGITS, HLC_KEY_COUNTERS, WALL_DIGITS } from './hlc.ts';

/**
 * hlcKey in SQL, of a column holding whole timestamps (both engines: text functions and bigint
 * arithmetic they share): for migrations that fill the key, and the consistency check that proves it.
 */
export function hlcKeyInSql(column: string): RawBuilder<number> {
  const counter = hlcCounterInSql(column);
  return sql<number>`cast(substr(${sql.ref(column)}, 1, ${sql.lit(WALL_DIGITS)}) as bigint) * ${sql.lit(HLC_KEY_COUNTERS)} + case when ${counter} > ${sql.lit(HLC_KEY_COUNTERS - 1)} then ${sql.lit(HLC_KEY_COUNTERS - 1)} else ${counter} end`;
}

/** The counter of a column holding whole timestamps, as an integer (for the migration that fills `hlc_counter`). */
export function hlcCounterInSql(column: string): RawBuilder<number> {
  return sql<number>`cast(substr(${sql.ref(column)}, ${sql.lit(WALL_DIGITS + 2)}, ${sql.lit(COUNTER_DIGITS)}) as integer)`;
}
