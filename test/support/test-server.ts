// Starts the real server on an ephemeral port over a fresh SQLite file, loaded with a catalogue and
// one token per account. Every HTTP test goes through this, so tests exercise the real stack.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importCatalogue, parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { Database } from '../../server/store/database.ts';
import { createToken } from '../../server/store/tokens.ts';

export const exampleCatalogueFile = path.resolve(import.meta.dirname, '../../examples/catalogue.json');
export const exampleCatalogue = (): unknown => JSON.parse(readFileSync(exampleCatalogueFile, 'utf8'));

export interface TestServer extends RunningServer {
  dbFile: string;
  /** One token per account name of the catalogue. */
  tokens: Record<string, string>;
  request(method: string, urlPath: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

/** A temporary directory removed by the returned cleanup. */
export function tempDir(prefix = 'bi-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Loads a catalogue and creates one token per account in the database file. */
export async function seedDatabase(dbFile: string, catalogue: unknown): Promise<Record<string, string>> {
  const db = await Database.open(dbFile);
  try {
    const parsed = parseCatalogue(catalogue);
    importCatalogue(db, parsed);
    return Object.fromEntries(parsed.accounts.map((a) => [a.name, createToken(db, a.name, 'test').key]));
  } finally {
    db.close();
  }
}

export async function startTestServer(catalogue: unknown = exampleCatalogue(), options: { uiDir?: string } = {}): Promise<TestServer> {
  const { dir, remove } = tempDir();
  const dbFile = path.join(dir, 'inventory.db');
  const tokens = await seedDatabase(dbFile, catalogue);
  const running = await startServer({ dbFile, port: 0, ...options });
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
  return {
    ...running,
    dbFile,
    tokens,
    request,
    stop: async () => {
      await running.close();
      remove();
    },
  };
}
