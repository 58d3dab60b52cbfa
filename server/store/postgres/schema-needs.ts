// What the migrations need to know of PostgreSQL, apart from its driver: the provider names it
// without loading `pg` (a server on SQLite never loads the PostgreSQL driver).
import { sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

/** What the migrations need to know of PostgreSQL (engine-provider.ts). */
export const postgresSchemaNeeds: SchemaNeeds = {
  autoId: 'identity',
  // The database's locale would order text by language rules, in which punctuation may not count.
  bytewiseCollation: 'C',
  textBytes: (column) => sql<number>`octet_length(${sql.ref(column)})`,
  // Commits from other processes (and from psql) are announced by triggers: CHANGES_CHANNEL below.
  changeNotices: 'notify-triggers',
  keyedTables: false,
};
