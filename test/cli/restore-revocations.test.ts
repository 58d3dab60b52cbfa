// `restore` of a backup taken before some tokens were revoked names those tokens and keeps them
// revoked (without a terminal, or with --keep-revocations); --bring-back-revoked restores them as
// they were in the backup. Through the real CLI on real files.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store.ts';
import { runCli } from '../support/cli.ts';
import { exampleCatalogueFile, tempDir } from '../support/test-server.ts';

describe('restore and tokens revoked since the backup', () => {
  const { dir, remove } = tempDir();
  afterAll(remove);
  const db = path.join(dir, 'inventory.db');
  const keys: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    expect((await runCli(['import', exampleCatalogueFile, '--db', db])).code).toBe(0);
    for (const label of ['till 1', 'till 2', 'stolen laptop']) {
      const created = await runCli(['token', 'create', '--account', 'north', '--label', label, '--db', db]);
      keys[label] = created.stdout.trim().split('\n').at(-1)!;
      ids[label] = Number(/Created token (\d+)/.exec(created.stdout)![1]);
    }
  });

  const valid = async (label: string) => {
    const store = await openStore(db);
    try {
      return (await store.tokens.authenticate(keys[label]!)) !== undefined;
    } finally {
      await store.close();
    }
  };

  async function backupThenRevoke(name: string): Promise<string> {
    const backup = path.join(dir, name);
    expect((await runCli(['backup', backup, '--db', db])).code).toBe(0);
    expect((await runCli(['token', 'revoke', String(ids['stolen laptop']), '--db', db])).code).toBe(0);
    return backup;
  }

  it('warns, lists the tokens and keeps them revoked when run without a terminal', async () => {
    const backup = await backupThenRevoke('before-revoke.db');
    const restored = await runCli(['restore', backup, '--db', db]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(
      'WARNING: 1 token(s) were revoked after this backup was taken; restoring it alone would make them valid again:',
    );
    expect(restored.stdout).toMatch(new RegExp(`^  ${ids['stolen laptop']}\\tnorth\\tstolen laptop\\tbi_\\S+…\\trevoked \\S+$`, 'm'));
    expect(restored.stdout).toContain('Kept 1 revocation(s): those tokens stay revoked.');
    expect(await valid('stolen laptop')).toBe(false);
    expect(await valid('till 1')).toBe(true);
    const listed = await runCli(['token', 'list', '--account', 'north', '--db', db]);
    expect(
      listed.stdout
        .split('\n')
        .find((l) => l.startsWith(`${ids['stolen laptop']}\t`))!
        .split('\t')
        .at(-1),
    ).toMatch(/^\d{4}-/);
  });

  it('brings them back only when asked with --bring-back-revoked', async () => {
    const backup = path.join(dir, 'second.db');
    expect((await runCli(['backup', backup, '--db', db])).code).toBe(0);
    expect((await runCli(['token', 'revoke', String(ids['till 2']), '--db', db])).code).toBe(0);
    const restored = await runCli(['restore', backup, '--bring-back-revoked', '--db', db]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`^  ${ids['till 2']}\\tnorth\\ttill 2\\t`, 'm'));
    expect(restored.stdout).toContain('Brought back 1 revoked token(s)');
    expect(await valid('till 2')).toBe(true);
  });

  it('says nothing about tokens when none was revoked since the backup', async () => {
    const backup = path.join(dir, 'quiet.db');
    expect((await runCli(['backup', backup, '--db', db])).code).toBe(0);
    const restored = await runCli(['restore', backup, '--db', db]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).not.toContain('WARNING');
    expect(restored.stdout).not.toContain('revocation');
  });
});
