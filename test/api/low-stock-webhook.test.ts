// The low-stock webhook (docs/REORDER.md, "Webhook") against a receiver on loopback: an admin sets it;
// a sale that takes the mug to its minimum is answered while the receiver hangs (the write never waits
// for it); the event is retried after failures until a 2xx, each attempt under the same id and with a
// signature the receiver checks with the secret; a second crossing is another event; nothing is sent
// again once delivered.
import { createHmac } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIRST_RETRY_MS, type WebhookLoop, retryDelayMs, startWebhookLoop } from '../../server/webhooks/low-stock-webhook.ts';
import { ADJUST_PATH, INVENTORY_PATH, LOW_STOCK_WEBHOOK_PATH, REORDER_POINTS_PATH } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';
const SECRET = 'a-secret-of-the-shop-0123456789';

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

describe('the low-stock webhook', () => {
  let server: TestServer;
  let receiver: Server;
  let loop: WebhookLoop | undefined;
  const received: Received[] = [];
  /** What the receiver answers next: a status, or 'hold' until released. */
  const answers: (number | 'hold')[] = [];
  let release: () => void = () => undefined;
  let url: string;

  beforeAll(async () => {
    server = await startTestServer();
    receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({
          id: String(req.headers['x-webhook-id']),
          timestamp: String(req.headers['x-webhook-timestamp']),
          signature: String(req.headers['x-webhook-signature']),
          body,
        });
        const answer = answers.shift() ?? 200;
        if (answer === 'hold')
          release = () => {
            release = () => undefined;
            res.writeHead(503).end();
          };
        else res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/low-stock`;
  });
  afterAll(async () => {
    release();
    await loop?.stop();
    await new Promise((resolve) => receiver.close(resolve));
    await server.stop();
  });

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
    return { status: res.status, body: await res.json() };
  };
  const passes = async (n: number) => {
    const target = loop!.passes + n;
    await expect.poll(() => loop!.passes, { timeout: 10_000, interval: 5 }).toBeGreaterThanOrEqual(target);
  };

  it('is set by an admin only, with a secret made when none is given', async () => {
    const admin = await server.newToken('north', 'admin');
    const made = await call('POST', LOW_STOCK_WEBHOOK_PATH, admin, { url });
    expect(made.status).toBe(200);
    expect(made.body.secret).toMatch(/^[\w-]{32}$/);
    expect((await call('POST', LOW_STOCK_WEBHOOK_PATH, server.tokens.north!, { url })).status).toBe(403);
    for (const bad of [{ url: 'ftp://example.com/' }, { url: 'not a url' }, { url, secret: 'short' }, {}]) {
      expect((await call('POST', LOW_STOCK_WEBHOOK_PATH, admin, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect(await call('POST', LOW_STOCK_WEBHOOK_PATH, admin, { url, secret: SECRET })).toEqual({
      status: 200,
      body: { url, secret: SECRET },
    });
  });

  it('sends a crossing after the write, retries it under the same id with backoff until a 2xx, signed, and never again', async () => {
    const manager = server.tokens.north!;
    await call('POST', REORDER_POINTS_PATH, manager, [{ barcode: MUG, warehouse_name: 'Main', minimum: 4, target: 12 }]);
    // The receiver hangs on the first attempt, then fails once with 500 before taking it.
    answers.push('hold', 500, 200);
    loop = startWebhookLoop(server.store, { intervalMs: 5, firstRetryMs: 1, maxBackoffMs: 4 });
    const sale = await call('POST', ADJUST_PATH, manager, [{ barcode: MUG, warehouse_name: 'Main', delta: -1 }]); // 5 → 4: crosses
    expect(sale.status).toBe(200);
    await expect.poll(() => received.length, { timeout: 10_000, interval: 5 }).toBe(1);
    // While the receiver holds the first attempt, writes go on: another sale (4 → 3, no crossing) is answered.
    expect((await call('POST', ADJUST_PATH, manager, [{ barcode: MUG, warehouse_name: 'Main', delta: -1 }])).status).toBe(200);
    release();
    await expect.poll(() => received.length, { timeout: 10_000, interval: 5 }).toBe(3);

    const ids = new Set(received.map((r) => r.id));
    expect(ids.size).toBe(1);
    for (const r of received) {
      expect(r.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(`${r.timestamp}.${r.body}`).digest('hex')}`);
      expect(r.body).toBe(received[0]!.body);
    }
    const event = JSON.parse(received[0]!.body);
    expect(event).toMatchObject({
      id: received[0]!.id,
      type: 'low_stock',
      account: 'north',
      barcode: MUG,
      warehouse: 10,
      warehouse_name: 'Main',
      quantity: 4,
      minimum: 4,
      target: 12,
      suggested_order: 8,
    });
    expect(received[0]!.id).toBe(`low-stock:${event.movement}`);
    // The third answer (the 2xx) is recorded as the delivery.
    await expect
      .poll(() => server.probe.all('SELECT attempts, delivered_at, last_error FROM low_stock_events'), { timeout: 10_000, interval: 5 })
      .toEqual([{ attempts: 3, delivered_at: expect.any(String), last_error: null }]);

    // Delivered: later passes send nothing more; a new crossing (back to 10, then down to 4) is a new event.
    await passes(3);
    expect(received).toHaveLength(3);
    await call('POST', INVENTORY_PATH, manager, [{ barcode: MUG, warehouse_name: 'Main', quantity: 10 }]);
    await call('POST', ADJUST_PATH, manager, [{ barcode: MUG, warehouse_name: 'Main', delta: -6 }]);
    await expect.poll(() => received.length, { timeout: 10_000, interval: 5 }).toBe(4);
    expect(received[3]!.id).not.toBe(received[0]!.id);
    expect(JSON.parse(received[3]!.body)).toMatchObject({ quantity: 4, suggested_order: 8 });
    await passes(3);
    expect(received).toHaveLength(4);
  });

  it('waits twice as long after each failure, up to its bound', () => {
    expect([1, 2, 3, 4, 5].map((failed) => retryDelayMs(failed, DEFAULT_FIRST_RETRY_MS, 30_000))).toEqual([
      5_000, 10_000, 20_000, 30_000, 30_000,
    ]);
  });
});
