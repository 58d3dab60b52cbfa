// How little a SQLite database file (and its WAL) grows for stored answers of Idempotency-Key
// requests padded to 1 MiB: SQLite-only, a measure of the `.db` and `-wal` files. The caps
// themselves are tested on both engines in idempotency-caps.test.ts.
import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, MAX_ROWS_PER_UPDATE } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const fileSize = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const pad = (n: number) => 'x'.repeat(n);

describe('stored answers of keyed requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const keyed = (key: string, body: unknown, token = server.tokens.north) =>
    server.request('POST', INVENTORY_PATH, { token, body: JSON.stringify(body), headers: { 'idempotency-key': key } });

  it('grow the database by little for 20 requests of 50 rows padded to 1 MiB', async () => {
    const sizeOf = () => fileSize(server.dbFile) + fileSize(`${server.dbFile}-wal`);
    const before = sizeOf();
    // A known barcode with a 20,000-character warehouse name: the name comes back inside its error message.
    const rows = Array.from({ length: MAX_ROWS_PER_UPDATE }, (_, j) => ({
      barcode: '8690000000017',
      quantity: 1,
      warehouse_name: pad(20_000),
      pad: pad(500),
      n: j,
    }));
    for (let i = 0; i < 20; i++) expect((await keyed(`pad-${i}`, rows)).status).toBe(200);
    const stored = await server.probe.first<{ n: number; bytes: number }>(
      'SELECT count(*) AS n, sum(response_bytes) AS bytes FROM idempotency_keys',
    );
    const grown = sizeOf() - before;
    console.log(
      `[idempotency caps] 20 keyed requests of 50 rows padded to 1 MiB: database + WAL grew ${(grown / 1e6).toFixed(2)} MB, ${stored!.n} answers of ${(stored!.bytes / 1e6).toFixed(2)} MB stored`,
    );
    expect(stored!.n).toBe(20);
    expect(stored!.bytes).toBeLessThan(20 * 40_000);
    expect(grown).toBeLessThan(2_000_000);
  });
});
