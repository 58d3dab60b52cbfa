// Whole-database checks: the engine's own (structure, foreign keys) and the store's rule that the
// stock history agrees with the stock (the latest movement of every stock figure, in fold order,
// left its quantity), and that every movement's order key is its timestamp's (what the history's
// indexes order by, movements/hlc.ts), and that every movement's actor and source are names the
// store holds (migrations 0036_movement_actor_ids, 0037_lean_history_rows). Used by `barcode-inventory check`, after backup and restore, and by the tests.
import { sql } from 'kysely';
import type { Engine } from './engine.ts';
import { hlcKeyInSql } from './movements/hlc-key-sql.ts';
import { newestFirst } from './movements/time-order.ts';

export interface ConsistencyReport {
  ok: boolean;
  /** `ok`, or the problems the engine's integrity check listed. */
  integrity: string[];
  foreignKeyProblems: number;
  /** Stock figures whose latest history entry disagrees with the stored quantity (or has none). */
  historyMismatches: number;
  /** Movements whose order key (`hlc_key`) is not their timestamp's: they would be out of place in every index. */
  keyMismatches: number;
  /** Movements whose actor id names nothing in movement_actors: their actor would show as none. */
  unknownActors: number;
  /** Movements whose source id names nothing in movement_sources: their source would show as none. */
  unknownSources: number;
  stockRows: number;
  historyRows: number;
}

export async function checkConsistency(engine: Engine): Promise<ConsistencyReport> {
  const { integrity, foreignKeyProblems } = await engine.checkIntegrity();
  const counts = await engine.read(async (q) => {
    const count = sql<number>`count(*)`.as('n');
    const stockRows = (await q.first(q.k.selectFrom('stock').select(count)))?.n ?? 0;
    const historyRows = (await q.first(q.k.selectFrom('stock_history').select(count)))?.n ?? 0;
    // The latest movement of a unit and warehouse in fold order (the highest timestamp) left its quantity.
    const mismatches = await q.first(
      q.k
        .selectFrom('stock as s')
        .leftJoin('stock_history as h', (join) =>
          join.on('h.id', '=', (eb) =>
            eb
              .selectFrom('stock_history as l')
              .select('l.id')
              .whereRef('l.unit_id', '=', 's.unit_id')
              .whereRef('l.warehouse_id', '=', 's.warehouse_id')
              .$call(newestFirst('l'))
              .limit(1),
          ),
        )
        .select(count)
        .where((eb) => eb.or([eb('h.id', 'is', null), eb('h.new_quantity', '<>', eb.ref('s.quantity'))])),
    );
    const wrongKeys = await q.first(
      q.k
        .selectFrom('stock_history')
        .select(count)
        .where((eb) => eb('hlc_key', '<>', hlcKeyInSql('hlc'))),
    );
    const unnamed = await q.first(
      q.k
        .selectFrom('stock_history as h')
        .leftJoin('movement_actors as a', 'a.id', 'h.actor_id')
        .select(count)
        .where('h.actor_id', 'is not', null)
        .where('a.id', 'is', null),
    );
    const unsourced = await q.first(
      q.k.selectFrom('stock_history as h').leftJoin('movement_sources as s', 's.id', 'h.source_id').select(count).where('s.id', 'is', null),
    );
    return {
      unknownActors: Number(unnamed?.n ?? 0),
      unknownSources: Number(unsourced?.n ?? 0),
      stockRows: Number(stockRows),
      historyRows: Number(historyRows),
      historyMismatches: Number(mismatches?.n ?? 0),
      keyMismatches: Number(wrongKeys?.n ?? 0),
    };
  });
  const ok =
    integrity.length === 1 &&
    integrity[0] === 'ok' &&
    foreignKeyProblems === 0 &&
    counts.historyMismatches === 0 &&
    counts.keyMismatches === 0 &&
    counts.unknownActors === 0 &&
    counts.unknownSources === 0;
  return { ok, integrity, foreignKeyProblems, ...counts };
}

/** What is wrong with a database, in one line. */
export function describeProblems(report: ConsistencyReport): string {
  const problems: string[] = [];
  if (!(report.integrity.length === 1 && report.integrity[0] === 'ok'))
    problems.push(`integrity_check: ${report.integrity.slice(0, 5).join('; ')}`);
  if (report.foreignKeyProblems > 0) problems.push(`${report.foreignKeyProblems} foreign key problem(s)`);
  if (report.historyMismatches > 0) problems.push(`${report.historyMismatches} stock figure(s) disagree with their history`);
  if (report.keyMismatches > 0) problems.push(`${report.keyMismatches} movement(s) with an order key not their timestamp's`);
  if (report.unknownActors > 0) problems.push(`${report.unknownActors} movement(s) whose actor is not in movement_actors`);
  if (report.unknownSources > 0) problems.push(`${report.unknownSources} movement(s) whose source is not in movement_sources`);
  return problems.join(', ');
}
