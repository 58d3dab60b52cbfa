// One account's many connections against another's one, through a real server: requests are shared
// out by account (server/http/account-turns.ts; on PostgreSQL the pool's connections too,
// server/store/postgres/fair-connections.ts), so a scanner's request that arrives behind a burst of
// another account's is served after a few of them, not after the whole burst. The burst is written
// to the sockets in one go, before the server (in this process) can read any of it, so the server
// finds every request waiting at once, the other account's first.
import http from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/api-paths.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const BURST = 40;
const READ = '/api/v1/core/item/inventory_by_barcode/?barcodes=8690000000017,8690000000024';

describe("one account's burst and another account's scanner", () => {
  let server: TestServer;
  const finished: string[] = []; // request ids, in the order the server finished them
  const agent = new http.Agent({ keepAlive: true, maxSockets: BURST + 1 });

  beforeAll(async () => {
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        const line = JSON.parse(chunk.toString()) as { msg: string; reqId: string };
        if (line.msg === 'request') finished.push(line.reqId);
        done();
      },
    });
    server = await startTestServer(undefined, { logger: pino({ level: 'info' }, lines) });
  });
  afterAll(async () => {
    agent.destroy();
    await server?.stop();
  });

  /** Requests sent on a connection opened for them, not on one of the warm-up's. */
  const onNewSockets: string[] = [];
  function get(token: string, id: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = http.get(
        `${server.url}${READ}`,
        { agent, headers: { authorization: `Token ${token}`, 'x-request-id': id } },
        (response) => {
          if (!request.reusedSocket) onNewSockets.push(id);
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        },
      );
      request.on('error', reject);
    });
  }

  /**
   * Warms every connection up, runs `beforeBurst`, then sends the burst and the scanner's request
   * together; the scanner's place in the order the server finished them.
   */
  async function scannerPlace(beforeBurst: () => Promise<void>): Promise<number> {
    const north = server.tokens.north!;
    const kiosk = server.tokens.kiosk!;
    // Every connection opened and accepted first, and both tokens looked up once (the lookup is then
    // kept): the burst needs no new connection, and only the reads differ in what they wait for.
    const warmUp = Array.from({ length: BURST + 1 }, (_, i) => get(i === BURST ? kiosk : north, `warm-${i}`));
    expect(await Promise.all(warmUp)).toEqual(Array(BURST + 1).fill(200));
    // A connection goes back to the agent's free list a moment after its answer ended: the burst waits
    // for all of them, or its last request (the scanner's) would open a connection of its own and be
    // accepted turns later.
    const free = () => Object.values(agent.freeSockets).reduce((sum, sockets) => sum + (sockets?.length ?? 0), 0);
    await expect.poll(free).toBe(BURST + 1);
    await beforeBurst();
    finished.length = 0;
    onNewSockets.length = 0;

    const burst = Array.from({ length: BURST }, (_, i) => get(north, `north-${i}`));
    const scanner = get(kiosk, 'kiosk');
    expect(await Promise.all([...burst, scanner])).toEqual(Array(BURST + 1).fill(200));

    expect(finished).toHaveLength(BURST + 1);
    expect(onNewSockets).toEqual([]); // every request of the burst on a connection the server already had
    const place = finished.indexOf('kiosk') + 1;
    expect(place).toBeGreaterThan(0);
    return place;
  }

  // In arrival order the scanner is last (41st). Shared out by account it is third: north-0 started at
  // once, north-1 was first in the rotation. The bound leaves room for a loaded host.
  const BOUND = 6;

  /**
   * The scanner's best place in up to three bursts, and the order of each. Its place is the server's
   * doing; a stall of the database is the host's, and does not strike the scanner three times
   * running. Seen on PostgreSQL under a loaded host: the scanner had a connection among the first,
   * 0.2 ms after it asked, and that connection's backend process took 48 ms over the query while
   * seven others answered six each, so it finished 41st. A scheduling bug puts it late every time:
   * in one line for all token look-ups it was 18th-19th in every burst.
   */
  async function bestPlace(beforeBurst: () => Promise<void>): Promise<{ place: number; orders: string }> {
    const orders: string[] = [];
    let best = Infinity;
    for (let burst = 0; burst < 3 && best > BOUND; burst++) {
      best = Math.min(best, await scannerPlace(beforeBurst));
      orders.push(finished.join(' '));
    }
    return { place: best, orders: `finished in this order:\n${orders.join('\n')}` };
  }

  it("serves the scanner's request after a few of the burst's, not after all of them", async () => {
    const { place, orders } = await bestPlace(async () => undefined);
    expect(place, orders).toBeLessThanOrEqual(BOUND);
  });

  it('does so too when a write has just dropped the kept token look-ups', async () => {
    // Any committed write drops what the store keeps (engine.kept); on a busy server that is most of
    // the time. Each request's token is then looked up in the database before its account is known,
    // and those look-ups must not run in arrival order either.
    const write = async () => {
      const res = await server.request('POST', INVENTORY_PATH, {
        token: server.tokens.north!,
        body: JSON.stringify([{ barcode: '8690000000017', quantity: 5 }]),
      });
      expect(res.status).toBe(200);
    };
    const { place, orders } = await bestPlace(write);
    expect(place, orders).toBeLessThanOrEqual(BOUND);
  });
});
