// The one interface between the store's operations and a database engine. Operations build their
// queries with kysely (`q.k`, in the engine's dialect) and run them through `Queries`; everything an
// engine does its own way (connections, transactions, locking, the change-aware cache, integrity
// checks, backups, error codes) lives behind `Engine`, one folder per engine (sqlite/, …), and how
// the product chooses and manages one is its provider (engine-provider.ts, engines.ts).
//
// Rules every operation follows, whatever the engine:
// - A top-level store operation runs in exactly one `read` or `write`; helpers that need the
//   database take the `Queries` of the transaction they run in and never open one themselves
//   (`kept` opens its own read too: call it before the transaction, not inside).
// - A `write` may be run again from the start when the engine reports a serialisation conflict, so
//   its function must not change anything outside the database.
// - Only awaits on `Queries` inside a transaction: waiting on the network or a timer there holds
//   the transaction (and on SQLite every other request of the process) open.
import type { Compilable, Kysely } from 'kysely';
import type { Schema } from './schema.ts';

/** Values of a statement's named parameters. */
export type Params = Record<string, unknown>;

/**
 * Placeholders of a statement's named parameters: `p('unitId')` stands for one value, `p.list('barcodes')`
 * for one value per element of an array (the statement is compiled once per list length).
 */
export interface Param<P extends Params> {
  <K extends keyof P & string>(name: K): P[K];
  list<K extends keyof P & string>(name: K): P[K];
}

/**
 * A statement built once per engine (per list length) and run many times with named parameters:
 * compiling a kysely builder costs more than SQLite's own work on the hot paths.
 */
export interface StatementDef<R, P extends Params> {
  readonly name: string;
  readonly build: (k: Kysely<Schema>, p: Param<P>) => Compilable<R>;
}

/** Declares a statement; typically a module-level constant next to the operation using it. */
export function statement<R, P extends Params>(name: string, build: (k: Kysely<Schema>, p: Param<P>) => Compilable<R>): StatementDef<R, P> {
  return { name, build };
}

/**
 * Rows (and the values of a list, `p.list`) go out in statements of at most this many: a request's
 * 50 rows in one, a sync batch of 500 in eight, an import's chunk in a few. Each length is its own
 * compiled statement, prepared once per connection. Not longer: building and preparing a statement
 * of 256 rows made a process's first batch 20-40 ms slower, for no gain after it.
 */
export const MAX_CHUNK_LENGTH = 64;

/**
 * Rows per statement in a bulk write on PostgreSQL (ClientQueries): there each statement is a round
 * trip and a bind, and an import of 100k ran 12% faster with 512 than with 64 (bench/NOTES-postgres.md).
 */
export const BULK_CHUNK_LENGTH = 512;

/** How many of `left` rows the next statement of `q` carries. */
export function chunkLength(left: number, q: Pick<Queries, 'rowsPerStatement'>): number {
  return Math.min(left, q.rowsPerStatement ?? MAX_CHUNK_LENGTH);
}

/** Runs `each` on `values` as many at a time as a statement of `q` carries (each length its own compiled statement). */
export async function inChunks<T>(
  q: Pick<Queries, 'rowsPerStatement'>,
  values: readonly T[],
  each: (chunk: T[]) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < values.length;) {
    const length = chunkLength(values.length - from, q);
    await each(values.slice(from, from + length));
    from += length;
  }
}

/**
 * `values` as an `IN` list of one of a few lengths: padded to the next power of two by repeating its
 * last value, which an `IN` list ignores. SQLite keeps a statement per distinct SQL, and a statement
 * holds memory in proportion to its parameters that the process keeps once touched: lists of every
 * length up to 500 of one shape held 26 MB (bench/NOTES.md); ten lengths up to 512 hold a tenth.
 */
export function inList<T>(values: readonly T[]): T[] {
  if (values.length === 0) return [];
  const padded = values.slice();
  const length = 2 ** Math.ceil(Math.log2(values.length));
  while (padded.length < length) padded.push(values[values.length - 1]!);
  return padded;
}

/** Element `from` to `from + length` of every column of `rows`. */
export function columnsOf<R extends Record<string, unknown>>(rows: readonly R[], from: number, length: number): { [K in keyof R]: R[K][] } {
  const columns = {} as { [K in keyof R]: R[K][] };
  for (const name of Object.keys(rows[from]!) as (keyof R)[]) {
    const values = new Array<R[keyof R]>(length);
    for (let i = 0; i < length; i++) values[i] = rows[from + i]![name];
    columns[name] = values;
  }
  return columns;
}

/** How many rows a statement changed. */
export interface Changed {
  changes: number;
}

/** Queries inside one transaction (or one consistent read) of an engine. */
export interface Queries {
  /** The query builder, in this engine's dialect. Build with it; run through the methods below. */
  readonly k: Kysely<Schema>;
  all<R>(query: Compilable<R>): Promise<R[]>;
  all<R, P extends Params>(statement: StatementDef<R, P>, params: P): Promise<R[]>;
  first<R>(query: Compilable<R>): Promise<R | undefined>;
  first<R, P extends Params>(statement: StatementDef<R, P>, params: P): Promise<R | undefined>;
  run(query: Compilable<unknown>): Promise<Changed>;
  run<P extends Params>(statement: StatementDef<unknown, P>, params: P): Promise<Changed>;
  /** The most rows (and list values) a statement carries in this transaction: MAX_CHUNK_LENGTH when unset. */
  readonly rowsPerStatement?: number;
  /**
   * Set inside a group of writes that share one transaction (group-commit.ts): what a write leaves
   * for the next writes of the same transaction, and work done once just before it commits.
   */
  readonly group?: GroupShare;
}

/** See Queries.group. Belongs to one transaction: a group run again after a lost transaction gets a new one. */
export interface GroupShare {
  /** Values by key, for the rest of the transaction (a value a failed write changed is still valid, or it must not go here). */
  readonly values: Map<string, unknown>;
  /** Runs `work` once before the COMMIT, however many writes asked for it under `key` (the last one asked wins). */
  beforeCommit(key: string, work: (q: Queries) => Promise<unknown>): void;
}

export interface ScratchClaim {
  kind: number;
  key: string | number;
  code: number;
}

/** Keys of a large import that must be unique, kept outside JavaScript's heap (a scratch table). */
export interface ScratchKeys {
  /**
   * Records each claim's `code` as the first use of its (`kind`, `key`), in order; for each, the
   * first code when the key was used before (by an earlier claim of the same call too), else
   * undefined. An item's keys go together: one round trip for them on PostgreSQL, not one each.
   * A claim's code names one place of the catalogue: no two claims of a key carry the same code.
   */
  claimAll(claims: readonly ScratchClaim[]): Promise<(number | undefined)[]>;
  drop(): Promise<void>;
}

/** The engine's own checks of a database: its structure, and every foreign key. */
export interface EngineIntegrity {
  /** `['ok']`, or the problems the engine listed. */
  integrity: string[];
  foreignKeyProblems: number;
}

export interface WriteOptions {
  /** A bulk write (a catalogue import): the engine may trade speed for memory, e.g. keep scratch tables on disk, and refreshes its planner statistics after it (PostgreSQL). */
  bulk?: boolean;
  /** A write that may add many stock units (a catalogue's): SQLite takes their planner statistics again if they have doubled (sqlite/pragmas.ts). */
  addsUnits?: boolean;
}

export interface Engine {
  /** `sqlite` or `postgres`: for messages and docs, never for branching in operations. */
  readonly kind: string;
  /** Where the data is, as a person would name it (a file path, or a URL without its password). */
  readonly location: string;
  /** A consistent read: every query inside sees the same committed state. */
  read<T>(work: (q: Queries) => Promise<T>): Promise<T>;
  /**
   * One durable write transaction: all of it commits before this resolves, or none of it. Writes run
   * one at a time, across every process on the database: nothing another write does comes between
   * what this one reads and what it writes (a guarded set, an adjust's range check).
   */
  write<T>(work: (q: Queries) => Promise<T>, options?: WriteOptions): Promise<T>;
  /**
   * `compute`'s answer, kept under `key` until the database changes (through this process or any
   * other): for the small lookups every request repeats (a token, an account's warehouses).
   * `undefined` is never kept. Runs `compute` in its own read when the value is not kept; `compute`
   * runs ONE statement (a second throws: oneStatement), which sees one committed state on its own,
   * so PostgreSQL runs it without BEGIN and COMMIT: one round trip, not three, on every request.
   */
  kept<T>(key: string, compute: (q: Queries) => Promise<T>): Promise<T>;
  /** A scratch table for an import's uniqueness checks, inside the transaction `q` (dropped at its end). */
  scratchKeys(q: Queries): Promise<ScratchKeys>;
  /** The engine's own integrity checks (the store adds its rules: store/consistency.ts). */
  checkIntegrity(): Promise<EngineIntegrity>;
  /** Lets in-flight work finish, then releases the database. Safe to call twice. */
  close(): Promise<void>;
}

/** `q` for work that runs one statement (Engine.kept): a second one is a mistake of the caller, refused. */
export function oneStatement(q: Queries): Queries {
  let ran = false;
  const once = () => {
    if (ran) throw new Error('engine.kept runs one statement; this compute ran a second one');
    ran = true;
  };
  return {
    k: q.k,
    all: ((target: never, params?: never) => (once(), q.all(target, params as never))) as Queries['all'],
    first: ((target: never, params?: never) => (once(), q.first(target, params as never))) as Queries['first'],
    run: ((target: never, params?: never) => (once(), q.run(target, params as never))) as Queries['run'],
  };
}
