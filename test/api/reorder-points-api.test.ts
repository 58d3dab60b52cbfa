// Reorder points through the API (docs/REORDER.md): set, read back, change, remove; all rows or none,
// with every bad row named; the catalogue version moves only with a change; another account's
// barcodes are unknown; a follower refuses them (its catalogue comes from upstream).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REORDER_POINTS_PATH, fieldMessages, reorderPointListSchema } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('reorder points through the API', () => {
  let server: TestServer;
  const post = async (rows: unknown, account = 'north') => {
    const res = await server.request('POST', REORDER_POINTS_PATH, { token: server.tokens[account], body: rows });
    return { status: res.status, body: await res.json() };
  };
  const get = async (barcodes: string, account = 'north') => {
    const res = await server.request('GET', `${REORDER_POINTS_PATH}?barcodes=${encodeURIComponent(barcodes)}`, {
      token: server.tokens[account],
    });
    return { status: res.status, body: await res.json() };
  };
  const version = async (account: string) =>
    (await server.probe.first<{ v: number }>('SELECT catalogue_version AS v FROM accounts WHERE name = ?', account))!.v;
  const stored = () => server.probe.all('SELECT unit_id, warehouse_id, minimum, target FROM reorder_points ORDER BY unit_id, warehouse_id');

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('sets a minimum and target per warehouse, answers them with the stock there, and reads them back', async () => {
    const before = await version('north');
    const set = await post([
      { barcode: '8690000000017', warehouse_name: 'Main', minimum: 5, target: 20 },
      { barcode: '8690000000017', warehouse_name: 'Backroom', minimum: 2 },
      { barcode: '8690000000024', warehouse_name: 'Main', minimum: 1, target: null },
    ]);
    expect(set.status).toBe(200);
    const expected = {
      results: [
        {
          item: 100,
          liquid_stock: null,
          barcode: '8690000000017',
          warehouse: 10,
          warehouse_name: 'Main',
          minimum: 5,
          target: 20,
          quantity: 5,
          low: true,
        },
        {
          item: 100,
          liquid_stock: null,
          barcode: '8690000000017',
          warehouse: 11,
          warehouse_name: 'Backroom',
          minimum: 2,
          target: null,
          quantity: 0,
          low: true,
        },
        {
          item: 101,
          liquid_stock: 5001,
          barcode: '8690000000024',
          warehouse: 10,
          warehouse_name: 'Main',
          minimum: 1,
          target: null,
          quantity: 3,
          low: false,
        },
      ],
    };
    expect(reorderPointListSchema.parse(set.body)).toEqual(expected);
    expect(await get('8690000000017,8690000000024,unknown')).toEqual({ status: 200, body: expected });
    expect(await version('north')).toBe(before + 1);
    // The same values again change nothing, so followers have nothing new to copy.
    expect((await post([{ barcode: '8690000000017', warehouse_name: 'Main', minimum: 5, target: 20 }])).status).toBe(200);
    expect(await version('north')).toBe(before + 1);
    // The audit log says who changed the catalogue's reorder points, once: the repeat changed nothing.
    const audited = await server.probe.all<{ actor: string; subject: string; detail: string }>(
      "SELECT actor, subject, detail FROM audit_log WHERE action = 'reorder_points.set' ORDER BY id",
    );
    expect(audited.map((a) => [a.actor, a.subject, JSON.parse(a.detail).rows.length])).toEqual([['test', '3 reorder points', 3]]);
  });

  it('changes and removes a reorder point (minimum null)', async () => {
    await post([{ barcode: '8690000000017', warehouse_name: 'Main', minimum: 8, target: 10 }]);
    expect((await get('8690000000017')).body.results[0]).toMatchObject({ warehouse: 10, minimum: 8, target: 10 });
    const removed = await post([{ barcode: '8690000000017', warehouse_name: 'Backroom', minimum: null }]);
    expect(removed.body.results.map((r: { warehouse: number }) => r.warehouse)).toEqual([10]);
  });

  it('keeps one figure per barcode for an account without warehouses, and refuses a warehouse there', async () => {
    expect(await post([{ barcode: '111', minimum: 10, target: 30 }], 'kiosk')).toEqual({
      status: 200,
      body: {
        results: [
          {
            item: 200,
            liquid_stock: null,
            barcode: '111',
            warehouse: null,
            warehouse_name: null,
            minimum: 10,
            target: 30,
            quantity: 7,
            low: true,
          },
        ],
      },
    });
    const refused = await post([{ barcode: '111', warehouse_name: 'Main', minimum: 1 }], 'kiosk');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('[0].warehouse_name: account "kiosk" has no warehouses');
  });

  it('refuses a request with any bad row, naming every one, and writes nothing', async () => {
    const before = await stored();
    const versionBefore = await version('north');
    const refused = await post([
      { barcode: '8690000000024', warehouse_name: 'Main', minimum: 99 },
      { barcode: 'nope', warehouse_name: 'Main', minimum: 1 },
      { barcode: '8690000000024', warehouse_name: 'Attic', minimum: 1 },
      { barcode: '8690000000024', minimum: 1 },
      // kiosk's barcode: another account's is unknown to north.
      { barcode: '111', warehouse_name: 'Main', minimum: 1 },
    ]);
    expect(refused).toEqual({
      status: 400,
      body: {
        code: 'invalid_body',
        detail:
          `Nothing was written: [1].barcode: ${fieldMessages.barcodeNotFound('nope')}; [2].warehouse_name: ${fieldMessages.warehouseNotFound('Attic')}; ` +
          `[3].warehouse_name: ${fieldMessages.required}; [4].barcode: ${fieldMessages.barcodeNotFound('111')}`,
      },
    });
    for (const rows of [
      [{ barcode: '8690000000024', warehouse_name: 'Main', minimum: 5, target: 4 }],
      [{ barcode: '8690000000024', warehouse_name: 'Main', minimum: -1 }],
      [{ barcode: '8690000000024', warehouse_name: 'Main', minimum: 1.5 }],
      [{ barcode: '8690000000024', warehouse_name: 'Main' }],
      [{ barcode: '8690000000024', warehouse_name: 'Main', minimum: 1, extra: true }],
      [],
      {},
    ]) {
      const res = await post(rows);
      expect([res.status, res.body.code], JSON.stringify(rows)).toEqual([400, 'invalid_body']);
    }
    expect((await post([{ barcode: '8690000000024', warehouse_name: 'Main', minimum: 5, target: 4 }])).body.detail).toContain(
      'The target may not be below the minimum.',
    );
    expect(await stored()).toEqual(before);
    expect(await version('north')).toBe(versionBefore);
  });

  it('refuses them on an account that follows an upstream: its catalogue comes from there', async () => {
    const kiosk = (await server.probe.first<{ id: number }>("SELECT id FROM accounts WHERE name = 'kiosk'"))!.id;
    await server.probe.run(
      "INSERT INTO sync_links (account_id, upstream_url, token, linked_at) VALUES (?, 'http://head-office.example', 'x', '2026-01-01T00:00:00.000Z')",
      kiosk,
    );
    const refused = await post([{ barcode: '111', minimum: 1 }], 'kiosk');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('catalogue_from_upstream');
    expect((await get('111', 'kiosk')).body.results[0]).toMatchObject({ minimum: 10, target: 30 });
    await server.probe.run('DELETE FROM sync_links WHERE account_id = ?', kiosk);
  });
});
