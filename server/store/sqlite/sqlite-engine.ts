// The SQLite engine: one better-sqlite3 connection per process, WAL, durable commits. better-sqlite3
// is synchronous, so every query here finishes before its promise is even created; the only cost of
// the async interface is the promise itself. What keeps transactions apart is `serial`: one
// transaction or read at a time on the connection, in arrival order, so an await inside a
// transaction can never let another request's statements into it.
//
// Group commit (group-commit.ts): SQLite has one writer, and writes asked for in the same turn of
// the event loop share one transaction and one durable COMMIT, each in its own savepoint. When SQLite
// rolls the whole transaction back under one write (a storage fault), that write fails and the
// others run again in a new transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { type Compilable, DummyDriver, Kysely, SqliteAdapter, SqliteDialect, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { type CompiledStatement, StatementCompiler, positionalValues } from '../compiled-statements.ts';
import type { SchemaNeeds } from '../engine-provider.ts';
import {
  type Changed,
  type Engine,
  type EngineIntegrity,
  type Params,
  type Queries,
  type ScratchKeys,
  type StatementDef,
  type WriteOptions,
  oneStatement,
} from '../engine.ts';
import { runMigrations } from '../migrations/registry.ts';
import type { Schema } from '../schema.ts';
import { translateSqliteError } from './faults.ts';
import { BUSY_TIMEOUT_MS, analyseStockUnitsIfGrown, applyPragmas, withBulkWriteSettings } from './pragmas.ts';
import { SqliteScratchKeys } from './scratch-keys.ts';
import { type CommitCounts, type GroupTransaction, Serial, TransactionShare, WriteGroups, commitGroup } from '../group-commit.ts';

/** What the migrations need to know of SQLite (engine-provider.ts). */
export const sqliteSchemaNeeds: SchemaNeeds = {
  autoId: 'autoincrement',
  // Text compares byte by byte (the BINARY collation) unless told otherwise.
  bytewiseCollation: null,
  textBytes: (column) => sql<number>`length(CAST(${sql.ref(column)} AS BLOB))`,
  changeNotices: 'data-version',
  keyedTables: true,
  computedColumns: 'virtual',
  zeroPadded: (value, width) => sql<string>`printf(${sql.lit(`%0${width}d`)}, ${value})`,
  // The shape checked as CREATED_AT_PATTERN does (and year 0000 left out, as PostgreSQL must):
  // julianday also reads other forms (`2026-11-23 10:00:00`), which the server never wrote.
  epochMsOfIsoText: (column) => {
    const text = sql.ref(column);
    const part = (from: number, length: number) => sql`substr(${text}, ${sql.lit(from)}, ${sql.lit(length)})`;
    return sql<
      number | null
    >`case when ${text} glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'
      and ${part(1, 4)} <> '0000' and ${part(6, 2)} between '01' and '12' and ${part(9, 2)} between '01' and '31'
      and ${part(12, 2)} <= '23' and ${part(15, 2)} <= '59' and ${part(18, 2)} <= '59'
      then cast(round((julianday(${text}) - 2440587.5) * 86400000) as integer) end`;
  },
};

const STATEMENT_CACHE_LIMIT = 1000;
const KEPT_LIMIT = 10_000;
/** Marks the async work running inside a transaction, to refuse a nested one (it would wait for itself forever). */
const insideTransaction = new AsyncLocalStorage<true>();

function refuseNesting(): void {
  if (insideTransaction.getStore())
    throw new Error('A store transaction was opened inside another: pass the Queries of the outer one instead.');
}

/** A query builder that compiles SQLite's SQL and never executes anything itself. */
function sqliteBuilder(): Kysely<Schema> {
  return new Kysely<Schema>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

export interface SqliteOpenOptions {
  /** Open an existing file only, read-only (checks, backups). */
  readonly?: boolean;
}

export class SqliteEngine implements Engine, Queries {
  readonly kind = 'sqlite';
  readonly location: string;
  readonly k = sqliteBuilder();
  /** The connection, for what only SQLite has (backup API); operations never touch it. */
  readonly sqlite: BetterSqlite3.Database;
  private readonly serial = new Serial();
  private readonly compiler = new StatementCompiler(this.k);
  private readonly bySql = new Map<string, BetterSqlite3.Statement>();
  private readonly prepared = new Map<CompiledStatement, BetterSqlite3.Statement>();
  private readonly keptValues = new Map<string, unknown>();
  private keptAt = { dataVersion: -1, totalChanges: -1 };
  private readonly marks: { dataVersion: BetterSqlite3.Statement; totalChanges: BetterSqlite3.Statement };
  private readonly control: Record<
    'beginWrite' | 'beginRead' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackToSavepoint',
    BetterSqlite3.Statement
  >;
  /** Durable write commits so far, and the writes they carried (for tests and the bench's report). */
  readonly commits: CommitCounts = { groups: 0, writes: 0 };
  /** Writes asked for together, each group run on the connection in its turn. */
  private readonly groups = new WriteGroups((group) =>
    this.serial.run(() => commitGroup(async () => this.groupTransaction(), group, this.commits)),
  );
  private closing: Promise<void> | undefined;

  private constructor(location: string, sqlite: BetterSqlite3.Database) {
    this.location = location;
    this.sqlite = sqlite;
    this.marks = {
      dataVersion: sqlite.prepare('PRAGMA data_version').pluck(),
      totalChanges: sqlite.prepare('SELECT total_changes()').pluck(),
    };
    this.control = {
      beginWrite: sqlite.prepare('BEGIN IMMEDIATE'),
      beginRead: sqlite.prepare('BEGIN'),
      commit: sqlite.prepare('COMMIT'),
      rollback: sqlite.prepare('ROLLBACK'),
      savepoint: sqlite.prepare('SAVEPOINT one_write'),
      release: sqlite.prepare('RELEASE one_write'),
      rollbackToSavepoint: sqlite.prepare('ROLLBACK TO one_write'),
    };
  }

  /** Opens (creating if needed) and migrates the database at `file` (or `:memory:`). */
  static async open(file: string, options: SqliteOpenOptions = {}): Promise<SqliteEngine> {
    let sqlite: BetterSqlite3.Database;
    try {
      sqlite = new BetterSqlite3(file, options.readonly ? { readonly: true, fileMustExist: true } : {});
    } catch (error) {
      throw translateSqliteError(error);
    }
    try {
      if (options.readonly) {
        sqlite.pragma('query_only = ON');
        sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      } else {
        applyPragmas(sqlite);
        await runMigrations(new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) }), sqliteSchemaNeeds);
        analyseStockUnitsIfGrown(sqlite);
      }
      return new SqliteEngine(file, sqlite);
    } catch (error) {
      sqlite.close();
      throw translateSqliteError(error);
    }
  }

  // --- Queries: statements run on the one connection, inside whatever transaction holds `serial`.

  private statementFor(sql: string): BetterSqlite3.Statement {
    let statement = this.bySql.get(sql);
    if (!statement) {
      if (this.bySql.size >= STATEMENT_CACHE_LIMIT) this.bySql.clear();
      statement = this.sqlite.prepare(sql);
      this.bySql.set(sql, statement);
    }
    return statement;
  }

  private bind(
    target: Compilable<unknown> | StatementDef<unknown, Params>,
    params: Params | undefined,
  ): [BetterSqlite3.Statement, unknown[]] {
    if ('build' in target) {
      const compiled = this.compiler.compile(target, params ?? {});
      let statement = this.prepared.get(compiled);
      if (!statement) this.prepared.set(compiled, (statement = this.sqlite.prepare(compiled.sql)));
      return [statement, positionalValues(compiled, params ?? {})];
    }
    const { sql, parameters } = target.compile();
    return [this.statementFor(sql), parameters as unknown[]];
  }

  all<R>(target: Compilable<R> | StatementDef<R, Params>, params?: Params): Promise<R[]> {
    const [statement, values] = this.bind(target, params);
    return Promise.resolve(statement.all(...values) as R[]);
  }

  first<R>(target: Compilable<R> | StatementDef<R, Params>, params?: Params): Promise<R | undefined> {
    const [statement, values] = this.bind(target, params);
    return Promise.resolve(statement.get(...values) as R | undefined);
  }

  run(target: Compilable<unknown> | StatementDef<unknown, Params>, params?: Params): Promise<Changed> {
    const [statement, values] = this.bind(target, params);
    return Promise.resolve({ changes: statement.run(...values).changes });
  }

  // --- Engine

  read<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    refuseNesting();
    return this.serial.run(() => this.inTransaction(this.control.beginRead, work));
  }

  write<T>(work: (q: Queries) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    refuseNesting();
    // A catalogue may have added most of the units: their statistics, in the same transaction.
    const writing = options.addsUnits
      ? async (q: Queries) => {
          const result = await work(q);
          analyseStockUnitsIfGrown(this.sqlite);
          return result;
        }
      : work;
    // A bulk write (an import) is large enough on its own; it keeps its transaction to itself.
    if (options.bulk)
      return this.serial.run(() => withBulkWriteSettings(this.sqlite, () => this.inTransaction(this.control.beginWrite, writing)));
    return this.groups.add(writing);
  }

  /** The connection's write transaction, as group commit drives it (group-commit.ts). */
  private groupTransaction(): GroupTransaction {
    const { sqlite, control } = this;
    const open = () => sqlite.open && sqlite.inTransaction;
    const share = new TransactionShare();
    // The engine's own queries, with what the group's writes share.
    const queries: Queries = {
      k: this.k,
      all: this.all.bind(this) as Queries['all'],
      first: this.first.bind(this) as Queries['first'],
      run: this.run.bind(this) as Queries['run'],
      group: share,
    };
    return {
      begin: async () => void control.beginWrite.run(),
      savepoint: async () => void control.savepoint.run(),
      release: async () => void control.release.run(),
      undoWrite: async () => {
        // Under a storage fault SQLite has rolled the whole transaction back already.
        if (!open()) return false;
        control.rollbackToSavepoint.run();
        control.release.run();
        return true;
      },
      commit: async () => {
        await insideTransaction.run(true, () => share.finish(queries));
        control.commit.run();
      },
      abandon: async () => {
        try {
          if (open()) control.rollback.run();
        } catch {
          // Rolled back already, or the connection is gone: nothing is left to end.
        }
      },
      run: (work) => insideTransaction.run(true, () => work(queries)),
      translate: translateSqliteError,
      mayRetry: () => sqlite.open,
    };
  }

  private async inTransaction<T>(begin: BetterSqlite3.Statement, work: (q: Queries) => Promise<T>): Promise<T> {
    try {
      begin.run();
      const result = await insideTransaction.run(true, () => work(this));
      this.control.commit.run();
      return result;
    } catch (error) {
      if (this.sqlite.open && this.sqlite.inTransaction) this.control.rollback.run();
      throw translateSqliteError(error);
    }
  }

  async kept<T>(key: string, compute: (q: Queries) => Promise<T>): Promise<T> {
    refuseNesting();
    // A commit by another connection moves data_version; one through this connection moves total_changes.
    const dataVersion = this.marks.dataVersion.get() as number;
    const totalChanges = this.marks.totalChanges.get() as number;
    if (dataVersion !== this.keptAt.dataVersion || totalChanges !== this.keptAt.totalChanges || this.keptValues.size >= KEPT_LIMIT) {
      this.keptValues.clear();
      this.keptAt = { dataVersion, totalChanges };
    }
    const kept = this.keptValues.get(key) as T | undefined;
    if (kept !== undefined) return kept;
    const value = await this.read((q) => compute(oneStatement(q)));
    // Kept only if nothing changed meanwhile: the value belongs to the marks it was computed under.
    if (value !== undefined && this.keptAt.dataVersion === dataVersion && this.keptAt.totalChanges === totalChanges)
      this.keptValues.set(key, value);
    return value;
  }

  async scratchKeys(q: Queries): Promise<ScratchKeys> {
    void q; // the scratch table lives on this engine's one connection, inside the caller's transaction
    return new SqliteScratchKeys(this.sqlite);
  }

  checkIntegrity(): Promise<EngineIntegrity> {
    return this.serial.run(async () => {
      const integrity = (this.sqlite.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
      const foreignKeyProblems = (this.sqlite.pragma('foreign_key_check') as unknown[]).length;
      return { integrity, foreignKeyProblems };
    });
  }

  close(): Promise<void> {
    // Writes already asked for still commit, then the connection closes.
    return (this.closing ??= this.groups.drained().then(() =>
      this.serial.run(async () => {
        this.bySql.clear();
        this.prepared.clear();
        this.keptValues.clear();
        if (this.sqlite.open) this.sqlite.close();
      }),
    ));
  }
}
