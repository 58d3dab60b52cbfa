// Token authentication and the wall between accounts (decisions "Accounts, scenarios, authentication").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, WAREHOUSES_PATH, fieldMessages, requestMessages } from '../../shared/index.ts';
import { openStore } from '../../server/store/open-store.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

// Two accounts sharing a barcode and a warehouse name, with different ids and quantities.
const catalogue = {
  accounts: [
    {
      name: 'alpha',
      warehouses_enabled: true,
      warehouses: [{ id: 1, name: 'Main' }],
      items: [
        { id: 1, name: 'A-mug', barcode: 'SHARED', stock: [{ warehouse: 'Main', quantity: 10 }] },
        { id: 2, name: 'A-only', barcode: 'ALPHA-ONLY', stock: [{ warehouse: 'Main', quantity: 1 }] },
      ],
    },
    {
      name: 'beta',
      warehouses_enabled: true,
      warehouses: [
        { id: 2, name: 'Main' },
        { id: 3, name: 'Beta-back' },
      ],
      items: [{ id: 3, name: 'B-mug', barcode: 'SHARED', stock: [{ warehouse: 'Main', quantity: 20 }] }],
    },
  ],
};

describe('authentication', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(catalogue);
  });
  afterAll(() => server.stop());

  const get = (headers: Record<string, string>) => fetch(`${server.url}${INVENTORY_PATH}?barcodes=SHARED`, { headers });

  it('refuses a request without credentials with 401 and a Token challenge', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: '' }] as Record<string, string>[]) {
      const res = await get(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Token');
      expect(await res.json()).toEqual({ detail: requestMessages.notAuthenticated, code: 'not_authenticated' });
    }
  });

  it('refuses an unknown or malformed token with 401 "Invalid token."', async () => {
    for (const authorization of ['Token nope', 'Bearer nope', 'Token', 'Token a b', `Token ${server.tokens.alpha}x`]) {
      const res = await get({ authorization });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Token');
      expect(await res.json()).toEqual({ detail: requestMessages.invalidToken, code: 'invalid_token' });
    }
  });

  it('accepts Token and Bearer, case-insensitively', async () => {
    for (const scheme of ['Token', 'Bearer', 'token', 'BEARER']) {
      expect((await get({ authorization: `${scheme} ${server.tokens.alpha}` })).status).toBe(200);
    }
  });

  it('refuses a revoked token from then on', async () => {
    // Another store on the same file, as the CLI would be.
    const store = await openStore(server.dbFile);
    const { id, key } = await store.tokens.create('alpha', 'to revoke', 'api');
    expect((await get({ authorization: `Token ${key}` })).status).toBe(200);
    expect(await store.tokens.revoke(id)).toBe(true);
    expect(await store.tokens.revoke(id)).toBe(false);
    await store.close();
    const res = await get({ authorization: `Token ${key}` });
    expect([res.status, await res.json()]).toEqual([401, { detail: requestMessages.invalidToken, code: 'invalid_token' }]);
  });

  it('stores only hashes of tokens', async () => {
    const stored = await server.probe.all<{ key_hash: string; key_prefix: string }>('SELECT key_hash, key_prefix FROM api_tokens');
    expect(stored.length).toBeGreaterThanOrEqual(Object.keys(server.tokens).length);
    for (const key of Object.values(server.tokens)) {
      expect(stored.some((row) => row.key_hash.includes(key) || key.length <= row.key_prefix.length)).toBe(false);
    }
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.key_hash))).toBe(true);
  });
});

describe('isolation between accounts sharing a barcode and a warehouse name', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(catalogue);
  });
  afterAll(() => server.stop());
  const as = (account: string) => ({ token: server.tokens[account] });

  it('reads only the caller’s own records', async () => {
    const alpha = await (await server.request('GET', `${INVENTORY_PATH}?barcodes=SHARED,ALPHA-ONLY`, as('alpha'))).json();
    expect(alpha.results).toEqual([
      { item: 1, liquid_stock: null, barcode: 'SHARED', quantity: 10, warehouse: 1, warehouse_name: 'Main' },
      { item: 2, liquid_stock: null, barcode: 'ALPHA-ONLY', quantity: 1, warehouse: 1, warehouse_name: 'Main' },
    ]);
    const beta = await (await server.request('GET', `${INVENTORY_PATH}?barcodes=SHARED,ALPHA-ONLY`, as('beta'))).json();
    expect(beta).toEqual({
      results: [{ item: 3, liquid_stock: null, barcode: 'SHARED', quantity: 20, warehouse: 2, warehouse_name: 'Main' }],
      errors: [{ barcode: 'ALPHA-ONLY', errors: { barcode: fieldMessages.barcodeNotFound('ALPHA-ONLY') } }],
    });
  });

  it('writes only the caller’s own stock, and another account’s barcodes and warehouses do not exist', async () => {
    const res = await server.request('POST', INVENTORY_PATH, {
      ...as('beta'),
      body: [
        { barcode: 'SHARED', quantity: 21, warehouse_name: 'Main' },
        { barcode: 'ALPHA-ONLY', quantity: 99, warehouse_name: 'Main' },
      ],
    });
    const body = await res.json();
    expect(body.results).toEqual([{ item: 3, liquid_stock: null, barcode: 'SHARED', quantity: 21, warehouse: 2, warehouse_name: 'Main' }]);
    expect(body.errors[0].errors).toEqual({ barcode: fieldMessages.barcodeNotFound('ALPHA-ONLY') });

    const alphaWrite = await server.request('POST', INVENTORY_PATH, {
      ...as('alpha'),
      body: [{ barcode: 'SHARED', quantity: 5, warehouse_name: 'Beta-back' }],
    });
    expect((await alphaWrite.json()).errors[0].errors).toEqual({ warehouse_name: fieldMessages.warehouseNotFound('Beta-back') });

    const alpha = await (await server.request('GET', `${INVENTORY_PATH}?barcodes=SHARED,ALPHA-ONLY`, as('alpha'))).json();
    expect(alpha.results.map((r: { quantity: number }) => r.quantity)).toEqual([10, 1]);
  });

  it('lists only the caller’s warehouses, ordered by id; none without warehouses', async () => {
    expect(await (await server.request('GET', WAREHOUSES_PATH, as('alpha'))).json()).toEqual([{ id: 1, name: 'Main' }]);
    expect(await (await server.request('GET', WAREHOUSES_PATH, as('beta'))).json()).toEqual([
      { id: 2, name: 'Main' },
      { id: 3, name: 'Beta-back' },
    ]);
  });
});
