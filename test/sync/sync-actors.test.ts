// Who did what, through sync (docs/API.md, "Who did what"): a person signed in on a shop's shared
// scanner and the shop's till make movements; after a round, head office's history names them and the
// shop's instance, and the shop's history names head office's own; both sides of a conflict say who
// made them, and deciding it is in the audit log of the instance where it was decided. What a follower
// sends as an actor is checked at the door: no control characters, bounded, and absent from followers
// of older versions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  AUDIT_PATH,
  type AuditPage,
  type Conflict,
  type HistoryPage,
  INVENTORY_PATH,
  PEOPLE_PATH,
  PERSON_SIGNIN_PATH,
  STOCK_HISTORY_PATH,
  SYNC_CONFLICTS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  type SyncMovement,
  type SyncState,
} from '../../shared/index.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type Follower, follow } from '../support/sync-instances.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

const MUG = '8690000000017';

describe('the actor of every movement, through sync', () => {
  let office: TestServer;
  let shop: Follower;
  let officeManager: string;
  let link: string;
  beforeEach(async () => {
    office = await startTestServer();
    officeManager = office.tokens.north!; // labelled "test"
    link = await office.newToken('north', 'sync');
    shop = await follow(office, link, 'north');
    await shop.round();
  });
  afterEach(async () => {
    await shop.server.stop();
    await office.stop();
  });

  /** Ayşe, a counter, signed in on the shop's shared scanner by her badge: her token there. */
  const ayseOnTheShopFloor = async () => {
    const admin = await shop.server.newToken('north', 'admin');
    const device = await shop.server.newToken('north', 'device');
    const { badge } = await call<{ badge: string }>(shop.server, 'POST', PEOPLE_PATH, admin, { name: 'Ayşe', role: 'counter' }, 201);
    return (await call<{ token: string }>(shop.server, 'POST', PERSON_SIGNIN_PATH, device, { badge })).token;
  };
  const set = (server: TestServer, token: string, quantity: number) =>
    call(server, 'POST', INVENTORY_PATH, token, [{ barcode: MUG, quantity, warehouse_name: 'Main' }]);
  const history = async (server: TestServer, token: string) =>
    (await call<HistoryPage>(server, 'GET', `${STOCK_HISTORY_PATH}?barcode=${MUG}&warehouse=10`, token)).results;
  const instanceOf = async (server: TestServer, token: string) => (await call<SyncState>(server, 'GET', SYNC_STATE_PATH, token)).instance;

  it("names the person and the till in head office's history, with the shop's instance, and head office's own in the shop's", async () => {
    const ayse = await ayseOnTheShopFloor();
    const till = await shop.server.newToken('north', 'till'); // labelled "test till"
    await set(shop.server, ayse, 8);
    await call(shop.server, 'POST', ADJUST_PATH, till, [{ barcode: MUG, delta: -1, warehouse_name: 'Main', reason: 'sale' }]);
    await call(office, 'POST', ADJUST_PATH, officeManager, [{ barcode: MUG, delta: 2, warehouse_name: 'Main', reason: 'receipt' }]);
    expect(await shop.round()).toMatchObject({ pushed: 2, pulled: 1 });

    const shopInstance = await instanceOf(shop.server, shop.syncToken);
    const officeInstance = await instanceOf(office, link);
    const atOffice = await history(office, officeManager);
    const who = (entries: HistoryPage['results']) => entries.slice(0, 3).map((e) => [e.actor, e.instance, e.kind, e.value]);
    const expected = [
      ['test', officeInstance, 'adjust', 2],
      ['test till', shopInstance, 'adjust', -1],
      ['Ayşe', shopInstance, 'set', 8],
    ];
    expect(who(atOffice)).toEqual(expect.arrayContaining(expected));
    // The shop shows the same, head office's receipt included.
    expect(who(await history(shop.server, shop.token))).toEqual(expect.arrayContaining(expected));
    // The import that loaded head office's catalogue was made by its command line.
    expect(atOffice.at(-1)!.actor).toMatch(/^command line \(/);
  });

  it('says who made each side of a conflict, and audits who decided it where it was decided', async () => {
    const ayse = await ayseOnTheShopFloor();
    // Both count the mug without seeing each other: a conflict at head office once the shop's arrives.
    await set(office, officeManager, 4);
    await set(shop.server, ayse, 9);
    await shop.round();
    const [conflict] = await call<Conflict[]>(office, 'GET', SYNC_CONFLICTS_PATH, officeManager);
    expect([conflict!.earlier.actor, conflict!.later.actor].sort()).toEqual(['Ayşe', 'test']);

    // Head office's manager decides: a set that has seen both.
    await set(office, officeManager, 7);
    const audit = await call<AuditPage>(office, 'GET', `${AUDIT_PATH}?action=conflict.resolve`, officeManager);
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]).toMatchObject({ actor: 'test', action: 'conflict.resolve', detail: { kind: 'set', value: 7 } });
    // The decision travels as a movement, with its actor; the shop's audit log has no decision of its own.
    await shop.round();
    expect((await history(shop.server, shop.token))[0]).toMatchObject({ actor: 'test', value: 7 });
    expect((await call<AuditPage>(shop.server, 'GET', `${AUDIT_PATH}?action=conflict.resolve`, shop.token)).results).toEqual([]);
  });

  it('checks the actor a follower sends: no control characters, bounded; none from an older follower', async () => {
    const ayse = await ayseOnTheShopFloor();
    await set(shop.server, ayse, 6);
    const state = await call<SyncState>(office, 'GET', SYNC_STATE_PATH, link);
    // A page reads what arrived here and leaves out what head office holds (the catalogue's own movements).
    const [movement] = (await shop.server.store.sync.pending(shop.account, state.vector, 50)).movements;
    expect(movement!.actor).toBe('Ayşe');
    const push = (m: SyncMovement, status: number) => call(office, 'POST', SYNC_MOVEMENTS_PATH, link, { movements: [m] }, status);
    expect((await push({ ...movement!, actor: 'Ay\u001b]0;owned\u0007şe' }, 400)).detail).toContain('movements.0.actor');
    expect((await push({ ...movement!, actor: 'x'.repeat(201) }, 400)).detail).toContain('movements.0.actor');
    // A follower of an older version sends no actor: accepted, and the history says none.
    const { actor: _, ...older } = movement!;
    expect(await push(older, 200)).toMatchObject({ applied: 1 });
    expect((await history(office, officeManager))[0]).toMatchObject({ actor: null, value: 6 });
  });
});
