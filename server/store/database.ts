// Opens the SQLite file, applies pragmas and migrations, and runs kysely-built queries through
// cached better-sqlite3 statements. Queries are built with kysely (dialect-neutral); they run
// synchronously here because better-sqlite3 is synchronous and a transaction then never interleaves
// with another request.
import BetterSqlite3 from 'better-sqlite3';
import { type Compilable, Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from './migrations.ts';
import type { Schema } from './schema.ts';
import { applyPragmas } from './sqlite-pragmas.ts';

const STATEMENT_CACHE_LIMIT = 1000;
const KEPT_LIMIT = 10_000;

/** A kysely query compiled once; run it with fresh parameters in the order the builder placed them. */
export interface PreparedQuery<R> {
  all(...parameters: unknown[]): R[];
  get(...parameters: unknown[]): R | undefined;
  run(...parameters: unknown[]): BetterSqlite3.RunResult;
}

export class Database {
  readonly sqlite: BetterSqlite3.Database;
  /** Query builder over this connection; also executes the migrations. */
  readonly kysely: Kysely<Schema>;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly preparedByName = new Map<string, PreparedQuery<unknown>>();
  private readonly keptValues = new Map<string, unknown>();
  private keptAt = { dataVersion: -1, totalChanges: -1 };
  private changeMarks: { dataVersion: BetterSqlite3.Statement; totalChanges: BetterSqlite3.Statement } | undefined;

  private constructor(sqlite: BetterSqlite3.Database) {
    this.sqlite = sqlite;
    this.kysely = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  }

  /** Opens (creating if needed) and migrates the database at `file` (or `:memory:`). */
  static async open(file: string): Promise<Database> {
    const sqlite = new BetterSqlite3(file);
    try {
      applyPragmas(sqlite);
      const db = new Database(sqlite);
      await db.migrate();
      return db;
    } catch (error) {
      sqlite.close();
      throw error;
    }
  }

  private async migrate(): Promise<void> {
    // Unordered: branches add migrations in parallel (0002_pos after 0003_stocktakes had run on some
    // databases); each migration touches its own tables, so running a missing lower one later is safe.
    const { error, results } = await new Migrator({
      db: this.kysely,
      provider: migrationProvider,
      allowUnorderedMigrations: true,
    }).migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`Database migration ${failed} failed: ${String(error)}`, { cause: error });
    }
  }

  private statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_LIMIT) this.statements.clear();
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<R>(query: Compilable<R>): R[] {
    const { sql, parameters } = query.compile();
    return this.statement(sql).all(...parameters) as R[];
  }

  first<R>(query: Compilable<R>): R | undefined {
    const { sql, parameters } = query.compile();
    return this.statement(sql).get(...parameters) as R | undefined;
  }

  run(query: Compilable<unknown>): BetterSqlite3.RunResult {
    const { sql, parameters } = query.compile();
    return this.statement(sql).run(...parameters);
  }

  /**
   * A hot-path query, built once under `name` and reused: skips compiling the builder on every call.
   * The values given to the builder are placeholders; each call passes its own.
   */
  prepared<R>(name: string, build: () => Compilable<R>): PreparedQuery<R> {
    let prepared = this.preparedByName.get(name);
    if (!prepared) {
      prepared = this.sqlite.prepare(build().compile().sql) as unknown as PreparedQuery<unknown>;
      this.preparedByName.set(name, prepared);
    }
    return prepared as PreparedQuery<R>;
  }

  /**
   * `compute()`, kept under `key` until the database changes: a commit by another connection (a
   * CLI import or token revocation: PRAGMA data_version moves) or any change made through this one
   * (total_changes() moves). For the small lookups every request repeats (the caller's token, the
   * account's warehouses); checking costs two tiny statements. `undefined` is never kept.
   */
  kept<T>(key: string, compute: () => T): T {
    // SQLite's own change counters (no kysely equivalent): prepared once, plucked to plain numbers.
    this.changeMarks ??= {
      dataVersion: this.sqlite.prepare('PRAGMA data_version').pluck(),
      totalChanges: this.sqlite.prepare('SELECT total_changes()').pluck(),
    };
    const dataVersion = this.changeMarks.dataVersion.get() as number;
    const totalChanges = this.changeMarks.totalChanges.get() as number;
    if (dataVersion !== this.keptAt.dataVersion || totalChanges !== this.keptAt.totalChanges || this.keptValues.size >= KEPT_LIMIT) {
      this.keptValues.clear();
      this.keptAt = { dataVersion, totalChanges };
    }
    let value = this.keptValues.get(key) as T | undefined;
    if (value === undefined) {
      value = compute();
      if (value !== undefined) this.keptValues.set(key, value);
    }
    return value;
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE): all of it commits, durably, or none of it. */
  transaction<T>(fn: () => T): T {
    return this.sqlite.transaction(fn).immediate();
  }

  close(): void {
    this.statements.clear();
    this.preparedByName.clear();
    this.keptValues.clear();
    this.changeMarks = undefined;
    if (this.sqlite.open) this.sqlite.close();
  }
}
