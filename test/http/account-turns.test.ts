// Turns shared out by account (server/http/account-turns.ts), against the real event loop: requests
// asked for together start in rotation between accounts, each request runs up to its first wait for
// I/O before the next starts, a small budget lets the loop turn between them, and an idle server
// starts a request at once.
import { describe, expect, it } from 'vitest';
import { AccountTurns } from '../../server/http/account-turns.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Asks for requests of `accounts` (one letter each), in that order, in one go: as they would arrive in one read of the sockets. */
function arrive(turns: AccountTurns, accounts: string, started: string[], work: (name: string) => Promise<void> = async () => {}) {
  const seen: Record<string, number> = {};
  return [...accounts].map((account) => {
    const name = `${account}${(seen[account] = (seen[account] ?? 0) + 1)}`;
    return turns.run(account.charCodeAt(0), () => {
      started.push(name);
      return work(name);
    });
  });
}

describe('turns by account', () => {
  it('starts a request at once on an idle server', async () => {
    await nextTurn();
    const turns = new AccountTurns();
    const order: string[] = [];
    const done = turns.run(1, async () => void order.push('request'));
    order.push('asked');
    await done;
    expect(order).toEqual(['request', 'asked']);
  });

  it("serves the accounts' lines in rotation, however many requests one account has", async () => {
    await nextTurn();
    const turns = new AccountTurns(Infinity);
    const started: string[] = [];
    const requests = arrive(turns, 'AAAAAAAABC', started);
    expect(turns.waiting).toBe(9);
    await Promise.all(requests);
    // A1 started at once (nobody waited); then one of each account in turn.
    expect(started).toEqual(['A1', 'A2', 'B1', 'C1', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8']);
    expect(turns.waiting).toBe(0);
  });

  it('an account that arrives later joins the rotation at its end, not behind the whole line of another', async () => {
    await nextTurn();
    const turns = new AccountTurns(0); // one request a turn
    const started: string[] = [];
    const first = arrive(turns, 'AAAAAAAAAA', started);
    await nextTurn(); // A1 (at once) and A2 have started
    const later = arrive(turns, 'B', started);
    await Promise.all([...first, ...later]);
    expect(started.indexOf('B1')).toBeLessThanOrEqual(started.indexOf('A4'));
    expect(started.filter((name) => name.startsWith('A'))).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9', 'A10']);
  });

  it('runs each request up to its first wait before the next one starts', async () => {
    await nextTurn();
    const turns = new AccountTurns(Infinity);
    const events: string[] = [];
    // The I/O answers when the test says so, not after a timer: on a busy host a 1 ms timer fired
    // before the check phase that starts A2, and A1 ended first (CI, 2026-11-27).
    let answerIo!: () => void;
    const io = new Promise<void>((resolve) => (answerIo = resolve));
    const requests = arrive(turns, 'AAB', [], async (name) => {
      events.push(`${name} begins`);
      for (let step = 0; step < 5; step++) await Promise.resolve(); // work spread over microtasks
      events.push(`${name} reads`);
      await io;
      events.push(`${name} ends`);
    });
    for (let turn = 0; turn < 10 && events.length < 6; turn++) await nextTurn();
    answerIo();
    await Promise.all(requests);
    expect(events.slice(0, 6)).toEqual(['A1 begins', 'A1 reads', 'A2 begins', 'A2 reads', 'B1 begins', 'B1 reads']);
  });

  it('lets the event loop turn between requests once the budget is spent', async () => {
    await nextTurn();
    const turns = new AccountTurns(0);
    let loopTurns = 0;
    let counting = true;
    const count = () => {
      loopTurns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seenAt: number[] = [];
    const requests = arrive(turns, 'AAAB', [], async () => void seenAt.push(loopTurns));
    await Promise.all(requests);
    counting = false;
    expect(new Set(seenAt).size).toBe(4);
  });

  it("answers each request with its own result or error; a failing request does not stop the others'", async () => {
    await nextTurn();
    const turns = new AccountTurns();
    const answers = await Promise.allSettled([
      turns.run(1, async () => 'one'),
      turns.run(1, async () => {
        throw new Error('refused');
      }),
      turns.run(2, (() => {
        throw new Error('thrown before any await');
      }) as () => Promise<string>),
      turns.run(2, async () => 'four'),
    ]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error).message))).toEqual([
      'one',
      'refused',
      'thrown before any await',
      'four',
    ]);
    expect(turns.waiting).toBe(0);
  });
});
