// PostgreSQL's connections shared out by account (server/store/postgres/fair-connections.ts), on
// their own: at most the pool's size out at once, a connection given back goes to the next account in
// rotation, and a wait longer than the timeout fails as the database being unavailable.
import { describe, expect, it } from 'vitest';
import { FairConnections } from '../../server/store/postgres/fair-connections.ts';

describe('connections by account', () => {
  it('hands out the free ones at once, then one per account in rotation as they come back', async () => {
    const connections = new FairConnections(2, 10_000);
    const got: string[] = [];
    const ask = (account: number, name: string) => connections.acquire(account).then(() => void got.push(name));
    const asked = [ask(1, 'A1'), ask(1, 'A2'), ask(1, 'A3'), ask(1, 'A4'), ask(1, 'A5'), ask(2, 'B1'), ask(3, 'C1')];
    await Promise.resolve();
    expect(got).toEqual(['A1', 'A2']);
    for (let i = 0; i < 5; i++) {
      connections.release();
      await Promise.resolve();
    }
    await Promise.all(asked);
    expect(got).toEqual(['A1', 'A2', 'A3', 'B1', 'C1', 'A4', 'A5']);
  });

  it('gives a connection given back to a waiter, not to the free count, and counts it free when none waits', async () => {
    const connections = new FairConnections(1, 10_000);
    await connections.acquire(1);
    const second = connections.acquire(2);
    connections.release();
    await second;
    connections.release();
    // Free again: the next one is handed out at once.
    let third = false;
    const asked = connections.acquire(3).then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(true);
    await asked;
  });

  it('fails a wait longer than the timeout as unavailable, and passes its turn on to the next waiter', async () => {
    const connections = new FairConnections(1, 20);
    await connections.acquire(1);
    const late = connections.acquire(2);
    await expect(late).rejects.toMatchObject({ code: 'ETIMEDOUT', message: expect.stringMatching(/connection timeout/) });
    const next = connections.acquire(3);
    connections.release();
    await next; // not given to the waiter that gave up
    connections.release();
    await connections.acquire(4);
  });
});
