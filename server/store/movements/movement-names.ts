// Who made a movement and what recorded it are stored as ids of names (migrations
// 0036_movement_actor_ids and 0037_lean_history_rows); the readers of the history show the names. One
// scalar look-up by primary key per row read.
import { type RawBuilder, sql } from 'kysely';
import type { MovementSourceName } from '../../../shared/sync-schemas.ts';

/** The actor's name of the history row `alias` (null when it has none), for a select list. */
export function actorNameOf(alias: string): RawBuilder<string | null> {
  return sql<string | null>`(select ma.name from movement_actors ma where ma.id = ${sql.ref(`${alias}.actor_id`)})`;
}

/** The id a filter by actor's name compares with (null when no movement has that name: matches nothing). */
export function actorIdNamed(name: string): RawBuilder<number | null> {
  return sql<number | null>`(select ma.id from movement_actors ma where ma.name = ${name})`;
}

/**
 * The ids of what records movements in this version, fixed: migration 0037 wrote them into
 * `movement_sources`, and a write takes its id from here without a statement. Names older versions
 * recorded follow them in the table. A new source is a migration that adds its row, then its id here.
 */
export const SOURCE_IDS: Readonly<Record<MovementSourceName, number>> = { api: 1, import: 2, stocktake: 3 };

/** The source's name of the history row `alias`, for a select list. */
export function sourceNameOf(alias: string): RawBuilder<string> {
  return sql<string>`(select ms.name from movement_sources ms where ms.id = ${sql.ref(`${alias}.source_id`)})`;
}

/** The id a filter by source compares with (null when no movement has that name: matches nothing). */
export function sourceIdNamed(name: string): RawBuilder<number | null> {
  return sql<number | null>`(select ms.id from movement_sources ms where ms.name = ${name})`;
}
