// Who made a movement is stored as the id of its name (migration 0036_movement_actor_ids); the
// readers of the history show the name. One scalar look-up by primary key per row read.
import { type RawBuilder, sql } from 'kysely';

/** The actor's name of the history row `alias` (null when it has none), for a select list. */
export function actorNameOf(alias: string): RawBuilder<string | null> {
  return sql<string | null>`(select ma.name from movement_actors ma where ma.id = ${sql.ref(`${alias}.actor_id`)})`;
}

/** The id a filter by actor's name compares with (null when no movement has that name: matches nothing). */
export function actorIdNamed(name: string): RawBuilder<number | null> {
  return sql<number | null>`(select ma.id from movement_actors ma where ma.name = ${name})`;
}
