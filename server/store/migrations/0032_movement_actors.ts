// Who did what (docs/API.md, "Who did what"): every movement records its actor (the person signed in
// on a shared scanner, the token's label, the command line, or what another instance sent with it),
// every stocktake scan its actor (who counted each line), and a committed stocktake who committed it.
// Movements and scans recorded before this have none (null): the history shows their token and source.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stock_history').addColumn('actor', 'text').execute();
  // The history filtered by actor (one person's changes), newest first, like its other filters.
  await db.schema.createIndex('stock_history_actor').on('stock_history').columns(['account_id', 'actor', 'hlc']).execute();
  await db.schema.alterTable('stocktake_scans').addColumn('actor', 'text').execute();
  await db.schema.alterTable('stocktakes').addColumn('committed_by', 'text').execute();
}
