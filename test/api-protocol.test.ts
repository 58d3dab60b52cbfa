// Request-level behaviour shared by every path: 404, 405 with Allow, trailing slashes, HEAD/OPTIONS,
// the warehouse list, and a 500 that leaks nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, WAREHOUSES_PATH, requestMessages } from '../shared/index.ts';
import { type TestServer, startTestServer } from './support/test-server.ts';

describe('HTTP protocol', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  const north = () => ({ token: server.tokens.north });

  it('serves every path with and without the trailing slash', async () => {
    for (const path of [WAREHOUSES_PATH, WAREHOUSES_PATH.slice(0, -1)]) {
      const res = await server.request('GET', path, north());
      expect([res.status, await res.json()]).toEqual([200, [{ id: 10, name: 'Main' }, { id: 11, name: 'Backroom' }]]);
    }
    for (const path of [INVENTORY_PATH, INVENTORY_PATH.slice(0, -1)]) {
      expect((await server.request('GET', `${path}?barcodes=111`, north())).status).toBe(200);
      expect((await server.request('POST', path, { ...north(), body: [] })).status).toBe(200);
    }
  });

  it('answers unknown paths with 404 JSON', async () => {
    for (const path of ['/', '/api/v1/', '/api/v1/core/item/', '/api/v2/core/warehouse/', `${WAREHOUSES_PATH}x`]) {
      const res = await server.request('GET', path, north());
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ detail: requestMessages.notFound });
    }
  });

  it('answers other methods with 405 and an Allow header', async () => {
    const cases: [string, string, string][] = [
      ['PUT', INVENTORY_PATH, 'GET, POST, HEAD, OPTIONS'],
      ['DELETE', INVENTORY_PATH, 'GET, POST, HEAD, OPTIONS'],
      ['PATCH', INVENTORY_PATH.slice(0, -1), 'GET, POST, HEAD, OPTIONS'],
      ['POST', WAREHOUSES_PATH, 'GET, HEAD, OPTIONS'],
      ['DELETE', WAREHOUSES_PATH, 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await server.request(method, path, north());
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(await res.json()).toEqual({ detail: requestMessages.methodNotAllowed(method) });
    }
  });

  it('answers OPTIONS with the allowed methods and HEAD like GET without a body', async () => {
    const options = await server.request('OPTIONS', INVENTORY_PATH);
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, POST, HEAD, OPTIONS']);
    const head = await server.request('HEAD', WAREHOUSES_PATH, north());
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers an internal failure with 500 and a fixed text, no stack trace', async () => {
    const broken = await startTestServer();
    broken.db.sqlite.close(); // the store fails on every query from now on
    const res = await broken.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token: broken.tokens.kiosk });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ detail: requestMessages.internal });
    expect(text).not.toMatch(/\bat \S+:\d+|stack|sqlite|database/i);
    await broken.stop();
  });
});
