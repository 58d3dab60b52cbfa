// Proof 3 (issue 4): thousands of generated hostile requests against the real server — malformed
// and deeply nested JSON, wrong types, huge and empty bodies, invalid UTF-8 and percent-encoding,
// __proto__ keys, SQL-looking strings, oversized barcode lists, bad and missing tokens, every method
// on every path, foreign Host and Origin headers. Sent as raw bytes, one connection each, in a fixed
// (seeded) order. No 5xx, no crash, and stock changes only by the valid rows of the caller's own
// account: an independent oracle says which rows of each accepted request were valid, and the
// victim accounts that share the attacker's barcodes and warehouse names must not change at all.
import { METHODS } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import {
  API_DOCS_PATH,
  INVENTORY_PATH,
  MAX_QUANTITY,
  MIN_QUANTITY,
  OPENAPI_PATH,
  SIGNOUT_PATH,
  WAREHOUSES_PATH,
} from '../../shared/index.ts';
import { type DatabaseProbe, probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { type RawRequest, sendRaw } from '../support/raw-http.ts';
import { type Random, seededRandom } from '../support/seeded-random.ts';
import { seedDatabase, tempDir } from '../support/test-server.ts';

const SEED = 7;
const REQUESTS = 5000;
const WAREHOUSES = ['Main', 'Backroom'];
const SHARED_BARCODES = [...barcodes('H', 6), '0042', 'a b/c', 'çay-ü'];
const INVENTORY = INVENTORY_PATH;

const SQLISH = [
  "' OR '1'='1",
  '1; DROP TABLE stock; --',
  '") OR 1=1 --',
  "Main' --",
  '%',
  '_',
  '\\',
  'NULL',
  '*/ SELECT * FROM api_tokens /*',
];
const WEIRD_STRINGS = ['', ' ', '\u0000', '\u202e', '😀', 'a'.repeat(129), 'x'.repeat(5000), '\ud800', 'Main ', ' Main', 'main', 'MAIN'];

/**
 * Every route of the app as it is built now (all routers, including those other features add), with
 * `{/}` expanded both ways and `:params` filled with hostile values.
 */
function routeTargets(store: Store): string[] {
  const app = createApp({ store });
  const patterns = new Set<string>();
  for (const middleware of app.middleware as { router?: { stack: { path: string }[] } }[]) {
    for (const layer of middleware.router?.stack ?? []) patterns.add(layer.path);
  }
  const params = ['1', '0', '999999999', 'abc', '%00', '..', '%27%20OR%201%3D1'];
  const targets = new Set<string>();
  let p = 0;
  for (const pattern of patterns) {
    for (const slash of ['/', '']) {
      targets.add(pattern.replace('{/}', slash).replace(/:\w+/g, () => params[p++ % params.length]!));
    }
  }
  return [...targets];
}

/** Every method Node's parser knows, and one it does not. */
const ALL_METHODS = [...METHODS, 'FOO'];

type Attacker = 'attacker' | 'attacker-plain';
const ATTACKERS: Record<Attacker, { warehousesEnabled: boolean }> = {
  attacker: { warehousesEnabled: true },
  'attacker-plain': { warehousesEnabled: false },
};

interface Case {
  request: RawRequest;
  /** Which token it carries: only 'attacker' may change anything. */
  caller: 'attacker' | 'bad' | 'none';
  /** The attacker's account the token belongs to: one per scenario. */
  account?: Attacker;
  /** JSON text sent, when the oracle should judge it. */
  json?: string;
  /** A body over the limit: the server may answer and close before reading it all. */
  mayDropConnection?: boolean;
}

function jsonRow(rnd: Random): unknown {
  const row: Record<string, unknown> = {};
  const barcode = rnd.pick<unknown>([
    () => rnd.pick(SHARED_BARCODES),
    () => rnd.pick(SHARED_BARCODES),
    () => rnd.pick(SQLISH),
    () => rnd.pick(WEIRD_STRINGS),
    () => Number(rnd.int(0, 99999)),
    () => null,
    () => [rnd.pick(SHARED_BARCODES)],
    () => ({ $ne: '' }),
    () => true,
    () => undefined,
  ] as (() => unknown)[]);
  const quantity = rnd.pick<() => unknown>([
    () => rnd.int(-50, 5000),
    () => rnd.int(-50, 5000),
    () => String(rnd.int(-50, 5000)),
    () => ` ${rnd.int(0, 9)} `,
    () => rnd.int(0, 100) + 0.5,
    () => MAX_QUANTITY + rnd.int(1, 10),
    () => MIN_QUANTITY - 1,
    () => '1e3',
    () => '0x10',
    () => '99999999999999999999999',
    () => null,
    () => undefined,
    () => [],
    () => ({}),
    () => 'NaN',
    () => '-0',
    () => false,
  ]);
  const warehouse = rnd.pick<() => unknown>([
    () => rnd.pick(WAREHOUSES),
    () => rnd.pick(WAREHOUSES),
    () => rnd.pick(SQLISH),
    () => rnd.pick(WEIRD_STRINGS),
    () => 10,
    () => null,
    () => undefined,
  ]);
  const b = (barcode as () => unknown)();
  const q = quantity();
  const w = warehouse();
  if (b !== undefined) row.barcode = b;
  if (q !== undefined) row.quantity = q;
  if (w !== undefined) row.warehouse_name = w;
  if (rnd.chance(0.1)) row.extra = { nested: [1, 2, { deeper: 'x' }] };
  return row;
}

/** JSON text with hostile shapes the JSON.stringify of a value cannot produce. */
function hostileJsonText(rnd: Random): string {
  const goodRow = () =>
    JSON.stringify({ barcode: rnd.pick(SHARED_BARCODES), quantity: rnd.int(0, 99), warehouse_name: rnd.pick(WAREHOUSES) });
  const depth = rnd.pick([10, 63, 64, 65, 200, 5000, 100_000]);
  return rnd.pick<() => string>([
    () => `[${goodRow()}`, // truncated
    () => `[${goodRow()},]`, // trailing comma
    () => `[{'barcode': 'x'}]`,
    () => `[NaN]`,
    () => `[${goodRow()}] // comment`,
    () => `\ufeff[${goodRow()}]`, // BOM
    () => `${'['.repeat(depth)}${']'.repeat(depth)}`,
    () => `[${'{"a":'.repeat(Math.min(depth, 20000))}1${'}'.repeat(Math.min(depth, 20000))}]`,
    () => `[{"__proto__": {"barcode": "${rnd.pick(SHARED_BARCODES)}", "quantity": 5, "warehouse_name": "Main"}}]`,
    () =>
      `[{"__proto__": {"polluted": true}, "barcode": "${rnd.pick(SHARED_BARCODES)}", "quantity": ${rnd.int(0, 99)}, "warehouse_name": "Main"}]`,
    () =>
      `[{"constructor": {"prototype": {"polluted": true}}, "barcode": "${rnd.pick(SHARED_BARCODES)}", "quantity": 3, "warehouse_name": "Backroom"}]`,
    () => `[{"barcode": "${rnd.pick(SHARED_BARCODES)}", "barcode": "nope", "quantity": 1, "warehouse_name": "Main"}]`, // duplicate keys
    () => `{"barcode": "${rnd.pick(SHARED_BARCODES)}", "quantity": 1}`, // object, not list
    () => rnd.pick(['null', 'true', '0', '"[]"', '""', '[]', '{}', '1e999', '-']),
    () => `[${Array.from({ length: rnd.pick([50, 51, 500]) }, goodRow).join(',')}]`,
    () => `[${goodRow()}]${'x'.repeat(rnd.int(1, 10))}`,
  ])();
}

function generateCase(rnd: Random, tokens: Record<Attacker | 'victim', string>, port: number, routes: readonly string[]): Case {
  const caller = rnd.pick(['attacker', 'attacker', 'attacker', 'bad', 'none'] as const);
  const account: Attacker | undefined = caller === 'attacker' ? (rnd.chance(0.7) ? 'attacker' : 'attacker-plain') : undefined;
  const headers: [string, string | Buffer][] = [];
  const badToken = () =>
    rnd.pick([
      `Token ${tokens.attacker.slice(0, -1)}x`,
      `Token ${tokens.victim.slice(0, 10)}`,
      'Token',
      'Token a b',
      `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      `Bearer ${'A'.repeat(8000)}`,
      `Token ${tokens.attacker.toUpperCase()}`,
      "Token ' OR 1=1 --",
      `Token ${tokens.attacker}\u0000`,
    ]);
  if (account) headers.push(['Authorization', rnd.chance(0.5) ? `Token ${tokens[account]}` : `Bearer ${tokens[account]}`]);
  else if (caller === 'bad') headers.push(['Authorization', Buffer.from(badToken(), 'utf8')]);
  const localAddress = caller === 'attacker' ? '127.0.0.1' : '127.0.0.2';
  const base: Pick<RawRequest, 'headers' | 'localAddress'> = { headers, localAddress };
  const kind = rnd.int(0, 9);

  if (kind <= 3) {
    // POST bodies: generated rows or hostile JSON text, sometimes with a wrong content type or charset.
    const json = rnd.chance(0.55) ? JSON.stringify(Array.from({ length: rnd.int(0, 8) }, () => jsonRow(rnd))) : hostileJsonText(rnd);
    const contentType = rnd.pick([
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data; boundary=x',
      '',
    ]);
    if (contentType !== '') headers.push(['Content-Type', contentType]);
    const target = rnd.pick([INVENTORY, INVENTORY.slice(0, -1), `${INVENTORY}?barcodes=${rnd.pick(SHARED_BARCODES)}`]);
    return { caller, account, request: { ...base, method: 'POST', target, body: json }, json };
  }
  if (kind === 4) {
    // Bodies that are not text, too big, empty, or framed wrongly.
    headers.push(['Content-Type', 'application/json']);
    const variant = rnd.int(0, 5);
    if (variant === 0)
      return {
        caller,
        account,
        request: { ...base, method: 'POST', target: INVENTORY, body: Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x5d]) },
      };
    if (variant === 1) return { caller, account, request: { ...base, method: 'POST', target: INVENTORY, body: '' } };
    if (variant === 2) {
      const size = rnd.pick([1024 * 1024 + 1, 3 * 1024 * 1024]);
      return {
        caller,
        account,
        mayDropConnection: true,
        request: { ...base, method: 'POST', target: INVENTORY, body: Buffer.alloc(size, 0x20) },
      };
    }
    if (variant === 3) {
      headers.push(['Transfer-Encoding', 'chunked']);
      return {
        caller,
        account,
        request: {
          ...base,
          method: 'POST',
          target: INVENTORY,
          contentLength: false,
          body: rnd.pick(['zz\r\n[]\r\n0\r\n\r\n', '2\r\n[]\r\n0\r\n\r\n', '5\r\n[]\r\n0\r\n\r\n']),
        },
      };
    }
    if (variant === 4) {
      headers.push(['Content-Length', '2']);
      return { caller, account, request: { ...base, method: 'POST', target: INVENTORY, contentLength: false, body: '[]' } }; // two Content-Length headers
    }
    return { caller, account, request: { ...base, method: 'POST', target: INVENTORY, body: `[${'1,'.repeat(300_000)}1]` } };
  }
  if (kind <= 6) {
    // Reads with hostile query strings.
    const list = rnd.pick<() => string>([
      () => SHARED_BARCODES.map(encodeURIComponent).join(','),
      () => Array.from({ length: rnd.pick([50, 51, 200, 3000]) }, (_, i) => `B${i}`).join(','),
      () => encodeURIComponent(rnd.pick(SQLISH)),
      () => rnd.pick(['%', '%zz', '%E0%A4%A', '%FF%FE', '%C3%28', '%00', '%2C%2C%2C', ',,,', '']),
      () => `${encodeURIComponent(rnd.pick(SHARED_BARCODES))}&barcodes=${encodeURIComponent(rnd.pick(SHARED_BARCODES))}`,
      () => `${'x'.repeat(rnd.pick([129, 20_000]))}`,
    ])();
    const param = rnd.pick(['barcodes', 'barcodes[]', '__proto__', 'barcodes[__proto__]', 'constructor']);
    return { caller, account, request: { ...base, method: rnd.pick(['GET', 'GET', 'HEAD']), target: `${INVENTORY}?${param}=${list}` } };
  }
  if (kind === 7) {
    // Every method on every path, including malformed targets.
    const method = rnd.pick(ALL_METHODS);
    const target = rnd.pick<string | Buffer>([
      ...routes,
      '/',
      '/api',
      '/api/v1/',
      '/api/v1/core/',
      '/api/v1/core/item/inventory_by_barcode/../warehouse/',
      '/../../../../etc/passwd',
      '//api/v1/core/warehouse/',
      '/api/v1/core/warehouse/%2e%2e/',
      '/api/v1/core/%E0%A4%A/',
      '/api/v1/core/warehouse/%',
      Buffer.from([0x2f, 0x61, 0xff, 0xfe]),
      '*',
      'http://evil.example/api/v1/core/warehouse/',
      `/${'a/'.repeat(3000)}`,
    ]);
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      headers.push(['Content-Type', 'application/json']);
      return { caller, account, request: { ...base, method, target, body: '[]' } };
    }
    return { caller, account, request: { ...base, method, target } };
  }
  if (kind === 8) {
    // Foreign Host and Origin headers (DNS rebinding, cross-site requests).
    const host = rnd.pick<string | null>([
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      '',
      null,
      `127.0.0.1:${port}@evil`,
    ]);
    if (rnd.chance(0.5))
      headers.push([
        'Origin',
        rnd.pick(['http://evil.example', 'null', `http://127.0.0.1:${port}`, `http://localhost:${port}`, 'file://', 'http://127.0.0.1']),
      ]);
    headers.push(['Content-Type', 'application/json']);
    const json = JSON.stringify([{ barcode: rnd.pick(SHARED_BARCODES), quantity: rnd.int(0, 99), warehouse_name: rnd.pick(WAREHOUSES) }]);
    return { caller, account, request: { ...base, method: 'POST', target: INVENTORY, host, body: json }, json };
  }
  // Header abuse: huge and repeated headers, bogus Content-Type parameters.
  headers.push(['X-Request-Id', rnd.pick(['ok-id', '\u00ff\u00fe', 'a'.repeat(500), 'x\r\n injected: 1'.replace(/\r\n/g, ' ')])]);
  if (rnd.chance(0.3)) headers.push(['X-Filler', 'y'.repeat(rnd.pick([100, 20_000]))]);
  headers.push(['Content-Type', rnd.pick(['application/json; charset=', 'application/json;;', 'application/json; boundary="', '*/*'])]);
  const json = JSON.stringify([jsonRow(rnd)]);
  return { caller, account, request: { ...base, method: 'POST', target: INVENTORY, body: json }, json };
}

// ---- the oracle: which rows of an accepted body were valid (decisions.md, "Update") ----
function validQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= MIN_QUANTITY && value <= MAX_QUANTITY ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
    const n = Number(value.trim());
    return n >= MIN_QUANTITY && n <= MAX_QUANTITY ? n || 0 : undefined;
  }
  return undefined;
}

function expectedApplied(body: unknown, warehousesEnabled: boolean): { barcode: string; warehouse: string; quantity: number }[] {
  if (!Array.isArray(body)) return [];
  const applied: { barcode: string; warehouse: string; quantity: number }[] = [];
  for (const row of body) {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) continue;
    const own = (key: string) => (Object.hasOwn(row, key) ? (row as Record<string, unknown>)[key] : undefined);
    const barcode = own('barcode');
    const warehouse = own('warehouse_name');
    const quantity = validQuantity(own('quantity'));
    if (typeof barcode !== 'string' || !SHARED_BARCODES.includes(barcode)) continue;
    // Without warehouses, warehouse_name is ignored whatever it holds.
    if (warehousesEnabled && (typeof warehouse !== 'string' || !WAREHOUSES.includes(warehouse))) continue;
    if (quantity === undefined) continue;
    applied.push({ barcode, warehouse: warehousesEnabled ? (warehouse as string) : '', quantity });
  }
  return applied;
}

type StockSnapshot = Map<string, number>;

async function stockOf(probe: DatabaseProbe, account: string): Promise<StockSnapshot> {
  const rows = await probe.all<{ barcode: string; warehouse: string; quantity: number }>(
    `SELECT u.barcode, s.warehouse_id, coalesce(w.name, '') AS warehouse, s.quantity FROM stock s
     JOIN stock_units u ON u.id = s.unit_id JOIN accounts a ON a.id = u.account_id
     LEFT JOIN warehouses w ON w.id = s.warehouse_id WHERE a.name = ?`,
    account,
  );
  return new Map(rows.map((r) => [`${r.barcode}|${r.warehouse}`, r.quantity]));
}

async function historyCount(probe: DatabaseProbe, account: string): Promise<number> {
  return Number(
    (await probe.first<{ n: number }>(
      'SELECT count(*) AS n FROM stock_history h JOIN accounts a ON a.id = h.account_id WHERE a.name = ?',
      account,
    ))!.n,
  );
}

// Bounded generously: the work is fixed by the seed, the timeout only guards a loaded CI machine.
describe('hostile input', { timeout: 120_000 }, () => {
  const { dir, remove } = tempDir('bi-hostile-');
  let dbFile: string; // a SQLite file or a PostgreSQL database of its own (test/support/test-engine.ts)
  let server: RunningServer;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    dbFile = await newDatabase(dir);
    tokens = await seedDatabase(
      dbFile,
      generatedCatalogue([
        { name: 'attacker', warehouses: WAREHOUSES, barcodes: SHARED_BARCODES, quantity: 1 },
        { name: 'attacker-plain', warehouses: [], barcodes: SHARED_BARCODES, quantity: 1 },
        { name: 'victim', warehouses: WAREHOUSES, barcodes: SHARED_BARCODES, quantity: 1 },
        { name: 'victim-plain', warehouses: [], barcodes: SHARED_BARCODES, quantity: 1 },
      ]),
    );
    // The real server with its default limits, including the failed-authentication rate limit.
    server = await startServer({ store: await openStore(dbFile), port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await dropDatabase(dbFile);
    remove();
  });

  it(`answers ${REQUESTS} generated hostile requests without a 5xx and changes only what valid rows ask`, async () => {
    const rnd = seededRandom(SEED);
    const observer = probeDatabase(dbFile);
    const victimBefore = await stockOf(observer, 'victim');
    const plainBefore = await stockOf(observer, 'victim-plain');
    const victimHistoryBefore = (await historyCount(observer, 'victim')) + (await historyCount(observer, 'victim-plain'));
    const attackers = Object.keys(ATTACKERS) as Attacker[];
    const expected = new Map<Attacker, StockSnapshot>();
    const expectedChanges = new Map<Attacker, number>();
    for (const a of attackers) {
      expected.set(a, await stockOf(observer, a));
      expectedChanges.set(a, await historyCount(observer, a));
    }

    const statuses = new Map<number, number>();
    let serverErrors = 0;
    let dropped = 0;
    let acceptedBodies = 0;
    let appliedRows = 0;
    const appliedByAccount = new Map<Attacker, number>();
    const failures: string[] = [];
    // First every method on every route (with a valid token, so the request reaches the handlers),
    // then the generated requests.
    const routes = routeTargets(server.store);
    // Sign-out revokes the token it is sent with: that route gets a token of its own per request,
    // so the attacker's token keeps working for the rest.
    const signOutTokens: string[] = [];
    for (const target of routes.filter((t) => t.startsWith(SIGNOUT_PATH.slice(0, -1)))) {
      for (const _ of ALL_METHODS)
        signOutTokens.push((await server.store.tokens.create('attacker', `sign-out sweep ${target}`, 'till')).key);
    }
    const sweep: Case[] = routes.flatMap((target) =>
      ALL_METHODS.map((method): Case => {
        const token = target.startsWith(SIGNOUT_PATH.slice(0, -1)) ? signOutTokens.pop()! : tokens.attacker;
        const headers: [string, string][] = [['Authorization', `Token ${token}`]];
        if (method === 'POST' || method === 'PUT' || method === 'PATCH') headers.push(['Content-Type', 'application/json']);
        const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? '[]' : undefined;
        return { caller: 'attacker', account: 'attacker', request: { method, target, headers, body }, json: body };
      }),
    );
    const total = sweep.length + REQUESTS;
    for (let i = 0; i < total; i++) {
      const c =
        i < sweep.length
          ? sweep[i]!
          : generateCase(
              rnd,
              { attacker: tokens.attacker!, 'attacker-plain': tokens['attacker-plain']!, victim: tokens.victim! },
              server.port,
              routes,
            );
      const response = await sendRaw(server.port, c.request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const label = `#${i} ${c.request.method} ${String(c.request.target).slice(0, 60)} (${c.caller})`;
      if (response.status >= 500) {
        serverErrors++;
        failures.push(`${label} → ${response.status} ${response.body.slice(0, 200)}`);
      }
      if (response.status === 0) {
        if (c.mayDropConnection) dropped++;
        else failures.push(`${label} → connection closed without an answer`);
        continue;
      }
      // The API's description is public (it describes the API, not an account's data).
      const publicTarget =
        typeof c.request.target === 'string' &&
        [OPENAPI_PATH, API_DOCS_PATH].some((p) => c.request.target === p || c.request.target === p.replace(/\/$/, ''));
      if (c.caller !== 'attacker' && response.status >= 200 && response.status < 300 && c.request.method !== 'OPTIONS' && !publicTarget) {
        failures.push(`${label} → ${response.status} without a valid token`);
      }
      // 4xx answers from the app (they carry X-Request-Id) are JSON {"detail": …}; Node's own
      // answers to unparseable requests come before the app and have no body worth checking.
      if (response.status >= 400 && /^x-request-id:/im.test(response.head) && c.request.method !== 'HEAD') {
        try {
          const parsed = JSON.parse(response.body) as { detail?: unknown };
          if (typeof parsed.detail !== 'string')
            failures.push(`${label} → ${response.status} body without detail: ${response.body.slice(0, 100)}`);
        } catch {
          failures.push(`${label} → ${response.status} non-JSON error body: ${response.body.slice(0, 100)}`);
        }
      }
      const toUpdateEndpoint =
        typeof c.request.target === 'string' && c.request.target.replace(/\?.*$/, '').replace(/\/$/, '') === INVENTORY.replace(/\/$/, '');
      if (response.status === 200 && c.request.method === 'POST' && toUpdateEndpoint && c.json !== undefined) {
        // An accepted update: its results must be exactly the valid rows, in order.
        acceptedBodies++;
        const sent = JSON.parse(new TextDecoder().decode(Buffer.from(c.json, 'utf8'))) as unknown;
        const account = c.account!;
        const want = expectedApplied(sent, ATTACKERS[account].warehousesEnabled);
        const got = (
          JSON.parse(response.body) as { results: { barcode: string; warehouse_name?: string; quantity: number }[] }
        ).results.map((r) => ({
          barcode: r.barcode,
          warehouse: r.warehouse_name ?? '',
          quantity: r.quantity,
        }));
        if (JSON.stringify(got) !== JSON.stringify(want))
          failures.push(`${label} → applied ${JSON.stringify(got)} but valid rows were ${JSON.stringify(want)}`);
        for (const row of want) {
          const key = `${row.barcode}|${row.warehouse}`;
          const stock = expected.get(account)!;
          // Every applied set is a movement, also one that leaves the quantity as it was (a fact other instances learn).
          expectedChanges.set(account, expectedChanges.get(account)! + 1);
          stock.set(key, row.quantity);
          appliedRows++;
          appliedByAccount.set(account, (appliedByAccount.get(account) ?? 0) + 1);
        }
      }
      if (failures.length > 20) break;
    }

    // Still alive and serving.
    const health = await fetch(`${server.url}${WAREHOUSES_PATH}`, { headers: { authorization: `Token ${tokens.attacker}` } });
    expect(health.status).toBe(200);
    const prototypeClean = ({} as Record<string, unknown>).polluted === undefined;

    try {
      expect(failures).toEqual([]);
      expect(serverErrors).toBe(0);
      expect(prototypeClean).toBe(true);
      expect(await stockOf(observer, 'victim')).toEqual(victimBefore);
      expect(await stockOf(observer, 'victim-plain')).toEqual(plainBefore);
      expect((await historyCount(observer, 'victim')) + (await historyCount(observer, 'victim-plain'))).toBe(victimHistoryBefore);
      for (const a of attackers) {
        expect(await stockOf(observer, a)).toEqual(expected.get(a));
        expect(await historyCount(observer, a)).toBe(expectedChanges.get(a));
      }
      expect((await server.store.check()).ok).toBe(true);
    } finally {
      await observer.close();
    }
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    console.log(
      `[hostile input] seed ${SEED}: ${total} requests sent (${ALL_METHODS.length} methods × ${routes.length} route targets, then ${REQUESTS} generated), ${serverErrors} 5xx, ${dropped} oversized uploads cut off by the server; ` +
        `statuses ${byStatus}; ${acceptedBodies} accepted updates applied ${appliedRows} valid rows (${[...appliedByAccount].map(([a, n]) => `${a} ${n}`).join(', ')}), all checked by the oracle; victims unchanged.`,
    );
  });
});
