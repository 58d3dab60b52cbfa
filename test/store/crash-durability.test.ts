// Proof 1 (issue 4): the real server in a child process, several concurrent writers, SIGKILL in
// the middle of the load, restart. Every acknowledged update must be there, the database must pass
// integrity_check, and the stock history must agree with the stock. Two kill/restart rounds. Runs
// on both engines (on PostgreSQL the server process dies, the database server keeps running).
import { describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { childServerScope, killHard } from '../support/child-server.ts';
import { probeDatabase, sourceNameOf } from '../support/database-probe.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { checkDatabase, testEngine } from '../support/test-engine.ts';
import { seedDatabase } from '../support/test-server.ts';

const SEED = 20261122;
const WRITERS = 6;
const ROUNDS = 2;
const WAREHOUSES = ['Main', 'Backroom', 'Van'];
const BARCODES = barcodes('C', 40);

interface AckedRow {
  barcode: string;
  warehouse: string;
  quantity: number;
}

// Bounded generously: the work is fixed by the seed, the timeout only guards a loaded CI machine.
describe(`crash durability (SIGKILL under concurrent writes, ${testEngine()})`, { timeout: 120_000 }, () => {
  const { dbFile, start } = childServerScope('bi-crash-');

  it('keeps every acknowledged write across kills and restarts', async () => {
    const tokens = await seedDatabase(
      dbFile,
      generatedCatalogue([{ name: 'shop', warehouses: WAREHOUSES, barcodes: BARCODES, quantity: 1 }]),
    );
    const token = tokens.shop!;
    const random = seededRandom(SEED);
    const acked: AckedRow[] = [];
    let requestsAcked = 0;
    let requestsUnanswered = 0;
    let sentRows: AckedRow[] = [];
    // Every row gets a quantity no other row has, so each write can be found in the history.
    let nextQuantity = 1000;

    for (let round = 0; round < ROUNDS; round++) {
      const current = await start();
      const url = current.url;
      const killAfter = random.int(60, 140); // acknowledged requests in this round before the kill
      let ackedThisRound = 0;
      let killed: Promise<void> | undefined;

      const writer = async (id: number) => {
        const rnd = seededRandom(SEED + round * 100 + id);
        for (;;) {
          const rows = Array.from({ length: rnd.int(1, 5) }, () => ({
            barcode: rnd.pick(BARCODES),
            warehouse_name: rnd.pick(WAREHOUSES),
            quantity: nextQuantity++,
          }));
          sentRows.push(...rows.map((r) => ({ barcode: r.barcode, warehouse: r.warehouse_name, quantity: r.quantity })));
          let response: Response;
          try {
            response = await fetch(`${url}${INVENTORY_PATH}`, {
              method: 'POST',
              headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(rows),
            });
            if (response.status !== 200) throw new Error(`unexpected status ${response.status}`);
            const body = (await response.json()) as {
              results: { barcode: string; warehouse_name: string; quantity: number }[];
              errors: unknown[];
            };
            expect(body.errors).toEqual([]);
            // Acknowledged: the whole answer arrived.
            for (const r of body.results) acked.push({ barcode: r.barcode, warehouse: r.warehouse_name, quantity: r.quantity });
            requestsAcked++;
            if (++ackedThisRound === killAfter) killed = killHard(current);
          } catch (error) {
            if (killed === undefined) throw error; // any failure before the kill is a real failure
            requestsUnanswered++;
            return;
          }
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));
      await killed;
    }

    // Restart once more and read everything back through the API.
    const server = await start();
    const readBack = new Map<string, number>();
    for (let i = 0; i < BARCODES.length; i += 50) {
      const response = await fetch(`${server.url}${INVENTORY_PATH}?barcodes=${BARCODES.slice(i, i + 50).join(',')}`, {
        headers: { authorization: `Token ${token}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { results: { barcode: string; warehouse_name: string; quantity: number }[] };
      for (const r of body.results) readBack.set(`${r.barcode}|${r.warehouse_name}`, r.quantity);
    }
    await killHard(server);

    // The store's checks, read-only, as `barcode-inventory check` runs them.
    const report = await checkDatabase(dbFile);
    const probe = probeDatabase(dbFile);
    try {
      expect(report.integrity).toEqual(['ok']);
      expect(report.foreignKeyProblems).toBe(0);
      expect(report.historyMismatches).toBe(0);

      // Position of every written quantity in the history (quantities are unique per row).
      const history = new Map<number, { id: number; key: string }>();
      const rows = await probe.all<{ id: number; new_quantity: number; barcode: string; warehouse: string }>(
        `SELECT h.id, h.new_quantity, u.barcode, w.name AS warehouse FROM stock_history h
         JOIN stock_units u ON u.id = h.unit_id JOIN warehouses w ON w.id = h.warehouse_id
         WHERE ${sourceNameOf('h')} = 'api'`,
      );
      for (const row of rows) history.set(row.new_quantity, { id: row.id, key: `${row.barcode}|${row.warehouse}` });

      let lost = 0;
      const lastAckedHistoryId = new Map<string, number>();
      for (const row of acked) {
        const key = `${row.barcode}|${row.warehouse}`;
        const entry = history.get(row.quantity);
        if (!entry || entry.key !== key) {
          lost++;
          continue;
        }
        lastAckedHistoryId.set(key, Math.max(lastAckedHistoryId.get(key) ?? 0, entry.id));
      }
      expect(lost).toBe(0);

      // What the API reads now is the latest history entry of each key, never older than an acknowledged write.
      const latest = await probe.all<{ key: string; quantity: number; last_id: number }>(
        `SELECT u.barcode || '|' || w.name AS key, s.quantity,
           (SELECT max(id) FROM stock_history h WHERE h.unit_id = s.unit_id AND h.warehouse_id = s.warehouse_id) AS last_id
         FROM stock s JOIN stock_units u ON u.id = s.unit_id JOIN warehouses w ON w.id = s.warehouse_id`,
      );
      for (const row of latest) {
        expect(readBack.get(row.key)).toBe(row.quantity);
        expect(row.last_id).toBeGreaterThanOrEqual(lastAckedHistoryId.get(row.key) ?? 0);
      }
      const committedUnacked = sentRows.filter((r) => history.has(r.quantity)).length - acked.length;
      console.log(
        `[crash durability ${testEngine()}] seed ${SEED}, ${ROUNDS} SIGKILLs, ${WRITERS} writers: ${requestsAcked} requests / ${acked.length} rows acknowledged, ` +
          `${lost} lost; ${requestsUnanswered} requests in flight at the kills (${committedUnacked} of their rows committed without an answer); ` +
          `integrity check ${report.integrity.join(',')}, ${report.historyRows} history entries agree with ${report.stockRows} stock figures.`,
      );
      sentRows = [];
    } finally {
      await probe.close();
    }
  });
});
