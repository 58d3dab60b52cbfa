// Idempotency-Key on the stocktake writes (issue 6: "an optional Idempotency-Key header on every write").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import type { Stocktake, StocktakeLine } from '../../shared/index.ts';
import { call, shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('stocktake writes with Idempotency-Key', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(3));
    token = server.tokens.shop!;
  });
  afterAll(() => server.stop());

  const send = (method: string, path: string, body: unknown, key: string) =>
    server.request(method, path, { token, body, headers: { 'Idempotency-Key': key } });

  it('creates one session per key, however often the request is resent', async () => {
    const first = await send('POST', STOCKTAKES_PATH, { warehouse_name: 'Main', name: 'retry' }, 'create-1');
    const again = await send('POST', STOCKTAKES_PATH, { warehouse_name: 'Main', name: 'retry' }, 'create-1');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe((await first.json()).id);
    const sessions = (await call<{ results: Stocktake[] }>(server, 'GET', STOCKTAKES_PATH, token)).results;
    expect(sessions.filter((s) => s.name === 'retry')).toHaveLength(1);
    const other = await send('POST', STOCKTAKES_PATH, { warehouse_name: 'Main', name: 'different' }, 'create-1');
    expect(other.status).toBe(422);
  });

  it('counts a resent scan once and undoes once per key', async () => {
    const { id } = await call<Stocktake>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    for (let i = 0; i < 3; i++)
      expect((await send('POST', stocktakePath(id, 'scans'), { barcode: 'B0001', amount: 2 }, 'scan-a')).status).toBe(201);
    await send('POST', stocktakePath(id, 'scans'), { barcode: 'B0001', amount: 5 }, 'scan-b');
    let lines = await call<StocktakeLine[]>(server, 'GET', stocktakePath(id, 'lines'), token);
    expect(lines.map((l) => [l.barcode, l.counted])).toEqual([['B0001', 7]]);

    for (let i = 0; i < 2; i++) expect((await send('POST', stocktakePath(id, 'undo'), {}, 'undo-1')).status).toBe(200);
    lines = await call<StocktakeLine[]>(server, 'GET', stocktakePath(id, 'lines'), token);
    expect(lines.map((l) => [l.barcode, l.counted])).toEqual([['B0001', 2]]);

    const line = lines[0]!.id;
    for (let i = 0; i < 2; i++)
      expect((await send('PATCH', stocktakePath(id, `lines/${line}`), { counted: 9 }, 'edit-1')).status).toBe(200);
    expect((await send('PATCH', stocktakePath(id, `lines/${line}`), { counted: 10 }, 'edit-1')).status).toBe(422);
    // A used key with a body that would be refused on its own is still a reused key; a fresh key gets the 400.
    expect((await send('PATCH', stocktakePath(id, `lines/${line}`), { counted: -1 }, 'edit-1')).status).toBe(422);
    expect((await send('PATCH', stocktakePath(id, `lines/${line}`), { counted: -1 }, 'edit-2')).status).toBe(400);
    lines = await call<StocktakeLine[]>(server, 'GET', stocktakePath(id, 'lines'), token);
    expect(lines.map((l) => [l.barcode, l.counted])).toEqual([['B0001', 9]]);
  });

  it('stores nothing for a refused write: the same key works once the request is fixed', async () => {
    const refused = await send('POST', STOCKTAKES_PATH, { warehouse_name: 'Attic' }, 'fix-me');
    expect(refused.status).toBe(400);
    const fixed = await send('POST', STOCKTAKES_PATH, { warehouse_name: 'Main' }, 'fix-me');
    expect(fixed.status).toBe(201);
  });
});
