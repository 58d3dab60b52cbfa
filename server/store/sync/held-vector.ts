// What this instance is and holds (docs/SYNC.md, "A round"): its instance id and, per account, the
// highest sequence it holds of every origin (its version vector), which a follower's round asks for.
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
