// What the server keeps between requests (db.kept: the caller's token, the account's warehouses)
// must never outlive a change: not one made by another process (the CLI), not one made here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, WAREHOUSES_PATH } from '../shared/index.ts';
import { importCatalogue, parseCatalogue } from '../server/catalogue/import-catalogue.ts';
import { Database } from '../server/store/database.ts';
import { createToken, revokeToken } from '../server/store/tokens.ts';
import { type TestServer, exampleCatalogue, startTestServer } from './support/test-server.ts';

describe('lookups kept between requests', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.stop());

  const tokenIdOf = (db: Database, key: string) =>
    (db.sqlite.prepare('SELECT id FROM api_tokens WHERE key_prefix = ?').get(key.slice(0, 9)) as { id: number }).id;

  it('refuses a token at once when another connection (the CLI) revokes it', async () => {
    const read = () => server.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token: server.tokens.kiosk });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    const cli = await Database.open(server.dbFile);
    try {
      expect(revokeToken(cli, tokenIdOf(cli, server.tokens.kiosk!))).toBe(true);
    } finally {
      cli.close();
    }
    expect((await read()).status).toBe(401);
  });

  it('refuses a token at once when this process revokes it, and accepts a new one', async () => {
    const read = (token: string) => server.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token });
    expect((await read(server.tokens.kiosk!)).status).toBe(200);
    revokeToken(server.db, tokenIdOf(server.db, server.tokens.kiosk!));
    expect((await read(server.tokens.kiosk!)).status).toBe(401);
    const fresh = createToken(server.db, 'kiosk', 'new').key;
    expect((await read(fresh)).status).toBe(200);
  });

  it('answers with warehouses added by an import from another process', async () => {
    const token = server.tokens.north!;
    const before = await server.request('GET', WAREHOUSES_PATH, { token });
    expect(await before.json()).toEqual([{ id: 10, name: 'Main' }, { id: 11, name: 'Backroom' }]);
    const catalogue = exampleCatalogue() as { accounts: { warehouses?: { id: number; name: string }[]; items: unknown[] }[] };
    catalogue.accounts[0]!.warehouses!.push({ id: 12, name: 'Attic' });
    // A barcode without stock answers one zero record per warehouse: the list it uses must be fresh too.
    catalogue.accounts[0]!.items.push({ id: 102, name: 'Cap', barcode: 'CAP' });
    const cli = await Database.open(server.dbFile);
    try {
      importCatalogue(cli, parseCatalogue(catalogue));
    } finally {
      cli.close();
    }
    expect(await (await server.request('GET', WAREHOUSES_PATH, { token })).json()).toEqual([
      { id: 10, name: 'Main' },
      { id: 11, name: 'Backroom' },
      { id: 12, name: 'Attic' },
    ]);
    const read = await (await server.request('GET', `${INVENTORY_PATH}?barcodes=CAP`, { token })).json();
    expect(read.results.map((r: { warehouse_name: string }) => r.warehouse_name)).toEqual(['Main', 'Backroom', 'Attic']);
  });
});

describe('Database.kept', () => {
  it('recomputes after a change through this connection or another, and never keeps undefined', async () => {
    const { tempDir } = await import('./support/test-server.ts');
    const { dir, remove } = tempDir();
    const file = `${dir}/kept.db`;
    const db = await Database.open(file);
    const other = await Database.open(file);
    try {
      let computed = 0;
      const count = () => db.kept('n', () => (computed++, db.sqlite.prepare('SELECT count(*) AS n FROM accounts').get()));
      expect(count()).toEqual({ n: 0 });
      expect(count()).toEqual({ n: 0 });
      expect(computed).toBe(1);
      db.sqlite.prepare("INSERT INTO accounts (name, warehouses_enabled) VALUES ('a', 0)").run();
      expect(count()).toEqual({ n: 1 });
      other.sqlite.prepare("INSERT INTO accounts (name, warehouses_enabled) VALUES ('b', 0)").run();
      expect(count()).toEqual({ n: 2 });
      expect(computed).toBe(3);
      let missing = 0;
      db.kept('missing', () => void missing++);
      db.kept('missing', () => void missing++);
      expect(missing).toBe(2);
    } finally {
      other.close();
      db.close();
      remove();
    }
  });
});
