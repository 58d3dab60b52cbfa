// GET /api/v1/core/warehouse/{id}/ against the real server: the worked example of adding an endpoint
// in docs/ARCHITECTURE.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAREHOUSES_PATH, requestMessages, warehouseSchema } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('read one warehouse', () => {
  let server: TestServer;
  const get = async (path: string, account = 'north') => {
    const res = await server.request('GET', path, { token: server.tokens[account] });
    return { status: res.status, body: await res.json() };
  };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("answers one of the caller's warehouses, with and without the trailing slash", async () => {
    const { status, body } = await get(`${WAREHOUSES_PATH}11/`);
    expect(status).toBe(200);
    expect(warehouseSchema.parse(body)).toEqual({ id: 11, name: 'Backroom' });
    expect((await get(`${WAREHOUSES_PATH}11`)).body).toEqual({ id: 11, name: 'Backroom' });
  });

  it("answers 404 for an unknown id, another account's warehouse and a path that is not an id", async () => {
    for (const path of [`${WAREHOUSES_PATH}999/`, `${WAREHOUSES_PATH}abc/`, `${WAREHOUSES_PATH}-1/`]) {
      expect(await get(path), path).toEqual({ status: 404, body: { detail: requestMessages.notFound, code: 'not_found' } });
    }
    // kiosk has no warehouses: north's warehouse 10 does not exist for it.
    expect(await get(`${WAREHOUSES_PATH}10/`, 'kiosk')).toEqual({
      status: 404,
      body: { detail: requestMessages.notFound, code: 'not_found' },
    });
  });

  it('needs a token and answers other methods with 405 and Allow', async () => {
    const anonymous = await server.request('GET', `${WAREHOUSES_PATH}10/`);
    expect(anonymous.status).toBe(401);
    const post = await server.request('POST', `${WAREHOUSES_PATH}10/`, { token: server.tokens.north, body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
