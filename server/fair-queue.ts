// Waiting items in one line per key (an account), served in rotation: one from the first line, then
// one from the next, and a line that still has items goes to the back. A key with one item waits
// behind at most one item of each other key, however long their lines are. Used for the event loop's
// turns (http/account-turns.ts) and for PostgreSQL's connections (store/postgres/fair-connections.ts).
export class FairQueue<T> {
  /** Each key's items, oldest first; a key is here only while it has some. */
  private readonly lines = new Map<number, T[]>();
  /** Keys with items, in the order they will be served. */
  private readonly rotation: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(key: number, item: T): void {
    const line = this.lines.get(key);
    if (line) line.push(item);
    else {
      this.lines.set(key, [item]);
      this.rotation.push(key);
    }
    this.count++;
  }

  /** The next item in rotation, or undefined when none waits. */
  shift(): T | undefined {
    const key = this.rotation.shift();
    if (key === undefined) return undefined;
    const line = this.lines.get(key)!;
    const item = line.shift()!;
    if (line.length > 0) this.rotation.push(key);
    else this.lines.delete(key);
    this.count--;
    return item;
  }
}
