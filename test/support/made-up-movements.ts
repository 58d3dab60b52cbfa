// Movements as an attacker or a test makes them up, for the sync door's tests (docs/SYNC.md, "Who
// may speak for an origin"): any origin, any sequence, any stamp, on the example catalogue's north
// account; a follower registered the way `sync link` registers one; and a small HTTP server that
// plays an upstream answering what a test wants, for the follower's side.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SYNC_FOLLOWERS_PATH, SYNC_MOVEMENTS_PATH, type SyncMovement } from '../../shared/index.ts';
import { call } from './stocktake-fixtures.ts';
import type { TestServer } from './test-server.ts';

export const MUG = '8690000000017'; // north, item 100, 5 in Main (warehouse 10)
export const SHIRT = '8690000000024'; // north, item 101 / variant 5001, 3 in Main

/** A hybrid logical clock timestamp of `origin` at `wall` (ms). */
export const hlcAt = (wall: number, origin: string, counter = 0) =>
  `${String(Math.max(0, Math.round(wall))).padStart(16, '0')}-${String(counter).padStart(5, '0')}-${origin}`;

/** A movement of north's mug in Main, made up: an adjust of +1 now unless `over` says otherwise. */
export function madeUp(origin: string, seq: number, over: Partial<SyncMovement> = {}): SyncMovement {
  return {
    id: `${origin}-${seq}`,
    origin,
    seq,
    kind: 'adjust',
    value: 1,
    hlc: hlcAt(Date.now(), origin, seq % 1000),
    item: 100,
    liquid_stock: null,
    warehouse: 10,
    barcode: MUG,
    seen: null,
    source: 'api',
    reason: null,
    reference: null,
    created_at: new Date().toISOString(),
    ...over,
  };
}

/** `n` made-up origin ids, distinct for each `prefix` (4 to 32 lowercase letters and digits). */
export const madeUpOrigins = (prefix: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(from + i).padStart(6, '0')}`);

/** Registers `instance` with `server` for the token's account, as `sync link` does; answers the status. */
export async function register(server: TestServer, token: string, instance: string, label: string, status = 200) {
  return call(server, 'POST', SYNC_FOLLOWERS_PATH, token, { instance, label }, status);
}

/** Pushes `movements` with `token`, expecting `status`; answers the JSON body. */
export async function push<T = any>(server: TestServer, token: string, movements: readonly SyncMovement[], status = 200): Promise<T> {
  return call<T>(server, 'POST', SYNC_MOVEMENTS_PATH, token, { movements }, status);
}

/** A made-up upstream: `answer(method, path)` says what to answer (status 404 for anything it does not know). */
export interface FakeUpstream {
  url: string;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

export async function fakeUpstream(
  answer: (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined,
): Promise<FakeUpstream> {
  const requests: { method: string; path: string }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? 'GET', path });
      const reply = answer(req.method ?? 'GET', path, text ? JSON.parse(text) : undefined) ?? {
        status: 404,
        body: { detail: 'Not found.' },
      };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
