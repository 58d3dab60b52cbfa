// The turn budget (server/http/turn-budget.ts): a request that would start after the budget of work
// in the current stretch of the event loop waits for a later turn, so the loop gets back to accepting
// connections (libuv accepts one per turn); a request on an idle server starts at once.
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { turnBudget } from '../../server/http/turn-budget.ts';

const ctx = {} as Context;
const busyFor = (ms: number) => {
  for (const until = performance.now() + ms; performance.now() < until;);
};

describe('turn budget', () => {
  it('starts a request at once when the stretch has spent nothing', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('turn'));
    await new Promise<void>((resolve) => setImmediate(resolve)); // a fresh stretch
    const started = turnBudget(2)(ctx, async () => void order.push('request'));
    order.push('asked');
    await started;
    expect(order).toEqual(['turn', 'request', 'asked']);
  });

  it('lets the loop turn before a request that arrives after the budget is spent', async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const budget = turnBudget(2);
    const order: string[] = [];
    const first = budget(ctx, async () => {
      order.push('first');
      busyFor(3);
    });
    setImmediate(() => order.push('turn'));
    const second = budget(ctx, async () => void order.push('second'));
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'turn', 'second']);
  });

  it('keeps arrival order among the requests it holds back', async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const budget = turnBudget(1);
    const order: number[] = [];
    const requests = Array.from({ length: 6 }, (_, i) =>
      budget(ctx, async () => {
        order.push(i);
        busyFor(1.5);
      }),
    );
    await Promise.all(requests);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
