// Upgrading to roles (migration 0025_token_roles; docs/SECURITY.md, "Least privilege"): tokens made
// before roles keep working with what they could do. A sign-in link's token becomes a manager (what
// the scanner UI does); a `token create` token becomes `full`, every endpoint, since it may be an
// integration or a follower's sync link; `token list` says so, with how to narrow it. On both engines:
// the database is taken back to the schema before 0025, filled with plain SQL as that release wrote it.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import type { Store } from '../../server/store/store.ts';
import {
  ACCOUNT_PATH,
  ADJUST_PATH,
  SIGNIN_PATH,
  STOCKTAKES_PATH,
  SYNC_CATALOGUE_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  WAREHOUSES_PATH,
} from '../../shared/index.ts';
import { runCli } from '../support/cli.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { exampleCatalogue, seedStore, tempDir } from '../support/test-server.ts';

const hash = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
// Keys whose first 9 characters (the prefix `token list` shows) tell them apart.
const INTEGRATION = 'bi_webshop-before-roles';
const LINK_TOKEN = 'bi_shop12-before-roles';
const SCANNER = 'bi_scanner-before-roles';
const NEVER_IDLE_SCANNER = 'bi_noidle-before-roles';
const prefix = (key: string) => key.slice(0, 9);
const OLD_CODE = 'before-roles-sign-in-code';

describe('tokens made before roles', () => {
  const { dir, remove } = tempDir('bi-roles-upgrade-');
  let location: string;
  let store: Store;
  let server: RunningServer;
  /** Token ids by key, as the release before roles numbered them. */
  const ids = new Map<string, number>();
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Token ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
  };

  beforeAll(async () => {
    location = await newDatabase(dir);
    const seeding = await openStore(location);
    await seedStore(seeding, exampleCatalogue());
    await seeding.close();
    // The database as the release before roles left it: no 0025, no role columns, tokens without one.
    const probe = probeDatabase(location);
    try {
      expect(await probe.run("DELETE FROM kysely_migration WHERE name = '0025_token_roles'")).toBe(1);
      await probe.run('DELETE FROM api_tokens');
      await probe.run('ALTER TABLE api_tokens DROP COLUMN role');
      await probe.run('ALTER TABLE signin_codes DROP COLUMN token_role');
      const now = new Date().toISOString();
      const insert = (label: string, key: string, idle: number | null) =>
        probe.run(
          'INSERT INTO api_tokens (account_id, label, key_hash, key_prefix, created_at, last_used_at, idle_expiry_seconds) ' +
            "SELECT id, ?, ?, ?, ?, ?, ? FROM accounts WHERE name = 'north'",
          label,
          hash(key),
          prefix(key),
          now,
          idle === null ? null : now,
          idle,
        );
      await insert('webshop', INTEGRATION, null);
      await insert('shop 12', LINK_TOKEN, null);
      await insert('scanner UI (sign-in link)', SCANNER, 30 * 86_400);
      // A link made with --idle-days 0: its token never expires, so nothing tells it from a `token create` one.
      await insert('scanner UI (sign-in link)', NEVER_IDLE_SCANNER, null);
      for (const key of [INTEGRATION, LINK_TOKEN, SCANNER, NEVER_IDLE_SCANNER]) {
        ids.set(key, (await probe.first<{ id: number }>('SELECT id FROM api_tokens WHERE key_prefix = ?', prefix(key)))!.id);
      }
      await probe.run(
        'INSERT INTO signin_codes (account_id, code_hash, created_at, expires_at, token_idle_expiry_seconds) ' +
          "SELECT id, ?, ?, ?, ? FROM accounts WHERE name = 'north'",
        hash(OLD_CODE),
        now,
        new Date(Date.now() + 600_000).toISOString(),
        30 * 86_400,
      );
    } finally {
      await probe.close();
    }
    store = await openStore(location); // runs 0025
    server = await startServer({ store, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await dropDatabase(location);
    remove();
  });

  it('gives sign-in link tokens the manager role and every other token full', async () => {
    const roles = Object.fromEntries((await store.tokens.list('north')).map((t) => [t.prefix, t.role]));
    expect(roles).toEqual({
      [prefix(INTEGRATION)]: 'full',
      [prefix(LINK_TOKEN)]: 'full',
      [prefix(SCANNER)]: 'manager',
      [prefix(NEVER_IDLE_SCANNER)]: 'full',
    });
  });

  it('keeps every endpoint working for a token made with token create: an integration and a sync link alike', async () => {
    for (const key of [INTEGRATION, LINK_TOKEN]) {
      expect((await call('POST', ADJUST_PATH, key, [{ barcode: '8690000000017', delta: -1, warehouse_name: 'Main' }])).status).toBe(200);
      expect((await call('GET', SYNC_STATE_PATH, key)).status).toBe(200);
      expect((await call('GET', SYNC_CATALOGUE_PATH, key)).status).toBe(200);
      expect((await call('GET', STOCKTAKES_PATH, key)).status).toBe(200);
      expect((await call('GET', ACCOUNT_PATH, key)).body).toMatchObject({ role: 'full' });
    }
  });

  it("keeps the scanner UI's sessions doing what the scanner UI does, and nothing of sync's upstream side", async () => {
    expect((await call('GET', ACCOUNT_PATH, SCANNER)).body).toMatchObject({ account: 'north', role: 'manager' });
    for (const path of [WAREHOUSES_PATH, STOCKTAKES_PATH, SYNC_STATUS_PATH]) expect((await call('GET', path, SCANNER)).status).toBe(200);
    expect((await call('GET', SYNC_STATE_PATH, SCANNER)).status).toBe(403);
  });

  it('signs in as a manager with a sign-in code made before roles', async () => {
    const res = await fetch(server.url + SIGNIN_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: OLD_CODE }),
    });
    const signedIn = (await res.json()) as { token: string; role: string };
    expect(signedIn.role).toBe('manager');
    expect((await call('GET', ACCOUNT_PATH, signedIn.token)).body).toMatchObject({ role: 'manager' });
  });

  it('lists each token with its role, and names the full ones with how to narrow them', async () => {
    const listed = await runCli(['token', 'list', '--account', 'north', '--database', location]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split('\n');
    const line = (key: string) => lines.find((l) => l.startsWith(`${ids.get(key)}\t`));
    expect(lines[0]).toBe('id\taccount\tlabel\trole\tprefix\tcreated\tlast used\texpires\trevoked');
    expect(line(INTEGRATION)).toMatch(/^\d+\tnorth\twebshop\tfull\t/);
    expect(line(SCANNER)).toMatch(/^\d+\tnorth\tscanner UI \(sign-in link\)\tmanager\t/);
    const [integration, link, scanner] = [ids.get(INTEGRATION)!, ids.get(LINK_TOKEN)!, ids.get(NEVER_IDLE_SCANNER)!];
    expect(listed.stdout).toContain(`Tokens ${integration}, ${link}, ${scanner} have role full: every endpoint, as before roles.`);
    expect(listed.stdout).toContain('barcode-inventory token role <id> <role>');
    // Narrowed, it is listed no more.
    expect((await runCli(['token', 'role', String(link), 'sync', '--database', location])).stdout).toContain(
      `Token ${link} now has role sync`,
    );
    expect((await runCli(['token', 'list', '--database', location])).stdout).toContain(`Tokens ${integration}, ${scanner} have role full`);
    // Changed by another process: the server sees it at the next request (on PostgreSQL once the change notice arrives).
    await expect.poll(async () => (await call('POST', ADJUST_PATH, LINK_TOKEN, [])).status).toBe(403);
    expect((await call('GET', SYNC_STATE_PATH, LINK_TOKEN)).status).toBe(200);
  });
});
