// What the `pg` clients of this process send, observed while `work` runs: every query still goes to
// the real server. The engine's listener (its connection's application_name) is told apart from the
// pool's connections, as its round trips are the barrier of engine.kept (postgres-engine.ts).
import pg from 'pg';
import { LISTENER_NAME } from '../../server/store/postgres/postgres-engine.ts';

export interface SentQueries {
  /** The texts the pool's connections (and any other client) sent. */
  pool: string[];
  /** The texts the listener sent. */
  listener: string[];
}

export async function queriesSentDuring(work: () => Promise<void>): Promise<SentQueries> {
  const sent: SentQueries = { pool: [], listener: [] };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    const name = (this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name;
    if (text) (name === LISTENER_NAME ? sent.listener : sent.pool).push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}
