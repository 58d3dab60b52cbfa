// The memory flags and environment of the long-running commands (server/launch/node-flags.ts): which
// command gets which, a flag or variable the user gave wins, and `serve` really runs with them in the
// same process (a kill of the started process id stops the server: nothing is left behind).
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  IMPORT_NODE_FLAGS,
  IMPORT_START,
  POSTGRES_SERVER_NODE_FLAGS,
  SERVER_NODE_FLAGS,
  SERVER_START,
  WITHOUT_NODE_FLAGS_ENV,
  missingEnv,
  missingNodeFlags,
  missingNodeStart,
  nodeStartForCommand,
} from '../../server/launch/node-flags.ts';
import { startCliServer } from '../support/cli.ts';
import { tempDir } from '../support/test-server.ts';

describe('node flags of the commands', () => {
  it('serve and import get their flags, other commands none', () => {
    expect(nodeStartForCommand(['serve', '--db', 'x.db'], {}).flags).toEqual(SERVER_NODE_FLAGS);
    // On PostgreSQL the server runs without the old-generation cap, however the database is named.
    expect(SERVER_NODE_FLAGS).toContain('--max-old-space-size=512');
    expect(POSTGRES_SERVER_NODE_FLAGS).toEqual(['--max-semi-space-size=1']);
    expect(nodeStartForCommand(['serve', '--database', 'postgres://u@h/db'], {}).flags).toEqual(POSTGRES_SERVER_NODE_FLAGS);
    expect(nodeStartForCommand(['serve', '--database=postgresql://u@h/db'], {}).flags).toEqual(POSTGRES_SERVER_NODE_FLAGS);
    expect(nodeStartForCommand(['serve'], { BARCODE_INVENTORY_DATABASE: 'postgres://u@h/db' }).flags).toEqual(POSTGRES_SERVER_NODE_FLAGS);
    expect(nodeStartForCommand(['serve', '--database', 'shop.db'], { BARCODE_INVENTORY_DATABASE: 'postgres://u@h/db' }).flags).toEqual(
      SERVER_NODE_FLAGS,
    );
    expect(nodeStartForCommand(['serve', '--db', 'shop.db'], { BARCODE_INVENTORY_DATABASE: 'postgres://u@h/db' }).flags).toEqual(
      SERVER_NODE_FLAGS,
    );
    expect(nodeStartForCommand(['import', 'catalogue.json']).flags).toEqual(IMPORT_NODE_FLAGS);
    expect(nodeStartForCommand(['csv', 'import', 'stock.csv', '--account', 'north']).flags).toEqual(IMPORT_NODE_FLAGS);
    expect(nodeStartForCommand(['csv', 'export', '--account', 'north']).flags).toEqual([]);
    expect(nodeStartForCommand(['token', 'create']).flags).toEqual([]);
    expect(nodeStartForCommand(['--help']).flags).toEqual([]);
  });

  it('the SQLite server and the import, and only they, get MALLOC_ARENA_MAX=2 in their environment', () => {
    expect(nodeStartForCommand(['serve', '--db', 'x.db'], {}).env).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(nodeStartForCommand(['serve'], {}).env).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(nodeStartForCommand(['serve', '--database', 'postgres://u@h/db'], {}).env).toEqual({});
    expect(nodeStartForCommand(['serve'], { BARCODE_INVENTORY_DATABASE: 'postgresql://u@h/db' }).env).toEqual({});
    expect(nodeStartForCommand(['import', 'catalogue.json'], {}).env).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(nodeStartForCommand(['token', 'create'], {}).env).toEqual({});
  });

  it("keeps the user's own MALLOC_ARENA_MAX, whatever its value", () => {
    expect(missingEnv(SERVER_START.env, {})).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(missingEnv(SERVER_START.env, { MALLOC_ARENA_MAX: '4' })).toEqual({});
    expect(missingEnv(SERVER_START.env, { MALLOC_ARENA_MAX: '' })).toEqual({});
  });

  it('restarts for a missing variable alone, and a restarted process (flags and variable set) does not restart again', () => {
    const restarted = { MALLOC_ARENA_MAX: '2' };
    expect(missingNodeStart(SERVER_START, [], {})).toEqual({ flags: SERVER_NODE_FLAGS, env: restarted });
    // The flags given by the user, the variable not: a restart for the variable only.
    expect(missingNodeStart(SERVER_START, [...SERVER_NODE_FLAGS], {})).toEqual({ flags: [], env: restarted });
    expect(missingNodeStart(SERVER_START, [], { NODE_OPTIONS: SERVER_NODE_FLAGS.join(' ') })).toEqual({ flags: [], env: restarted });
    // What the restart gives the process is all it needs: no second restart.
    expect(missingNodeStart(SERVER_START, [...SERVER_NODE_FLAGS], restarted)).toBeUndefined();
    // The variable set by the user, the flags not: a restart for the flags, the user's value kept.
    expect(missingNodeStart(SERVER_START, [], { MALLOC_ARENA_MAX: '8' })).toEqual({ flags: SERVER_NODE_FLAGS, env: {} });
    expect(missingNodeStart(IMPORT_START, [...IMPORT_NODE_FLAGS], { MALLOC_ARENA_MAX: '2' })).toBeUndefined();
  });

  it('gives the import 8 MB semi-spaces and caps its old generation at 1 GB (its problem list is bounded), unless the user sized it', () => {
    expect(IMPORT_NODE_FLAGS).toEqual(['--max-semi-space-size=8', '--max-old-space-size=1024']);
    expect(missingNodeFlags(IMPORT_NODE_FLAGS, [], '--max-old-space-size=512')).toEqual(['--max-semi-space-size=8']);
  });

  it('never adds a flag the process already has by name, on its command line or in NODE_OPTIONS', () => {
    expect(missingNodeFlags(['--max-semi-space-size=2'], [], '')).toEqual(['--max-semi-space-size=2']);
    expect(missingNodeFlags(['--max-semi-space-size=2'], ['--max-semi-space-size=8'], '')).toEqual([]);
    expect(missingNodeFlags(['--max-semi-space-size=2'], [], '--max_semi_space_size=16 --trace-warnings')).toEqual([]);
    expect(missingNodeFlags(['--max-semi-space-size=2', '--stack-size=900'], ['--stack-size=800'], '')).toEqual([
      '--max-semi-space-size=2',
    ]);
  });
});

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
/** The environment the process was last exec'd with. */
const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

describe.runIf(process.platform === 'linux')('barcode-inventory serve with its memory flags', () => {
  const temp = tempDir('bi-flags-');
  afterAll(() => temp.remove());

  it('restarts itself in place: the same process id runs node with the flags, and SIGKILL of it stops the server', async () => {
    const server = await startCliServer(['--db', path.join(temp.dir, 'a.db')]);
    const pid = server.child.pid!;
    expect(cmdline(pid)).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
    expect(environ(pid)).toContain('MALLOC_ARENA_MAX=2');
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    await expect(fetch(`${server.url}/api/v1/`)).rejects.toThrow();
  });

  it(`runs without them when ${WITHOUT_NODE_FLAGS_ENV}=1`, async () => {
    const server = await startCliServer(['--db', path.join(temp.dir, 'b.db')], {
      [WITHOUT_NODE_FLAGS_ENV]: '1',
      MALLOC_ARENA_MAX: undefined,
    });
    for (const flag of SERVER_NODE_FLAGS) expect(cmdline(server.child.pid!)).not.toContain(flag);
    expect(environ(server.child.pid!).filter((entry) => entry.startsWith('MALLOC_ARENA_MAX='))).toEqual([]);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  });

  it('restarts for MALLOC_ARENA_MAX alone when the user gave every flag', async () => {
    const server = await startCliServer(['--db', path.join(temp.dir, 'c.db')], {
      NODE_OPTIONS: SERVER_NODE_FLAGS.join(' '),
      MALLOC_ARENA_MAX: undefined,
    });
    expect(environ(server.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  });

  it("keeps the user's MALLOC_ARENA_MAX", async () => {
    const server = await startCliServer(['--db', path.join(temp.dir, 'd.db')], { MALLOC_ARENA_MAX: '4' });
    const pid = server.child.pid!;
    expect(cmdline(pid)).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
    expect(environ(pid).filter((entry) => entry.startsWith('MALLOC_ARENA_MAX='))).toEqual(['MALLOC_ARENA_MAX=4']);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  });
});
