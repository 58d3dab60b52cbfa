// The `barcode-inventory` command as a user runs it: import, token, serve, --help.
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, ROLE_FORBIDDEN_CODE, ROLE_PURPOSES, STOCKTAKES_PATH, tokenMessages } from '../../shared/index.ts';
import { runCli, startCliServer } from '../support/cli.ts';
import { createDatabase, databaseLocation, dropDatabase, onPostgres } from '../support/test-engine.ts';
import { exampleCatalogueFile, tempDir } from '../support/test-server.ts';

// On PostgreSQL the commands get the database as an operator gives it: --database postgres://…
const dbOption = onPostgres() ? '--database' : '--db';

describe('barcode-inventory CLI', () => {
  let dir: string;
  let remove: () => void;
  let db: string;
  beforeEach(async () => {
    ({ dir, remove } = tempDir('bi-cli-'));
    db = databaseLocation(dir);
    await createDatabase(db);
  });
  afterEach(async () => {
    await dropDatabase(db);
    remove();
  });

  it('prints --help for the program and each command', async () => {
    const main = await runCli(['--help']);
    expect(main.code).toBe(0);
    for (const command of ['serve', 'import', 'token']) expect(main.stdout).toContain(command);
    for (const [args, expected] of [
      [['serve', '--help'], '--host'],
      [['import', '--help'], '<catalogue>'],
      [['token', '--help'], 'revoke'],
      [['token', 'create', '--help'], '--account'],
      [['token', 'list', '--help'], '--account'],
      [['token', 'revoke', '--help'], '<id>'],
    ] as const) {
      const result = await runCli([...args]);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toContain(expected);
      if (args.join(' ') !== 'token --help') expect(result.stdout).toContain('--db');
    }
  });

  it('imports a catalogue, and a second import changes nothing', async () => {
    const first = await runCli(['import', dbOption, db, exampleCatalogueFile]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain('2 account(s), 2 warehouse(s), 3 item(s), 1 variant(s), 3 barcode(s); 4 quantities changed.');
    const second = await runCli(['import', dbOption, db, exampleCatalogueFile]);
    expect(second.stdout).toContain('0 quantities changed.');
  });

  it('refuses a bad catalogue with errors pointing at the place, and writes nothing', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        accounts: [
          {
            name: 'x',
            warehouses_enabled: false,
            items: [
              { id: 1, name: 'a', barcode: '1' },
              { id: 2, name: 'b', barcode: 7 },
            ],
          },
        ],
      }),
    );
    const result = await runCli(['import', dbOption, db, bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('accounts[0].items[1].barcode: Not a valid string.');
    expect(result.stderr).toContain('nothing was written');
    // The database file did not exist before this refused import, and does not after it.
    if (!onPostgres()) expect(existsSync(db)).toBe(false);
    // Nor after a dry run of a CSV import, which writes nothing (here it has no account to check against).
    const csv = path.join(dir, 'catalogue.csv');
    writeFileSync(csv, 'item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity\n1,a,,,1,,5\n');
    const dry = await runCli(['csv', 'import', csv, '--account', 'x', '--dry-run', dbOption, db]);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('problem: account: no account named "x"');
    if (!onPostgres()) expect(existsSync(db)).toBe(false);
    const token = await runCli(['token', 'create', dbOption, db, '--account', 'x']);
    expect(token.code).toBe(1);
    expect(token.stderr).toContain('No account named "x"');

    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '{"accounts": [');
    const broken = await runCli(['import', dbOption, db, notJson]);
    expect([broken.code, broken.stderr]).toEqual([1, expect.stringContaining('is not valid JSON')]);
    const missing = await runCli(['import', dbOption, db, path.join(dir, 'missing.json')]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('Cannot read')]);
  });

  it('creates tokens (alone on the last line), lists them without keys, revokes them', async () => {
    await runCli(['import', dbOption, db, exampleCatalogueFile]);
    const created = await runCli(['token', 'create', dbOption, db, '--account', 'north', '--label', 'till 1']);
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^bi_[A-Za-z0-9_-]{43}$/);

    const list = await runCli(['token', 'list', dbOption, db]);
    expect(list.stdout).toContain('north\ttill 1');
    expect(list.stdout).not.toContain(key);

    const revoked = await runCli(['token', 'revoke', dbOption, db, '1']);
    expect([revoked.code, revoked.stdout.trim()]).toEqual([0, 'Revoked token 1.']);
    const again = await runCli(['token', 'revoke', dbOption, db, '1']);
    expect([again.code, again.stderr.trim()]).toEqual([1, 'No active token with id 1.']);
    expect((await runCli(['token', 'list', dbOption, db, '--account', 'north'])).stdout).toMatch(/\t\d{4}-\d\d-\d\dT[^\t]+Z\n$/);
  });

  it('gives each token a role: api without --role (saying why a narrower one is better), the one asked for, another later', async () => {
    await runCli(['import', dbOption, db, exampleCatalogueFile]);
    const plain = await runCli(['token', 'create', dbOption, db, '--account', 'north']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`with role api (${ROLE_PURPOSES.api}).`);
    expect(plain.stdout).toContain(tokenMessages.defaultRoleAdvice('api'));
    const till = await runCli(['token', 'create', dbOption, db, '--account', 'north', '--role', 'till', '--label', 'Till 1']);
    expect(till.stdout).toContain(tokenMessages.created(2, 'north', 'till', ROLE_PURPOSES.till));
    expect(till.stdout).not.toContain('No --role given');
    const tillKey = till.stdout.trim().split('\n').at(-1)!;
    expect(tillKey).toMatch(/^bi_[A-Za-z0-9_-]{43}$/);
    const list = await runCli(['token', 'list', dbOption, db]);
    expect(list.stdout.split('\n').slice(0, 3)).toEqual([
      'id\taccount\tlabel\trole\tprefix\tcreated\tlast used\texpires\trevoked',
      expect.stringMatching(/^1\tnorth\t\tapi\t/),
      expect.stringMatching(/^2\tnorth\tTill 1\ttill\t/),
    ]);
    expect(list.stdout).not.toContain('have role full'); // no token from before roles here

    // Full is only for tokens made before roles; unknown roles are named.
    for (const args of [
      ['token', 'create', dbOption, db, '--account', 'north', '--role', 'full'],
      ['token', 'create', dbOption, db, '--account', 'north', '--role', 'owner'],
      ['token', 'role', dbOption, db, '2', 'full'],
    ]) {
      const refused = await runCli(args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toContain('choose till, counter, manager, admin, api, sync or device');
    }
    expect((await runCli(['token', 'role', dbOption, db, '9', 'till'])).stderr.trim()).toBe('No active token with id 9.');

    const server = await startCliServer([dbOption, db]);
    try {
      const post = (path: string, body: unknown) =>
        fetch(server.url + path, {
          method: 'POST',
          headers: { authorization: `Token ${tillKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const sale = [{ barcode: '8690000000017', delta: -1, warehouse_name: 'Main' }];
      expect((await post(ADJUST_PATH, sale)).status).toBe(200);
      const set = await post(INVENTORY_PATH, [{ barcode: '8690000000017', quantity: 99, warehouse_name: 'Main' }]);
      expect([set.status, (await set.json()).code]).toEqual([403, ROLE_FORBIDDEN_CODE]);
      // Another role from the command line, while the server runs: it applies at the next request.
      expect((await runCli(['token', 'role', dbOption, db, '2', 'manager'])).stdout.trim()).toBe(
        `Token 2 now has role manager (${ROLE_PURPOSES.manager}).`,
      );
      await expect.poll(async () => (await post(STOCKTAKES_PATH, { warehouse_name: 'Main' })).status).toBe(201);
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });

  it('uses BARCODE_INVENTORY_DB (or _DATABASE, for a PostgreSQL URL) when --db is not given', async () => {
    const env = { [onPostgres() ? 'BARCODE_INVENTORY_DATABASE' : 'BARCODE_INVENTORY_DB']: db };
    expect((await runCli(['import', exampleCatalogueFile], env)).code).toBe(0);
    expect((await runCli(['token', 'create', '--account', 'kiosk'], env)).code).toBe(0);
  });

  it('serves the API, prints its URL, and stops cleanly on SIGTERM', async () => {
    await runCli(['import', dbOption, db, exampleCatalogueFile]);
    const key = (await runCli(['token', 'create', dbOption, db, '--account', 'kiosk'])).stdout.trim().split('\n').at(-1)!;
    const server = await startCliServer([dbOption, db]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}${INVENTORY_PATH}?barcodes=111`, { headers: { authorization: `Token ${key}` } });
    expect(await res.json()).toEqual({ results: [{ item: 200, liquid_stock: null, barcode: '111', quantity: 7 }], errors: [] });
    server.child.kill('SIGTERM');
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(0);
    expect(server.output()).toContain('SIGTERM received');
  });

  it('refuses a bad port with a clear message', async () => {
    const result = await runCli(['serve', dbOption, db, '--port', 'abc']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a port is a whole number from 0 to 65535');
  });
});
