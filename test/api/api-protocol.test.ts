// Request-level behaviour shared by every path: 404, 405 with Allow, trailing slashes, HEAD/OPTIONS,
// the warehouse list, and a 500 that leaks nothing.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, WAREHOUSES_PATH, requestMessages } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

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
      expect([res.status, await res.json()]).toEqual([
        200,
        [
          { id: 10, name: 'Main' },
          { id: 11, name: 'Backroom' },
        ],
      ]);
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
      expect(await res.json()).toEqual({ detail: requestMessages.notFound, code: 'not_found' });
    }
  });

  it('routes case-sensitively: another spelling of a path is unknown, for every method', async () => {
    for (const path of [
      WAREHOUSES_PATH.toUpperCase(),
      '/API/V1/core/warehouse/',
      '/api/v1/Core/Warehouse/',
      INVENTORY_PATH.toUpperCase(),
      INVENTORY_PATH.replace('item', 'Item').slice(0, -1),
    ]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await server.request(method, `${path}?barcodes=111`, { ...north(), ...(method === 'POST' ? { body: [] } : {}) });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.headers.get('allow'), `${method} ${path}`).toBeNull();
        expect(await res.json()).toEqual({ detail: requestMessages.notFound, code: 'not_found' });
      }
    }
    // The real spelling still answers.
    expect((await server.request('GET', WAREHOUSES_PATH, north())).status).toBe(200);
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
      expect(await res.json()).toEqual({ detail: requestMessages.methodNotAllowed(method), code: 'method_not_allowed' });
    }
  });

  it('answers OPTIONS with the allowed methods and HEAD like GET without a body', async () => {
    const options = await server.request('OPTIONS', INVENTORY_PATH);
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, POST, HEAD, OPTIONS']);
    const head = await server.request('HEAD', WAREHOUSES_PATH, north());
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers an internal failure with 500 and a fixed text, no stack trace, and logs it', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write: (chunk, _enc, done) => (
        lines.push(
          ...String(chunk)
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        ),
        done()
      ),
    });
    const broken = await startTestServer(undefined, { logger: pino({ level: 'info' }, sink) });
    try {
      await broken.store.close(); // the store fails on every query from now on
      const res = await broken.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token: broken.tokens.kiosk });
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ detail: requestMessages.internal, code: 'internal' });
      expect(text).not.toMatch(/\bat \S+:\d+|stack|sqlite|database/i);
      // The failure itself is in the log, at error level, with the request it belongs to.
      const reqId = res.headers.get('x-request-id');
      const failure = lines.find((l) => l.msg === 'request failed');
      expect(failure).toMatchObject({
        level: 50,
        reqId,
        method: 'GET',
        path: INVENTORY_PATH,
        err: { message: expect.any(String), stack: expect.any(String) },
      });
      expect(lines.find((l) => l.msg === 'request')).toMatchObject({ level: 50, reqId, status: 500 });
    } finally {
      await broken.stop();
    }
  });
});
