// What the server keeps between requests (engine.kept: the caller's token, the account's warehouses)
// must never outlive a change: not one made by another process (the CLI), not one made here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, WAREHOUSES_PATH } from '../../shared/index.ts';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { openStore } from '../../server/store/open-store.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

describe('lookups kept between requests', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.stop());

  const tokenIdOf = async (key: string) =>
    (await server.probe.first<{ id: number }>('SELECT id FROM api_tokens WHERE key_prefix = ?', key.slice(0, 9)))!.id;

  it('refuses a token at once when another connection (the CLI) revokes it', async () => {
    const read = () => server.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token: server.tokens.kiosk });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    const cli = await openStore(server.dbFile);
    try {
      expect(await cli.tokens.revoke(await tokenIdOf(server.tokens.kiosk!))).toBe(true);
    } finally {
      await cli.close();
    }
    expect((await read()).status).toBe(401);
  });

  it('refuses a token at once when this process revokes it, and accepts a new one', async () => {
    const read = (token: string) => server.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token });
    expect((await read(server.tokens.kiosk!)).status).toBe(200);
    expect(await server.store.tokens.revoke(await tokenIdOf(server.tokens.kiosk!))).toBe(true);
    expect((await read(server.tokens.kiosk!)).status).toBe(401);
    const fresh = (await server.store.tokens.create('kiosk', 'new', 'api')).key;
    expect((await read(fresh)).status).toBe(200);
  });

  it('answers with warehouses added by an import from another process', async () => {
    const token = server.tokens.north!;
    const before = await server.request('GET', WAREHOUSES_PATH, { token });
    expect(await before.json()).toEqual([
      { id: 10, name: 'Main' },
      { id: 11, name: 'Backroom' },
    ]);
    const catalogue = exampleCatalogue() as { accounts: { warehouses?: { id: number; name: string }[]; items: unknown[] }[] };
    catalogue.accounts[0]!.warehouses!.push({ id: 12, name: 'Attic' });
    // A barcode without stock answers one zero record per warehouse: the list it uses must be fresh too.
    catalogue.accounts[0]!.items.push({ id: 102, name: 'Cap', barcode: 'CAP' });
    const cli = await openStore(server.dbFile);
    try {
      await cli.catalogue.write(await parseCatalogue(catalogue));
    } finally {
      await cli.close();
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
