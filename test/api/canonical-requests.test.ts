// One canonical spelling of every request: paths are case-sensitive and strict (a path of the table,
// with or without its one trailing slash, and nothing else), every check keyed on a path agrees with
// the router (Cache-Control, the Idempotency-Key's request hash), the Content-Type header is parsed
// as RFC 9110 allows it, and an allow-listed origin's preflight lists every method the table serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { INVENTORY_PATH, STOCKTAKES_PATH, WAREHOUSES_PATH, idempotencyMessages, stocktakePath } from '../../shared/index.ts';
import { sendRaw } from '../support/raw-http.ts';
import { shopCatalogue } from '../support/stocktake-fixtures.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { type TestServer, exampleCatalogue, seedDatabase, startTestServer, tempDir } from '../support/test-server.ts';

describe('one canonical path', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const get = (target: string) =>
    sendRaw(server.port, { method: 'GET', target, headers: [['Authorization', `Token ${server.tokens.north}`]] });

  it('serves a path with or without its trailing slash, and nothing else', async () => {
    expect((await get(WAREHOUSES_PATH)).status).toBe(200);
    expect((await get(WAREHOUSES_PATH.slice(0, -1))).status).toBe(200);
    expect((await get(`${INVENTORY_PATH}?barcodes=111`)).status).toBe(200);
    for (const target of [
      `${WAREHOUSES_PATH}/`,
      `${INVENTORY_PATH}/?barcodes=111`,
      `${WAREHOUSES_PATH}10//`,
      '/api/v1//core/warehouse/',
      '/api/v1/core/./warehouse/',
    ]) {
      const answer = await get(target);
      expect(answer.status, target).toBe(404);
      expect(JSON.parse(answer.body), target).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });

  it('does not route another case, and keeps that answer out of caches too', async () => {
    for (const target of ['/API/V1/core/warehouse/', '/Api/v1/core/warehouse/', '/api/v1/Core/Warehouse/']) {
      const answer = await get(target);
      expect(answer.status, target).toBe(404);
      expect(answer.head, target).toMatch(/^cache-control: no-store$/im);
    }
  });

  it('names a keyed request by its canonical path: another spelling of it is a replay, another path is not served', async () => {
    const post = (target: string) =>
      sendRaw(server.port, {
        method: 'POST',
        target,
        headers: [
          ['Authorization', `Token ${server.tokens.north}`],
          ['Content-Type', 'application/json'],
          ['Idempotency-Key', 'canonical-1'],
        ],
        body: JSON.stringify([{ barcode: '8690000000017', warehouse_name: 'Main', quantity: 31 }]),
      });
    const first = await post(INVENTORY_PATH);
    expect(first.status).toBe(200);
    const noSlash = await post(INVENTORY_PATH.slice(0, -1));
    expect(noSlash.status).toBe(200);
    expect(noSlash.head).toMatch(/^idempotent-replayed: true$/im);
    const upper = await post(INVENTORY_PATH.toUpperCase());
    expect(upper.status).toBe(404);
    expect(JSON.parse(upper.body).detail).not.toBe(idempotencyMessages.reusedWithOtherRequest);
  });
});

describe('one canonical path for path ids', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(3));
  });
  afterAll(() => server.stop());

  it('treats /stocktakes/012/scans as /stocktakes/12/scans/ for an Idempotency-Key', async () => {
    const created = await server.request('POST', STOCKTAKES_PATH, { token: server.tokens.shop, body: { warehouse_name: 'Main' } });
    const { id } = (await created.json()) as { id: number };
    const scan = (target: string) =>
      server.request('POST', target, { token: server.tokens.shop, headers: { 'idempotency-key': 'scan-1' }, body: { barcode: 'B0001' } });
    expect((await scan(stocktakePath(id, 'scans'))).status).toBe(201);
    const respelled = await scan(`${STOCKTAKES_PATH}0${id}/scans`);
    expect(respelled.status).toBe(201);
    expect(respelled.headers.get('idempotent-replayed')).toBe('true');
    const lines = (await (await server.request('GET', stocktakePath(id, 'lines'), { token: server.tokens.shop })).json()) as {
      counted: number;
    }[];
    expect(lines.map((l) => l.counted)).toEqual([1]);
  });
});

describe('Content-Type as RFC 9110 writes it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const post = (contentType: string) =>
    sendRaw(server.port, {
      method: 'POST',
      target: INVENTORY_PATH,
      headers: [
        ['Authorization', `Token ${server.tokens.north}`],
        ['Content-Type', contentType],
      ],
      body: '[]',
    });

  it.each([
    'application/json',
    'application/json ; charset=utf-8',
    'application/json\t;\tcharset=utf-8',
    'application/json;charset="UTF-8"',
    'Application/JSON; Charset=utf-8',
    'application/json; charset = utf-8',
    'application/json; foo=bar; charset=utf-8',
    'application/merge-patch+json',
  ])('accepts %j', async (contentType) => {
    const answer = await post(contentType);
    expect(answer.status, answer.body).toBe(200);
  });

  it.each(['text/plain', 'application/json; charset=latin1', 'application/jsonx', 'json'])('refuses %j with 415', async (contentType) => {
    const answer = await post(contentType);
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body).detail).toContain(contentType);
  });
});

describe('CORS preflight of an allow-listed origin', () => {
  const { dir, remove } = tempDir();
  let server: Awaited<ReturnType<typeof startServer>>;
  let dbFile: string;
  beforeAll(async () => {
    dbFile = await newDatabase(dir, 'cors.db');
    await seedDatabase(dbFile, exampleCatalogue());
    server = await startServer({ store: await openStore(dbFile), port: 0, allowedOrigins: ['http://till.local:3000'] });
  });
  afterAll(async () => {
    await server.close();
    await dropDatabase(dbFile);
    remove();
  });

  it('lists every method the endpoint table serves, PATCH included', async () => {
    const preflight = await sendRaw(server.port, {
      method: 'OPTIONS',
      target: `${stocktakePath(1, 'lines')}2/`,
      headers: [
        ['Origin', 'http://till.local:3000'],
        ['Access-Control-Request-Method', 'PATCH'],
      ],
    });
    expect(preflight.status).toBe(204);
    const methods = /^access-control-allow-methods: (.*)$/im.exec(preflight.head)?.[1]?.split(/,\s*/) ?? [];
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'HEAD', 'OPTIONS']));
  });
});
