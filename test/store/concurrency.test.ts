// Proof 2 (issue 4): many parallel clients reading and writing the same and different barcodes of
// the real server (child process), while another process-level connection writes to the same file
// (a catalogue import in a loop) and a backup is taken: no 5xx, no SQLITE_BUSY reaching a client,
// and the final state is the last acknowledged write per key. Clients send their own requests one
// after another; for keys several clients write at once, "last" is the commit order, which the
// append-only history records — every acknowledged write must be in it, each client's writes in the
// order it sent them, any write acknowledged before another was sent ahead of it (real-time order),
// and the stock must equal the latest entry.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../server/catalogue/import-catalogue.ts';
import { openStore } from '../../server/store/open-store.ts';
import { backupDatabase, checkFile } from '../../server/store/sqlite/backup.ts';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { childServerScope, killHard } from '../support/child-server.ts';
import { probeDatabase, sourceNameOf } from '../support/database-probe.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { seedDatabase } from '../support/test-server.ts';

const SEED = 4242;
const CLIENTS = 16;
const OPERATIONS_PER_CLIENT = 40;
const WAREHOUSES = ['Main', 'Backroom'];
const SHARED = barcodes('S', 8); // written by every client
const ownBarcodes = (client: number) => barcodes(`O${client}-`, 3); // written by one client only

interface Write {
  client: number;
  seq: number;
  key: string;
  quantity: number;
  /** Logical clock (one test process, so events are totally ordered): when it was sent, when its answer arrived. */
  sentAt: number;
  ackedAt: number;
}

// Bounded generously: the work is fixed by the seed, the timeout only guards a loaded CI machine.
describe('concurrency (parallel clients, a second writer, a live backup)', { timeout: 120_000 }, () => {
  const { dir, dbFile, start } = childServerScope('bi-conc-');

  it('answers every request without 5xx and ends at the last acknowledged write per key', async () => {
    const all = [...SHARED, ...Array.from({ length: CLIENTS }, (_, c) => ownBarcodes(c)).flat()];
    const tokens = await seedDatabase(
      dbFile,
      generatedCatalogue([
        { name: 'depot', warehouses: [], barcodes: barcodes('D', 5), quantity: 0 },
        { name: 'shop', warehouses: WAREHOUSES, barcodes: all, quantity: 0 },
      ]),
    );
    const server = await start();
    const { url } = server;
    const auth = { authorization: `Token ${tokens.shop}` };

    let requests = 0;
    let serverErrors = 0;
    let busyMentions = 0;
    let nextQuantity = 1;
    let clock = 0;
    const writes: Write[] = [];
    const ownLast = new Map<string, number>(); // key of a client's own barcode → its last acknowledged quantity

    const client = async (c: number) => {
      const rnd = seededRandom(SEED + c);
      const own = ownBarcodes(c);
      let seq = 0;
      for (let op = 0; op < OPERATIONS_PER_CLIENT; op++) {
        requests++;
        if (rnd.chance(0.4)) {
          const asked = [rnd.pick(SHARED), rnd.pick(own), rnd.pick(SHARED)];
          const response = await fetch(`${url}${INVENTORY_PATH}?barcodes=${asked.join(',')}`, { headers: auth });
          const text = await response.text();
          if (response.status >= 500) serverErrors++;
          if (/SQLITE|busy|locked/i.test(text)) busyMentions++;
          expect(response.status).toBe(200);
          const body = JSON.parse(text) as { results: { barcode: string; warehouse_name: string; quantity: number }[]; errors: unknown[] };
          expect(body.errors).toEqual([]);
          // Read-your-writes on keys only this client writes.
          for (const r of body.results) {
            const key = `${r.barcode}|${r.warehouse_name}`;
            if (ownLast.has(key)) expect(r.quantity).toBe(ownLast.get(key));
          }
          continue;
        }
        const rows = Array.from({ length: rnd.int(1, 4) }, () => ({
          barcode: rnd.chance(0.6) ? rnd.pick(SHARED) : rnd.pick(own),
          warehouse_name: rnd.pick(WAREHOUSES),
          quantity: nextQuantity++,
        }));
        const sentAt = clock++;
        const response = await fetch(`${url}${INVENTORY_PATH}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(rows),
        });
        const text = await response.text();
        const ackedAt = clock++;
        if (response.status >= 500) serverErrors++;
        if (/SQLITE|busy|locked/i.test(text)) busyMentions++;
        expect(response.status).toBe(200);
        expect(JSON.parse(text).errors).toEqual([]);
        seq++;
        for (const row of rows) {
          const key = `${row.barcode}|${row.warehouse_name}`;
          writes.push({ client: c, seq, key, quantity: row.quantity, sentAt, ackedAt });
          if (own.includes(row.barcode)) ownLast.set(key, row.quantity);
        }
      }
    };

    // A second writer on the same file, as `barcode-inventory import` would be while the server runs.
    let importerRounds = 0;
    let stop = false;
    const importer = async () => {
      const store = await openStore(dbFile);
      const rnd = seededRandom(SEED - 1);
      try {
        while (!stop) {
          const catalogue = await parseCatalogue(
            generatedCatalogue([{ name: 'depot', warehouses: [], barcodes: barcodes('D', 5), quantity: rnd.int(0, 1000) }]),
          );
          await store.catalogue.write(catalogue);
          importerRounds++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        await store.close();
      }
    };

    const importing = importer();
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    // A backup in the middle of the load must be a consistent database on its own.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const backupReport = await backupDatabase(dbFile, path.join(dir, 'mid-load-backup.db'));
    await clients;
    stop = true;
    await importing;
    await killHard(server);

    expect(serverErrors).toBe(0);
    expect(busyMentions).toBe(0);
    expect(backupReport.ok).toBe(true);

    expect(await checkFile(dbFile)).toMatchObject({ ok: true, integrity: ['ok'], foreignKeyProblems: 0, historyMismatches: 0 });
    const probe = probeDatabase(dbFile);
    try {
      const historyRows = await probe.all<{ id: number; new_quantity: number; key: string }>(
        `SELECT h.id, h.new_quantity, u.barcode || '|' || w.name AS key FROM stock_history h
         JOIN stock_units u ON u.id = h.unit_id JOIN warehouses w ON w.id = h.warehouse_id WHERE ${sourceNameOf('h')} = 'api'`,
      );
      const historyOf = new Map(historyRows.map((h) => [h.new_quantity, h]));
      // Every acknowledged write is in the history, under its key, and each client's writes in its own order.
      const lastIdOfClientKey = new Map<string, number>();
      for (const w of writes) {
        const h = historyOf.get(w.quantity);
        expect(h?.key).toBe(w.key);
        const ck = `${w.client}|${w.key}`;
        expect(h!.id).toBeGreaterThan(lastIdOfClientKey.get(ck) ?? 0);
        lastIdOfClientKey.set(ck, h!.id);
      }
      expect(historyRows.length).toBe(writes.length);
      // Real-time order: a write acknowledged before another was sent comes first in the history,
      // whichever clients sent them (only overlapping writes may land in either order).
      const byKey = new Map<string, Write[]>();
      for (const w of writes) byKey.set(w.key, [...(byKey.get(w.key) ?? []), w]);
      let orderedPairs = 0;
      for (const list of byKey.values()) {
        for (const a of list) {
          for (const b of list) {
            if (a.ackedAt < b.sentAt) {
              orderedPairs++;
              expect(historyOf.get(a.quantity)!.id).toBeLessThan(historyOf.get(b.quantity)!.id);
            }
          }
        }
      }
      // Final state: the latest acknowledged write of each key (commit order), and for one-writer keys
      // exactly what that client last sent.
      const stock = await probe.all<{ key: string; quantity: number }>(
        `SELECT u.barcode || '|' || w.name AS key, s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id JOIN warehouses w ON w.id = s.warehouse_id`,
      );
      const finalByKey = new Map(stock.map((s) => [s.key, s.quantity]));
      const latestWrite = new Map<string, { id: number; quantity: number }>();
      for (const h of historyRows)
        if ((latestWrite.get(h.key)?.id ?? 0) < h.id) latestWrite.set(h.key, { id: h.id, quantity: h.new_quantity });
      for (const [key, latest] of latestWrite) expect(finalByKey.get(key)).toBe(latest.quantity);
      for (const [key, quantity] of ownLast) expect(finalByKey.get(key)).toBe(quantity);
      console.log(
        `[concurrency] seed ${SEED}: ${CLIENTS} clients, ${requests} requests (${writes.length} rows written, ${latestWrite.size} keys, ` +
          `${SHARED.length * WAREHOUSES.length} shared by all clients; ${orderedPairs} write pairs ordered in real time all in that order in the history), ${serverErrors} 5xx, ${busyMentions} SQLITE_BUSY/locked answers; ` +
          `${importerRounds} concurrent import transactions from a second connection; mid-load backup consistent: ${backupReport.ok}.`,
      );
    } finally {
      await probe.close();
    }
  });
});
