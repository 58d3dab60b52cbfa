// The SQLite engine: WAL, durable commits, and two better-sqlite3 connections per process on a file
// (one on `:memory:`): the writer, and a reader for the reads asked for while writes are under way.
// better-sqlite3 is synchronous, so every query here finishes before its promise is even created;
// the only cost of the async interface is the promise itself. What keeps transactions apart on a
// connection is a `Serial`: one transaction at a time, in arrival order, so an await inside a
// transaction can never let another request's statements into it. The reader has its own Serial:
// WAL lets it see the last commit while the writer's transaction is open, so reads never wait for
// writes.
//
// Group commit (group-commit.ts): SQLite has one writer, and writes asked for in the same turn of
// the event loop share one transaction and one durable COMMIT, each in its own savepoint. When SQLite
// rolls the whole transaction back under one write (a storage fault), that write fails and the
// others run again in a new transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import BetterSqlite3 from 'better-sqlite3';
import { DummyDriver, Kysely, SqliteAdapter, SqliteDialect, SqliteIntrospector, sql } from 'kysely';
import { StatementCompiler } from '../compiled-statements.ts';
import type { SchemaNeeds } from '../engine-provider.ts';
import { type Engine, type EngineIntegrity, type Queries, type ScratchKeys, type WriteOptions, oneStatement } from '../engine.ts';
import { runMigrations } from '../migrations/registry.ts';
import type { Schema } from '../schema.ts';
import { translateSqliteError } from './faults.ts';
import { BUSY_TIMEOUT_MS, analyseStockUnitsIfGrown, applyPragmas, applyReaderPragmas, withBulkWriteSettings } from './pragmas.ts';
import { FixedPlanCompiler } from './fixed-plan-compiler.ts';
import { SqliteConnection } from './sqlite-connection.ts';
import { SqliteScratchKeys } from './scratch-keys.ts';
import {
  type CommitCounts,
  type GroupTransaction,
  LoopSlices,
  Serial,
  TransactionShare,
  WriteGroups,
  commitGroup,
} from '../group-commit.ts';

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
      createQueryCompiler: () => new FixedPlanCompiler(),
    },
  });
}

export interface SqliteOpenOptions {
  /** Open an existing file only, read-only (checks, backups). */
  readonly?: boolean;
}

export class SqliteEngine implements Engine {
  readonly kind = 'sqlite';
  readonly location: string;
  readonly k = sqliteBuilder();
  /** The writing connection, for what only SQLite has (backup API, tests' settings); operations never touch it. */
  readonly sqlite: BetterSqlite3.Database;
  /** Writes, one group at a time in `serial`, and the reads asked for while no write is under way. */
  private readonly writer: SqliteConnection;
  /**
   * Reads while writes are under way: on a file in WAL mode a connection of its own, which sees the
   * last commit while the writer's group is open, so a flood of one account's writes does not hold
   * another account's reads (they used to wait in `serial` behind the group running and the one
   * formed meanwhile: 17-28 ms a GET under a till's flood). When no write is under way reads run on
   * the writer as before: its page cache stays warm, while SQLite empties a connection's cache when
   * it begins a read after another connection's commit. `:memory:` and a read-only file: the writer.
   */
  private readonly reader: SqliteConnection;
  private readonly serial = new Serial();
  /** One read transaction at a time on the reader: `serial` itself when the reader is the writer. */
  private readonly readSerial: Serial;
  private readonly keptValues = new Map<string, unknown>();
  private keptAt = { dataVersion: -1, totalChanges: -1 };
  /** Durable write commits so far, and the writes they carried (for tests and the bench's report). */
  readonly commits: CommitCounts = { groups: 0, writes: 0 };
  /** Writes asked for together, each group run on the connection in its turn. */
  private readonly groups = new WriteGroups((group) =>
    this.serial.run(() => commitGroup(async () => this.groupTransaction(), group, this.commits)),
  );
  private closing: Promise<void> | undefined;

  private constructor(location: string, sqlite: BetterSqlite3.Database, readerSqlite: BetterSqlite3.Database | undefined) {
    this.location = location;
    this.sqlite = sqlite;
    const compiler = new StatementCompiler(this.k);
    this.writer = new SqliteConnection(sqlite, this.k, compiler);
    this.reader = readerSqlite ? new SqliteConnection(readerSqlite, this.k, compiler) : this.writer;
    this.readSerial = readerSqlite ? new Serial() : this.serial;
  }

  /** Opens (creating if needed) and migrates the database at `file` (or `:memory:`). */
  static async open(file: string, options: SqliteOpenOptions = {}): Promise<SqliteEngine> {
    let sqlite: BetterSqlite3.Database;
    try {
      sqlite = new BetterSqlite3(file, options.readonly ? { readonly: true, fileMustExist: true } : {});
    } catch (error) {
      throw translateSqliteError(error);
    }
    let reader: BetterSqlite3.Database | undefined;
    try {
      if (options.readonly) {
        sqlite.pragma('query_only = ON');
        sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      } else {
        applyPragmas(sqlite);
        await runMigrations(new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) }), sqliteSchemaNeeds);
        analyseStockUnitsIfGrown(sqlite);
        // Only WAL lets a second connection read while the first writes; `:memory:` and '' are private to one connection.
        if (sqlite.pragma('journal_mode', { simple: true }) === 'wal' && !sqlite.memory) {
          reader = new BetterSqlite3(file, { fileMustExist: true });
          applyReaderPragmas(reader);
        }
      }
      return new SqliteEngine(file, sqlite, reader);
    } catch (error) {
      reader?.close();
      sqlite.close();
      throw translateSqliteError(error);
    }
  }

  /** The reading connection (the writing one on `:memory:`), for tests' look at its settings. */
  get readingSqlite(): BetterSqlite3.Database {
    return this.reader.sqlite;
  }

  // --- Engine

  read<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    refuseNesting();
    if (this.reader !== this.writer && (this.groups.busy || this.serial.busy))
      return this.readSerial.run(() => this.inTransaction(this.reader, 'beginRead', work));
    return this.serial.run(() => this.inTransaction(this.writer, 'beginRead', work));
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
      return this.serial.run(() => withBulkWriteSettings(this.sqlite, () => this.inTransaction(this.writer, 'beginWrite', writing)));
    return this.groups.add(writing);
  }

  /** The connection's write transaction, as group commit drives it (group-commit.ts). */
  private groupTransaction(): GroupTransaction {
    const { writer } = this;
    const { control } = writer;
    const share = new TransactionShare();
    const slices = new LoopSlices();
    // The writer's own queries, with what the group's writes share. SQLite's statements never wait,
    // so a long write lets the loop turn between them: the reads asked for meanwhile are answered
    // on the reader (read()), from the last commit.
    const sliced =
      <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> =>
        slices.due() ? slices.turn().then(() => method.apply(writer, args)) : method.apply(writer, args);
    const queries: Queries = {
      k: this.k,
      all: sliced(writer.all) as Queries['all'],
      first: sliced(writer.first) as Queries['first'],
      run: sliced(writer.run) as Queries['run'],
      group: share,
    };
    return {
      begin: async () => void control.beginWrite.run(),
      savepoint: async () => void control.savepoint.run(),
      release: async () => void control.release.run(),
      undoWrite: async () => {
        // Under a storage fault SQLite has rolled the whole transaction back already.
        if (!writer.inTransaction()) return false;
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
          if (writer.inTransaction()) control.rollback.run();
        } catch {
          // Rolled back already, or the connection is gone: nothing is left to end.
        }
      },
      run: (work) => insideTransaction.run(true, () => work(queries)),
      translate: translateSqliteError,
      mayRetry: () => writer.sqlite.open,
      slices,
    };
  }

  private inTransaction<T>(connection: SqliteConnection, begin: 'beginRead' | 'beginWrite', work: (q: Queries) => Promise<T>): Promise<T> {
    return connection.transaction(connection.control[begin], (q) => insideTransaction.run(true, () => work(q)));
  }

  async kept<T>(key: string, compute: (q: Queries) => Promise<T>): Promise<T> {
    refuseNesting();
    // The value is read on either connection. The reader's data_version moves on every commit of
    // the writer and of other processes; the writer's total_changes on its own changes, even before
    // they commit (on `:memory:` the two are the writer's own marks, as before).
    const marks = { dataVersion: this.reader.dataVersion(), totalChanges: this.writer.totalChanges() };
    if (
      marks.dataVersion !== this.keptAt.dataVersion ||
      marks.totalChanges !== this.keptAt.totalChanges ||
      this.keptValues.size >= KEPT_LIMIT
    ) {
      this.keptValues.clear();
      this.keptAt = marks;
    }
    const kept = this.keptValues.get(key) as T | undefined;
    if (kept !== undefined) return kept;
    const value = await this.read((q) => compute(oneStatement(q)));
    // Kept only if nothing changed meanwhile: the value belongs to the marks it was computed under.
    if (value !== undefined && this.keptAt.dataVersion === marks.dataVersion && this.keptAt.totalChanges === marks.totalChanges)
      this.keptValues.set(key, value);
    return value;
  }

  async scratchKeys(q: Queries): Promise<ScratchKeys> {
    void q; // the scratch table lives on the writing connection, inside the caller's transaction
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
    // Writes already asked for still commit, reads already asked for still answer, then the connections close.
    return (this.closing ??= this.groups.drained().then(() =>
      Promise.all([this.serial.run(async () => undefined), this.readSerial.run(async () => undefined)]).then(() => {
        this.keptValues.clear();
        this.reader.close();
        this.writer.close();
      }),
    ));
  }
}
