// A pull passes over what the caller holds (docs/SYNC.md, "Pull"): a follower that has just pushed
// thousands of its own movements gets them left out in one request, not in one empty page per 500;
// what it lacks comes in arrival order, `limit` at a time; and however much it says it holds, one
// request looks at no more than MAX_SCANNED_PER_PAGE movements. Real servers on both engines.
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_MOVEMENTS_PER_BATCH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  type PullPage,
  type SyncMovement,
  type SyncState,
} from '../../shared/index.ts';
import { MAX_SCANNED_PER_PAGE } from '../../server/store/sync/movement-pages.ts';
import { madeUp, push, register } from '../support/made-up-movements.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const running: TestServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

/** An upstream, and a registered follower's sync token for each instance id of `followers`. */
async function upstreamWith(...followers: string[]) {
  const server = await startTestServer();
  running.push(server);
  const tokens: Record<string, string> = {};
  for (const instance of followers) {
    tokens[instance] = (await server.store.tokens.create('north', instance, 'sync')).key;
    await register(server, tokens[instance], instance, instance);
  }
  return { server, tokens };
}

/** `count` movements of `origin` from sequence `from`, pushed in batches of the most a push may carry; each +1 or -1. */
async function pushRun(server: TestServer, token: string, origin: string, from: number, count: number): Promise<void> {
  for (let at = 0; at < count; at += MAX_MOVEMENTS_PER_BATCH) {
    const batch: SyncMovement[] = [];
    for (let i = at; i < Math.min(count, at + MAX_MOVEMENTS_PER_BATCH); i++)
      batch.push(madeUp(origin, from + i, { value: i % 2 === 0 ? 1 : -1 }));
    await push(server, token, batch);
  }
}

const haveOf = (vector: Record<string, number>) =>
  Object.entries(vector)
    .map(([origin, seq]) => `${origin}:${seq}`)
    .join(',');

async function pull(server: TestServer, token: string, after: number, limit: number, have?: Record<string, number>) {
  const query = `after=${after}&limit=${limit}${have ? `&have=${haveOf(have)}` : ''}`;
  return call<PullPage>(server, 'GET', `${SYNC_MOVEMENTS_PATH}?${query}`, token);
}

/** Every page from `after` to the end: the movements in order, the pages' sizes and the cursors. */
async function pullAll(server: TestServer, token: string, after: number, limit: number, have?: Record<string, number>) {
  const movements: SyncMovement[] = [];
  const cursors: number[] = [];
  for (let cursor = after; ;) {
    const page = await pull(server, token, cursor, limit, have);
    expect(page.movements.length).toBeLessThanOrEqual(limit);
    expect(page.next_cursor).toBeGreaterThanOrEqual(cursor);
    movements.push(...page.movements);
    cursors.push((cursor = page.next_cursor));
    if (!page.more) return { movements, cursors };
  }
}

describe('a pull passes over what the caller holds', () => {
  it("leaves a follower's 1,200 own movements out in one request, and sends the rest in order, limit at a time", async () => {
    const { server, tokens } = await upstreamWith('shopaaaa', 'shopbbbb');
    const link = tokens.shopaaaa!;
    const start = (await pullAll(server, link, 0, MAX_MOVEMENTS_PER_BATCH)).cursors.at(-1)!;
    // The shop's 1,200 with another shop's 5 in the middle of them.
    await pushRun(server, link, 'shopaaaa', 1, 700);
    await pushRun(server, tokens.shopbbbb!, 'shopbbbb', 1, 5);
    await pushRun(server, link, 'shopaaaa', 701, 500);
    const everything = await pullAll(server, link, start, MAX_MOVEMENTS_PER_BATCH);
    expect(everything.movements).toHaveLength(1_205);
    const end = everything.cursors.at(-1)!;

    // All of it held: one request, nothing sent, the cursor at the end.
    const held = (await call<SyncState>(server, 'GET', SYNC_STATE_PATH, link)).vector;
    expect(held).toMatchObject({ shopaaaa: 1_200, shopbbbb: 5 });
    expect(await pull(server, link, start, MAX_MOVEMENTS_PER_BATCH, held)).toMatchObject({ movements: [], next_cursor: end, more: false });

    // The shop's own held: the other shop's 5, in one page, the cursor past the shop's last.
    const others = await pull(server, link, start, MAX_MOVEMENTS_PER_BATCH, { shopaaaa: 1_200 });
    expect(others.movements.map((m) => m.id)).toEqual(['shopbbbb-1', 'shopbbbb-2', 'shopbbbb-3', 'shopbbbb-4', 'shopbbbb-5']);
    expect(others).toMatchObject({ next_cursor: end, more: false });
    expect(others.movements).toEqual(everything.movements.filter((m) => m.origin === 'shopbbbb'));

    // Part of the shop's held, two at a time: what is not held, in arrival order, each once.
    const partly = await pullAll(server, link, start, 2, { shopaaaa: 1_195, shopbbbb: 2 });
    const expected = everything.movements.filter((m) => (m.origin === 'shopaaaa' ? m.seq > 1_195 : m.seq > 2));
    expect(partly.movements).toEqual(expected);
    expect(partly.cursors.at(-1)).toBe(end);
    expect(partly.cursors.length).toBe(Math.ceil(expected.length / 2));
  });

  it(`looks at no more than ${MAX_SCANNED_PER_PAGE.toLocaleString('en-US')} movements in one request, whatever the caller holds`, async () => {
    const { server, tokens } = await upstreamWith('shopaaaa');
    const link = tokens.shopaaaa!;
    const start = (await pullAll(server, link, 0, MAX_MOVEMENTS_PER_BATCH)).cursors.at(-1)!;
    const count = MAX_SCANNED_PER_PAGE + 700;
    await pushRun(server, link, 'shopaaaa', 1, count);
    const have = { shopaaaa: count };
    // Where a pull without `have` stands after the bound's worth of movements, page by page.
    let bound = start;
    for (let pages = 0; pages < MAX_SCANNED_PER_PAGE / MAX_MOVEMENTS_PER_BATCH; pages++)
      bound = (await pull(server, link, bound, MAX_MOVEMENTS_PER_BATCH)).next_cursor;
    const first = await pull(server, link, start, MAX_MOVEMENTS_PER_BATCH, have);
    expect(first).toMatchObject({ movements: [], next_cursor: bound, more: true });
    const second = await pull(server, link, first.next_cursor, MAX_MOVEMENTS_PER_BATCH, have);
    expect(second.movements).toEqual([]);
    expect(second.more).toBe(false);
    expect(second.next_cursor).toBe((await pullAll(server, link, bound, MAX_MOVEMENTS_PER_BATCH)).cursors.at(-1));
  });
});
