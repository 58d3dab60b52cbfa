// The server side of the scanner UI: static files at `/`, one-time sign-in codes, the account and
// labels endpoints, the signin-link command, and which database the launcher serves. On both
// engines; the demo database of the first start, a SQLite file, is in ui-server-sqlite-demo.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PATH, INVENTORY_PATH, LABELS_PATH, SIGNIN_PATH, requestMessages, signInMessages } from '../../shared/index.ts';
import { DEMO_DATABASE_NAME, launch } from '../../server/launch/launch.ts';
import { openStore } from '../../server/store/open-store.ts';
import { hashSecret } from '../../server/store/secret-hash.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase, onPostgres } from '../support/test-engine.ts';
import { type TestServer, seedDatabase, startTestServer, tempDir } from '../support/test-server.ts';
import { ROOT } from '../support/paths.ts';

const root = ROOT;

/** A small stand-in for a built UI: the server must serve whatever the build put there. */
function fakeUi(dir: string): string {
  const ui = path.join(dir, 'ui');
  mkdirSync(path.join(ui, 'assets'), { recursive: true });
  writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>ui</title>');
  writeFileSync(path.join(ui, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(ui, '.secret'), 'hidden');
  return ui;
}

describe('static UI', () => {
  let server: TestServer;
  const temp = tempDir('bi-ui-');
  beforeAll(async () => {
    server = await startTestServer(undefined, { uiDir: fakeUi(temp.dir) });
  });
  afterAll(async () => {
    await server.stop();
    temp.remove();
  });

  it('serves index.html at / (revalidated) and hashed assets (cached for good)', async () => {
    const index = await server.request('GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('<title>ui</title>');
    const asset = await server.request('GET', '/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('max-age=31536000,immutable');
    const head = await server.request('HEAD', '/');
    expect(head.status).toBe(200);
  });

  it('answers missing, hidden and escaping paths with the JSON 404/4xx of the API, never a file-system detail', async () => {
    for (const urlPath of ['/nope.html', '/assets/missing.js', '/.secret', '/assets/']) {
      const res = await server.request('GET', urlPath);
      expect(res.status, urlPath).toBe(404);
      expect(await res.json()).toEqual({ detail: requestMessages.notFound, code: 'not_found' });
    }
    const escaping = await server.request('GET', '/..%2f..%2fpackage.json');
    expect([400, 403, 404]).toContain(escaping.status);
    const body = (await escaping.json()) as { detail: string };
    expect(body.detail).not.toMatch(/\/|ENOENT/);
  });

  it('leaves API paths alone: JSON 404 and 405 as before', async () => {
    const missing = await server.request('GET', '/api/v1/nope/');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: requestMessages.notFound, code: 'not_found' });
    const wrongMethod = await server.request('DELETE', INVENTORY_PATH, { token: server.tokens.kiosk! });
    expect(wrongMethod.status).toBe(405);
    const post = await server.request('POST', '/', { body: {} });
    expect(post.status).toBe(404);
  });

  it('serves no files when no UI folder is given', async () => {
    const bare = await startTestServer();
    try {
      const res = await bare.request('GET', '/');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: requestMessages.notFound, code: 'not_found' });
    } finally {
      await bare.stop();
    }
  });
});

describe('sign-in codes and UI endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const redeem = (body: unknown) => server.request('POST', SIGNIN_PATH, { body });

  it('exchanges a code once for a working token of its account', async () => {
    const { code } = await server.store.signIn.createCode('north');
    const res = await redeem({ code });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { token: string; account: string; warehouses_enabled: boolean };
    expect(body).toEqual({ account: 'north', warehouses_enabled: true, role: 'manager', token: expect.stringMatching(/^bi_/) });
    const read = await server.request('GET', `${INVENTORY_PATH}?barcodes=8690000000017`, { token: body.token });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { results: unknown[] }).results).toHaveLength(2);

    const again = await redeem({ code });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ detail: signInMessages.invalidCode, code: 'signin_code_invalid' });
  });

  it('refuses expired, unknown and malformed codes', async () => {
    // A code made an hour ago that worked for a minute.
    const { code: expired } = await server.store.signIn.createCode('kiosk', 60_000);
    const past = Date.now() - 60 * 60_000;
    const aged = await server.probe.run(
      'UPDATE signin_codes SET created_at = ?, expires_at = ? WHERE code_hash = ?',
      new Date(past).toISOString(),
      new Date(past + 60_000).toISOString(),
      hashSecret(expired),
    );
    expect(aged).toBe(1);
    for (const body of [{ code: expired }, { code: 'not-a-code' }]) {
      const res = await redeem(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: signInMessages.invalidCode, code: 'signin_code_invalid' });
    }
    for (const body of [{}, { code: 42 }, [], { code: '' }]) {
      const res = await redeem(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: signInMessages.codeRequired, code: 'invalid_body' });
    }
    const text = await server.request('POST', SIGNIN_PATH, { body: 'code=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const get = await server.request('GET', SIGNIN_PATH);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
  });

  it('lets a code be redeemed only once even when two requests race', async () => {
    const { code } = await server.store.signIn.createCode('kiosk');
    const answers = await Promise.all([redeem({ code }), redeem({ code }), redeem({ code })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    expect(await server.store.signIn.redeem(code)).toBeUndefined();
  });

  it('says who a token belongs to, and needs a token for it', async () => {
    const res = await server.request('GET', ACCOUNT_PATH, { token: server.tokens.kiosk! });
    expect(await res.json()).toEqual({
      account: 'kiosk',
      warehouses_enabled: false,
      gtin_equivalence: false,
      role: 'manager',
      person: null,
      person_idle_minutes: 10,
    });
    const anonymous = await server.request('GET', ACCOUNT_PATH);
    expect(anonymous.status).toBe(401);
  });

  it('names the items and variants behind barcodes of the calling account only', async () => {
    const res = await server.request('GET', `${LABELS_PATH}?barcodes=8690000000017,8690000000024,111,nope`, {
      token: server.tokens.north!,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      labels: {
        '8690000000017': { item_name: 'Mug', variant_name: null },
        '8690000000024': { item_name: 'T-shirt', variant_name: 'S' },
      },
    });
    const empty = await server.request('GET', LABELS_PATH, { token: server.tokens.north! });
    expect(empty.status).toBe(400);
  });
});

describe('labels of barcodes named like Object properties', () => {
  let server: TestServer;
  const tricky = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  beforeAll(async () => {
    server = await startTestServer({
      accounts: [
        {
          name: 'odd',
          warehouses_enabled: false,
          items: [
            ...tricky.map((barcode, i) => ({ id: 700 + i, name: `Item ${barcode}`, barcode, stock: [{ quantity: i }] })),
            { id: 710, name: 'Shirt', variants: [{ id: 7101, name: 'L', barcode: '__defineGetter__' }] },
          ],
        },
      ],
    });
  });
  afterAll(() => server.stop());

  const labels = async (barcodes: string) => {
    const res = await server.request('GET', `${LABELS_PATH}?barcodes=${encodeURIComponent(barcodes)}`, { token: server.tokens.odd! });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('keeps the label of a barcode `__proto__` (no prototype on the map)', async () => {
    expect(await labels('__proto__')).toBe('{"labels":{"__proto__":{"item_name":"Item __proto__","variant_name":null}}}');
  });

  it('answers every such barcode as an ordinary key, and none that the account does not have', async () => {
    const parsed = JSON.parse(await labels([...tricky, '__defineGetter__', 'valueOf', 'isPrototypeOf'].join(','))) as {
      labels: Record<string, unknown>;
    };
    const entries = Object.entries(parsed.labels).sort(([a], [b]) => a.localeCompare(b));
    expect(entries).toEqual(
      [
        ...tricky.map((barcode) => [barcode, { item_name: `Item ${barcode}`, variant_name: null }]),
        ['__defineGetter__', { item_name: 'Shirt', variant_name: 'L' }],
      ].sort(([a], [b]) => (a as string).localeCompare(b as string)),
    );
    // The read endpoint finds them too.
    const read = await server.request('GET', `${INVENTORY_PATH}?barcodes=${encodeURIComponent(tricky.join(','))}`, {
      token: server.tokens.odd!,
    });
    expect(
      ((await read.json()) as { results: { barcode: string; quantity: number }[] }).results.map((r) => [r.barcode, r.quantity]),
    ).toEqual(tricky.map((b, i) => [b, i]));
  });
});

describe('signin-link command', () => {
  it('prints a link whose code signs in once', async () => {
    const temp = tempDir();
    const dbFile = await newDatabase(temp.dir);
    try {
      await seedDatabase(dbFile, { accounts: [{ name: 'shop', warehouses_enabled: false, items: [] }] });
      const dbOption = onPostgres() ? '--database' : '--db';
      const run = (account: string, ...more: string[]) =>
        spawnSync(
          process.execPath,
          [
            path.join(root, 'bin/barcode-inventory.js'),
            'signin-link',
            '--account',
            account,
            dbOption,
            dbFile,
            '--url',
            'http://127.0.0.1:9999/',
            ...more,
          ],
          { encoding: 'utf8' },
        );
      const ok = run('shop');
      expect(ok.status).toBe(0);
      const link = ok.stdout.trim().split('\n').at(-1)!;
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:9999\/#signin=[\w-]+$/);
      const store = await openStore(dbFile);
      try {
        const code = decodeURIComponent(link.split('#signin=')[1]!);
        expect(await store.signIn.redeem(code)).toMatchObject({ account: { name: 'shop' }, role: 'manager' });
        expect(await store.signIn.redeem(code)).toBeUndefined();
        // A counter's link signs in as a counter; a role without a scanner UI is no sign-in link.
        const counter = run('shop', '--role', 'counter');
        expect(counter.stdout).toContain('for account "shop" as a counter');
        const counterCode = decodeURIComponent(counter.stdout.trim().split('\n').at(-1)!.split('#signin=')[1]!);
        expect(await store.signIn.redeem(counterCode)).toMatchObject({ role: 'counter' });
        for (const role of ['till', 'sync', 'api', 'full']) {
          const refused = run('shop', '--role', role);
          expect(refused.status, role).toBe(1);
          expect(refused.stderr).toContain(`Cannot give role "${role}": choose counter, manager, admin or device.`);
        }
      } finally {
        await store.close();
      }
      const missing = run('nobody');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('No account named "nobody"');
    } finally {
      await dropDatabase(dbFile);
      temp.remove();
    }
  });
});

describe('the launcher', () => {
  const temp = tempDir();
  const databases: string[] = [];
  afterAll(async () => {
    for (const location of databases) await dropDatabase(location);
    temp.remove();
  });
  const database = async () => {
    const location = await newDatabase(temp.dir, `launch-${databases.length}.db`);
    databases.push(location);
    return location;
  };

  it('serves the real database once it has an account, with or without the demo', async () => {
    const location = await database();
    await seedDatabase(location, { accounts: [{ name: 'mine', warehouses_enabled: false, items: [] }] });
    for (const demo of [true, false]) {
      const launched = await launch({ database: location, demo, port: 0 });
      try {
        expect({ database: launched.database, demo: launched.demo, accounts: launched.accounts }).toEqual({
          database: location,
          demo: false,
          accounts: [expect.objectContaining({ name: 'mine' })],
        });
        expect(launched.describe().join('\n')).toContain(`(database: ${location})`);
      } finally {
        await launched.close();
      }
    }
  });

  it('serves on a free port, with its database open, when the port asked for is taken and any free one will do (the desktop shell)', async () => {
    const location = await database();
    await seedDatabase(location, { accounts: [{ name: 'mine', warehouses_enabled: false, items: [] }] });
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      await expect(launch({ database: location, port, sync: false })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const launched = await launch({ database: location, port, portInUse: 'any-free', sync: false });
      try {
        expect(launched.server.port).not.toBe(port);
        // The store is the one the first listen failed on: still open, and served.
        expect((await launched.signInOffers(60_000)).map((offer) => offer.account)).toEqual(['mine']);
        expect((await fetch(`${launched.server.url}${ACCOUNT_PATH}`)).status).toBe(401);
      } finally {
        await launched.close();
      }
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('serves an empty database as it is without the demo', async () => {
    const location = await database();
    const launched = await launch({ database: location, demo: false, port: 0 });
    try {
      expect({ database: launched.database, demo: launched.demo, accounts: launched.accounts }).toEqual({
        database: location,
        demo: false,
        accounts: [],
      });
      expect(launched.describe()).toContain('No accounts yet: import a catalogue (npx barcode-inventory import <file>), then restart.');
    } finally {
      await launched.close();
    }
  });

  it('never puts demo data into the real database; the demo is a file beside a SQLite file, none for PostgreSQL', async () => {
    const location = await database();
    const launched = await launch({ database: location, demo: true, port: 0 });
    try {
      // The demo is a SQLite file beside the real one (ui-server-sqlite-demo.test.ts); a PostgreSQL
      // database has no "beside": it is served as it is, as with --no-demo.
      expect({ database: launched.database, demo: launched.demo }).toEqual(
        onPostgres() ? { database: location, demo: false } : { database: path.join(temp.dir, DEMO_DATABASE_NAME), demo: true },
      );
    } finally {
      await launched.close();
    }
    const real = probeDatabase(location);
    try {
      expect(await real.all('SELECT name FROM accounts')).toEqual([]);
    } finally {
      await real.close();
    }
  });
});
