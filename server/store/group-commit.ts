// Group commit, for every engine: writes run one at a time (engine.ts), and a durable COMMIT costs a
// flush to disk, which is most of a small write's time. Writes asked for in the same turn of the
// event loop (the requests that arrived while the previous commit was flushing) run one after the
// other inside ONE transaction, each in its own savepoint, and share one COMMIT; each is answered
// only after that COMMIT returned. A write that fails is rolled back to its savepoint and fails
// alone; the others still commit. When the transaction itself is lost under one write (SQLite rolls
// it back whole on a storage fault; a PostgreSQL connection breaks), that write fails and the
// others, none of them acknowledged, run again in a new transaction (a write may run again from the
// start: engine.ts). A failed COMMIT fails every write of the group: none was acknowledged, so
// nothing acknowledged is lost. What differs between engines is only how a transaction is begun,
// marked and ended: `GroupTransaction`.
import type { GroupShare, Queries } from './engine.ts';

/** The most writes sharing one commit: a bound on how long a group holds the writer (and, on SQLite, every read). */
export const GROUP_COMMIT_LIMIT = 64;

/**
 * How long a group runs before it lets the event loop turn once (its transaction stays open). libuv
 * accepts one new connection per turn of the loop, so a group that held the loop for its whole
 * length (SQLite's statements never wait) would let a burst of new connections in one per group.
 */
export const GROUP_SLICE_MS = 1;

/**
 * When a group last let the event loop turn: a group's caller asks `due()` between its steps and
 * then awaits `turn()`. Between writes for every engine; on SQLite also between the statements of
 * one write (sqlite-engine.ts), as a sync push of 500 movements folded again over 5,000 held the
 * loop for 37 ms, and every read of the server with it.
 */
export class LoopSlices {
  private started = performance.now();

  due(): boolean {
    return performance.now() - this.started >= GROUP_SLICE_MS;
  }

  async turn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/** A write waiting for its group's commit. */
export interface QueuedWrite {
  work: (q: Queries) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** One engine's shared write transaction, as group commit drives it. */
export interface GroupTransaction {
  /** Begins the transaction (with the engine's write lock). */
  begin(): Promise<void>;
  /** Marks where the next write starts. */
  savepoint(): Promise<void>;
  /** The write since the mark succeeded: keep it. */
  release(): Promise<void>;
  /**
   * The write since the mark failed: undo it and go on. False when the transaction itself is gone
   * (rolled back whole, or its connection lost): nothing of the group is left to commit.
   */
  undoWrite(): Promise<boolean>;
  commit(): Promise<void>;
  /** Ends a transaction that will not commit; never throws. */
  abandon(): Promise<void>;
  /** Runs one write's work inside the transaction. */
  run(work: (q: Queries) => Promise<unknown>): Promise<unknown>;
  /** The error a caller sees (storage faults as 503s). */
  translate(error: unknown): unknown;
  /** Whether writes left without a transaction may be tried again (false once the store is closed). */
  mayRetry(): boolean;
  /** When the loop last turned during this transaction. */
  readonly slices: LoopSlices;
}

/**
 * What the writes of one group transaction share (Queries.group). The movement log keeps the
 * instance's clock here: read by the first write, written once before the COMMIT, not read and
 * written by each write (two of a PostgreSQL write's ten round trips).
 */
export class TransactionShare implements GroupShare {
  readonly values = new Map<string, unknown>();
  private readonly finishing = new Map<string, (q: Queries) => Promise<unknown>>();

  beforeCommit(key: string, work: (q: Queries) => Promise<unknown>): void {
    this.finishing.set(key, work);
  }

  /** Runs what was asked for before the COMMIT; each engine's GroupTransaction.commit calls it first. */
  async finish(q: Queries): Promise<void> {
    for (const work of this.finishing.values()) await work(q);
    this.finishing.clear();
  }
}

/** Runs async work one piece at a time, in the order it was asked for (SQLite's transactions on one of its connections). */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Whether some work is running or waiting. */
  get busy(): boolean {
    return this.pending > 0;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(work).finally(() => this.pending--);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Commits so far, and the writes they carried (for tests and the bench's report). */
export interface CommitCounts {
  groups: number;
  writes: number;
}

/**
 * Collects the writes asked for into groups and hands each group to `commit`, one group at a time:
 * while one runs, the writes asked for meanwhile wait and form the next (at most GROUP_COMMIT_LIMIT
 * each). Waiting for the running group, not only for the end of the turn, is what makes groups form
 * on PostgreSQL, where a group awaits the network: with a group started every turn, 615 writes under
 * 32 connections made 594 groups.
 */
export class WriteGroups {
  private waiting: QueuedWrite[] = [];
  private running = false;
  private scheduled = false;
  private readonly commit: (group: QueuedWrite[]) => Promise<void>;
  private readonly drainedWaiters: (() => void)[] = [];

  constructor(commit: (group: QueuedWrite[]) => Promise<void>) {
    this.commit = commit;
  }

  add<T>(work: (q: Queries) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Whether a group is running or writes wait for one. */
  get busy(): boolean {
    return this.running || this.waiting.length > 0;
  }

  /** Resolves once every write asked for so far has been committed or refused (on close). */
  drained(): Promise<void> {
    if (!this.running && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    // After this turn's I/O callbacks: every request that arrived with this one joins the group.
    setImmediate(() => {
      this.scheduled = false;
      this.startNext();
    });
  }

  private startNext(): void {
    if (this.running) return;
    if (this.waiting.length === 0) {
      for (const resolve of this.drainedWaiters.splice(0)) resolve();
      return;
    }
    const group = this.waiting.splice(0, GROUP_COMMIT_LIMIT);
    this.running = true;
    void this.commit(group).finally(() => {
      this.running = false;
      if (this.waiting.length > 0) this.schedule();
      else for (const resolve of this.drainedWaiters.splice(0)) resolve();
    });
  }
}

/** Runs `group` to its end: in one transaction, or in more when one was lost under a write. */
export async function commitGroup(
  transaction: () => Promise<GroupTransaction>,
  group: readonly QueuedWrite[],
  counts: CommitCounts,
): Promise<void> {
  let pending = group;
  while (pending.length > 0) {
    let tx: GroupTransaction;
    try {
      tx = await transaction();
    } catch (error) {
      for (const entry of pending) entry.reject(error);
      return;
    }
    pending = await tryGroup(tx, pending, counts);
  }
}

/** Runs `group` in one transaction and commits it. Returns the writes to run again (see the top of this file). */
async function tryGroup(tx: GroupTransaction, group: readonly QueuedWrite[], counts: CommitCounts): Promise<QueuedWrite[]> {
  const done: { entry: QueuedWrite; result: unknown }[] = [];
  const failAll = async (error: unknown, entries: readonly QueuedWrite[]) => {
    await tx.abandon();
    for (const entry of entries) entry.reject(tx.translate(error));
  };
  try {
    await tx.begin();
  } catch (error) {
    await failAll(error, group);
    return [];
  }
  for (const [index, entry] of group.entries()) {
    if (tx.slices.due()) await tx.slices.turn();
    try {
      await tx.savepoint();
    } catch (error) {
      // The transaction broke between two writes: none of them is acknowledged, all run again.
      await tx.abandon();
      if (tx.mayRetry()) return [...done.map((d) => d.entry), ...group.slice(index)];
      for (const rest of [...done.map((d) => d.entry), ...group.slice(index)]) rest.reject(tx.translate(error));
      return [];
    }
    try {
      const result = await tx.run(entry.work);
      await tx.release();
      done.push({ entry, result });
    } catch (error) {
      const kept = await tx.undoWrite();
      entry.reject(tx.translate(error));
      if (!kept) {
        await tx.abandon();
        const again = [...done.map((d) => d.entry), ...group.slice(index + 1)];
        if (tx.mayRetry()) return again;
        for (const rest of again) rest.reject(tx.translate(error));
        return [];
      }
    }
  }
  try {
    await tx.commit();
  } catch (error) {
    // Which write made the commit fail cannot be told: none of them is acknowledged.
    await failAll(
      error,
      done.map((d) => d.entry),
    );
    return [];
  }
  counts.groups++;
  counts.writes += done.length;
  for (const { entry, result } of done) entry.resolve(result);
  return [];
}
