// Looks into a test's database the way another process would: its own connection, plain SQL with `?`
// placeholders. For checking what the server stored (rows, counts, hashes) without going through the
// API, and for putting the database into a state a test needs (an expired key, a closed handle).
import BetterSqlite3 from 'better-sqlite3';

export interface DatabaseProbe {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  first<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement; answers how many rows it changed. */
  run(sql: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export function probeDatabase(location: string): DatabaseProbe {
  let sqlite: BetterSqlite3.Database | undefined;
  const open = () => {
    if (!sqlite) {
      sqlite = new BetterSqlite3(location);
      sqlite.pragma('busy_timeout = 5000');
    }
    return sqlite;
  };
  return {
    all: async <T>(sql: string, ...params: unknown[]) => open().prepare(sql).all(...params) as T[],
    first: async <T>(sql: string, ...params: unknown[]) => open().prepare(sql).get(...params) as T | undefined,
    run: async (sql: string, ...params: unknown[]) => open().prepare(sql).run(...params).changes,
    close: async () => {
      sqlite?.close();
      sqlite = undefined;
    },
  };
}
