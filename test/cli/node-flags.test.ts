// The memory flags of the long-running commands (server/launch/node-flags.ts): which command gets
// which, a flag the user gave wins, and `serve` really runs with them in the same process (a kill
// of the started process id stops the server: nothing is left behind).
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  IMPORT_NODE_FLAGS,
  POSTGRES_SERVER_NODE_FLAGS,
  SERVER_NODE_FLAGS,
  WITHOUT_NODE_FLAGS_ENV,
  missingNodeFlags,
  nodeFlagsForCommand,
} from '../../server/launch/node-flags.ts';
import { startCliServer } from '../support/cli.ts';
import { tempDir } from '../support/test-server.ts';

describe('node flags of the commands', () => {
  it('serve and import get their flags, other commands none', () => {
    expect(nodeFlagsForCommand(['serve', '--db', 'x.db'], {})).toEqual(SERVER_NODE_FLAGS);
    // On PostgreSQL the server runs without the old-generation cap, however the database is named.
    expect(SERVER_NODE_FLAGS).toContain('--max-old-space-size=512');
    expect(POSTGRES_SERVER_NODE_FLAGS).toEqual(['--max-semi-space-size=1']);
    expect(nodeFlagsForCommand(['serve', '--database', 'postgres://u@h/db'], {})).toEqual(POSTGRES_SERVER_NODE_FLAGS);
    expect(nodeFlagsForCommand(['serve', '--database=postgresql://u@h/db'], {})).toEqual(POSTGRES_SERVER_NODE_FLAGS);
    expect(nodeFlagsForCommand(['serve'], { BARCODE_INVENTORY_DATABASE: 'postgres://u@h/db' })).toEqual(POSTGRES_SERVER_NODE_FLAGS);
    expect(nodeFlagsForCommand(['serve', '--database', 'shop.db'], { BARCODE_INVENTORY_DATABASE: 'postgres://u@h/db' })).toEqual(
      SERVER_NODE_FLAGS,
    );
    expect(nodeFlagsForCommand(['serve', '--db', 'shop.db'], { BARCODE_INVENTORY_DATABASE: 'postgres://u@h/db' })).toEqual(
      SERVER_NODE_FLAGS,
    );
    expect(nodeFlagsForCommand(['import', 'catalogue.json'])).toEqual(IMPORT_NODE_FLAGS);
    expect(nodeFlagsForCommand(['token', 'create'])).toEqual([]);
    expect(nodeFlagsForCommand(['--help'])).toEqual([]);
  });

  it("caps the import's old generation at 256 MB (its problem list is bounded), unless the user sized it", () => {
    expect(IMPORT_NODE_FLAGS).toEqual(['--max-semi-space-size=4', '--max-old-space-size=1024']);
    expect(missingNodeFlags(IMPORT_NODE_FLAGS, [], '--max-old-space-size=512')).toEqual(['--max-semi-space-size=4']);
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

describe.runIf(process.platform === 'linux')('barcode-inventory serve with its memory flags', () => {
  const temp = tempDir('bi-flags-');
  afterAll(() => temp.remove());

  it('restarts itself in place: the same process id runs node with the flags, and SIGKILL of it stops the server', async () => {
    const server = await startCliServer(['--db', path.join(temp.dir, 'a.db')]);
    const pid = server.child.pid!;
    expect(cmdline(pid)).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS]));
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    await expect(fetch(`${server.url}/api/v1/`)).rejects.toThrow();
  });

  it(`runs without them when ${WITHOUT_NODE_FLAGS_ENV}=1`, async () => {
    const server = await startCliServer(['--db', path.join(temp.dir, 'b.db')], { [WITHOUT_NODE_FLAGS_ENV]: '1' });
    for (const flag of SERVER_NODE_FLAGS) expect(cmdline(server.child.pid!)).not.toContain(flag);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  });
});
