// Stored answers of Idempotency-Key requests are bounded: no client input is repeated at length in
// an answer (unknown fields are not echoed, known ones and names quoted in messages are cut at 256
// characters), each stored answer is at most MAX_STORED_ANSWER_BYTES, and an account keeps at most
// MAX_STORED_ANSWERS_PER_ACCOUNT answers or MAX_STORED_ANSWER_BYTES_PER_ACCOUNT bytes within the
// window; past that a new key gets 429 with Retry-After (docs/POS.md, "Safe retries"). How little
// the SQLite file grows for them is in idempotency-caps-sqlite-file.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerOnce } from '../../server/store/idempotent-answers.ts';
import { openEngine } from '../../server/store/open-store.ts';
import {
  INVENTORY_PATH,
  MAX_ROWS_PER_UPDATE,
  MAX_STORED_ANSWERS_PER_ACCOUNT,
  MAX_STORED_ANSWER_BYTES,
  MAX_STORED_ANSWER_BYTES_PER_ACCOUNT,
  idempotencyMessages,
} from '../../shared/index.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { type TestServer, startTestServer, tempDir } from '../support/test-server.ts';

const pad = (n: number) => 'x'.repeat(n);

describe('stored answers of keyed requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());
  afterEach(() => server.probe.run('DELETE FROM idempotency_keys'));

  const keyed = (key: string, body: unknown, token = server.tokens.north) =>
    server.request('POST', INVENTORY_PATH, { token, body: JSON.stringify(body), headers: { 'idempotency-key': key } });

  it('never reach the per-answer cap with the largest answer 50 rows can produce', async () => {
    // Every echoed field longer than the echo bound, each with an error, and a barcode at its longest.
    const worst = Array.from({ length: MAX_ROWS_PER_UPDATE }, (_, j) => ({
      barcode: `${pad(127)}${j % 10}`,
      quantity: pad(2_000),
      warehouse_name: pad(2_000),
      compare_quantity: pad(2_000),
      reason: pad(2_000),
      reference: pad(2_000),
    }));
    const response = await keyed('worst', worst);
    expect(response.status).toBe(200);
    const bytes = Buffer.byteLength(await response.text());
    console.log(`[idempotency caps] largest 50-row answer: ${bytes} bytes (cap ${MAX_STORED_ANSWER_BYTES})`);
    expect(bytes).toBeLessThan(MAX_STORED_ANSWER_BYTES / 2);
  });

  it('refuse a new key with 429 once the account keeps the most answers, and nothing else', async () => {
    const north = (await server.probe.first<{ id: number }>("SELECT id FROM accounts WHERE name = 'north'"))!.id;
    const at = new Date(Date.now() - 3600_000).toISOString(); // an hour ago: 23 hours left in the window
    await server.probe.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO idempotency_keys (account_id, key, request_hash, status, response_body, response_bytes, created_at)
       SELECT ?, 'old-' || i, 'h', 200, '{}', 2, ? FROM n`,
      MAX_STORED_ANSWERS_PER_ACCOUNT - 1,
      north,
      at,
    );
    const row = [{ barcode: '8690000000017', warehouse_name: 'Main', quantity: 5 }];
    expect((await keyed('last-1', row)).status).toBe(200);
    const full = await keyed('one-too-many', [{ ...row[0], quantity: 6 }]);
    expect(full.status).toBe(429);
    const retryAfter = Number(full.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(22 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(23 * 3600);
    expect((await full.json()).detail).toBe(
      idempotencyMessages.storedAnswersFull(
        MAX_STORED_ANSWERS_PER_ACCOUNT,
        2 * (MAX_STORED_ANSWERS_PER_ACCOUNT - 1) +
          (await server.probe.first<{ b: number }>("SELECT response_bytes AS b FROM idempotency_keys WHERE key = 'last-1'"))!.b,
        24,
        MAX_STORED_ANSWERS_PER_ACCOUNT,
        MAX_STORED_ANSWER_BYTES_PER_ACCOUNT,
        retryAfter,
      ),
    );
    // Nothing was written for the refused request; a replay of a stored key is still answered;
    // a request without a key is applied; another account is not affected.
    const stock = () =>
      server.probe.first<{ quantity: number }>(
        "SELECT s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id WHERE u.barcode = '8690000000017' AND s.warehouse_id = 10",
      );
    expect((await stock())!.quantity).toBe(5);
    const replay = await keyed('last-1', row);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await server.request('POST', INVENTORY_PATH, { token: server.tokens.north, body: [{ ...row[0], quantity: 7 }] })).status).toBe(
      200,
    );
    expect((await stock())!.quantity).toBe(7);
    const other = await keyed('other-account', [{ barcode: '111', quantity: 1 }], server.tokens.kiosk);
    expect(other.status).toBe(200);
  });

  it('refuse a new key once the account keeps the most bytes, until the oldest expires', async () => {
    const north = (await server.probe.first<{ id: number }>("SELECT id FROM accounts WHERE name = 'north'"))!.id;
    await server.probe.run(
      "INSERT INTO idempotency_keys (account_id, key, request_hash, status, response_body, response_bytes, created_at) VALUES (?, 'big', 'h', 200, '{}', ?, ?)",
      north,
      MAX_STORED_ANSWER_BYTES_PER_ACCOUNT,
      new Date().toISOString(),
    );
    const full = await keyed('after-big', [{ barcode: '8690000000017', warehouse_name: 'Main', quantity: 1 }]);
    expect(full.status).toBe(429);
    // An answer older than the window no longer counts.
    await server.probe.run(
      "UPDATE idempotency_keys SET created_at = ? WHERE key = 'big'",
      new Date(Date.now() - 25 * 3600_000).toISOString(),
    );
    expect((await keyed('after-big', [{ barcode: '8690000000017', warehouse_name: 'Main', quantity: 1 }])).status).toBe(200);
  });
});

describe('an answer above the per-answer cap', () => {
  const { dir, remove } = tempDir();
  afterAll(remove);

  it('is refused with 413 and its write rolled back', async () => {
    const location = await newDatabase(dir, 'cap.db');
    const engine = await openEngine(location);
    try {
      await engine.write((q) => q.run(q.k.insertInto('accounts').values({ name: 'a', warehouses_enabled: 0 })));
      const attempt = engine.write((q) =>
        answerOnce(q, 1, { key: 'k', requestHash: 'h' }, async () => {
          await q.run(q.k.insertInto('accounts').values({ name: 'written by the refused write', warehouses_enabled: 0 }));
          return { status: 200, body: pad(MAX_STORED_ANSWER_BYTES) };
        }),
      );
      await expect(attempt).rejects.toMatchObject({ status: 413, message: idempotencyMessages.answerTooLarge(MAX_STORED_ANSWER_BYTES) });
      const accounts = await engine.read((q) => q.all(q.k.selectFrom('accounts').select('name')));
      expect(accounts.map((a) => a.name)).toEqual(['a']);
      expect(await engine.read((q) => q.all(q.k.selectFrom('idempotency_keys').select('key')))).toEqual([]);
    } finally {
      await engine.close();
      await dropDatabase(location);
    }
  });
});
