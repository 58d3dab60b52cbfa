// The convergence simulation of sync between instances (docs/SYNC.md, "Guarantees and their limits").
//
// Five real `barcode-inventory serve` processes, each on its own database on loopback, with
// clocks skewed by up to ±1 h (BARCODE_INVENTORY_CLOCK_OFFSET_MS) and background sync every 100 ms
// (BARCODE_INVENTORY_SYNC_INTERVAL_MS): head office, two shop PCs following it, a laptop following
// shop 1 and a tablet following the laptop (a chain tablet → laptop → shop 1 → office). Each link is
// made with the real `sync link` and goes through a TCP proxy of this test (support/link-proxy.ts).
// Engines: the `sqlite` project runs it with every instance on a SQLite file; the `postgres` project
// with head office alone on a PostgreSQL database and the four followers on SQLite files, as a chain
// runs (support/sim-instances.ts, simDatabase).
//
// A seeded sequence of steps then writes on every instance through its HTTP API (sets, adjusts and
// stocktake sessions scanned and committed, every row with a unique reference), cuts links (now, or
// the moment a push has reached the upstream, or while a pull's answer comes back), SIGKILLs
// instances and the office (idle, while receiving or sending a push, while applying a pull) and
// starts them again on the same database. Then everything is healed and `sync now` rounds run until two
// full passes move nothing, and the test asserts, reading only through the API:
//   - every instance holds the same movements, each id once, and each the same everywhere;
//   - every acknowledged write is in every history exactly once (none lost, none doubled), and
//     nothing else is (only the office's import besides);
//   - every instance reports the same quantity for every unit and warehouse, and it is the oracle's
//     own fold of the movements (support/sync-oracle.ts: hlc text order, set/count replace, adjust adds);
//   - the conflicts every instance lists are exactly the groups the oracle predicts from the definition
//     in docs/SYNC.md: the same places, first and last movements, `earlier`, sizes, `racing` and `resolved`.
// It prints its figures. No timing is asserted.
//
// Environment: SYNC_SIM_SEED (default 20261123; printed, so a failure can be replayed with it) and
// SYNC_SIM_SCALE (default 1: 220 steps on 8 units in 2 warehouses, well under 90 s on 2 cores;
// 5 means five times the steps and units).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADJUST_PATH,
  type Conflict,
  type HistoryPage,
  INVENTORY_PATH,
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  SYNC_CONFLICTS_PATH,
  SYNC_STATE_PATH,
  type SyncState,
  stocktakePath,
} from '../../shared/index.ts';
import { type Connection, LinkProxy, type ProxiedRequest } from '../support/link-proxy.ts';
import { type Random, seededRandom } from '../support/seeded-random.ts';
import { openStore } from '../../server/store/open-store.ts';
import { SimInstance, apiOk, cli, cliOk, dropSimDatabase, simDatabase, simEngines } from '../support/sim-instances.ts';
import {
  type Kind,
  type OracleConflict,
  type OracleMovement,
  asOracleConflict,
  fold,
  placeOf,
  predictConflicts,
} from '../support/sync-oracle.ts';

const SEED = Number(process.env.SYNC_SIM_SEED ?? 20261123);
const SCALE = Math.max(1, Number(process.env.SYNC_SIM_SCALE ?? 1));
const STEPS = Math.round(220 * SCALE);
const UNITS = Math.round(8 * SCALE);
const SYNC_INTERVAL_MS = 100;
const MAX_SKEW_MS = 3_600_000;
const ACCOUNT = 'north';
const WAREHOUSES = [
  { id: 10, name: 'Main' },
  { id: 11, name: 'Backroom' },
];
/** Who follows whom: a chain tablet → laptop → shop1 → office, and shop2 → office. */
const TOPOLOGY: { name: string; upstream?: string }[] = [
  { name: 'office' },
  { name: 'shop1', upstream: 'office' },
  { name: 'shop2', upstream: 'office' },
  { name: 'laptop', upstream: 'shop1' },
  { name: 'tablet', upstream: 'laptop' },
];

type Vector = Record<string, number>;

interface Unit {
  barcode: string;
  item: number;
  variant: number | null;
  /** Quantity per warehouse name in the imported catalogue. */
  stock: Record<string, number>;
}

interface Node {
  name: string;
  upstream: Node | undefined;
  instance: SimInstance;
  offsetMs: number;
  /** A manager's token of the account on this instance (for its own API). */
  token: string;
  /** A sync token of the account on this instance (its sync state). */
  syncToken: string;
  /** Its instance id (the origin of its movements). */
  id: string;
  /** The proxy its link to its upstream goes through. */
  proxy: LinkProxy | undefined;
  /** Requests of the test are in flight (a count of the steps making them): no trigger may kill it now. */
  busy: number;
  /** Being killed, or started again: not to be written to. */
  dying: boolean;
  starting: boolean;
  /** Restarted at this step after a kill. */
  restartAt: number | undefined;
  /** Steps to stay down after the next kill. */
  downFor: number;
  session: { id: number; warehouse: string; counts: Map<string, number> } | undefined;
}

/** An acknowledged write row: what the test asked for, and what the instance held around it. */
interface Ack {
  node: Node;
  kind: Kind;
  barcode: string;
  warehouse: number;
  value: number;
  /** Unique per row for sets and adjusts; `stocktake:<id>@<instance>` for the lines of a commit. */
  reference: string;
  /** The instance's vector right before and right after the write (see isolatedWrite). */
  before: Vector;
  after: Vector;
}

interface Trigger {
  on: 'sent' | 'answer';
  match: (request: ProxiedRequest) => boolean;
  /** Returns false when it cannot act now (it stays armed). */
  fire: (connection: Connection) => boolean;
  /** Disarmed (and its fallback run) at this step. */
  expires: number;
  fallback: () => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isPush = (r: ProxiedRequest) => r.method === 'POST' && r.path.startsWith('/api/v1/sync/movements');
const isPull = (r: ProxiedRequest) => r.method === 'GET' && r.path.startsWith('/api/v1/sync/movements');
const withoutOrigin = (vector: Vector, origin: string): Vector =>
  Object.fromEntries(Object.entries(vector).filter(([o, seq]) => o !== origin && seq > 0));
const sameVector = (a: Vector, b: Vector) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? 0) === (b[k] ?? 0));
};
const withinVectors = (v: Vector, low: Vector, high: Vector) =>
  [...new Set([...Object.keys(v), ...Object.keys(low), ...Object.keys(high)])].every(
    (k) => (low[k] ?? 0) <= (v[k] ?? 0) && (v[k] ?? 0) <= (high[k] ?? 0),
  );

function makeUnits(count: number, random: Random): Unit[] {
  return Array.from({ length: count }, (_, k) => {
    const stock: Record<string, number> = {};
    for (const w of WAREHOUSES) if (random.chance(0.6)) stock[w.name] = random.int(0, 20);
    return { barcode: `SIM${String(k).padStart(6, '0')}`, item: 1000 + k, variant: k % 3 === 2 ? 50_000 + k : null, stock };
  });
}

function catalogueOf(units: readonly Unit[]) {
  const stockOf = (u: Unit) => Object.entries(u.stock).map(([warehouse, quantity]) => ({ warehouse, quantity }));
  return {
    accounts: [
      {
        name: ACCOUNT,
        warehouses_enabled: true,
        warehouses: WAREHOUSES,
        items: units.map((u) =>
          u.variant === null
            ? { id: u.item, name: `Item ${u.barcode}`, barcode: u.barcode, stock: stockOf(u) }
            : {
                id: u.item,
                name: `Item ${u.barcode}`,
                variants: [{ id: u.variant, name: 'One size', barcode: u.barcode, stock: stockOf(u) }],
              },
        ),
      },
    ],
  };
}

describe('sync convergence simulation', () => {
  it(
    'converges every instance to the oracle: none lost, none doubled, the predicted conflicts',
    async () => {
      const started = performance.now();
      // Each step draws from its own generator, seeded from the run's: a step that finds its target
      // down (which depends on timing) does not shift the choices of the steps after it.
      const seeds = seededRandom(SEED);
      let random: Random = seeds;
      const dir = mkdtempSync(path.join(tmpdir(), 'bi-sync-sim-'));
      const nodes: Node[] = [];
      const proxies: LinkProxy[] = [];
      const background = new Set<Promise<void>>();
      const backgroundErrors: unknown[] = [];
      const figures = {
        steps: { set: 0, adjust: 0, stocktakeOpen: 0, scan: 0, commit: 0, cut: 0, kill: 0, wait: 0 },
        acknowledgedRequests: 0,
        cuts: { now: 0, afterPushSent: 0, duringPullAnswer: 0 },
        kills: { idle: 0, receivingPush: 0, sendingPush: 0, applyingPull: 0, office: 0 },
        ambiguousWrites: 0,
        passes: 0,
      };
      let step = 0;
      const track = (work: Promise<void>) => {
        const p = work.catch((error: unknown) => void backgroundErrors.push(error)).finally(() => background.delete(p));
        background.add(p);
      };

      try {
        // --- Setup: the office imports the catalogue; each follower is linked with `sync link`. ---
        const units = makeUnits(UNITS, random);
        const catalogueFile = path.join(dir, 'catalogue.json');
        writeFileSync(catalogueFile, JSON.stringify(catalogueOf(units)));
        for (const { name, upstream } of TOPOLOGY) {
          const offsetMs = random.int(-MAX_SKEW_MS, MAX_SKEW_MS);
          const dbFile = await simDatabase(dir, name, upstream === undefined);
          const env = { BARCODE_INVENTORY_CLOCK_OFFSET_MS: String(offsetMs), BARCODE_INVENTORY_SYNC_INTERVAL_MS: String(SYNC_INTERVAL_MS) };
          nodes.push({
            name,
            upstream: nodes.find((n) => n.name === upstream),
            instance: new SimInstance(name, dbFile, env),
            offsetMs,
            token: '',
            syncToken: '',
            id: '',
            proxy: undefined,
            busy: 0,
            dying: false,
            starting: false,
            restartAt: undefined,
            downFor: 0,
            session: undefined,
          });
        }
        // Level by level (the office, the shops, the laptop, the tablet), each instance at once:
        // `sync link` through its proxy with a token of its upstream, then serve. Tokens are made
        // with the store the `token create` command uses, in this process: a CLI process each would
        // double the setup's time on a busy machine.
        const linkTokens = new Map<Node, string>();
        const makeTokens = async (node: Node) => {
          const store = await openStore(node.instance.dbFile);
          try {
            node.token = (await store.tokens.create(ACCOUNT, 'simulation', 'manager')).key;
            node.syncToken = (await store.tokens.create(ACCOUNT, 'simulation state', 'sync')).key;
            for (const follower of nodes.filter((n) => n.upstream === node))
              linkTokens.set(follower, (await store.tokens.create(ACCOUNT, `link of ${follower.name}`, 'sync')).key);
          } finally {
            await store.close();
          }
        };
        const bringUp = async (node: Node) => {
          const { dbFile } = node.instance;
          if (!node.upstream) {
            await cliOk(['import', catalogueFile, '--database', dbFile], node.instance.env);
          } else {
            const proxy = new LinkProxy(`${node.name}→${node.upstream.name}`);
            await proxy.listen();
            proxy.setTarget(node.upstream.instance.port);
            proxies.push(proxy);
            node.proxy = proxy;
            await cliOk(
              ['sync', 'link', '--upstream', proxy.url, '--account', ACCOUNT, '--token', linkTokens.get(node)!, '--database', dbFile],
              node.instance.env,
            );
          }
          await makeTokens(node);
          await node.instance.start();
          node.id = (await stateOf(node)).instance;
        };
        for (
          let level: Node[] = nodes.filter((n) => !n.upstream);
          level.length > 0;
          level = nodes.filter((n) => n.upstream && level.includes(n.upstream))
        ) {
          await Promise.all(level.map(bringUp));
        }
        const followersOf = (node: Node) => nodes.filter((n) => n.upstream === node);
        /** The proxies of the links that end at `node`. */
        const proxiesTo = (node: Node) => followersOf(node).map((n) => n.proxy!);
        const writable = (node: Node) => node.instance.alive && !node.dying && !node.starting;
        const triggers = new Map<LinkProxy, Trigger[]>(proxies.map((p) => [p, []]));
        for (const proxy of proxies) {
          const run = (on: Trigger['on']) => (request: ProxiedRequest, connection: Connection) => {
            const list = triggers.get(proxy)!;
            const index = list.findIndex((t) => t.on === on && t.match(request));
            if (index >= 0 && list[index]!.fire(connection)) list.splice(index, 1);
          };
          proxy.hooks = { onRequestSent: run('sent'), onAnswerStarted: run('answer') };
        }

        // --- Kills, restarts, cuts ---
        const kill = (node: Node, mode: keyof typeof figures.kills) => {
          node.dying = true;
          figures.kills[mode]++;
          if (!node.upstream) figures.kills.office++;
          for (const proxy of proxiesTo(node)) proxy.setTarget(undefined);
          track(
            node.instance.kill().then(() => {
              node.dying = false;
              node.restartAt = step + node.downFor;
            }),
          );
        };
        const restart = (node: Node) => {
          node.restartAt = undefined;
          node.starting = true;
          track(
            node.instance.start().then(() => {
              for (const proxy of proxiesTo(node)) proxy.setTarget(node.instance.port);
              node.starting = false;
            }),
          );
        };
        const cutUntil = new Map<LinkProxy, number>();
        const cut = (proxy: LinkProxy, steps: number, mode: keyof typeof figures.cuts) => {
          figures.cuts[mode]++;
          proxy.cutNow();
          cutUntil.set(proxy, step + steps);
        };
        /** Arms a trigger on a proxy; when it has not fired by `expires`, `fallback` runs instead. */
        const arm = (proxy: LinkProxy, trigger: Trigger) => triggers.get(proxy)!.push(trigger);
        const maintain = () => {
          for (const [proxy, until] of cutUntil) {
            if (step >= until) {
              proxy.heal();
              cutUntil.delete(proxy);
            }
          }
          for (const node of nodes)
            if (node.restartAt !== undefined && step >= node.restartAt && !node.instance.alive && !node.dying) restart(node);
          for (const [, list] of triggers) {
            for (const t of list.filter((t) => step >= t.expires)) {
              list.splice(list.indexOf(t), 1);
              t.fallback();
            }
          }
        };

        // --- Writes ---
        const acks: Ack[] = [];
        let nextReference = 1;
        /**
         * Writes to one instance with a vector on either side that says exactly what it had seen.
         * The oracle needs, for every set and count, the highest sequence its instance held of every
         * other origin when it made it (the movement's `seen`). Writes to an instance are sequential
         * (the test makes one at a time), but movements of other instances may be applied to it at
         * any moment: pulled by its own background round, or pushed by its followers'. So the links
         * that end or start at the instance are paused (their proxies stop forwarding bytes, failing
         * nothing), its vector is read until it stops moving, the write is made, and the vector is
         * read again. Vectors only grow and the write's transaction lies between the two reads, so
         * when the two agree (other than the instance's own origin) that is exactly what the write
         * saw. A round already past the proxy (a pushed batch being applied, a pulled page being
         * written) can still land in between; then the write is "ambiguous" and its `seen` is pinned
         * after the run from the instance's own history: its rows are numbered in the order it
         * recorded them (`id`), and transactions are serialised, so what the write saw is what came
         * before its row. The test checks that this lies between the two vectors, and that it equals
         * the vector for every write that was not ambiguous.
         */
        const isolatedWrite = async <T>(node: Node, write: () => Promise<T>): Promise<{ result: T; before: Vector; after: Vector }> => {
          node.busy++;
          const links = [...(node.proxy ? [node.proxy] : []), ...proxiesTo(node)];
          for (const link of links) link.pause();
          try {
            let before = (await stateOf(node)).vector;
            for (let i = 0; i < 5; i++) {
              await sleep(5);
              const again = (await stateOf(node)).vector;
              if (sameVector(again, before)) break;
              before = again;
            }
            const result = await write();
            const after = (await stateOf(node)).vector;
            if (!sameVector(withoutOrigin(before, node.id), withoutOrigin(after, node.id))) figures.ambiguousWrites++;
            return { result, before, after };
          } finally {
            for (const link of links) link.resume();
            node.busy--;
          }
        };
        const pickRows = (count: number) => {
          const rows: { unit: Unit; warehouse: (typeof WAREHOUSES)[number] }[] = [];
          while (rows.length < count) {
            const row = { unit: random.pick(units), warehouse: random.pick(WAREHOUSES) };
            if (!rows.some((r) => r.unit === row.unit && r.warehouse === row.warehouse)) rows.push(row);
          }
          return rows;
        };
        const setOrAdjust = async (node: Node, kind: 'set' | 'adjust') => {
          const rows = pickRows(random.int(1, 3)).map(({ unit, warehouse }) => ({
            barcode: unit.barcode,
            warehouse,
            value: kind === 'set' ? random.int(0, 40) : random.pick([-3, -2, -1, -1, 1, 2, 5]),
            reference: `sim-${SEED}-${nextReference++}`,
          }));
          const body = rows.map((r) =>
            kind === 'set'
              ? { barcode: r.barcode, warehouse_name: r.warehouse.name, quantity: r.value, reference: r.reference }
              : {
                  barcode: r.barcode,
                  warehouse_name: r.warehouse.name,
                  delta: r.value,
                  reason: r.value < 0 ? 'sale' : 'delivery',
                  reference: r.reference,
                },
          );
          const { result, before, after } = await isolatedWrite(node, () =>
            apiOk<{ errors: unknown[] }>(node.instance.url!, node.token, 'POST', kind === 'set' ? INVENTORY_PATH : ADJUST_PATH, body),
          );
          expect(result.errors).toEqual([]);
          figures.acknowledgedRequests++;
          for (const r of rows)
            acks.push({ node, kind, barcode: r.barcode, warehouse: r.warehouse.id, value: r.value, reference: r.reference, before, after });
        };
        const scan = async (node: Node) => {
          const session = node.session!;
          for (let i = random.int(1, 3); i > 0; i--) {
            const unit = random.pick(units);
            const amount = random.int(1, 4);
            await apiOk(node.instance.url!, node.token, 'POST', stocktakePath(session.id, 'scans'), { barcode: unit.barcode, amount }, 201);
            session.counts.set(unit.barcode, (session.counts.get(unit.barcode) ?? 0) + amount);
            figures.steps.scan++;
          }
        };
        const commit = async (node: Node) => {
          const session = node.session!;
          const { result, before, after } = await isolatedWrite(node, () =>
            apiOk<{ applied: number; failed: number }>(node.instance.url!, node.token, 'POST', stocktakePath(session.id, 'commit'), {
              zero_uncounted: false,
            }),
          );
          expect(result).toMatchObject({ applied: session.counts.size, failed: 0 });
          figures.acknowledgedRequests++;
          const warehouse = WAREHOUSES.find((w) => w.name === session.warehouse)!.id;
          for (const [barcode, value] of session.counts)
            acks.push({ node, kind: 'count', barcode, warehouse, value, reference: `stocktake:${session.id}@${node.id}`, before, after });
          node.session = undefined;
        };
        const stocktakeStep = async (node: Node) => {
          if (!node.session) {
            const warehouse = random.pick(WAREHOUSES).name;
            const { id } = await apiOk<{ id: number }>(
              node.instance.url!,
              node.token,
              'POST',
              STOCKTAKES_PATH,
              { warehouse_name: warehouse },
              201,
            );
            node.session = { id, warehouse, counts: new Map() };
            figures.steps.stocktakeOpen++;
            await scan(node);
          } else if (random.chance(0.5)) await scan(node);
          else {
            figures.steps.commit++;
            await commit(node);
          }
        };

        /** A set on `node` (when it is up), so that its next round has something to push. */
        const somethingToPush = async (node: Node) => {
          if (!writable(node)) return;
          figures.steps.set++;
          await setOrAdjust(node, 'set');
        };

        // --- The seeded steps ---
        const followers = nodes.filter((n) => n.upstream);
        const setupDone = performance.now();
        for (step = 0; step < STEPS; step++) {
          random = seededRandom(seeds.int(0, 2 ** 31 - 1));
          maintain();
          const roll = random.next();
          const target = random.pick(nodes);
          if (roll < 0.6) {
            if (!writable(target)) continue;
            const kind = roll < 0.2 ? 'set' : roll < 0.4 ? 'adjust' : 'stocktake';
            if (kind === 'stocktake') {
              // Scans and the opening of a session are requests too: a kill trigger firing from a
              // proxy's hook must not land in the middle of one (the test would see its own request cut).
              target.busy++;
              try {
                await stocktakeStep(target);
              } finally {
                target.busy--;
              }
            } else {
              figures.steps[kind]++;
              await setOrAdjust(target, kind);
            }
          } else if (roll < 0.7) {
            figures.steps.cut++;
            const proxy = random.pick(followers).proxy!;
            const steps = random.int(1, 8);
            const mode = random.pick(['now', 'afterPushSent', 'duringPullAnswer'] as const);
            if (proxy.cut || triggers.get(proxy)!.length > 0 || mode === 'now') {
              if (!proxy.cut) cut(proxy, steps, 'now');
              continue;
            }
            const follower = followers.find((n) => n.proxy === proxy)!;
            arm(proxy, {
              on: mode === 'afterPushSent' ? 'sent' : 'answer',
              match: mode === 'afterPushSent' ? isPush : isPull,
              fire: (connection) => {
                connection.destroy();
                cut(proxy, steps, mode);
                return true;
              },
              expires: step + 10,
              fallback: () => cut(proxy, steps, 'now'),
            });
            if (mode === 'afterPushSent') await somethingToPush(follower);
          } else if (roll < 0.82) {
            figures.steps.kill++;
            if (!writable(target) || target.busy) continue;
            target.downFor = random.int(1, 5);
            const delay = random.int(0, 12);
            const followersOfTarget = followersOf(target);
            // Whatever the instance can be doing: idle, applying a push of a follower, pushing to its upstream, applying a pull.
            const mode = random.pick([
              'idle' as const,
              ...(followersOfTarget.length > 0 ? (['receivingPush'] as const) : []),
              ...(target.proxy ? (['sendingPush', 'applyingPull'] as const) : []),
            ]);
            const fireKill = (killMode: keyof typeof figures.kills) => () => {
              if (process.env.SYNC_SIM_DEBUG)
                console.log(`step ${step}: ${killMode} trigger on ${target.name}: writable ${writable(target)} busy ${target.busy}`);
              if (!writable(target) || target.busy) return false;
              target.dying = true; // from now on no write goes to it
              setTimeout(() => kill(target, killMode), delay);
              return true;
            };
            const fallback = () => {
              if (writable(target) && !target.busy) kill(target, 'idle');
            };
            if (mode === 'receivingPush') {
              const pusher = random.pick(followersOfTarget);
              if (process.env.SYNC_SIM_DEBUG) console.log(`step ${step}: arm receivingPush ${target.name} via ${pusher.name}`);
              arm(pusher.proxy!, { on: 'sent', match: isPush, fire: fireKill('receivingPush'), expires: step + 10, fallback });
              await somethingToPush(pusher);
            } else if (mode === 'sendingPush' && target.proxy) {
              arm(target.proxy, { on: 'sent', match: isPush, fire: fireKill('sendingPush'), expires: step + 10, fallback });
              await somethingToPush(target);
            } else if (mode === 'applyingPull' && target.proxy) {
              arm(target.proxy, { on: 'answer', match: isPull, fire: fireKill('applyingPull'), expires: step + 10, fallback });
            } else kill(target, 'idle');
          } else {
            figures.steps.wait++;
            await sleep(random.int(20, 250));
          }
          await sleep(random.int(0, 30));
        }

        // --- Heal everything, then sync to quiescence ---
        for (const [proxy, list] of triggers) {
          list.length = 0;
          proxy.heal();
        }
        cutUntil.clear();
        while (background.size > 0) await Promise.all([...background]);
        for (const node of nodes) if (!node.instance.alive) restart(node);
        while (background.size > 0) await Promise.all([...background]);
        expect(backgroundErrors).toEqual([]);
        for (const node of nodes) {
          if (node.session && node.session.counts.size > 0) {
            figures.steps.commit++;
            await commit(node);
          }
        }
        const chaosDone = performance.now();
        const vectorsNow = () => Promise.all(nodes.map(async (n) => JSON.stringify(sortedVector((await stateOf(n)).vector))));
        // The background loops alone first (they back off after failures, up to a minute by design,
        // so this wait is bounded and only saves passes of sync now; it asserts nothing).
        let backgroundSeconds: number | undefined;
        for (const until = performance.now() + 30_000; performance.now() < until; await sleep(100)) {
          const vectors = await vectorsNow();
          if (vectors.every((v) => v === vectors[0])) {
            backgroundSeconds = (performance.now() - chaosDone) / 1000;
            break;
          }
        }
        // Then `sync now` on every follower (a full round each, beside the background loop), until
        // two passes in a row move nothing and find every instance holding the same.
        const syncNow = async (node: Node) => {
          const result = await cli(['sync', 'now', '--account', ACCOUNT, '--database', node.instance.dbFile], node.instance.env);
          const moved = /: (\d+) movement\(s\) pushed, (\d+) pulled/.exec(result.stdout);
          return result.code === 0 && moved !== null && moved[1] === '0' && moved[2] === '0';
        };
        let quiet = 0;
        let lastVectors = '';
        while (quiet < 2) {
          figures.passes++;
          if (figures.passes > 15)
            throw new Error(`no quiescence after 15 passes of sync now; vectors:\n${(await vectorsNow()).join('\n')}`);
          const still = (await Promise.all(followers.map(syncNow))).every(Boolean);
          const vectors = await vectorsNow();
          const quietPass = still && vectors.every((v) => v === vectors[0]);
          quiet = quietPass ? (vectors[0] === lastVectors ? quiet + 1 : 1) : 0;
          lastVectors = vectors[0]!;
        }
        const quiescent = performance.now();

        // --- Read everything back through the API ---
        const views = await Promise.all(
          nodes.map(async (node) => ({
            node,
            history: await historyOf(node),
            quantities: await quantitiesOf(node, units),
            conflicts: await apiOk<Conflict[]>(node.instance.url!, node.token, 'GET', `${SYNC_CONFLICTS_PATH}?state=all&limit=500`),
          })),
        );
        const office = views[0]!;
        type Entry = HistoryPage['results'][number];
        const content = (e: Entry) => JSON.stringify([e.movement, e.kind, e.value, e.hlc, e.barcode, e.warehouse, e.source, e.reference]);

        // Every movement id once in every history, the same set everywhere, the same content.
        for (const view of views) {
          const ids = view.history.map((e) => e.movement);
          expect(ids.length, `${view.node.name}: a movement listed twice`).toBe(new Set(ids).size);
          expect(view.history.map(content).sort(), `${view.node.name} holds other movements than the office`).toEqual(
            office.history.map(content).sort(),
          );
        }

        // Every acknowledged write once in every history (none lost, none doubled); nothing else but the import.
        const idOf = new Map(nodes.map((n) => [n.id, n]));
        const keyOfAck = (a: Ack) => (a.kind === 'count' ? `${a.node.id}|${a.reference}|${a.barcode}` : a.reference);
        const keyOfEntry = (e: Entry) =>
          e.kind === 'count' ? `${e.movement.slice(0, e.movement.lastIndexOf('-'))}|${e.reference}|${e.barcode}` : (e.reference ?? '');
        let lost = 0;
        let doubled = 0;
        for (const view of views) {
          const found = new Map<string, Entry[]>();
          for (const e of view.history) found.set(keyOfEntry(e), [...(found.get(keyOfEntry(e)) ?? []), e]);
          for (const ack of acks) {
            const entries = found.get(keyOfAck(ack)) ?? [];
            if (entries.length === 0) lost++;
            if (entries.length > 1) doubled++;
          }
        }
        const ackByKey = new Map(acks.map((a) => [keyOfAck(a), a]));
        expect(ackByKey.size, 'two acknowledged rows share a reference').toBe(acks.length);
        const imports = office.history.filter((e) => e.source === 'import');
        const stranger = office.history.filter((e) => e.source !== 'import' && !ackByKey.has(keyOfEntry(e)));
        expect({ lost, doubled, stranger }).toEqual({ lost: 0, doubled: 0, stranger: [] });
        expect(imports.every((e) => e.kind === 'set' && e.movement.startsWith(`${nodes[0]!.id}-`))).toBe(true);

        // The oracle's movements: what the test asked for, at the timestamp the instance gave it,
        // with what its instance had seen (see isolatedWrite).
        const movements: OracleMovement[] = [];
        const unambiguousMismatches: string[] = [];
        const outsideSandwich: string[] = [];
        for (const e of office.history) {
          const origin = e.movement.slice(0, e.movement.lastIndexOf('-'));
          const seq = Number(e.movement.slice(e.movement.lastIndexOf('-') + 1));
          const base = { id: e.movement, origin, seq, hlc: e.hlc, barcode: e.barcode, warehouse: e.warehouse };
          if (e.source === 'import') {
            movements.push({ ...base, kind: 'set', value: e.value, seen: {} });
            continue;
          }
          const ack = ackByKey.get(keyOfEntry(e))!;
          expect([e.kind, e.value, e.barcode, e.warehouse, origin], `movement ${e.movement} is not what was written`).toEqual([
            ack.kind,
            ack.value,
            ack.barcode,
            ack.warehouse,
            ack.node.id,
          ]);
          expect(e.hlc.endsWith(`-${origin}`)).toBe(true);
          let seen: Vector = {};
          if (ack.kind !== 'adjust') {
            const before = withoutOrigin(ack.before, origin);
            const after = withoutOrigin(ack.after, origin);
            // What came before the write's row in its own instance's history.
            const own = views.find((v) => v.node === ack.node)!.history;
            const row = own.find((x) => x.movement === e.movement)!;
            const byArrival: Vector = {};
            for (const x of own) {
              const o = x.movement.slice(0, x.movement.lastIndexOf('-'));
              if (x.id < row.id && o !== origin)
                byArrival[o] = Math.max(byArrival[o] ?? 0, Number(x.movement.slice(x.movement.lastIndexOf('-') + 1)));
            }
            if (sameVector(before, after)) {
              seen = before;
              if (!sameVector(byArrival, before))
                unambiguousMismatches.push(`${e.movement}: vector ${JSON.stringify(before)}, arrival order ${JSON.stringify(byArrival)}`);
            } else {
              seen = byArrival;
              if (!withinVectors(byArrival, before, after))
                outsideSandwich.push(
                  `${e.movement}: ${JSON.stringify(byArrival)} not within ${JSON.stringify(before)} … ${JSON.stringify(after)}`,
                );
            }
          }
          movements.push({ ...base, kind: e.kind, value: e.value, seen });
        }
        expect({ unambiguousMismatches, outsideSandwich }).toEqual({ unambiguousMismatches: [], outsideSandwich: [] });
        expect(idOf.size).toBe(nodes.length);

        // Quantities: the same everywhere, and the oracle's fold.
        const folded = fold(movements);
        const expected = new Map<string, number>();
        for (const unit of units)
          for (const w of WAREHOUSES)
            expected.set(
              placeOf({ barcode: unit.barcode, warehouse: w.id }),
              folded.get(placeOf({ barcode: unit.barcode, warehouse: w.id })) ?? 0,
            );
        for (const view of views)
          expect(Object.fromEntries(view.quantities), `${view.node.name}'s quantities`).toEqual(Object.fromEntries(expected));

        // Conflicts: exactly the predicted groups, on every instance.
        const predicted = predictConflicts(movements);
        expect(predicted.length, 'more conflicts than GET conflicts/ lists at once: lower SYNC_SIM_SCALE').toBeLessThan(500);
        const key = (c: OracleConflict) => JSON.stringify([c.place, c.first, c.last, c.earlier, c.movements, c.racing, c.resolved]);
        for (const view of views) {
          const listed: OracleConflict[] = view.conflicts.map(asOracleConflict);
          expect(listed.map(key).sort(), `${view.node.name}'s conflicts`).toEqual(predicted.map(key).sort());
        }
        expect(proxies.map((p) => p.counts.unreadable)).toEqual(proxies.map(() => 0));

        // --- The figures ---
        const offsets = nodes.map((n) => n.offsetMs / 60_000);
        const seconds = (performance.now() - started) / 1000;
        const ackedMovements = acks.length;
        const lines = [
          `sync convergence simulation: seed ${SEED} (SYNC_SIM_SEED), scale ${SCALE} (SYNC_SIM_SCALE); ${simEngines()}`,
          `  instances: ${nodes.length} (${nodes.map((n) => `${n.name}${n.upstream ? `→${n.upstream.name}` : ''} ${n.offsetMs >= 0 ? '+' : ''}${(n.offsetMs / 60_000).toFixed(1)} min`).join(', ')})`,
          `  units: ${UNITS} in ${WAREHOUSES.length} warehouses; steps: ${STEPS} (${JSON.stringify(figures.steps)})`,
          `  acknowledged: ${figures.acknowledgedRequests} write requests, ${ackedMovements} movements (${acks.filter((a) => a.kind === 'set').length} set, ${acks.filter((a) => a.kind === 'adjust').length} adjust, ${acks.filter((a) => a.kind === 'count').length} count) + ${imports.length} imported`,
          `  cuts: ${Object.values(figures.cuts).reduce((a, b) => a + b, 0)} (${JSON.stringify(figures.cuts)}), connections destroyed: ${proxies.reduce((a, p) => a + p.counts.destroyed, 0)}, requests through the links: ${proxies.reduce((a, p) => a + p.counts.requests, 0)}`,
          `  kills: ${Object.entries(figures.kills)
            .filter(([k]) => k !== 'office')
            .reduce((a, [, b]) => a + b, 0)} (${JSON.stringify(figures.kills)})`,
          `  clock skew: ${Math.min(...offsets).toFixed(1)} … +${Math.max(...offsets).toFixed(1)} min`,
          `  conflicts: ${predicted.length} groups of ${predicted.reduce((n, c) => n + c.movements, 0)} movements (${predicted.filter((c) => c.racing).length} racing, ${predicted.filter((c) => c.resolved).length} resolved, largest ${Math.max(0, ...predicted.map((c) => c.movements))}), listed identically by every instance`,
          `  writes whose vectors moved around them (seen pinned by arrival order): ${figures.ambiguousWrites}`,
          `  after healing: background loops agreed ${backgroundSeconds === undefined ? 'not within 30 s' : `in ${backgroundSeconds.toFixed(1)} s`}; sync now passes to two quiet ones: ${figures.passes}; movements everywhere: ${office.history.length}`,
          `  lost: ${lost}, doubled: ${doubled}`,
          `  time: ${seconds.toFixed(1)} s (setup ${((setupDone - started) / 1000).toFixed(1)}, steps ${((chaosDone - setupDone) / 1000).toFixed(1)}, to quiescence ${((quiescent - chaosDone) / 1000).toFixed(1)}, checks ${((performance.now() - quiescent) / 1000).toFixed(1)})`,
        ];
        console.log(lines.join('\n'));
      } catch (error) {
        for (const node of nodes) console.error(`--- ${node.name} (${node.id}) output ---\n${node.instance.output().slice(-4000)}`);
        throw new Error(`sync simulation failed (replay: SYNC_SIM_SEED=${SEED} SYNC_SIM_SCALE=${SCALE}): ${(error as Error).message}`, {
          cause: error,
        });
      } finally {
        await Promise.allSettled([...background]);
        await Promise.all(nodes.map((n) => n.instance.kill()));
        await Promise.all(proxies.map((p) => p.close()));
        await Promise.all(nodes.map((n) => dropSimDatabase(n.instance.dbFile)));
        rmSync(dir, { recursive: true, force: true });
      }

      async function stateOf(node: Node): Promise<SyncState> {
        return apiOk<SyncState>(node.instance.url!, node.syncToken, 'GET', SYNC_STATE_PATH);
      }
    },
    300_000 * SCALE,
  );
});

function sortedVector(vector: Vector): Vector {
  return Object.fromEntries(Object.entries(vector).sort(([a], [b]) => (a < b ? -1 : 1)));
}

async function historyOf(node: Node): Promise<HistoryPage['results']> {
  const entries: HistoryPage['results'] = [];
  let cursor: string | null = null;
  do {
    const page: HistoryPage = await apiOk<HistoryPage>(
      node.instance.url!,
      node.token,
      'GET',
      `${STOCK_HISTORY_PATH}?limit=500${cursor ? `&cursor=${cursor}` : ''}`,
    );
    entries.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor);
  return entries;
}

async function quantitiesOf(node: Node, units: readonly Unit[]): Promise<Map<string, number>> {
  const quantities = new Map<string, number>();
  for (let i = 0; i < units.length; i += 50) {
    const barcodes = units.slice(i, i + 50).map((u) => u.barcode);
    const answer = await apiOk<{ results: { barcode: string; warehouse: number; quantity: number }[] }>(
      node.instance.url!,
      node.token,
      'GET',
      `${INVENTORY_PATH}?barcodes=${barcodes.join(',')}`,
    );
    for (const r of answer.results) quantities.set(placeOf(r), r.quantity);
  }
  return quantities;
}
