// Who may speak for an origin (docs/SYNC.md, "Who may speak for an origin"). An upstream keeps the
// followers registered with it (`sync_followers`: each instance by the token that registered it, with
// the label its owner chose) and who owns each origin it holds (`sync_origins.owner`: the follower
// whose own instance it is or who relays it; `(upstream)`: this instance's own upstream sends it;
// `(unowned)`: held from before this version, claimed by the first follower that pushes it). A follower's link remembers its label, whether it has
// registered, and its push cursor: the arrival id up to which its upstream holds everything, where
// the next round's push starts reading and the status's count of what waits starts counting.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  await db.schema
    .createTable('sync_followers')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('token_id', 'integer', (c) => c.notNull().references('api_tokens.id'))
    .addColumn('registered_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_followers_pk', ['account_id', 'instance'])
    .execute();
  // A token speaks for one follower: a push is told apart by its token alone.
  await db.schema.createIndex('sync_followers_token').unique().on('sync_followers').column('token_id').execute();
  // Every origin of an account held here but this instance's own has a row (so counting them is
  // counting rows): those held already are nobody's yet, until a follower pushes one first.
  await db.schema
    .createTable('sync_origins')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_origins_pk', ['account_id', 'origin'])
    .execute();
  const own = (await db.selectFrom('instance').select('id').executeTakeFirst())?.id as string | undefined;
  const held: { account_id: number; origin: string }[] = await db
    .selectFrom('stock_history')
    .select(['account_id', 'origin'])
    .distinct()
    .$if(own !== undefined, (qb) => qb.where('origin', '!=', own!))
    .execute();
  const at = new Date().toISOString();
  for (let i = 0; i < held.length; i += 500)
    await db
      .insertInto('sync_origins')
      .values(held.slice(i, i + 500).map((row) => ({ ...row, owner: '(unowned)', claimed_at: at })))
      .execute();
  await db.schema.alterTable('sync_links').addColumn('label', 'text').execute();
  await db.schema.alterTable('sync_links').addColumn('registered_at', 'text').execute();
  await db.schema
    .alterTable('sync_links')
    .addColumn('push_cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (needs.changeNotices === 'notify-triggers')
    for (const table of ['sync_followers', 'sync_origins']) await sql`SELECT barcode_inventory_announce(${table}::regclass)`.execute(db);
}
