// The PostgreSQL engine (docs/DEPLOY.md): a pool of connections, each transaction on one of them.
// Reads run in a REPEATABLE READ READ ONLY transaction (one snapshot for all their queries) and run
// side by side. Writes run in READ COMMITTED and first take one transaction-level advisory lock, so
// that writes — from every server process on the database — happen one at a time, exactly as
// SQLite's single writer: every guarantee the store's operations rely on (adjustments and guarded
// sets made on the quantity the transaction read, Idempotency-Keys, stocktake increments, movement
// sequences without gaps, the instance clock) holds across processes without retries. A connection
// lost mid-transaction answers 503 and the write is not applied.
// Group commit (group-commit.ts): the lock makes writes one at a time, so PostgreSQL never gets to
// share one WAL flush between two commits; writes a process is asked for in the same turn of the
// event loop therefore share one transaction on one connection, each in its own savepoint, and one
// COMMIT. A lost connection fails the write it was running; the others run again on another.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import pg from 'pg';
import { storageUnavailable } from '../../errors.ts';
import { NO_ACCOUNT, actingAccount } from '../acting-account.ts';
import { FairConnections } from './fair-connections.ts';
import { StatementCompiler, positionalValues } from '../compiled-statements.ts';
import {
  BULK_CHUNK_LENGTH,
  oneStatement,
  type Changed,
  type Engine,
  type EngineIntegrity,
  type Params,
  type Queries,
  type ScratchKeys,
  type StatementDef,
  type WriteOptions,
} from '../engine.ts';
import { runMigrations } from '../migrations/registry.ts';
import type { Schema } from '../schema.ts';
import { PostgresScratchKeys } from './scratch-keys.ts';
import { displayLocation } from './display-location.ts';
import { postgresSchemaNeeds } from './schema-needs.ts';
import { type CommitCounts, type GroupTransaction, LoopSlices, TransactionShare, WriteGroups, commitGroup } from '../group-commit.ts';
import { heardOncePerRequest } from '../request-moment.ts';

/** Every write takes this advisory lock first ("biv1"): one writer at a time on the database. */
const WRITE_LOCK = 0x62697631;
const LOCK_STATEMENT = `SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;
const BEGIN_WRITE = `BEGIN ISOLATION LEVEL READ COMMITTED; ${LOCK_STATEMENT}`;
const SAVEPOINT = 'SAVEPOINT one_write';
const RELEASE = 'RELEASE SAVEPOINT one_write';
/** The listener's application_name (pg_stat_activity). */
export const LISTENER_NAME = 'barcode-inventory listener';

/** Committed writes announce themselves here, so every process drops what it keeps (engine.kept). */
const CHANGES_CHANNEL = 'barcode_inventory_changes';
const KEPT_LIMIT = 10_000;
export const DEFAULT_POOL_SIZE = 10;
/** How long a request waits for a connection before the database counts as unavailable (a 503). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long a request waits for the listener's round trip before it reads the database instead (heardSoFar). */
const LISTENER_TIMEOUT_MS = 2_000;
/** The least time between two attempts to listen again after the listener was lost. */
const LISTEN_AGAIN_MS = 5_000;

// count(*) and sums come back as bigint, which pg gives as text: every such figure here fits a
// JavaScript number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const insideTransaction = new AsyncLocalStorage<true>();

function refuseNesting(): void {
  if (insideTransaction.getStore())
    throw new Error('A store transaction was opened inside another: pass the Queries of the outer one instead.');
}

/** Errors that mean "the database cannot be used right now": the connection, the server, disk or resources. */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // 08: connection exception; 53: insufficient resources; 57P: operator intervention (shutdown); 58: system error.
    if (/^(08|53|57P|58)/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
  }
  const message = (error as Error)?.message ?? '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message);
}

function translate(error: unknown): unknown {
  return isUnavailable(error) ? storageUnavailable(error) : error;
}

/** A query builder that compiles PostgreSQL's SQL and never executes anything itself. */
function postgresBuilder(): Kysely<Schema> {
  return new Kysely<Schema>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/**
 * PostgreSQL text cannot hold U+0000 (NUL): a parameter containing it fails the whole statement
 * ("invalid byte sequence for encoding UTF8: 0x00", code 22021), where SQLite simply finds no stored
 * text equal to it. So a SELECT compares such a parameter as NULL, which equals nothing either, the
 * way SQLite answers a lookup of a name no row has (a warehouse_name with a NUL in an update row:
 * "No warehouses found with name", not a 500). Writes are left alone: storing such text fails.
 */
function withoutNulInLookups(sql: string, values: unknown[]): unknown[] {
  if (!values.some((v) => typeof v === 'string' && v.includes('\u0000'))) return values;
  if (!/^\s*select\b/i.test(sql)) return values;
  return values.map((v) => (typeof v === 'string' && v.includes('\u0000') ? null : v));
}

/** Queries on one pooled connection, inside one transaction. */
class ClientQueries implements Queries {
  readonly k: Kysely<Schema>;
  private readonly client: pg.PoolClient;
  private readonly compiler: StatementCompiler;
  private readonly names: Map<string, string>;

  /**
   * A bulk write's reads are planned with their values, each time (an unnamed statement): its
   * tables grow from nothing while it runs, and a named statement's generic plan, made while they
   * were empty, scanned every barcode of the account for each chunk of an import (31 ms a lookup
   * at 30k barcodes and rising: 100k took 378 s). Its writes keep their prepared plans: planning a
   * 64-row INSERT each time doubled its cost.
   */
  private readonly planReadsEachTime: boolean;
  /**
   * A bulk write's statistics, taken inside it as it grows (after 256 writes, 1,024, 4,096, …: a few
   * ANALYZEs however large; ANALYZE counts the rows this transaction inserted): without them the
   * planner took a table it had never analysed for a small one, and looked a chunk's 64 barcodes up
   * by scanning every unit of the account (11 ms a lookup at 80k barcodes, and rising).
   */
  private writes = 0;
  private analyzeAt = 256;
  /** A bulk write's multi-row statements are longer: here each one is a round trip (engine.ts, BULK_CHUNK_LENGTH). */
  readonly rowsPerStatement: number | undefined;
  readonly group: TransactionShare | undefined;

  constructor(
    client: pg.PoolClient,
    k: Kysely<Schema>,
    compiler: StatementCompiler,
    names: Map<string, string>,
    { bulk = false, group }: { bulk?: boolean; group?: TransactionShare } = {},
  ) {
    this.client = client;
    this.k = k;
    this.compiler = compiler;
    this.names = names;
    this.planReadsEachTime = bulk;
    this.rowsPerStatement = bulk ? BULK_CHUNK_LENGTH : undefined;
    this.group = group;
  }

  private async execute(target: Compilable<unknown> | StatementDef<unknown, Params>, params: Params | undefined): Promise<pg.QueryResult> {
    if ('build' in target) {
      const compiled = this.compiler.compile(target, params ?? {});
      const values = withoutNulInLookups(compiled.sql, positionalValues(compiled, params ?? {}));
      if (this.planReadsEachTime && /^\s*select\b/i.test(compiled.sql)) return this.client.query(compiled.sql, values);
      // A named statement is prepared once per connection by pg and reused from then on.
      let name = this.names.get(compiled.sql);
      if (!name) this.names.set(compiled.sql, (name = `s${this.names.size + 1}`));
      return this.client.query({ name, text: compiled.sql, values });
    }
    const { sql, parameters } = target.compile();
    return this.client.query(sql, withoutNulInLookups(sql, parameters as unknown[]));
  }

  async all<R>(target: Compilable<R> | StatementDef<R, Params>, params?: Params): Promise<R[]> {
    return (await this.execute(target, params)).rows as R[];
  }

  async first<R>(target: Compilable<R> | StatementDef<R, Params>, params?: Params): Promise<R | undefined> {
    return (await this.execute(target, params)).rows[0] as R | undefined;
  }

  async run(target: Compilable<unknown> | StatementDef<unknown, Params>, params?: Params): Promise<Changed> {
    const changes = (await this.execute(target, params)).rowCount ?? 0;
    if (this.planReadsEachTime && ++this.writes >= this.analyzeAt) {
      this.analyzeAt *= 4;
      await this.client.query('ANALYZE');
    }
    return { changes };
  }
}

export interface PostgresOpenOptions {
  /** Connections per server process (docs/DEPLOY.md, "Pool size"). */
  poolSize?: number;
  /** How long a kept look-up waits for the listener before it reads the database instead (2 s). */
  listenerTimeoutMs?: number;
}

export class PostgresEngine implements Engine {
  readonly kind = 'postgres';
  readonly location: string;
  readonly k = postgresBuilder();
  private readonly pool: pg.Pool;
  /** The pool's connections, shared out by account (fair-connections.ts). */
  private readonly fair: FairConnections;
  private readonly compiler = new StatementCompiler(this.k);
  /** Statement names per SQL text: the same name on every connection, prepared there on first use. */
  private readonly names = new Map<string, string>();
  private readonly keptValues = new Map<string, unknown>();
  /** Moves with every committed write of any process (LISTEN); what is kept belongs to one generation. */
  private generation = 0;
  private listener: pg.Client | undefined;
  private listening = false;
  /** When the listener was last opened (or tried): lost, it is opened again at most every LISTEN_AGAIN_MS. */
  private listenedAt = 0;
  private readonly listenerTimeoutMs: number;
  private closing: Promise<void> | undefined;
  private readonly url: string;
  /** Durable write commits so far, and the writes they carried (for tests and the bench's report). */
  readonly commits: CommitCounts = { groups: 0, writes: 0 };
  /** Writes asked for together; this process's groups run one after the other, each on one connection. */
  private readonly groups = new WriteGroups((group) => commitGroup(() => this.groupTransaction(), group, this.commits));

  private constructor(url: string, pool: pg.Pool, poolSize: number, listenerTimeoutMs: number) {
    this.url = url;
    this.listenerTimeoutMs = listenerTimeoutMs;
    this.location = displayLocation(url);
    this.pool = pool;
    this.fair = new FairConnections(poolSize, CONNECT_TIMEOUT_MS);
  }

  static async open(url: string, options: PostgresOpenOptions = {}): Promise<PostgresEngine> {
    const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
    const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // An idle connection that breaks (the server restarted) must not take the process down; nor one
    // that breaks while the pool is closing it, when pg-pool has already taken its own listener off
    // (the server ends it: a restart, a DROP DATABASE … WITH (FORCE)). A query in flight still fails
    // with the error, through its own promise.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    try {
      await runMigrations(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), postgresSchemaNeeds);
    } catch (error) {
      await pool.end();
      throw translate(error);
    }
    const engine = new PostgresEngine(url, pool, poolSize, options.listenerTimeoutMs ?? LISTENER_TIMEOUT_MS);
    await engine.listen();
    return engine;
  }

  /** Listens for other processes' commits; while not listening, nothing is kept. */
  private async listen(): Promise<void> {
    this.listenedAt = performance.now();
    // Named, so that pg_stat_activity tells it from the pool's connections (and a test can find it).
    // Kept alive by TCP, so that a connection a firewall dropped while idle is noticed.
    const client = new pg.Client({ connectionString: this.url, application_name: LISTENER_NAME, keepAlive: true });
    client.on('notification', () => {
      this.generation++;
    });
    client.on('error', () => this.lose(client));
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (this.closing) throw new Error('closing');
      this.listener = client;
      this.listening = true;
    } catch {
      await client.end().catch(() => undefined);
    }
  }

  /** The listener is gone or stuck: nothing is kept until one listens again (listenAgain). */
  private lose(client: pg.Client): void {
    this.generation++;
    if (this.listener !== client) return;
    this.listener = undefined;
    this.listening = false;
    void client.end().catch(() => undefined);
  }

  /** Opens the listener again after it was lost, at most every LISTEN_AGAIN_MS (a database that is down is not asked on every request). */
  private listenAgain(): void {
    if (this.closing || this.listener !== undefined || performance.now() - this.listenedAt < LISTEN_AGAIN_MS) return;
    void this.listen();
  }

  /**
   * A pooled connection, asked for in the line of `accountId` (fair-connections.ts); a failure to get
   * one is said as the store's (a 503 when the server is down). Its `release` gives the turn on.
   */
  private async connection(accountId = actingAccount()): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      await this.fair.acquire(accountId);
    } catch (error) {
      throw translate(error);
    }
    try {
      client = await this.pool.connect();
    } catch (error) {
      this.fair.release();
      throw translate(error);
    }
    const giveBack = client.release;
    client.release = (error) => {
      giveBack.call(client, error); // throws on a second release, before the turn is given on twice
      this.fair.release();
    };
    return client;
  }

  private async transaction<T>(mode: 'read' | 'write', work: (q: Queries) => Promise<T>, bulk = false): Promise<T> {
    refuseNesting();
    const client = await this.connection();
    let broken = false;
    try {
      // A write's BEGIN and lock, and its NOTIFY and COMMIT, go in one round trip each (statements
      // without parameters, in one message): the lock is held from the first to the last.
      await client.query(mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : BEGIN_WRITE);
      const result = await insideTransaction.run(true, () => work(new ClientQueries(client, this.k, this.compiler, this.names, { bulk })));
      await client.query(mode === 'write' ? `NOTIFY ${CHANGES_CHANNEL}; COMMIT` : 'COMMIT');
      if (mode === 'write') this.generation++;
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw translate(error);
    } finally {
      client.release(broken || undefined);
    }
  }

  read<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return this.transaction('read', work);
  }

  async write<T>(work: (q: Queries) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    refuseNesting();
    if (!options.bulk) return this.groups.add(work);
    // A bulk write (a catalogue import) is large enough on its own; it keeps its transaction to itself.
    const result = await this.transaction('write', work, true);
    // After it the planner's statistics are refreshed at once: until autovacuum's ANALYZE runs (up
    // to a minute later), a 50-barcode read of a freshly imported account scans all its barcodes
    // (22 ms instead of 0.6 ms on 10k, bench/NOTES-postgres.md).
    await this.analyze();
    return result;
  }

  /**
   * A write transaction on a connection of its own, as group commit drives it (group-commit.ts).
   * Round trips are saved where statements need no answer in between: BEGIN, the lock and the first
   * savepoint go in one message, a write's release with the next one's savepoint, and the last
   * release with NOTIFY and COMMIT; a group of one write costs what a lone transaction did.
   */
  private async groupTransaction(): Promise<GroupTransaction> {
    // A group carries writes of several accounts: it waits in a line of its own.
    const client = await this.connection(NO_ACCOUNT);
    let marked = false; // a savepoint was just set with BEGIN
    let releasePending = false; // the last write succeeded; its savepoint is released with the next message
    let ended = false;
    const end = (broken: boolean) => {
      if (ended) return;
      ended = true;
      client.release(broken || undefined);
    };
    const withRelease = (text: string) => {
      const message = releasePending ? `${RELEASE}; ${text}` : text;
      releasePending = false;
      return message;
    };
    const share = new TransactionShare();
    const queries = new ClientQueries(client, this.k, this.compiler, this.names, { group: share });
    return {
      begin: async () => {
        await client.query(`${BEGIN_WRITE}; ${SAVEPOINT}`);
        marked = true;
      },
      savepoint: async () => {
        if (marked) marked = false;
        else await client.query(withRelease(SAVEPOINT));
      },
      release: async () => {
        releasePending = true;
      },
      undoWrite: async () => {
        try {
          await client.query('ROLLBACK TO SAVEPOINT one_write');
          releasePending = true;
          return true;
        } catch {
          return false; // the connection is gone, and the transaction with it
        }
      },
      commit: async () => {
        await insideTransaction.run(true, () => share.finish(queries));
        await client.query(withRelease(`NOTIFY ${CHANGES_CHANNEL}; COMMIT`));
        this.generation++;
        end(false);
      },
      abandon: async () => {
        if (ended) return;
        let broken = false;
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        end(broken);
      },
      run: (work) => insideTransaction.run(true, () => work(queries)),
      translate,
      mayRetry: () => this.closing === undefined,
      slices: new LoopSlices(),
    };
  }

  private async analyze(): Promise<void> {
    // Through `connection`, as every other statement: a connection taken from the pool behind its
    // back would leave the account lines counting one more free than there is.
    const client = await this.connection(NO_ACCOUNT);
    try {
      await client.query('ANALYZE');
    } catch (error) {
      throw translate(error);
    } finally {
      client.release();
    }
  }

  /** One statement, outside any transaction (engine.ts, kept): it sees one committed state on its own. */
  private async readOneStatement<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    refuseNesting();
    const client = await this.connection();
    let failed = false;
    try {
      return await insideTransaction.run(true, () => work(oneStatement(new ClientQueries(client, this.k, this.compiler, this.names))));
    } catch (error) {
      failed = true;
      throw translate(error);
    } finally {
      // After a failure the connection may be gone or mid-way: a new one is cheaper than finding out.
      client.release(failed || undefined);
    }
  }

  async kept<T>(key: string, compute: (q: Queries) => Promise<T>): Promise<T> {
    refuseNesting();
    if (!this.listening) {
      this.listenAgain();
      return this.readOneStatement(compute);
    }
    // Only a value that is kept waits for the listener: one read now is fresh without it (what it
    // keeps is dropped when a commit from before it is heard later, as any kept value is).
    if (this.keeps(key) && !(await heardOncePerRequest(() => this.heardSoFar()))) return this.readOneStatement(compute);
    if (this.keptGeneration !== this.generation || this.keptValues.size >= KEPT_LIMIT) {
      this.keptValues.clear();
      this.keptGeneration = this.generation;
    }
    const kept = this.keptValues.get(key) as T | undefined;
    if (kept !== undefined) return kept;
    const generation = this.generation;
    const value = await this.readOneStatement(compute);
    // Kept only if no commit was announced meanwhile: the value belongs to the generation it was read in.
    if (value !== undefined && this.generation === generation && this.keptGeneration === generation) this.keptValues.set(key, value);
    return value;
  }

  /** The generation the kept values belong to. */
  private keptGeneration = -1;

  /** Whether a value is kept under `key` for the generation heard so far. */
  private keeps(key: string): boolean {
    return this.keptGeneration === this.generation && this.keptValues.has(key);
  }

  /** A round trip on the listener not sent yet: whoever asks before it is sent may share it. */
  private pingQueued: Promise<boolean> | undefined;
  private pingInFlight: Promise<unknown> = Promise.resolve();

  /**
   * Resolves once every commit that ended before this call has been heard (true), or the listener
   * failed (false: keep nothing). Another process's NOTIFY reaches the listener whenever it reaches
   * it: a read sent right after the CLI revoked a token came first (1 of 50 tries on an idle host,
   * and in a CI run under load) and was answered from what was kept. PostgreSQL signals the
   * listening backends before the COMMIT returns, and a backend sends what it was signalled before
   * the ReadyForQuery of the next query on its connection: a round trip on the listener sent after
   * this call is a barrier. Callers that ask while one waits to be sent share it, so a burst costs
   * one or two round trips, not one each. A round trip that takes longer than listenerTimeoutMs (a
   * stopped backend, a connection a firewall dropped) answers false, and the listener is lost and
   * opened again: requests read the database.
   */
  private heardSoFar(): Promise<boolean> {
    this.pingQueued ??= this.pingInFlight.then(() => {
      this.pingQueued = undefined;
      const listener = this.listener;
      const sent =
        listener === undefined
          ? Promise.resolve(false)
          : new Promise<boolean>((resolve) => {
              const late = setTimeout(() => {
                resolve(false);
                this.lose(listener);
              }, this.listenerTimeoutMs);
              listener
                .query('SELECT 1')
                .then(
                  () => resolve(this.listener === listener),
                  () => resolve(false),
                )
                .finally(() => clearTimeout(late));
            });
      this.pingInFlight = sent;
      return sent;
    });
    return this.pingQueued;
  }

  async scratchKeys(q: Queries): Promise<ScratchKeys> {
    return PostgresScratchKeys.create(q);
  }

  async checkIntegrity(): Promise<EngineIntegrity> {
    // PostgreSQL enforces foreign keys and checks its own pages (data checksums; amcheck for the
    // operator): what is left to check here is that the database answers and the schema is whole.
    const client = await this.connection();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()',
      );
      const missing = ['accounts', 'stock', 'stock_history', 'stock_units', 'instance'].filter(
        (t) => !rows.some((r) => r.table_name === t),
      );
      return { integrity: missing.length === 0 ? ['ok'] : missing.map((t) => `table ${t} is missing`), foreignKeyProblems: 0 };
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.groups.drained(); // writes already asked for still commit
      this.listening = false;
      await this.listener?.end().catch(() => undefined);
      await this.pool.end();
      this.keptValues.clear();
    })());
  }
}
