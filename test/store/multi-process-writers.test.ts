// Several server processes on ONE database (issue 14: head office runs more than one `serve` on
// PostgreSQL): three real `barcode-inventory serve` processes, 16 clients adjusting the same shared
// barcodes through whichever process they pick, each adjust carrying an Idempotency-Key and replayed
// to another process — sometimes while the first copy is still in flight. Afterwards every
// barcode's quantity is its start plus the sum of the acknowledged adjusts (0 lost, 0 doubled), the
// history holds each acknowledged row exactly once and chains without a gap (the fold of the
// deltas) in an order that agrees with real time (a key answered before another was sent comes
// first), and all three processes read the same figures (no process kept a stale one). Runs on
// both engines: SQLite's single writer across processes, PostgreSQL's advisory write lock.
import { describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH } from '../../shared/index.ts';
import { type ChildServer, childServerScope, killHard } from '../support/child-server.ts';
import { probeDatabase } from '../support/database-probe.ts';
import { barcodes, generatedCatalogue } from '../support/generated-catalogue.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { testEngine } from '../support/test-engine.ts';
import { seedDatabase } from '../support/test-server.ts';

const SEED = 1414;
const PROCESSES = 3;
const CLIENTS = 16;
const OPERATIONS_PER_CLIENT = 25;
const START = 100_000;
const WAREHOUSES = ['Main', 'Backroom'];
const SHARED = barcodes('M', 6);

interface Row {
  barcode: string;
  warehouse_name: string;
  delta: number;
  reason: string;
  reference: string;
}

// Bounded generously: the work is fixed by the seed, the timeout only guards a loaded CI machine.
describe(`several server processes on one database (${testEngine()})`, { timeout: 180_000 }, () => {
  const { dbFile, start } = childServerScope('bi-multi-');

  it('16 clients through 3 processes: every acknowledged adjust applied exactly once, replays across processes included', async () => {
    const tokens = await seedDatabase(
      dbFile,
      generatedCatalogue([{ name: 'shop', warehouses: WAREHOUSES, barcodes: SHARED, quantity: START }]),
    );
    const servers: ChildServer[] = [];
    for (let i = 0; i < PROCESSES; i++) servers.push(await start());
    const headers = { authorization: `Token ${tokens.shop}`, 'content-type': 'application/json' };

    const send = (server: ChildServer, key: string, rows: Row[]) =>
      fetch(`${server.url}${ADJUST_PATH}`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify(rows) });
    let requests = 0;
    let replays = 0;
    let racedCopies = 0;
    let inFlightAnswers = 0;
    let serverErrors = 0;
    const acknowledged = new Map<string, Row>(); // reference → row of an acknowledged adjust
    const answers = new Map<string, unknown>(); // key → first 200 answer
    // Real time: when a key was first sent, and when its first 200 came back.
    const sentAt = new Map<string, number>();
    const answeredAt = new Map<string, number>();

    /** Sends until one copy is answered 200; every 200 answer of the key must be the same. */
    const deliver = async (key: string, rows: Row[], via: ChildServer[]) => {
      if (!sentAt.has(key)) sentAt.set(key, performance.now());
      for (;;) {
        const responses = await Promise.all(via.map((server) => send(server, key, rows)));
        const at = performance.now();
        requests += responses.length;
        let ok = false;
        for (const response of responses) {
          const body: unknown = await response.json();
          if (response.status >= 500) serverErrors++;
          if (response.status === 409) {
            inFlightAnswers++; // the same key is being applied by another request right now
            continue;
          }
          expect(response.status).toBe(200);
          expect((body as { errors: unknown[] }).errors).toEqual([]);
          if (answers.has(key)) expect(body).toEqual(answers.get(key));
          else {
            answers.set(key, body);
            answeredAt.set(key, at);
          }
          ok = true;
        }
        if (ok) return;
        via = [via[0]!];
      }
    };

    const client = async (c: number) => {
      const rnd = seededRandom(SEED + c);
      for (let op = 0; op < OPERATIONS_PER_CLIENT; op++) {
        const key = `multi-${c}-${op}`;
        const rows: Row[] = Array.from({ length: rnd.int(1, 3) }, (_, i) => ({
          barcode: rnd.pick(SHARED),
          warehouse_name: rnd.pick(WAREHOUSES),
          delta: rnd.chance(0.5) ? -rnd.int(1, 5) : rnd.int(1, 5),
          reason: 'sale',
          reference: `${key}-${i}`,
        }));
        const first = rnd.int(0, PROCESSES - 1);
        const other = servers[(first + rnd.int(1, PROCESSES - 1)) % PROCESSES]!;
        if (rnd.chance(0.25)) {
          // Two copies at once through two processes, as a till that timed out and retried elsewhere.
          racedCopies++;
          await deliver(key, rows, [servers[first]!, other]);
        } else {
          await deliver(key, rows, [servers[first]!]);
          if (rnd.chance(0.4)) {
            replays++;
            await deliver(key, rows, [other]); // a replay through another process: answered, not applied
          }
        }
        for (const row of rows) acknowledged.set(row.reference, row);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));

    // Expected figures: the start plus the sum of the acknowledged deltas, per barcode and warehouse.
    const expected = new Map<string, number>();
    for (const row of acknowledged.values()) {
      const k = `${row.barcode}|${row.warehouse_name}`;
      expected.set(k, (expected.get(k) ?? START) + row.delta);
    }
    // Every process reads the same, final figures.
    for (const server of servers) {
      const response = await fetch(`${server.url}${INVENTORY_PATH}?barcodes=${SHARED.join(',')}`, { headers });
      const { results } = (await response.json()) as { results: { barcode: string; warehouse_name: string; quantity: number }[] };
      for (const r of results) expect(r.quantity).toBe(expected.get(`${r.barcode}|${r.warehouse_name}`) ?? START);
    }
    await Promise.all(servers.map(killHard));

    const probe = probeDatabase(dbFile);
    try {
      const history = await probe.all<{ id: number; reference: string; key: string; old_quantity: number; new_quantity: number }>(
        `SELECT h.id, h.reference, u.barcode || '|' || w.name AS key, h.old_quantity, h.new_quantity FROM stock_history h
           JOIN stock_units u ON u.id = h.unit_id JOIN warehouses w ON w.id = h.warehouse_id WHERE h.reason = 'sale' ORDER BY h.id`,
      );
      const references = history.map((h) => h.reference);
      const doubled = references.length - new Set(references).size;
      const lost = [...acknowledged.keys()].filter((reference) => !references.includes(reference)).length;
      const unacknowledged = references.filter((reference) => !acknowledged.has(reference)).length;
      // The fold: per key, each entry starts where the previous one ended and moves by its delta.
      const last = new Map<string, number>();
      let chainBreaks = 0;
      for (const h of history) {
        const delta = acknowledged.get(h.reference)?.delta;
        if (h.old_quantity !== (last.get(h.key) ?? START) || h.new_quantity !== h.old_quantity + (delta ?? NaN)) chainBreaks++;
        last.set(h.key, h.new_quantity);
      }
      const stock = await probe.all<{ key: string; quantity: number }>(
        `SELECT u.barcode || '|' || w.name AS key, s.quantity FROM stock s JOIN stock_units u ON u.id = s.unit_id JOIN warehouses w ON w.id = s.warehouse_id`,
      );
      // History order agrees with real time: a key answered before another was first sent holds
      // only history entries before all of that other key's entries.
      const idsOf = new Map<string, { min: number; max: number }>();
      for (const h of history) {
        const key = h.reference.slice(0, h.reference.lastIndexOf('-'));
        const span = idsOf.get(key);
        idsOf.set(key, span ? { min: Math.min(span.min, h.id), max: Math.max(span.max, h.id) } : { min: h.id, max: h.id });
      }
      const byAnswer = [...answeredAt.entries()].sort((a, b) => a[1] - b[1]);
      let realTimePairs = 0;
      let outOfOrder = 0;
      for (const [key, sent] of sentAt) {
        for (const [earlier, answered] of byAnswer) {
          if (answered >= sent) break;
          const [before, after] = [idsOf.get(earlier), idsOf.get(key)];
          if (!before || !after) continue; // a lost key: counted as lost above
          realTimePairs++;
          if (before.max >= after.min) outOfOrder++;
        }
      }
      const wrongFigures = stock.filter((s) => s.quantity !== (expected.get(s.key) ?? START)).length;
      console.log(
        `[multi-process ${testEngine()}] seed ${SEED}: ${PROCESSES} serve processes, ${CLIENTS} clients, ${requests} requests ` +
          `(${acknowledged.size} acknowledged adjust rows under ${answers.size} Idempotency-Keys, ${replays} replays through another process, ` +
          `${racedCopies} keys sent through two processes at once, ${inFlightAnswers} answered 409 in flight), ${serverErrors} 5xx; ` +
          `history: ${history.length} rows, ${lost} lost, ${doubled} doubled, ${unacknowledged} not acknowledged, ${chainBreaks} chain breaks, ` +
          `${realTimePairs} key pairs ordered in real time, ${outOfOrder} out of that order; ` +
          `${stock.length - wrongFigures}/${stock.length} figures = start + sum of acknowledged deltas.`,
      );
      expect(serverErrors).toBe(0);
      expect({ lost, doubled, unacknowledged, chainBreaks, wrongFigures, outOfOrder }).toEqual({
        lost: 0,
        doubled: 0,
        unacknowledged: 0,
        chainBreaks: 0,
        wrongFigures: 0,
        outOfOrder: 0,
      });
      expect(realTimePairs).toBeGreaterThan(1000); // the check had pairs to check
      expect(history.length).toBe(acknowledged.size);
    } finally {
      await probe.close();
    }
  });
});
