import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { testEngine } from '../support/test-engine.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('smoke', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it(`runs on the engine of its vitest project (${testEngine()})`, async () => {
    expect(server.dbFile.startsWith('postgres://')).toBe(testEngine() === 'postgres');
    const answer = await server.probe.first<{ engine: string }>(
      testEngine() === 'postgres'
        ? "SELECT 'postgres' AS engine WHERE version() LIKE 'PostgreSQL%'"
        : "SELECT 'sqlite' AS engine WHERE sqlite_version() <> ''",
    );
    expect(answer?.engine).toBe(testEngine());
  });

  it('reads a barcode', async () => {
    const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=111`, { token: server.tokens.kiosk });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ results: [{ item: 200, liquid_stock: null, barcode: '111', quantity: 7 }], errors: [] });
  });
});
