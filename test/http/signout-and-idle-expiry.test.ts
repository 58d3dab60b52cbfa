// Signing out revokes the device's token on the server (POST /api/v1/ui/signout/), and tokens made
// by sign-in links expire after a time without use (30 days unless the link says otherwise), shown
// as such by `token list`; tokens made with `token create` never expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNIN_PATH, SIGNOUT_PATH, WAREHOUSES_PATH, requestMessages } from '../../shared/index.ts';
import { runCli } from '../support/cli.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const DAY = 86_400_000;

describe('sign-out and idle expiry', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  const redeem = async (code: string) => {
    const response = await server.request('POST', SIGNIN_PATH, { body: { code } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  };
  const linkToken = async (idleDays?: number) => redeem((await server.store.signIn.createCode('north', undefined, idleDays)).code);
  const status = async (token: string) => (await server.request('GET', WAREHOUSES_PATH, { token })).status;
  const tokenRow = (prefix: string) =>
    server.probe.first<{ id: number; last_used_at: string | null; idle_expiry_seconds: number | null }>(
      'SELECT id, last_used_at, idle_expiry_seconds FROM api_tokens WHERE key_prefix = ?',
      prefix.slice(0, 9),
    );

  it('revokes the token a device signs out with, and only that one', async () => {
    const device = await linkToken();
    const deviceId = (await tokenRow(device))!.id;
    const other = await linkToken();
    expect(await status(device)).toBe(200);
    const out = await server.request('POST', SIGNOUT_PATH, { token: device });
    expect(out.status).toBe(204);
    const after = await server.request('GET', WAREHOUSES_PATH, { token: device });
    expect(after.status).toBe(401);
    expect((await after.json()).detail).toBe(requestMessages.invalidToken);
    expect(await status(other)).toBe(200);
    expect(await status(server.tokens.north!)).toBe(200);
    const listed = await runCli(['token', 'list', '--account', 'north', '--db', server.dbFile]);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(`${deviceId}\t`))!;
    expect(line.split('\t')[8]).toMatch(/^\d{4}-\d\d-\d\dT/); // revoked at
  });

  it('refuses a sign-in link token after 30 days without use, and token list says so', async () => {
    const token = await linkToken();
    const row = (await tokenRow(token))!;
    expect(row.idle_expiry_seconds).toBe(30 * 86_400);
    await server.probe.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', new Date(Date.now() - 29 * DAY).toISOString(), row.id);
    expect(await status(token)).toBe(200); // 29 days idle: still good, and this use is recorded
    expect(Date.now() - Date.parse((await tokenRow(token))!.last_used_at!)).toBeLessThan(60_000);
    await server.probe.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', new Date(Date.now() - 31 * DAY).toISOString(), row.id);
    const refused = await server.request('GET', WAREHOUSES_PATH, { token });
    expect(refused.status).toBe(401);
    expect((await refused.json()).detail).toBe(requestMessages.invalidToken);
    const listed = await runCli(['token', 'list', '--account', 'north', '--db', server.dbFile]);
    expect(listed.stdout.split('\n')[0]).toBe('id\taccount\tlabel\trole\tprefix\tcreated\tlast used\texpires\trevoked');
    const line = listed.stdout.split('\n').find((l) => l.startsWith(`${row.id}\t`))!;
    expect(line).toContain('scanner UI (sign-in link)\tmanager\t');
    expect(line).toMatch(/\texpired \S+ \(30 days idle\)\t/);
  });

  it('records the use of an expiring token at most hourly, not on every request', async () => {
    const token = await linkToken();
    const { id } = (await tokenRow(token))!;
    const recent = new Date(Date.now() - 10 * 60_000).toISOString();
    await server.probe.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', recent, id);
    expect(await status(token)).toBe(200);
    expect((await tokenRow(token))!.last_used_at).toBe(recent);
    await server.probe.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', new Date(Date.now() - 2 * 3600_000).toISOString(), id);
    // On PostgreSQL a change made by another connection reaches the server's kept token by a
    // notification, a moment later (docs/DEPLOY.md): the next requests see it, and the first that
    // does records the use.
    await expect
      .poll(async () => {
        expect(await status(token)).toBe(200);
        return Date.now() - Date.parse((await tokenRow(token))!.last_used_at!);
      })
      .toBeLessThan(60_000);
  });

  it('never expires tokens made with token create, nor a link made with --idle-days 0', async () => {
    const { id } = (await server.probe.first<{ id: number }>(
      "SELECT t.id FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE a.name = 'north' AND t.label = 'test'",
    ))!;
    await server.probe.run('UPDATE api_tokens SET created_at = ? WHERE id = ?', new Date(Date.now() - 400 * DAY).toISOString(), id);
    expect(await status(server.tokens.north!)).toBe(200);
    const link = await runCli(['signin-link', '--account', 'north', '--idle-days', '0', '--db', server.dbFile]);
    expect(link.stdout).toContain('never expires');
    const token = await redeem(/#signin=(\S+)/.exec(link.stdout)![1]!);
    expect((await tokenRow(token))!.idle_expiry_seconds).toBeNull();
    const listed = await runCli(['token', 'list', '--account', 'north', '--db', server.dbFile]);
    expect(
      listed.stdout
        .split('\n')
        .find((l) => l.startsWith(`${id}\t`))!
        .split('\t')[7],
    ).toBe('never');
  });
});
