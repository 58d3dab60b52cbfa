// SQLite only: the demo database of the first start is a SQLite file, demo.db beside the real
// database file (docs/UI.md, "First start"), in a folder the launcher creates. The rest of the
// launcher's choice, and the scanner UI's server side, run on both engines in ui-server.test.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { DEMO_DATABASE_NAME, launch } from '../../server/launch/launch.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { seedDatabase, tempDir } from '../support/test-server.ts';

describe('first start: the demo database', () => {
  it('uses a demo database with both scenarios while the real one is empty, loaded once', async () => {
    const temp = tempDir();
    try {
      const dbFile = path.join(temp.dir, 'data', 'inventory.db');
      const demoFile = path.join(temp.dir, 'data', DEMO_DATABASE_NAME);
      const first = await launch({ database: dbFile, demo: true, port: 0 });
      let kiosk: (typeof first.accounts)[number];
      try {
        expect(first.demo).toBe(true);
        expect(first.database).toBe(demoFile);
        expect(first.accounts.map((a) => a.warehousesEnabled).sort()).toEqual([false, true]);
        expect(first.describe().join('\n')).toContain(`(database: ${demoFile})`);

        // A change made in the demo survives the next start (it is not loaded again).
        kiosk = first.accounts.find((a) => !a.warehousesEnabled)!;
        const { key } = await first.server.store.tokens.create(kiosk.name, 'test', 'api');
        const set = await fetch(`${first.server.url}${INVENTORY_PATH}`, {
          method: 'POST',
          headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify([{ barcode: '0000000000017', quantity: 3 }]),
        });
        expect(((await set.json()) as { results: unknown[] }).results).toEqual([expect.objectContaining({ quantity: 3 })]);
      } finally {
        await first.close();
      }
      const second = await launch({ database: dbFile, demo: true, port: 0 });
      try {
        expect(second.database).toBe(first.database);
        expect(second.demo).toBe(true);
        expect((await second.server.store.stock.read(kiosk, ['0000000000017'])).get('0000000000017')).toEqual([
          expect.objectContaining({ quantity: 3 }),
        ]);
      } finally {
        await second.close();
      }

      // The real database was left empty; once it has an account, it is the one used.
      const real = probeDatabase(dbFile);
      try {
        expect(await real.all('SELECT name FROM accounts')).toEqual([]);
      } finally {
        await real.close();
      }
      await seedDatabase(dbFile, { accounts: [{ name: 'mine', warehouses_enabled: false, items: [] }] });
      const third = await launch({ database: dbFile, demo: true, port: 0 });
      try {
        expect({ database: third.database, demo: third.demo, accounts: third.accounts }).toEqual({
          database: dbFile,
          demo: false,
          accounts: [expect.objectContaining({ name: 'mine' })],
        });
      } finally {
        await third.close();
      }
      const empty = path.join(temp.dir, 'empty.db');
      const notDemo = await launch({ database: empty, demo: false, port: 0 });
      try {
        expect({ database: notDemo.database, demo: notDemo.demo, accounts: notDemo.accounts }).toEqual({
          database: empty,
          demo: false,
          accounts: [],
        });
      } finally {
        await notDemo.close();
      }
    } finally {
      temp.remove();
    }
  });
});
