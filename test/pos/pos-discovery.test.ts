// mDNS/DNS-SD discovery (docs/POS.md): a LAN bind is announced as _barcode-inventory._tcp with the API
// base path, found here over loopback multicast (127.0.0.1) by a real DNS-SD browser; loopback binds
// announce nothing; closing the server says goodbye.
import { Bonjour, type Service } from 'bonjour-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TYPE } from '../../server/discovery/announce.ts';
import { startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { dropDatabase, newDatabase } from '../support/test-engine.ts';
import { exampleCatalogue, seedDatabase, tempDir } from '../support/test-server.ts';

// Loopback multicast: the same options the server gets below, so nothing leaves this machine.
const LOOPBACK_MULTICAST = { interface: '127.0.0.1', bind: '0.0.0.0' } as ConstructorParameters<typeof Bonjour>[0];

describe('discovery on the LAN', () => {
  const dir = tempDir();
  let dbFile: string; // a SQLite file or a PostgreSQL database of its own
  let tokens: Record<string, string>;
  let browser: Bonjour;
  beforeAll(async () => {
    dbFile = await newDatabase(dir.dir);
    tokens = await seedDatabase(dbFile, exampleCatalogue());
    browser = new Bonjour(LOOPBACK_MULTICAST, (error: unknown) => {
      throw error;
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => browser.destroy(resolve));
    await dropDatabase(dbFile);
    dir.remove();
  });

  it('announces a 0.0.0.0 bind with the API base path, and a found service answers', async () => {
    const server = await startServer({ store: await openStore(dbFile), host: '0.0.0.0', port: 0, discovery: { interface: '127.0.0.1' } });
    try {
      expect(server.discovery).not.toBeNull();
      const found = await new Promise<Service>((resolve) => {
        const find = browser.find({ type: SERVICE_TYPE }, (service) => {
          if (service.port === server.port) {
            find.stop();
            resolve(service);
          }
        });
      });
      expect(found.name).toBe(server.discovery!.name);
      expect(found.type).toBe(SERVICE_TYPE);
      expect(found.protocol).toBe('tcp');
      expect(found.txt).toMatchObject({ path: '/api/v1/', api: 'v1', auth: 'token' });
      // A till uses what it found: port and base path (the address of this machine is 127.0.0.1 here).
      const res = await fetch(`http://127.0.0.1:${found.port}${found.txt.path}core/item/inventory_by_barcode/?barcodes=111`, {
        headers: { authorization: `Token ${tokens.kiosk}` },
      });
      expect(res.status).toBe(200);
      expect(INVENTORY_PATH.startsWith(found.txt.path)).toBe(true);

      // Closing sends goodbye packets: the browser sees the service go down.
      const down = new Promise<Service>((resolve) => {
        const watch = browser.find({ type: SERVICE_TYPE });
        watch.on('down', (service: Service) => {
          if (service.port === server.port) {
            watch.stop();
            resolve(service);
          }
        });
        // The browser must know the service before it can see it leave.
        watch.on('up', (service: Service) => {
          if (service.port === server.port) void server.close();
        });
      });
      expect((await down).name).toBe(found.name);
    } finally {
      await server.close();
    }
  });

  it('announces nothing on loopback binds or when turned off', async () => {
    const loopback = await startServer({ store: await openStore(dbFile), host: '127.0.0.1', port: 0 });
    const off = await startServer({ store: await openStore(dbFile), host: '0.0.0.0', port: 0, discovery: false });
    try {
      expect(loopback.discovery).toBeNull();
      expect(off.discovery).toBeNull();
    } finally {
      await Promise.all([loopback.close(), off.close()]);
    }
  });
});
