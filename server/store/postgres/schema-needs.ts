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
  // Virtual computed columns came with PostgreSQL 18.
  computedColumns: 'stored',
  zeroPadded: (value, width) => sql<string>`lpad((${value})::text, ${sql.lit(width)}, '0')`,
  // From the text's parts rather than a cast, which would fail the whole statement on a day past its
  // month's end (2026-02-31: Date.parse, like SQLite's julianday, counts on into March). Year 0000,
  // which PostgreSQL's calendar does not have, is left out.
  epochMsOfIsoText: (column) => {
    const part = (from: number, length: number) => sql`substr(${sql.ref(column)}, ${sql.lit(from)}, ${sql.lit(length)})::int`;
    return sql<
      number | null
    >`case when ${sql.ref(column)} ~ ${sql.lit(String.raw`^(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$`)}
      then ((extract(epoch from make_date(${part(1, 4)}, ${part(6, 2)}, 1))::bigint + (${part(9, 2)} - 1) * 86400 + ${part(12, 2)} * 3600 + ${part(15, 2)} * 60 + ${part(18, 2)}) * 1000 + ${part(21, 3)}) end`;
  },
};
