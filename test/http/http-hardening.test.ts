// The HTTP hardening of issue 4, each item against the real server: security headers and CSP on
// every response, Host and Origin checks, the failed-authentication rate limit, slow-request
// timeouts, JSON request logs with a request id and no secrets, tokens stored as hashes, and the
// LAN notice of `serve`.
import { createServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { clientKey } from '../../server/http/client-key.ts';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security-headers.ts';
import { lanNotice } from '../../server/launch/lan-notice.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { INVENTORY_PATH, WAREHOUSES_PATH, hardeningMessages, requestMessages } from '../../shared/index.ts';
import { sendRaw } from '../support/raw-http.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { type TestServer, exampleCatalogue, seedDatabase, startTestServer, tempDir } from '../support/test-server.ts';

/** `a b; c d` → {a: 'b', c: 'd'}: compares CSPs without caring about spacing. */
function parseCsp(header: string | null): Record<string, string> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name!, sources.join(' ')];
      }),
  );
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it.each([
    ['200', 'GET', `${INVENTORY_PATH}?barcodes=111`, true],
    ['401', 'GET', WAREHOUSES_PATH, false],
    ['404', 'GET', '/nowhere', true],
    ['405', 'DELETE', WAREHOUSES_PATH, true],
    ['400', 'POST', INVENTORY_PATH, true],
  ])('are on a %s answer', async (status, method, urlPath, withToken) => {
    const response = await server.request(method, urlPath, {
      token: withToken ? server.tokens.kiosk : undefined,
      ...(method === 'POST' ? { body: '{' } : {}),
    });
    expect(String(response.status)).toBe(status);
    const expected = Object.fromEntries(Object.entries(CONTENT_SECURITY_POLICY).map(([k, v]) => [k, v.join(' ')]));
    expect(parseCsp(response.headers.get('content-security-policy'))).toEqual(expected);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('strict-transport-security')).toBeNull(); // plain HTTP on a LAN
    if (urlPath.startsWith('/api/')) expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Host and Origin checks', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('answers only loopback names on a loopback bind (DNS rebinding), on any port (a tunnel)', async () => {
    const port = server.port;
    const auth: [string, string] = ['Authorization', `Token ${server.tokens.kiosk}`];
    // `ssh -L 9000:127.0.0.1:<port> shop-pc` arrives with Host 127.0.0.1:9000: a rebound name never needs another port.
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `LOCALHOST:${port}`,
      '127.0.0.1:9000',
      `localhost:${port + 1}`,
      'localhost',
    ]) {
      expect((await sendRaw(port, { method: 'GET', target: WAREHOUSES_PATH, host, headers: [auth] })).status, host).toBe(200);
    }
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `192.168.1.5:${port}`,
      'localhost.evil.example',
    ]) {
      const response = await sendRaw(port, { method: 'GET', target: WAREHOUSES_PATH, host, headers: [auth] });
      expect(response.status, host).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ detail: hardeningMessages.hostNotAllowed(host), code: 'host_not_allowed' });
    }
  });

  it('also answers to the loopback address it was bound to', async () => {
    const { dir, remove } = tempDir();
    const dbFile = await newDatabase(dir, 'bound.db');
    const tokens = await seedDatabase(dbFile, exampleCatalogue());
    const bound = await startServer({ store: await openStore(dbFile), host: '127.0.0.5', port: 0 });
    try {
      const ok = await fetch(`${bound.url}${WAREHOUSES_PATH}`, { headers: { authorization: `Token ${tokens.north}` } });
      expect(bound.url).toMatch(/^http:\/\/127\.0\.0\.5:/);
      expect(ok.status).toBe(200);
    } finally {
      await bound.close();
      await dropDatabase(dbFile);
      remove();
    }
  });

  it('refuses browser origins other than its own', async () => {
    const own = await server.request('GET', WAREHOUSES_PATH, { token: server.tokens.north, headers: { origin: server.url } });
    expect(own.status).toBe(200);
    for (const origin of ['http://evil.example', 'null', 'http://localhost:1', 'file://']) {
      const response = await server.request('POST', INVENTORY_PATH, {
        token: server.tokens.north,
        headers: { origin },
        body: [{ barcode: '111', quantity: 1 }],
      });
      expect(response.status, origin).toBe(403);
      expect(await response.json()).toEqual({ detail: hardeningMessages.originNotAllowed(origin), code: 'origin_not_allowed' });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('lets an allow-listed origin in with CORS headers, and checks no Host on a LAN bind', async () => {
    const { dir, remove } = tempDir();
    const dbFile = await newDatabase(dir, 'cors.db');
    const tokens = await seedDatabase(dbFile, exampleCatalogue());
    const store = await openStore(dbFile);
    // As `serve --host 0.0.0.0 --allow-origin http://till.local:3000` builds it, listening on loopback for the test.
    const app = createApp({ store, bindHost: '0.0.0.0', allowedOrigins: ['http://till.local:3000/'] });
    const handle = app.callback();
    const http = createServer((request, response) => void handle(request, response));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const preflight = await sendRaw(port, {
        method: 'OPTIONS',
        target: INVENTORY_PATH,
        host: 'shop-pc.local:8270',
        headers: [
          ['Origin', 'http://till.local:3000'],
          ['Access-Control-Request-Method', 'POST'],
          ['Access-Control-Request-Headers', 'authorization, content-type'],
        ],
      });
      expect(preflight.status).toBe(204);
      expect(preflight.head).toMatch(/^access-control-allow-origin: http:\/\/till\.local:3000$/im);
      expect(preflight.head).toMatch(/^access-control-allow-headers: .*Authorization/im);
      const call = await sendRaw(port, {
        method: 'GET',
        target: WAREHOUSES_PATH,
        host: 'shop-pc.local:8270',
        headers: [
          ['Origin', 'http://till.local:3000'],
          ['Authorization', `Token ${tokens.north}`],
        ],
      });
      expect(call.status).toBe(200);
      expect(call.head).toMatch(/^access-control-allow-origin: http:\/\/till\.local:3000$/im);
      const other = await sendRaw(port, {
        method: 'GET',
        target: WAREHOUSES_PATH,
        host: 'shop-pc.local:8270',
        headers: [
          ['Origin', 'http://till.local:3001'],
          ['Authorization', `Token ${tokens.north}`],
        ],
      });
      expect(other.status).toBe(403);
    } finally {
      await new Promise((resolve) => http.close(resolve));
      await store.close();
      await dropDatabase(dbFile);
      remove();
    }
  });
});

describe('failed-authentication rate limit', () => {
  const { dir, remove } = tempDir();
  let server: RunningServer;
  let tokens: Record<string, string>;
  let dbFile: string;
  beforeAll(async () => {
    dbFile = await newDatabase(dir, 'limit.db');
    tokens = await seedDatabase(dbFile, exampleCatalogue());
    server = await startServer({ store: await openStore(dbFile), port: 0, authRateLimit: { points: 5, durationSeconds: 60 } });
  });
  afterAll(async () => {
    await server.close();
    await dropDatabase(dbFile);
    remove();
  });

  const from = (localAddress: string, token?: string, headers: [string, string][] = []) =>
    sendRaw(server.port, {
      method: 'GET',
      target: WAREHOUSES_PATH,
      localAddress,
      headers: [...(token === undefined ? [] : [['Authorization', `Token ${token}`] as [string, string]]), ...headers],
    });

  it('does not count requests without a token, so a page cannot lock valid clients out', async () => {
    // What `<img src="http://127.0.0.1:8270/api/v1/core/warehouse/">` on any web page makes a browser send.
    for (let i = 0; i < 31; i++) expect((await from('127.0.0.2')).status).toBe(401);
    expect((await from('127.0.0.2', tokens.north!)).status).toBe(200);
    expect((await from('127.0.0.2', 'wrong')).status).toBe(401);
  });

  it('answers 429 with Retry-After to further wrong tokens, and never refuses a valid token', async () => {
    // Every loopback address is one client: the window, the browser and the tills of this computer.
    for (let i = 0; i < 4; i++) expect((await from(i % 2 === 0 ? '127.0.0.3' : '127.0.0.4', `wrong-${i}`)).status).toBe(401);
    const limited = await from('127.0.0.5', 'wrong-again');
    expect(limited.status).toBe(429);
    expect(limited.head).toMatch(/^retry-after: \d+$/im);
    expect(JSON.parse(limited.body).detail).toMatch(/^Too many failed authentication attempts/);
    expect((await from('127.0.0.3', 'a-revoked-token')).status).toBe(429);
    // A valid token still works from every loopback address, and a missing one is still a plain 401.
    for (const address of ['127.0.0.1', '127.0.0.3', '127.0.0.4']) expect((await from(address, tokens.north!)).status).toBe(200);
    expect((await from('127.0.0.3')).status).toBe(401);
  });

  it('counts loopback as one client, an IPv6 client by its /64, and IPv4 through IPv6 as IPv4', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect(clientKey(address), address).toBe('loopback');
    expect(clientKey('192.168.1.5')).toBe('192.168.1.5');
    expect(clientKey('::ffff:192.168.1.5')).toBe('192.168.1.5');
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(clientKey('2001:db8:1:2::9'));
    expect(clientKey('2001:db8:1:2::9')).not.toBe(clientKey('2001:db8:1:3::9'));
    expect(clientKey('192.168.1.5')).not.toBe(clientKey('192.168.1.6'));
  });

  it('refuses cross-site requests without CORS before authentication', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const refused = await from('127.0.0.6', 'wrong', [['Sec-Fetch-Site', site]]);
      expect(refused.status, site).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ detail: hardeningMessages.crossSiteRefused, code: 'cross_site_refused' });
    }
    for (const site of ['same-origin', 'none'])
      expect((await from('127.0.0.6', tokens.north!, [['Sec-Fetch-Site', site]])).status, site).toBe(200);
  });
});

describe('slow requests', () => {
  const { dir, remove } = tempDir();
  let server: RunningServer;
  let token: string;
  let dbFile: string;
  beforeAll(async () => {
    dbFile = await newDatabase(dir, 'slow.db');
    token = (await seedDatabase(dbFile, exampleCatalogue())).north!;
    server = await startServer({ store: await openStore(dbFile), port: 0, timeouts: { headersMs: 300, requestMs: 600, checkEveryMs: 50 } });
  });
  afterAll(async () => {
    await server.close();
    await dropDatabase(dbFile);
    remove();
  });

  const trickle = (parts: string[]) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
      socket.write(parts[0]!); // and never the rest: the server must hang up by itself
    });

  it('closes a connection whose headers never finish (slow loris)', async () => {
    const answer = await trickle([`GET ${WAREHOUSES_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `]);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body never finishes', async () => {
    const answer = await trickle([
      `POST ${INVENTORY_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Token ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[`,
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('request logs', () => {
  it('writes one JSON line per request with its id, and no token or row data at info level', async () => {
    const { dir, remove } = tempDir();
    const dbFile = await newDatabase(dir, 'log.db');
    const tokens = await seedDatabase(dbFile, exampleCatalogue());
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).split('\n').filter(Boolean)), done()) });
    const server = await startServer({ store: await openStore(dbFile), port: 0, logger: pino({ level: 'info' }, sink) });
    try {
      const secretBarcode = '8690000000017';
      const read = await fetch(`${server.url}${INVENTORY_PATH}?barcodes=${secretBarcode}`, {
        headers: { authorization: `Token ${tokens.north}` },
      });
      const write = await fetch(`${server.url}${INVENTORY_PATH}`, {
        method: 'POST',
        headers: { authorization: `Token ${tokens.north}`, 'content-type': 'application/json', 'x-request-id': 'till-7-0001' },
        body: JSON.stringify([{ barcode: secretBarcode, warehouse_name: 'Main', quantity: 424242 }]),
      });
      const bad = await fetch(`${server.url}${WAREHOUSES_PATH}`, { headers: { authorization: 'Token not-a-real-token-value' } });
      expect([read.status, write.status, bad.status]).toEqual([200, 200, 401]);
      const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(entries).toHaveLength(3);
      expect(entries.map((e) => e.reqId)).toEqual([read.headers.get('x-request-id'), 'till-7-0001', bad.headers.get('x-request-id')]);
      expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
        ['GET', INVENTORY_PATH, 200],
        ['POST', INVENTORY_PATH, 200],
        ['GET', WAREHOUSES_PATH, 401],
      ]);
      const all = lines.join('\n');
      for (const secret of [tokens.north!, 'not-a-real-token-value', secretBarcode, '424242', 'Main']) expect(all).not.toContain(secret);
    } finally {
      await server.close();
      await dropDatabase(dbFile);
      remove();
    }
  });

  it('refuses a forged request id that could break a log line', async () => {
    const server = await startTestServer();
    try {
      const response = await server.request('GET', WAREHOUSES_PATH, { token: server.tokens.north, headers: { 'x-request-id': 'a"b}{' } });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await server.stop();
    }
  });
});

describe('secrets at rest and on the network', () => {
  it('stores tokens only as hashes', async () => {
    const server = await startTestServer();
    try {
      const rows = await server.probe.all('SELECT * FROM api_tokens');
      expect(rows).toHaveLength(Object.keys(server.tokens).length);
      const stored = JSON.stringify(rows);
      for (const key of Object.values(server.tokens)) {
        expect(stored).not.toContain(key);
        expect(stored).not.toContain(key.slice(12)); // not even the part after the shown prefix
      }
    } finally {
      await server.stop();
    }
  });

  it('says loudly when the API is reachable from the network, and nothing on loopback', () => {
    expect(lanNotice('127.0.0.1', 8270)).toBeNull();
    expect(lanNotice('localhost', 8270)).toBeNull();
    expect(lanNotice('::1', 8270)).toBeNull();
    expect(lanNotice('0.0.0.0', 8270)).toMatch(/^WARNING: listening on 0\.0\.0\.0: the API is reachable from the network/);
    expect(lanNotice('192.168.1.20', 8270)).toContain('http://192.168.1.20:8270/api/v1/');
  });

  it('answers a CONNECT tunnel request with 405 instead of leaving it hanging', async () => {
    const server = await startTestServer();
    try {
      const response = await sendRaw(server.port, { method: 'CONNECT', target: 'example.com:443' });
      expect(response.status).toBe(405);
      expect(JSON.parse(response.body)).toEqual({ detail: requestMessages.methodNotAllowed('CONNECT'), code: 'method_not_allowed' });
    } finally {
      await server.stop();
    }
  });
});
