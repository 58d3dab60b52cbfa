// What this instance is and holds (docs/SYNC.md, "A round"): its instance id and, per account, the
// highest sequence it holds of every origin (its version vector), which a follower's round asks for.
import { sql } from 'kysely';
import type { VersionVector } from '../../../shared/index.ts';
import { type Param, type Queries, statement } from '../engine.ts';

/**
 * The highest sequence this instance holds per origin, for an account (itself included). A skip
 * scan of the (account, origin, seq) index: one seek per origin, however long the history (a
 * GROUP BY read every movement of the account, on every push answer).
 */
const heldVectorQuery = statement('sync.heldVector', (k, p: Param<{ accountId: number }>) =>
  k
    .withRecursive('origins(origin)', (db) =>
      db
        .selectFrom('stock_history')
        .select((eb) => eb.fn.min<string | null>('origin').as('origin'))
        .where('account_id', '=', p('accountId'))
        .unionAll((db) =>
          db
            .selectFrom('origins')
            .select((eb) =>
              eb
                .selectFrom('stock_history as h')
                .select((eb) => eb.fn.min('h.origin').as('next'))
                .where('h.account_id', '=', p('accountId'))
                .whereRef('h.origin', '>', 'origins.origin')
                .as('origin'),
            )
            .where('origins.origin', 'is not', null),
        ),
    )
    .selectFrom('origins')
    .select([
      'origins.origin',
      (eb) =>
        eb
          .selectFrom('stock_history as h')
          .select((eb) => eb.fn.max('h.seq').as('top'))
          .where('h.account_id', '=', p('accountId'))
          .whereRef('h.origin', '=', 'origins.origin')
          .as('seq'),
    ])
    .where('origins.origin', 'is not', null),
);

export async function heldVector(q: Queries, accountId: number): Promise<VersionVector> {
  const rows = await q.all(heldVectorQuery, { accountId });
  return Object.fromEntries(rows.map((r) => [r.origin as string, Number(r.seq)]));
}

export async function instanceId(q: Queries): Promise<string> {
  return (await q.first(q.k.selectFrom('instance').select('id')))!.id;
}

/** A list of texts as a table of one column, `column1` (a VALUES list: both engines name its column so). */
export function valuesList(list: readonly string[]) {
  return sql<{ column1: string }>`(VALUES ${sql.join(list.map((text) => sql`(${text})`))})`;
}

/**
 * The highest sequence held of each origin listed, 0 for none: one statement, an index seek per origin
 * in the database (the list as a VALUES table; a GROUP BY would read every movement of each). A
 * statement per origin cost a round trip each: half a second for a batch of 500 origins on PostgreSQL.
 */
const highestOfEach = statement('sync.highestOfEach', (k, p: Param<{ accountId: number; origins: string[] }>) =>
  k.selectFrom(valuesList(p.list('origins')).as('o')).select([
    'o.column1 as origin',
    (eb) =>
      eb
        .selectFrom('stock_history as h')
        .select((eb) => eb.fn.max('h.seq').as('seq'))
        .where('h.account_id', '=', p('accountId'))
        .whereRef('h.origin', '=', 'o.column1')
        .as('seq'),
  ]),
);

/** What this instance holds of each of `origins` (0 for none): an index seek each, never the whole vector. */
export async function heldOf(q: Queries, accountId: number, origins: Iterable<string>): Promise<VersionVector> {
  const list = [...new Set(origins)];
  const held: VersionVector = {};
  for (let i = 0; i < list.length; i += 500)
    for (const row of await q.all(highestOfEach, { accountId, origins: list.slice(i, i + 500) })) held[row.origin] = Number(row.seq ?? 0);
  return held;
}
