// Looks into a test's database the way another process would: its own connection, plain SQL with `?`
// placeholders. For checking what the server stored (rows, counts, hashes) without going through the
// API, and for putting the database into a state a test needs (an expired key, a closed handle).
// Works on both engines: on PostgreSQL the `?` placeholders become $1, $2, … (outside quotes).
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { type EngineKind, providerFor } from '../../server/store/engines.ts';

export interface DatabaseProbe {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  first<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement; answers how many rows it changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

/** SQLite's `?` placeholders as PostgreSQL's numbered ones; quoted text and identifiers are left alone. */
export function numberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | undefined;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      out += `$${++n}`;
      continue;
    }
    out += char;
  }
  return out;
}

// count(*) and sums come back as bigint, which pg gives as text; the engine reads them as numbers too.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

function probePostgres(url: string): DatabaseProbe {
  let pool: pg.Pool | undefined;
  const query = (sql: string, params: unknown[]) => {
    if (!pool) {
      pool = new pg.Pool({ connectionString: url, max: 1 });
      // The database is dropped under the probe at the end of a test: a connection it ends then is no failure.
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
    }
    return pool.query(numberedPlaceholders(sql), params);
  };
  return {
    all: async <T>(sql: string, ...params: unknown[]) => (await query(sql, params)).rows as T[],
    first: async <T>(sql: string, ...params: unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, ...params: unknown[]) => (await query(sql, params)).rowCount ?? 0,
    close: async () => {
      const closing = pool;
      pool = undefined;
      await closing?.end();
    },
  };
}

function probeSqlite(location: string): DatabaseProbe {
  let sqlite: BetterSqlite3.Database | undefined;
  const open = () => {
    if (!sqlite) {
      sqlite = new BetterSqlite3(location);
      sqlite.pragma('busy_timeout = 5000');
    }
    return sqlite;
  };
  return {
    all: async <T>(sql: string, ...params: unknown[]) =>
      open()
        .prepare(sql)
        .all(...params) as T[],
    first: async <T>(sql: string, ...params: unknown[]) =>
      open()
        .prepare(sql)
        .get(...params) as T | undefined,
    run: async (sql: string, ...params: unknown[]) =>
      open()
        .prepare(sql)
        .run(...params).changes,
    close: async () => {
      sqlite?.close();
      sqlite = undefined;
    },
  };
}

/** A probe per engine: a further engine needs one here too. */
const probes: Record<EngineKind, (location: string) => DatabaseProbe> = { sqlite: probeSqlite, postgres: probePostgres };

export function probeDatabase(location: string): DatabaseProbe {
  return probes[providerFor(location).kind](location);
}

/** A history row's source name in raw SQL: the row holds its id (migration 0037_lean_history_rows). */
export function sourceNameOf(alias: string): string {
  return `(SELECT ms.name FROM movement_sources ms WHERE ms.id = ${alias}.source_id)`;
}
