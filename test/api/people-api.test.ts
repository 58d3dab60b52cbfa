// People on shared scanners (docs/API.md, "People"): an admin adds people, a device of the account signs
// them in by badge or PIN, wrong PINs are slowed for that person only, a lost badge or a revoked person
// ends their sign-ins at once, a badge never counts as a barcode and never appears in what is stored or
// logged, and every change is in the audit log, which no endpoint writes.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_PATH,
  AUDIT_PATH,
  HISTORY_EXPORT_PATH,
  INVENTORY_PATH,
  PEOPLE_PATH,
  PERSON_SIGNIN_PATH,
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  UI_PEOPLE_PATH,
  personPath,
  stocktakePath,
} from '../../shared/index.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

describe('people on shared scanners', () => {
  let server: TestServer;
  const logs: string[] = [];
  let admin: string;
  let device: string;
  let kioskDevice: string;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    server = await startTestServer(exampleCatalogue(), { logger: pino({ level: 'debug' }, sink) });
    admin = await server.newToken('north', 'admin');
    device = await server.newToken('north', 'device');
    kioskDevice = await server.newToken('kiosk', 'device');
  });
  afterAll(() => server.stop());

  const add = async (body: Record<string, unknown>, token = admin) => {
    const res = await server.request('POST', PEOPLE_PATH, { token, body });
    return { status: res.status, body: await res.json() };
  };
  const signIn = async (body: Record<string, unknown>, token = device) => {
    const res = await server.request('POST', PERSON_SIGNIN_PATH, { token, body });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
  };
  const whoAmI = async (token: string) => {
    const res = await server.request('GET', ACCOUNT_PATH, { token });
    return { status: res.status, body: await res.json() };
  };

  it('adds a person with a badge and a PIN, signs them in on a device of the account by either, with their role', async () => {
    const made = await add({ name: 'Ayşe', role: 'counter', pin: '4711' });
    expect(made.status).toBe(201);
    expect(made.body.badge).toMatch(/^BADGE-\d{24}$/);
    expect(made.body.person).toMatchObject({ name: 'Ayşe', role: 'counter', badge: true, pin: true, signed_in: 0, revoked_at: null });

    const byBadge = await signIn({ badge: made.body.badge });
    expect(byBadge.status).toBe(200);
    expect(byBadge.body).toMatchObject({ person: { id: made.body.person.id, name: 'Ayşe' }, role: 'counter', idle_minutes: 10 });
    expect(await whoAmI(byBadge.body.token)).toMatchObject({
      status: 200,
      body: { account: 'north', role: 'counter', person: { id: made.body.person.id, name: 'Ayşe' }, person_idle_minutes: 10 },
    });
    // A scanner with Caps Lock on, or one that sends lower case, reads the same badge.
    expect((await signIn({ badge: ` ${made.body.badge.toLowerCase()} ` })).status).toBe(200);

    const byPin = await signIn({ person: made.body.person.id, pin: '4711' });
    expect(byPin.status).toBe(200);
    expect(byPin.body.role).toBe('counter');

    // The person's token works as a counter: it counts, it does not commit.
    const stocktake = await server.request('POST', STOCKTAKES_PATH, { token: admin, body: { warehouse_name: 'Main' } });
    const id = (await stocktake.json()).id as number;
    const scan = await server.request('POST', stocktakePath(id, 'scans'), { token: byPin.body.token, body: { barcode: '8690000000017' } });
    expect(scan.status).toBe(201);
    const commit = await server.request('POST', stocktakePath(id, 'commit'), { token: byPin.body.token, body: {} });
    expect(commit.status).toBe(403);

    const listed = await (await server.request('GET', PEOPLE_PATH, { token: admin })).json();
    expect(listed.find((p: { id: number }) => p.id === made.body.person.id).signed_in).toBe(3);
    // The names a device shows before a PIN: the active people of its own account.
    expect(await (await server.request('GET', UI_PEOPLE_PATH, { token: device })).json()).toContainEqual({
      id: made.body.person.id,
      name: 'Ayşe',
      pin: true,
    });
    expect(await (await server.request('GET', UI_PEOPLE_PATH, { token: kioskDevice })).json()).toEqual([]);
  });

  it("signs in nobody of another account: a badge or a person id of north on kiosk's device", async () => {
    const made = await add({ name: 'Bora', role: 'manager', pin: '123456' });
    expect(await signIn({ badge: made.body.badge }, kioskDevice)).toMatchObject({ status: 400, body: { code: 'badge_unknown' } });
    expect((await signIn({ person: made.body.person.id, pin: '123456' }, kioskDevice)).status).toBe(400);
    // A badge that is not whole (cut short) is told apart from an unknown one.
    expect(await signIn({ badge: made.body.badge.slice(0, -1) })).toMatchObject({ status: 400, body: { code: 'badge_malformed' } });
  });

  it('slows wrong PINs of one person, never the others, nor that person’s badge', async () => {
    const target = await add({ name: 'Cem', role: 'counter', pin: '2468' });
    const other = await add({ name: 'Deniz', role: 'counter', pin: '1357' });
    for (let i = 0; i < 3; i++)
      expect(await signIn({ person: target.body.person.id, pin: '0000' })).toMatchObject({ status: 400, body: { code: 'pin_wrong' } });
    // Slowed now: even the right PIN waits (a guesser cannot tell), with Retry-After.
    const slowed = await signIn({ person: target.body.person.id, pin: '2468' });
    expect(slowed).toMatchObject({ status: 429, body: { code: 'pin_slowed' } });
    expect(Number(slowed.retryAfter)).toBeGreaterThanOrEqual(1);
    // Nobody else is slowed, and the badge of the slowed person still signs them in.
    expect((await signIn({ person: other.body.person.id, pin: '1357' })).status).toBe(200);
    expect((await signIn({ badge: target.body.badge })).status).toBe(200);
    // Valid tokens of the client are never refused either.
    expect((await whoAmI(admin)).status).toBe(200);
  });

  it('revokes a lost badge in one request: it no longer signs in, and the sign-ins made with it end', async () => {
    const made = await add({ name: 'Emre', role: 'counter', pin: '9999' });
    const session = (await signIn({ badge: made.body.badge })).body.token as string;
    const revoked = await server.request('DELETE', personPath(made.body.person.id, true), { token: admin });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).badge).toBe(false);
    await expect.poll(async () => (await whoAmI(session)).status).toBe(401);
    expect(await signIn({ badge: made.body.badge })).toMatchObject({ status: 400, body: { code: 'badge_unknown' } });
    // The PIN still works; a new badge replaces the lost one, and the old one stays dead.
    expect((await signIn({ person: made.body.person.id, pin: '9999' })).status).toBe(200);
    const renewed = await server.request('POST', personPath(made.body.person.id, true), { token: admin });
    expect(renewed.status).toBe(201);
    const badge = (await renewed.json()).badge as string;
    expect(badge).not.toBe(made.body.badge);
    expect((await signIn({ badge })).status).toBe(200);
    expect((await signIn({ badge: made.body.badge })).status).toBe(400);
  });

  it("changes a person's role at their next request, and a revoked person is signed out everywhere", async () => {
    const made = await add({ name: 'Filiz', role: 'counter', pin: '5555' });
    const session = (await signIn({ person: made.body.person.id, pin: '5555' })).body.token as string;
    const review = () => server.request('GET', stocktakePath(999_999, 'review'), { token: session });
    expect((await review()).status).toBe(403);
    expect((await server.request('PATCH', personPath(made.body.person.id), { token: admin, body: { role: 'manager' } })).status).toBe(200);
    await expect.poll(async () => (await review()).status).toBe(404);
    expect((await server.request('DELETE', personPath(made.body.person.id), { token: admin })).status).toBe(200);
    await expect.poll(async () => (await whoAmI(session)).status).toBe(401);
    expect((await signIn({ person: made.body.person.id, pin: '5555' })).status).toBe(400);
    expect(await signIn({ badge: made.body.badge })).toMatchObject({ status: 400, body: { code: 'badge_unknown' } });
  });

  it("signs a person out after the account's idle minutes, set by an admin", async () => {
    const made = await add({ name: 'Gül', role: 'counter', pin: '8080' });
    const session = (await signIn({ person: made.body.person.id, pin: '8080' })).body.token as string;
    const set = await server.request('PATCH', ACCOUNT_PATH, { token: admin, body: { person_idle_minutes: 2 } });
    expect(set.status).toBe(200);
    expect((await set.json()).person_idle_minutes).toBe(2);
    // The sign-in already made takes the new time too; its last use three minutes ago has expired it.
    const rows = await server.probe.all(
      'SELECT idle_expiry_seconds FROM api_tokens WHERE person_id = ? AND revoked_at IS NULL',
      made.body.person.id,
    );
    expect(rows).toEqual([{ idle_expiry_seconds: 120 }]);
    expect((await whoAmI(session)).status).toBe(200);
    await server.probe.run(
      'UPDATE api_tokens SET last_used_at = ? WHERE person_id = ?',
      new Date(Date.now() - 180_000).toISOString(),
      made.body.person.id,
    );
    await expect.poll(async () => (await whoAmI(session)).status).toBe(401);
    expect((await signIn({ person: made.body.person.id, pin: '8080' })).body.idle_minutes).toBe(2);
  });

  it('never takes a badge for a barcode, and never stores or repeats it', async () => {
    const made = await add({ name: 'Hakan', role: 'counter' });
    const badge = made.body.badge as string;
    const stocktake = await server.request('POST', STOCKTAKES_PATH, { token: admin, body: { warehouse_name: 'Main' } });
    const id = (await stocktake.json()).id as number;
    const scan = await server.request('POST', stocktakePath(id, 'scans'), { token: admin, body: { barcode: badge } });
    expect(scan.status).toBe(400);
    const read = await server.request('GET', `${INVENTORY_PATH}?barcodes=${badge}`, { token: admin });
    expect(read.status).toBe(400);
    const set = await server.request('POST', INVENTORY_PATH, {
      token: admin,
      body: [{ barcode: badge, quantity: 1, warehouse_name: 'Main' }],
      headers: { 'idempotency-key': 'badge-as-barcode' },
    });
    const answer = await set.text();
    for (const text of [await scan.text(), await read.text(), answer]) expect(text).not.toContain(badge.slice(6));
    expect(answer).toContain('BADGE-…');

    // Nowhere in the database (badge and PIN hashed), the audit log or the logs, even at debug level.
    const pinned = await add({ name: 'Irmak', role: 'counter', pin: '31415926' });
    const everything = JSON.stringify([
      await server.probe.all('SELECT * FROM people'),
      await server.probe.all('SELECT * FROM audit_log'),
      await server.probe.all('SELECT * FROM idempotency_keys'),
      await server.probe.all('SELECT * FROM stocktake_lines'),
      await server.probe.all('SELECT * FROM api_tokens'),
    ]);
    for (const secret of [badge.slice(6), pinned.body.badge.slice(6), '31415926']) {
      expect(everything).not.toContain(secret);
      expect(logs.join('')).not.toContain(secret);
    }
  });

  it('names who made each change in the history and its CSV export, filtered by actor', async () => {
    const made = await add({ name: '=Kaan', role: 'counter', pin: '7777' });
    const session = (await signIn({ person: made.body.person.id, pin: '7777' })).body.token as string;
    const set = await server.request('POST', INVENTORY_PATH, {
      token: session,
      body: [{ barcode: '8690000000024', quantity: 9, warehouse_name: 'Main' }],
    });
    expect(set.status).toBe(200);
    const manager = server.tokens.north!;
    const page = await (
      await server.request('GET', `${STOCK_HISTORY_PATH}?actor=${encodeURIComponent('=Kaan')}`, { token: manager })
    ).json();
    expect(page.results).toHaveLength(1);
    expect(page.results[0]).toMatchObject({ actor: '=Kaan', barcode: '8690000000024', value: 9, instance: expect.any(String) });
    expect(page.results[0].movement.startsWith(`${page.results[0].instance}-`)).toBe(true);
    const csv = await server.request('GET', `${HISTORY_EXPORT_PATH}?barcode=8690000000024`, { token: manager });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'occurred_at,barcode,item_id,variant_id,warehouse,kind,value,old_quantity,new_quantity,source,reason,reference,actor,instance,movement',
    );
    // Newest first; a name that a spreadsheet would run as a formula is written as text.
    expect(lines[1]).toContain(",'=Kaan,");
    expect(lines.at(-1)).toMatch(/,command line \([^)]+\),/);
    expect((await server.request('GET', HISTORY_EXPORT_PATH, { token: session })).status).toBe(403);
  });

  it('records every change in the audit log, readable by managers and admins, filtered and paged, written by no endpoint', async () => {
    const manager = server.tokens.north!;
    const page = async (query: string) => (await server.request('GET', `${AUDIT_PATH}${query}`, { token: manager })).json();
    const all = await page('?limit=500');
    const actions = all.results.map((e: { action: string }) => e.action);
    for (const action of [
      'person.add',
      'person.badge_revoke',
      'person.badge',
      'person.role',
      'person.revoke',
      'account.settings',
      'stocktake.start',
    ])
      expect(actions).toContain(action);
    // The catalogue the test server imported, by the command line.
    expect(all.results.at(-1)).toMatchObject({ action: 'catalogue.import', actor: expect.stringMatching(/^command line \(/) });
    // Who: the admin token's label; filtered by actor, by action; paged newest first.
    const byAdmin = await page(`?actor=${encodeURIComponent('test admin')}&action=person.add`);
    expect(byAdmin.results.length).toBeGreaterThanOrEqual(9);
    expect(byAdmin.results.every((e: { actor: string; action: string }) => e.actor === 'test admin' && e.action === 'person.add')).toBe(
      true,
    );
    const first = await page('?limit=2');
    expect(first.results).toHaveLength(2);
    const second = await (await server.request('GET', first.next, { token: manager })).json();
    expect(second.results[0].id).toBeLessThan(first.results[1].id);
    expect((await page(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).results).toEqual([]);

    // A person's own changes carry their name: a manager signed in on a shared scanner starts a stocktake.
    const made = await add({ name: 'Jale', role: 'manager', pin: '2222' });
    const session = (await signIn({ person: made.body.person.id, pin: '2222' })).body.token as string;
    await server.request('POST', STOCKTAKES_PATH, { token: session, body: { warehouse_name: 'Backroom' } });
    expect((await page('?action=stocktake.start&limit=1')).results[0]).toMatchObject({ actor: 'Jale', person: made.body.person.id });

    // Append-only: every other method on the audit path is 405, and nothing changed.
    const before = await server.probe.all('SELECT * FROM audit_log ORDER BY id');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await server.request(method, AUDIT_PATH, { token: admin, body: { actor: 'nobody' } });
      expect(res.status, method).toBe(405);
      expect((await server.request(method, `${AUDIT_PATH}1/`, { token: admin })).status, method).toBe(404);
    }
    expect(await server.probe.all('SELECT * FROM audit_log ORDER BY id')).toEqual(before);
  });
});
