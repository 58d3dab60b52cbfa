// PostgreSQL: every change to a table announces itself on the channel the server processes listen
// on (postgres-engine.ts, engine.kept), whoever makes it — also psql or another tool, not only the
// store's own writes, which NOTIFY anyway. SQLite's engine sees other connections' commits through
// PRAGMA data_version; without this, a PostgreSQL server kept a token or a warehouse list that had
// been changed by SQL from outside until the store's next write (found by
// test/http/signout-and-idle-expiry.test.ts on PostgreSQL). A table added by a later migration must get
// the trigger too (barcode_inventory_announce below).
import { type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

export async function up(db: Kysely<unknown>, needs: SchemaNeeds): Promise<void> {
  if (needs.changeNotices !== 'notify-triggers') return;
  await sql`
      CREATE FUNCTION barcode_inventory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('barcode_inventory_changes', '');
        RETURN NULL;
      END $$`.execute(db);
  await sql`
      CREATE FUNCTION barcode_inventory_announce(target regclass) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('CREATE TRIGGER barcode_inventory_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION barcode_inventory_changed()', target);
      END $$`.execute(db);
  await sql`
      SELECT barcode_inventory_announce(format('%I', table_name)::regclass) FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('kysely_migration', 'kysely_migration_lock')`.execute(
    db,
  );
}
