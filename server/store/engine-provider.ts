// What the rest of the product knows of a storage engine: one provider object per engine (SQLite,
// PostgreSQL), found by the location it serves (engines.ts, `providerFor`). Everything that differs
// between engines outside the store's operations is a method or a plain field of the provider, so no
// caller asks "is this PostgreSQL?" and a further engine is one more provider. Operations never look
// at the provider: they are written once against engine.ts.
import type { Expression, RawBuilder } from 'kysely';
import type { ConsistencyReport } from './consistency.ts';
import type { Engine } from './engine.ts';
import type { TokenInfo } from './tokens.ts';

/**
 * What the migrations need to know of an engine: how it spells what engines spell differently, and
 * which schema steps it needs or cannot take. Plain values, so a migration never asks which engine
 * it runs on (migrations/migration.ts turns them into column definitions).
 */
export interface SchemaNeeds {
  /**
   * How an integer primary key numbers itself: `autoincrement` (SQLite: an id is never reused, and
   * the next one follows the largest the table holds, also one inserted with its id) or `identity`
   * (PostgreSQL: a sequence, which rows inserted with their own ids do not move).
   */
  readonly autoId: 'autoincrement' | 'identity';
  /** The collation that makes text compare byte by byte, or null where text compares that way already (SQLite). */
  readonly bytewiseCollation: string | null;
  /** The length of a text column in bytes, not characters. */
  textBytes(column: string): RawBuilder<number>;
  /**
   * How a server process learns of a commit made through another connection: `data-version`
   * (SQLite's PRAGMA data_version: nothing in the schema) or `notify-triggers` (a statement trigger
   * on every table NOTIFYs the channel the servers LISTEN on: PostgreSQL).
   */
  readonly changeNotices: 'data-version' | 'notify-triggers';
  /** A table can be stored as the b-tree of its primary key alone, without a rowid (SQLite's WITHOUT ROWID). */
  readonly keyedTables: boolean;
  /**
   * How a column computed from others of its row is kept: `virtual` (SQLite: computed when read, no
   * space in the row) or `stored` (PostgreSQL before 18 computes it on write and stores it).
   */
  readonly computedColumns: 'virtual' | 'stored';
  /** A non-negative integer as decimal text of at least `width` digits, zeros in front (an immutable expression: computed columns may use it). */
  zeroPadded(value: Expression<number>, width: number): RawBuilder<string>;
  /**
   * Milliseconds since 1970 of a text column holding a time as the server writes them
   * (`CREATED_AT_PATTERN`, shared/sync-schemas.ts: `2026-11-23T10:00:00.000Z`), a day past its
   * month's end counted on into the next as JavaScript's Date.parse does; null for any other text.
   */
  epochMsOfIsoText(column: string): RawBuilder<number | null>;
}

export interface EngineOpenOptions {
  /** Connections per process, for an engine that keeps a pool of them (PostgreSQL). */
  poolSize?: number;
}

/** What a backup wrote. */
export interface BackupDone {
  /** Said after "Backed up <database> to <file>", in parentheses: the format, and how to restore it. */
  detail?: string;
  /** The checks of the copy, when the copy is a database this engine opens (a SQLite file). */
  report?: ConsistencyReport;
}

export interface RestoreOptions {
  /**
   * Asked when tokens were revoked after the backup was taken: true keeps them revoked (their
   * revocation is applied again after the restore), false brings them back as they were in the backup.
   */
  keepRevocations(revoked: readonly TokenInfo[]): Promise<boolean> | boolean;
}

export interface RestoreResult {
  savedCurrentAs: string | null;
  /** Tokens revoked since the backup was taken, and whether they were kept revoked. */
  revokedSince: TokenInfo[];
  keptRevocations: boolean;
}

export interface EngineProvider<Kind extends string = string> {
  /** The engine's `Engine.kind`, for messages and tests, never for branching in the product. */
  readonly kind: Kind;
  /** The engine's name as people write it. */
  readonly name: string;
  /** True for a location this engine serves. */
  matches(location: string): boolean;
  /** The location as people may see it, in output and logs (never with a password). */
  displayLocation(location: string): string;
  /** The engine at `location`, created when missing and migrated. */
  open(location: string, options?: EngineOpenOptions): Promise<Engine>;
  /** Writes a consistent copy of the database to `target` (which must not exist), safe while servers write. */
  backup(location: string, target: string): Promise<BackupDone>;
  /** Replaces the database at `target` with a backup made by `backup`, or refuses saying how this engine is restored. */
  restore(backup: string, target: string, options?: RestoreOptions): Promise<RestoreResult>;
  /** The engine's own checks and the store's (consistency.ts), changing nothing in the data. */
  check(location: string): Promise<ConsistencyReport>;

  /** A demo database can be created beside the location (a file in the same folder), for the launcher's demo. */
  readonly demoBeside: boolean;
  /** `restore` replaces the database in place; when false it refuses and says how this engine is restored. */
  readonly restoreInPlace: boolean;
  /** What the migrations need to know of this engine (the engine migrates a database with it when it opens one). */
  readonly schema: SchemaNeeds;
}
