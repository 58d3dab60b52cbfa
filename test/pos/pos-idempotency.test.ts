// Idempotency-Key on writes (docs/POS.md, "Safe retries") against the real server: a replay is
// answered, not applied again, also after a restart; another body → 422; a key in flight → 409.
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keysInFlight } from '../../server/api/router.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { ADJUST_PATH, INVENTORY_PATH, idempotencyMessages } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

describe('Idempotency-Key', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.stop());

  const send = (base: string, token: string, path: string, body: unknown, key?: string) =>
    fetch(base + path, {
      method: 'POST',
      headers: {
        authorization: `Token ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const kiosk = () => server.tokens.kiosk!;
  const quantityOf111 = async (base = server.url) => {
    const res = await fetch(`${base}${INVENTORY_PATH}?barcodes=111`, { headers: { authorization: `Token ${kiosk()}` } });
    return ((await res.json()) as { results: { quantity: number }[] }).results[0]!.quantity;
  };
  const historyCount = async () => Number((await server.probe.first<{ n: number }>('SELECT count(*) AS n FROM stock_history'))!.n);

  it('answers a replayed adjust with the first answer and applies it once', async () => {
    const body = [{ barcode: '111', delta: -2, reason: 'sale', reference: 'R-1' }];
    const first = await send(server.url, kiosk(), ADJUST_PATH, body, 'sale-R-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.json();
    expect(firstBody).toEqual({ results: [{ item: 200, liquid_stock: null, barcode: '111', quantity: 5 }], errors: [] });
    const history = await historyCount();
    // Same request, other formatting and key order: still the same request.
    const replay = await send(
      server.url,
      kiosk(),
      ADJUST_PATH,
      '[ {"reference":"R-1", "delta":-2, "barcode":"111", "reason":"sale"} ]',
      'sale-R-1',
    );
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(firstBody);
    expect(await quantityOf111()).toBe(5);
    expect(await historyCount()).toBe(history);
  });

  it('answers a replayed update, including its row errors, without applying it again', async () => {
    const body = [
      { barcode: '111', quantity: 3 },
      { barcode: 'nope', quantity: 1 },
    ];
    const first = await (await send(server.url, kiosk(), INVENTORY_PATH, body, 'set-1')).json();
    await send(server.url, kiosk(), ADJUST_PATH, [{ barcode: '111', delta: 10 }]); // no key: always applied
    const replay = await send(server.url, kiosk(), INVENTORY_PATH.replace(/\/$/, ''), body, 'set-1');
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(first);
    expect(await quantityOf111()).toBe(13); // the replay did not set 3 again
  });

  it('refuses the same key with another body or another endpoint (422) and applies neither', async () => {
    await send(server.url, kiosk(), ADJUST_PATH, [{ barcode: '111', delta: -1 }], 'k1');
    for (const [path, body] of [
      [ADJUST_PATH, [{ barcode: '111', delta: -5 }]],
      [INVENTORY_PATH, [{ barcode: '111', delta: -1 }]],
      [ADJUST_PATH, { not: 'a list' }],
      [ADJUST_PATH, Array.from({ length: 51 }, () => ({ barcode: '111', delta: -1 }))],
      [INVENTORY_PATH, JSON.stringify('not a list')],
    ] as const) {
      const res = await send(server.url, kiosk(), path, body, 'k1');
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: idempotencyMessages.reusedWithOtherRequest, code: 'idempotency_key_reused' });
    }
    expect(await quantityOf111()).toBe(6);
  });

  it('keeps keys per account: another account may use the same key', async () => {
    await send(server.url, kiosk(), ADJUST_PATH, [{ barcode: '111', delta: -1 }], 'shared-key');
    const north = await send(
      server.url,
      server.tokens.north!,
      ADJUST_PATH,
      [{ barcode: '8690000000017', delta: -1, warehouse_name: 'Main' }],
      'shared-key',
    );
    expect(north.status).toBe(200);
    expect(north.headers.get('idempotent-replayed')).toBeNull();
    expect(((await north.json()) as { results: { quantity: number }[] }).results[0]!.quantity).toBe(4);
  });

  it('stores nothing for a request refused as a whole: the fixed request may reuse the key', async () => {
    const refused = await send(server.url, kiosk(), ADJUST_PATH, { barcode: '111', delta: -1 }, 'fix-me');
    expect(refused.status).toBe(400);
    const fixed = await send(server.url, kiosk(), ADJUST_PATH, [{ barcode: '111', delta: -1 }], 'fix-me');
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect(await quantityOf111()).toBe(6);
  });

  it('refuses a malformed key with 400', async () => {
    for (const key of ['', 'x'.repeat(256), 'with space']) {
      const res = await send(server.url, kiosk(), ADJUST_PATH, [{ barcode: '111', delta: -1 }], key);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: idempotencyMessages.invalidKey(255), code: 'invalid_idempotency_key' });
    }
    expect(await quantityOf111()).toBe(7);
  });

  it('answers 409 while the first request with the key is still in flight', async () => {
    const body = JSON.stringify([{ barcode: '111', delta: -1 }]);
    // The first request sends its headers and half of its body, then waits.
    let firstRequest: ReturnType<typeof httpRequest> | undefined;
    const firstAnswer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(server.url + ADJUST_PATH, {
        method: 'POST',
        headers: {
          authorization: `Token ${kiosk()}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': 'slow-till',
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      firstRequest = req;
    });
    // Wait (bounded) until the server has claimed the key: a state, not a duration.
    for (let i = 0; keysInFlight(server.store) === 0; i++) {
      if (i > 1000) throw new Error('the first request never reached the server');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const second = await send(server.url, kiosk(), ADJUST_PATH, body, 'slow-till');
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ detail: idempotencyMessages.inFlight, code: 'idempotency_key_in_flight' });
    firstRequest!.end(body.slice(10));
    const first = await firstAnswer;
    expect(first.status).toBe(200);
    const third = await send(server.url, kiosk(), ADJUST_PATH, body, 'slow-till');
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(await third.text()).toBe(first.body);
    expect(await quantityOf111()).toBe(6);
    expect(keysInFlight(server.store)).toBe(0);
  });

  it('applies a replayed key once across a server restart, and purges keys older than 24 h', async () => {
    const body = [{ barcode: '111', delta: 24, reason: 'receipt', reference: 'DN-7' }];
    const first = await send(server.url, kiosk(), ADJUST_PATH, body, 'delivery-DN-7');
    const firstBody = await first.json();
    expect(firstBody).toEqual({ results: [{ item: 200, liquid_stock: null, barcode: '111', quantity: 31 }], errors: [] });
    // A key stored 25 hours ago: expired, to be purged lazily by the restarted server.
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    expect(
      await server.probe.run(
        "INSERT INTO idempotency_keys (account_id, key, request_hash, status, response_body, created_at) SELECT account_id, 'ancient', request_hash, status, response_body, ? FROM idempotency_keys WHERE key = 'delivery-DN-7'",
        old,
      ),
    ).toBe(1);

    await server.close();
    let restarted: RunningServer | undefined;
    try {
      restarted = await startServer({ store: await openStore(server.dbFile), port: 0 });
      const replay = await send(restarted.url, kiosk(), ADJUST_PATH, body, 'delivery-DN-7');
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.json()).toEqual(firstBody);
      expect(await quantityOf111(restarted.url)).toBe(31);
      const receipts = await server.probe.first<{ n: number }>("SELECT count(*) AS n FROM stock_history WHERE reference = 'DN-7'");
      expect(Number(receipts!.n)).toBe(1);
      const keys = await server.probe.all('SELECT key FROM idempotency_keys ORDER BY key');
      expect(keys).toEqual([{ key: 'delivery-DN-7' }]);
      // An expired key is forgotten: the same key with another body is a new request.
      expect(await server.probe.run('UPDATE idempotency_keys SET created_at = ?', old)).toBe(1);
      const reused = await send(restarted.url, kiosk(), ADJUST_PATH, [{ barcode: '111', delta: -1 }], 'delivery-DN-7');
      expect(reused.status).toBe(200);
      expect(await quantityOf111(restarted.url)).toBe(30);
    } finally {
      await restarted?.close();
    }
  });
});
