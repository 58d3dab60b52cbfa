// What a migration file is, and the column helpers every migration uses where engines spell a column
// differently, said once from what the engine needs (`SchemaNeeds`, engine-provider.ts).
import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { SchemaNeeds } from '../engine-provider.ts';

/** A migration file: its `up`, told what the engine it runs on needs. */
export interface EngineMigration {
  up(db: Kysely<any>, needs: SchemaNeeds): Promise<void>;
}

/** An integer primary key that numbers itself: AUTOINCREMENT on SQLite (ids never reused), an identity on PostgreSQL. */
export function autoId(needs: SchemaNeeds): (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return needs.autoId === 'identity' ? (c) => c.primaryKey().generatedByDefaultAsIdentity() : (c) => c.primaryKey().autoIncrement();
}

/**
 * Text compared byte by byte (hybrid logical clock timestamps: their text order is time order).
 * SQLite compares text that way already; PostgreSQL would use the database's locale, in which
 * punctuation may not count.
 */
export function bytewiseText(needs: SchemaNeeds) {
  return needs.bytewiseCollation === null ? ('text' as const) : sql`text collate ${sql.id(needs.bytewiseCollation)}`;
}
