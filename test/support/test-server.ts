// Starts the real server on an ephemeral port over a fresh database (a SQLite file, or a database of
// its own on the test cluster when the tests run on PostgreSQL: test/support/test-engine.ts), loaded with a catalogue and
// one token per account. Every HTTP test goes through this, so tests exercise the real stack.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { StoreClock } from '../../server/store/movements/movement-log.ts';
import type { Store } from '../../server/store/store.ts';
import type { TokenRole } from '../../shared/index.ts';
import { type DatabaseProbe, probeDatabase } from './database-probe.ts';
import { dropDatabase, newDatabase } from './test-engine.ts';

export const exampleCatalogueFile = path.resolve(import.meta.dirname, '../../examples/catalogue.json');
export const exampleCatalogue = (): unknown => JSON.parse(readFileSync(exampleCatalogueFile, 'utf8'));

export interface TestServer extends RunningServer {
  /** The database: a SQLite file, or a postgres:// URL when the tests run on PostgreSQL. Every
   * command takes either as --db/--database, and openStore and probeDatabase open either. */
  dbFile: string;
  /** The database as another process sees it (test/support/database-probe.ts). */
  probe: DatabaseProbe;
  /** One token per account name of the catalogue, of role manager (what the scanner UI signs in as). */
  tokens: Record<string, string>;
  /** A new token of `account` with `role` (a sync link's, a till's …), for scenarios a manager's token does not fit. */
  newToken(account: string, role: TokenRole): Promise<string>;
  request(
    method: string,
    urlPath: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

/** A temporary directory removed by the returned cleanup. */
export function tempDir(prefix = 'bi-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The role of the tokens the test servers make per account: a manager may call every endpoint but sync's upstream side. */
export const TEST_TOKEN_ROLE: TokenRole = 'manager';

/** Loads a catalogue into a store and creates one token per account (of TEST_TOKEN_ROLE). */
export async function seedStore(store: Store, catalogue: unknown): Promise<Record<string, string>> {
  const parsed = await parseCatalogue(catalogue);
  await store.catalogue.write(parsed);
  const tokens: Record<string, string> = {};
  for (const account of parsed.accounts) tokens[account.name] = (await store.tokens.create(account.name, 'test', TEST_TOKEN_ROLE)).key;
  return tokens;
}

/** Loads a catalogue and creates one token per account in the database file. */
export async function seedDatabase(dbFile: string, catalogue: unknown): Promise<Record<string, string>> {
  const store = await openStore(dbFile);
  try {
    return await seedStore(store, catalogue);
  } finally {
    await store.close();
  }
}

export async function startTestServer(
  catalogue: unknown = exampleCatalogue(),
  { clock, ...options }: { uiDir?: string; logger?: Logger; clock?: StoreClock } = {},
): Promise<TestServer> {
  const { dir, remove } = tempDir();
  const dbFile = await newDatabase(dir);
  const store = await openStore(dbFile, clock ? { clock } : {});
  const tokens = await seedStore(store, catalogue);
  const running = await startServer({ store, port: 0, ...options });
  const request: TestServer['request'] = (method, urlPath, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Token ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(running.url + urlPath, { method, headers, body });
  };
  const probe = probeDatabase(dbFile);
  return {
    ...running,
    dbFile,
    probe,
    tokens,
    newToken: async (account, role) => (await store.tokens.create(account, `test ${role}`, role)).key,
    request,
    stop: async () => {
      await probe.close();
      await running.close();
      await dropDatabase(dbFile);
      remove();
    },
  };
}
