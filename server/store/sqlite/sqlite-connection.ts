// One better-sqlite3 connection of the SQLite engine, with its prepared statements: the store's
// `Queries` on it, and its transactions. The engine has one for writes and, on a file in WAL mode,
// one more for reads (sqlite-engine.ts); a prepared statement belongs to the connection it was
// prepared on, so each keeps its own.
import type BetterSqlite3 from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import { type StatementCompiler, positionalValues } from '../compiled-statements.ts';
import type { Changed, Params, Queries, StatementDef } from '../engine.ts';
import type { Schema } from '../schema.ts';
import { translateSqliteError } from './faults.ts';

const STATEMENT_CACHE_LIMIT = 1000;

type Control = 'beginWrite' | 'beginRead' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackToSavepoint';

export class SqliteConnection implements Queries {
  readonly k: Kysely<Schema>;
  readonly sqlite: BetterSqlite3.Database;
  readonly control: Record<Control, BetterSqlite3.Statement>;
  private readonly compiler: StatementCompiler;
  private readonly bySql = new Map<string, BetterSqlite3.Statement>();
  private readonly prepared = new Map<object, BetterSqlite3.Statement>();
  private readonly marks: { dataVersion: BetterSqlite3.Statement; totalChanges: BetterSqlite3.Statement };

  constructor(sqlite: BetterSqlite3.Database, k: Kysely<Schema>, compiler: StatementCompiler) {
    this.sqlite = sqlite;
    this.k = k;
    this.compiler = compiler;
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

  /** Moves whenever another connection (of this process or another) has committed since the last call. */
  dataVersion(): number {
    return this.marks.dataVersion.get() as number;
  }

  /** Moves with every row this connection changes, committed or not. */
  totalChanges(): number {
    return this.marks.totalChanges.get() as number;
  }

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

  /** Whether a transaction is open on the connection (false once it is closed). */
  inTransaction(): boolean {
    return this.sqlite.open && this.sqlite.inTransaction;
  }

  /** `work` in a transaction begun with `begin`: committed when it returns, rolled back when it throws. */
  async transaction<T>(begin: BetterSqlite3.Statement, work: (q: Queries) => Promise<T>): Promise<T> {
    try {
      begin.run();
      const result = await work(this);
      this.control.commit.run();
      return result;
    } catch (error) {
      if (this.inTransaction()) this.control.rollback.run();
      throw translateSqliteError(error);
    }
  }

  close(): void {
    this.bySql.clear();
    this.prepared.clear();
    if (this.sqlite.open) this.sqlite.close();
  }
}
