// The leaner movement log, third step (issue 30): the history row keeps no text it can make again.
// At 1M barcodes (1.8M movements) the row was 128 bytes, 64 of them text (bench/NOTES.md):
// - The timestamp (`hlc`, 33 characters) is its order key's wall time, its counter and the row's
//   origin: the row keeps the counter (`hlc_counter`, mostly 0: no byte in SQLite) and the engine
//   computes the text (a VIRTUAL column on SQLite, computed when read; STORED on PostgreSQL, whose
//   virtual columns came with version 18). Every reader and query keeps its meaning.
// - When it was recorded (`created_at`, 24 characters of ISO text) is an integer of milliseconds
//   (`created_ms`). Text the server did not write (older versions', pushed before such text was
//   checked) becomes its timestamp's time, which is what the pull has sent for it since.
// - What recorded it (`source`, also in `stock_history_source_hlc`) is the id of its name in
//   `movement_sources`: this version's three with fixed ids (movements/movement-names.ts,
//   SOURCE_IDS), then any other name older versions recorded.
//
// Before the text goes, the migration proves the row makes it again: a key that is not its text's
// is set from the text (the consistency check counts such keys; none is expected), and a timestamp
// that names another instance than the row's origin stops the upgrade, changing nothing.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';
import { hlcCounterInSql, hlcKeyInSql } from '../movements/hlc-key-sql.ts';
import { COUNTER_DIGITS, HLC_KEY_COUNTERS, WALL_DIGITS } from '../movements/hlc.ts';
import { bytewiseText } from './migration.ts';

/** This version's sources with their ids, as movements/movement-names.ts (SOURCE_IDS) writes them; written out, because a migration never changes. */
const SOURCES = [
  { id: 1, name: 'api' },
  { id: 2, name: 'import' },
  { id: 3, name: 'stocktake' },
];

/**
 * A movement's timestamp text made again from its row: the wall
 * time is the order key's (hlcKey: wall × 1024 + the counter capped at 1023), the counter is
 * `hlc_counter` and the instance is the row's `origin` (a push whose timestamp names another instance
 * is refused: sync/apply-movements.ts). The SQL both engines compute as `stock_history.hlc`.
 */
function hlcTextInSql(needs: SchemaNeeds): RawBuilder<string> {
  const wall = needs.zeroPadded(sql<number>`${sql.ref('hlc_key')} / ${sql.lit(HLC_KEY_COUNTERS)}`, WALL_DIGITS);
  const counter = needs.zeroPadded(sql.ref('hlc_counter'), COUNTER_DIGITS);
  return sql<string>`${wall} || '-' || ${counter} || '-' || ${sql.ref('origin')}`;
}

const INSTANCE_AT = WALL_DIGITS + COUNTER_DIGITS + 3; // where the instance starts in the text (1-based)

export async function up(db: Kysely<any>, needs: SchemaNeeds): Promise<void> {
  const foreign = await db
    .selectFrom('stock_history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql`substr(hlc, ${sql.lit(INSTANCE_AT)})`, '<>', sql.ref('origin'))
    .executeTakeFirstOrThrow();
  if (Number(foreign.n) > 0)
    throw new Error(
      `${foreign.n} movement(s) carry a timestamp of another instance than their origin; the upgrade to 0037_lean_history_rows changed nothing. Restore a backup from before they were written, or ask for help (docs/SYNC.md).`,
    );
  await db
    .updateTable('stock_history')
    .set({ hlc_key: hlcKeyInSql('hlc') })
    .where('hlc_key', '<>', hlcKeyInSql('hlc'))
    .execute();

  await db.schema
    .createTable('movement_sources')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('movement_sources_name', ['name'])
    .execute();
  const older = (await db.selectFrom('stock_history').select('source').distinct().execute())
    .map((row) => row.source as string)
    .filter((name) => !SOURCES.some((known) => known.name === name))
    .sort();
  const firstOlder = SOURCES.length + 1;
  await db
    .insertInto('movement_sources')
    .values([...SOURCES, ...older.map((name, i) => ({ id: firstOlder + i, name }))])
    .execute();

  await db.schema
    .alterTable('stock_history')
    .addColumn('hlc_counter', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stock_history')
    .addColumn('created_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stock_history')
    .addColumn('source_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db
    .updateTable('stock_history')
    .set((eb) => ({
      hlc_counter: hlcCounterInSql('hlc'),
      created_ms: eb.fn.coalesce(needs.epochMsOfIsoText('created_at'), sql<number>`hlc_key / ${sql.lit(HLC_KEY_COUNTERS)}`),
      source_id: eb.selectFrom('movement_sources as s').select('s.id').whereRef('s.name', '=', 'stock_history.source'),
    }))
    .execute();

  await db.schema.dropIndex('stock_history_source_hlc').execute();
  for (const column of ['hlc', 'created_at', 'source']) await db.schema.alterTable('stock_history').dropColumn(column).execute();
  await db.schema
    .alterTable('stock_history')
    .addColumn('hlc', bytewiseText(needs), (c) => {
      const computed = c.generatedAlwaysAs(hlcTextInSql(needs));
      return needs.computedColumns === 'stored' ? computed.stored() : computed;
    })
    .execute();
  // The history filtered by source, newest first (stock-history.ts).
  await db.schema.createIndex('stock_history_source_hlc').on('stock_history').columns(['account_id', 'source_id', 'hlc_key']).execute();
  // Tables added after 0022_change_notices announce their changes like the others (PostgreSQL).
  if (needs.changeNotices === 'notify-triggers') await sql`SELECT barcode_inventory_announce(${'movement_sources'}::regclass)`.execute(db);
}
