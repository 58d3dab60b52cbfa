// PostgreSQL: every identity column's sequence continues after the highest id its table holds.
// 0007_movements copied the history rows, ids included, into a new table whose identity had numbered
// nothing yet, so on a PostgreSQL database that had history before 0007 the next movement took
// id 1 again and every write answered 500 (duplicate key stock_movements_pkey; found by
// test/store/upgrade-from-first-schema.test.ts on PostgreSQL). SQLite's AUTOINCREMENT follows the largest
// id by itself: nothing to do there.
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

export async function up(db: Kysely<unknown>, needs: SchemaNeeds): Promise<void> {
  if (needs.autoId !== 'identity') return;
  await sql`
      DO $$
      DECLARE r record;
      BEGIN
        FOR r IN SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES' LOOP
          EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, %L), coalesce(max(%I), 0) + 1, false) FROM %I', r.table_name, r.column_name, r.column_name, r.table_name);
        END LOOP;
      END $$`.execute(db);
}
