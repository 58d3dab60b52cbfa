// The real SQLite engine with a tally in front: how many reads and writes a request made, how many
// statements ran, and how many rows each returned, with the SQL of each query (built in place or a
// named statement) and its values, for EXPLAIN QUERY PLAN. Tests of paged lists bound these counts
// instead of timing anything.
import type { Compilable } from 'kysely';
import { StatementCompiler, positionalValues } from '../../server/store/compiled-statements.ts';
import type { Engine, Params, Queries, StatementDef } from '../../server/store/engine.ts';

export interface Tally {
  reads: number;
  writes: number;
  statements: number;
  /** Of them, those run inside writes (a request's reads of its token and the like left out). */
  writeStatements: number;
  rows: number;
  /** Most rows one statement returned. */
  maxRows: number;
  /** The SQL and parameters of every query, in the order they ran. */
  queries: { sql: string; parameters: readonly unknown[] }[];
}

export const emptyTally = (): Tally => ({ reads: 0, writes: 0, statements: 0, writeStatements: 0, rows: 0, maxRows: 0, queries: [] });

export function countingEngine(engine: Engine): { engine: Engine; tally: Tally; reset(): Tally } {
  let tally = emptyTally();
  let compiler: StatementCompiler | undefined;
  const note = (
    q: Queries,
    target: Compilable<unknown> | StatementDef<unknown, Params>,
    params: Params | undefined,
    rows: number,
    inWrite: boolean,
  ) => {
    tally.statements++;
    if (inWrite) tally.writeStatements++;
    tally.rows += rows;
    tally.maxRows = Math.max(tally.maxRows, rows);
    if ('build' in target) {
      // A named statement: compiled here as the engine compiles it (compiled-statements.ts).
      const compiled = (compiler ??= new StatementCompiler(q.k)).compile(target, params ?? {});
      tally.queries.push({ sql: compiled.sql, parameters: positionalValues(compiled, params ?? {}) });
    } else {
      const { sql, parameters } = target.compile();
      tally.queries.push({ sql, parameters });
    }
  };
  const wrap = (q: Queries, inWrite = false): Queries => ({
    k: q.k,
    // What the engine says of its transaction goes through unchanged: the counts are of the real thing.
    rowsPerStatement: q.rowsPerStatement,
    // A group's work before its COMMIT (the instance clock) is counted as the write's own.
    group: q.group && {
      values: q.group.values,
      beforeCommit: (key, work) => q.group!.beforeCommit(key, (inner) => work(wrap(inner, inWrite))),
    },
    async all(target: any, params?: Params) {
      const rows = await q.all(target, params as never);
      note(q, target, params, rows.length, inWrite);
      return rows;
    },
    async first(target: any, params?: Params) {
      const row = await q.first(target, params as never);
      note(q, target, params, row === undefined ? 0 : 1, inWrite);
      return row;
    },
    async run(target: any, params?: Params) {
      const changed = await q.run(target, params as never);
      note(q, target, params, 0, inWrite);
      return changed;
    },
  });
  const counting: Engine = {
    kind: engine.kind,
    location: engine.location,
    read: (work) => {
      tally.reads++;
      return engine.read((q) => work(wrap(q)));
    },
    write: (work, options) => {
      tally.writes++;
      return engine.write((q) => work(wrap(q, true)), options);
    },
    kept: (key, compute) => engine.kept(key, (q) => compute(wrap(q))),
    scratchKeys: (q) => engine.scratchKeys(q),
    checkIntegrity: () => engine.checkIntegrity(),
    close: () => engine.close(),
  };
  return {
    engine: counting,
    get tally() {
      return tally;
    },
    reset() {
      const before = tally;
      tally = emptyTally();
      return before;
    },
  };
}
