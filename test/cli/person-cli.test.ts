// `barcode-inventory person …` and `audit` as an admin on the server computer runs them: a person with a
// printed badge page and a PIN read from standard input, list, a lost badge revoked in one command,
// a new badge, a role change, revoke; and the audit log naming the command line for each.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.ts';
import { runCli } from '../support/cli.ts';
import { createDatabase, databaseLocation, dropDatabase, onPostgres } from '../support/test-engine.ts';
import { exampleCatalogueFile, tempDir } from '../support/test-server.ts';

const dbOption = onPostgres() ? '--database' : '--db';

describe('barcode-inventory person and audit', () => {
  let dir: string;
  let remove: () => void;
  let db: string;
  beforeEach(async () => {
    ({ dir, remove } = tempDir('bi-person-'));
    db = databaseLocation(dir);
    await createDatabase(db);
    expect((await runCli(['import', dbOption, db, exampleCatalogueFile])).code).toBe(0);
  });
  afterEach(async () => {
    await dropDatabase(db);
    remove();
  });

  const cli = (args: string[], input = '') => runCli([...args, dbOption, db], {}, input);

  it('adds a person with a badge page and a PIN, lists, revokes a lost badge, prints a new one, changes the role, revokes', async () => {
    const page = path.join(dir, 'ayse.html');
    const added = await cli(
      ['person', 'add', '--account', 'north', '--name', 'Ayşe', '--role', 'counter', '--pin', '--out', page],
      '4711\n',
    );
    expect(added.code, added.stderr).toBe(0);
    const lines = added.stdout.trim().split('\n');
    const badge = lines.at(-1)!;
    expect(badge).toMatch(/^BADGE-\d{24}$/);
    expect(added.stdout).toContain('Added person 1, Ayşe, to account "north" with role counter.');
    // The page: the name, a Code 128 of the badge (bars, no text of it), private to the user.
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('Ayşe');
    expect(html).toContain('<svg');
    expect(html).not.toContain(badge);
    if (process.platform !== 'win32') expect(statSync(page).mode & 0o777).toBe(0o600);

    const listed = await cli(['person', 'list', '--account', 'north']);
    expect(listed.stdout).toMatch(/^1\tAyşe\tcounter\tyes\tyes\t0\t/m);
    expect(listed.stdout).not.toContain(badge);

    // A PIN is never taken as an argument: a wrong one from standard input is refused with the rule.
    const badPin = await cli(['person', 'pin', '--account', 'north', '1'], '12\n');
    expect(badPin.code).toBe(1);
    expect(badPin.stderr).toContain('A PIN is 4 to 8 digits.');

    const lost = await cli(['person', 'revoke-badge', '--account', 'north', '1']);
    expect(lost.stdout).toContain('The badge of person 1, Ayşe, no longer works');
    expect((await cli(['person', 'list', '--account', 'north'])).stdout).toMatch(/^1\tAyşe\tcounter\tno\tyes\t/m);
    const renewed = await cli(['person', 'badge', '--account', 'north', '1', '--out', path.join(dir, 'new.html')]);
    expect(renewed.stdout.trim().split('\n').at(-1)).toMatch(/^BADGE-/);
    expect(renewed.stdout.trim().split('\n').at(-1)).not.toBe(badge);
    expect((await cli(['person', 'role', '--account', 'north', '1', 'manager'])).code).toBe(0);
    expect((await cli(['person', 'role', '--account', 'north', '1', 'till'])).code).not.toBe(0);
    expect((await cli(['person', 'revoke', '--account', 'north', '1'])).stdout).toContain('Person 1, Ayşe, can no longer sign in');
    // Another account's person does not exist for this one.
    expect((await cli(['person', 'revoke', '--account', 'kiosk', '1'])).stderr).toContain('No person with id 1 in this account.');

    const audit = await cli(['audit', '--account', 'north']);
    expect(audit.code, audit.stderr).toBe(0);
    for (const action of ['person.add', 'person.badge_revoke', 'person.badge', 'person.role', 'person.revoke', 'catalogue.import'])
      expect(audit.stdout).toContain(`\t${action}\t`);
    expect(audit.stdout).toMatch(/\tcommand line \([^)]+\)\tperson\.add\tperson 1 \(Ayşe\)\t/);
    expect(audit.stdout).not.toContain(badge.slice(6));
    expect(audit.stdout).not.toContain('4711');
    const filtered = await cli(['audit', '--account', 'north', '--action', 'person.role']);
    expect(filtered.stdout.trim().split('\n')).toHaveLength(2);
    expect(filtered.stdout).toContain('"from":"counter","to":"manager"');
  });

  it('records token commands and account settings in the audit log, and sets the idle minutes of shared scanners', async () => {
    expect((await cli(['token', 'create', '--account', 'north', '--role', 'till', '--label', 'Till 1'])).code).toBe(0);
    expect((await cli(['token', 'role', '1', 'api'])).code).toBe(0);
    expect((await cli(['token', 'revoke', '1'])).code).toBe(0);
    const idle = await cli(['account', 'set', '--account', 'north', '--person-idle-minutes', '5']);
    expect(idle.stdout).toContain('after 5 minutes without use');
    expect((await cli(['account', 'show', '--account', 'north'])).stdout).toMatch(/^north\tyes\toff\t5$/m);
    const audit = (await cli(['audit', '--account', 'north'])).stdout;
    for (const action of ['token.create', 'token.role', 'token.revoke', 'account.settings']) expect(audit).toContain(`\t${action}\t`);
    expect(audit).toContain('token 1 (Till 1)');
    // Nothing of another account.
    expect((await cli(['audit', '--account', 'kiosk'])).stdout).not.toContain('token.create');
    // And no command changes or removes an entry: the store has no such operation.
    const store = await openStore(db);
    try {
      expect(Object.keys(store.audit).sort()).toEqual(['page', 'record', 'recordFor']);
    } finally {
      await store.close();
    }
  });
});
