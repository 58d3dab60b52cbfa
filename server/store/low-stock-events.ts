// The store's side of the low-stock webhook (docs/REORDER.md, "Webhook"): an admin's URL and secret per
// account, the crossings found in the stock history after the write (never inside it: a write never
// waits for them), and the outbox each is delivered from at least once under its own id. Sending is
// server/webhooks/ (HTTP stays out of the store).
import { actorOf, recordAudit } from './audit.ts';
import type { Queries } from './engine.ts';
import { NO_WAREHOUSE } from './schema.ts';
import type { Caller } from './tokens.ts';

/** Stock history rows looked through per account and pass: bounds one pass's read. */
export const HISTORY_PER_PASS = 1000;

export interface DueEvent {
  id: number;
  eventId: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/** Sets (url null: removes) the account's webhook; only crossings after this are sent. */
export async function setLowStockWebhook(q: Queries, account: Caller, url: string | null, secret: string): Promise<void> {
  await q.run(q.k.deleteFrom('low_stock_webhooks').where('account_id', '=', account.id));
  // Who pointed the account's events where: the URL is recorded, never the secret.
  await recordAudit(q, account.id, actorOf(account), { action: 'low_stock_webhook.set', subject: url ?? 'removed', detail: { url } });
  if (url === null) return;
  const last = await q.first(
    q.k
      .selectFrom('stock_history')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('account_id', '=', account.id),
  );
  await q.run(q.k.insertInto('low_stock_webhooks').values({ account_id: account.id, url, secret, history_cursor: Number(last?.id ?? 0) }));
}

/**
 * Looks through the stock history recorded since the last pass, for every account with a webhook,
 * and queues an event for each movement that took a place with a reorder point from above its minimum
 * to at or below it. The event id is the movement's, so a pass run twice queues it once.
 */
export async function queueCrossings(q: Queries, now: string): Promise<number> {
  let queued = 0;
  for (const hook of await q.all(q.k.selectFrom('low_stock_webhooks').select(['account_id', 'history_cursor']))) {
    const range = await q.all(
      q.k
        .selectFrom('stock_history')
        .select('id')
        .where('account_id', '=', hook.account_id)
        .where('id', '>', hook.history_cursor)
        .orderBy('id')
        .limit(HISTORY_PER_PASS),
    );
    if (range.length === 0) continue;
    const upTo = range.at(-1)!.id;
    const crossings = await q.all(
      q.k
        .selectFrom('stock_history as h')
        .innerJoin('reorder_points as r', (join) =>
          join.onRef('r.unit_id', '=', 'h.unit_id').onRef('r.warehouse_id', '=', 'h.warehouse_id'),
        )
        .innerJoin('stock_units as u', 'u.id', 'h.unit_id')
        .innerJoin('accounts as a', 'a.id', 'h.account_id')
        .leftJoin('warehouses as w', (join) => join.onRef('w.id', '=', 'h.warehouse_id').onRef('w.account_id', '=', 'h.account_id'))
        .select([
          'h.origin',
          'h.seq',
          'h.warehouse_id',
          'h.old_quantity',
          'h.new_quantity',
          'h.created_ms',
          'r.minimum',
          'r.target',
          'u.barcode',
          'u.item_id',
          'u.variant_id',
          'a.name as account',
          'w.name as warehouse_name',
        ])
        .where('h.account_id', '=', hook.account_id)
        .where('h.id', '>', hook.history_cursor)
        .where('h.id', '<=', upTo)
        .whereRef('h.new_quantity', '<=', 'r.minimum')
        // No stock before counts as 0, which is at or below any minimum: that is no crossing.
        .whereRef('h.old_quantity', '>', 'r.minimum')
        .orderBy('h.id'),
    );
    for (const c of crossings) {
      const eventId = `low-stock:${c.origin}-${c.seq}`;
      const body = JSON.stringify({
        id: eventId,
        type: 'low_stock',
        account: c.account,
        barcode: c.barcode,
        item: c.item_id,
        liquid_stock: c.variant_id,
        warehouse: c.warehouse_id === NO_WAREHOUSE ? null : c.warehouse_id,
        warehouse_name: c.warehouse_id === NO_WAREHOUSE ? null : c.warehouse_name,
        quantity: c.new_quantity,
        minimum: c.minimum,
        target: c.target,
        suggested_order: (c.target ?? c.minimum) - c.new_quantity,
        movement: `${c.origin}-${c.seq}`,
        recorded_at: new Date(c.created_ms).toISOString(),
      });
      const inserted = await q.run(
        q.k
          .insertInto('low_stock_events')
          .values({ account_id: hook.account_id, event_id: eventId, body, next_attempt_at: now })
          .onConflict((oc) => oc.columns(['account_id', 'event_id']).doNothing()),
      );
      queued += inserted.changes;
    }
    await q.run(q.k.updateTable('low_stock_webhooks').set({ history_cursor: upTo }).where('account_id', '=', hook.account_id));
  }
  return queued;
}

/** Events not delivered yet whose next attempt is due, oldest first, with where they go. */
export async function dueEvents(q: Queries, now: string, limit: number): Promise<DueEvent[]> {
  const rows = await q.all(
    q.k
      .selectFrom('low_stock_events as e')
      .innerJoin('low_stock_webhooks as k', 'k.account_id', 'e.account_id')
      .select(['e.id', 'e.event_id', 'e.body', 'e.attempts', 'k.url', 'k.secret'])
      .where('e.delivered_at', 'is', null)
      .where('e.next_attempt_at', '<=', now)
      .orderBy('e.id')
      .limit(limit),
  );
  return rows.map((r) => ({ id: r.id, eventId: r.event_id, body: r.body, attempts: r.attempts, url: r.url, secret: r.secret }));
}

/** Records one attempt: delivered at `deliveredAt`, or failed with `error` and tried again at `retryAt`. */
export async function recordAttempt(
  q: Queries,
  id: number,
  outcome: { deliveredAt: string } | { error: string; retryAt: string },
): Promise<void> {
  await q.run(
    q.k
      .updateTable('low_stock_events')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        ...('deliveredAt' in outcome
          ? { delivered_at: outcome.deliveredAt, last_error: null }
          : { last_error: outcome.error.slice(0, 500), next_attempt_at: outcome.retryAt }),
      }))
      .where('id', '=', id),
  );
}
