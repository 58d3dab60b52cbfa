// Sends the low-stock webhook (docs/REORDER.md, "Webhook") while the server runs: every pass queues
// the crossings of a minimum recorded since the last one (store.reorder.queueCrossings), then posts
// each due event to its account's URL, signed with the account's secret. An event counts as delivered
// on a 2xx answer only; otherwise it is tried again after a wait that doubles up to a bound, so a
// receiver that was down gets everything, and gets an event again when its 2xx was lost (at least
// once: the receiver drops repeats by `X-Webhook-Id`). A write never waits for any of this.
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { Store } from '../store/store.ts';

export interface WebhookLoopOptions {
  /** Between passes. */
  intervalMs?: number;
  /** The first retry's wait; it doubles per failed attempt up to maxBackoffMs. */
  firstRetryMs?: number;
  maxBackoffMs?: number;
  /** How long one delivery may take before it counts as failed. */
  timeoutMs?: number;
  logger?: Logger;
}

export const DEFAULT_WEBHOOK_INTERVAL_MS = 2_000;
export const DEFAULT_FIRST_RETRY_MS = 5_000;
export const DEFAULT_MAX_WEBHOOK_BACKOFF_MS = 60 * 60_000;
const EVENTS_PER_PASS = 50;

/** The wait before attempt `failed + 1` after `failed` failed attempts. */
export function retryDelayMs(failed: number, firstRetryMs: number, maxBackoffMs: number): number {
  return Math.min(maxBackoffMs, firstRetryMs * 2 ** Math.max(0, failed - 1));
}

/** `sha256=<hex>` of HMAC-SHA256(secret, "<timestamp>.<body>"): the receiver recomputes it to know the event is ours and unchanged. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface WebhookLoop {
  /** Passes completed so far (tests wait for a pass instead of for time). */
  readonly passes: number;
  stop(): Promise<void>;
}

export function startWebhookLoop(store: Store, options: WebhookLoopOptions = {}): WebhookLoop {
  const intervalMs = options.intervalMs ?? DEFAULT_WEBHOOK_INTERVAL_MS;
  const firstRetryMs = options.firstRetryMs ?? DEFAULT_FIRST_RETRY_MS;
  const maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_WEBHOOK_BACKOFF_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let stopped = false;
  let passes = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const deliver = async (event: Awaited<ReturnType<Store['reorder']['dueEvents']>>[number]) => {
    const timestamp = String(Math.floor(store.reorder.now() / 1000));
    let error: string;
    try {
      const answer = await fetch(event.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-webhook-id': event.eventId,
          'x-webhook-timestamp': timestamp,
          'x-webhook-signature': signature(event.secret, timestamp, event.body),
        },
        body: event.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await answer.body?.cancel();
      if (answer.status >= 200 && answer.status < 300) {
        await store.reorder.recordAttempt(event.id, { deliveredAt: new Date(store.reorder.now()).toISOString() });
        return;
      }
      error = `HTTP ${answer.status}`;
    } catch (failure) {
      error = (failure as Error).message;
    }
    const retryAt = new Date(store.reorder.now() + retryDelayMs(event.attempts + 1, firstRetryMs, maxBackoffMs)).toISOString();
    await store.reorder.recordAttempt(event.id, { error, retryAt });
    options.logger?.warn({ event: event.eventId, attempts: event.attempts + 1, err: error }, 'low-stock webhook failed');
  };

  const pass = async () => {
    try {
      await store.reorder.queueCrossings();
      for (const event of await store.reorder.dueEvents(EVENTS_PER_PASS)) {
        if (stopped) return;
        await deliver(event);
      }
    } catch (error) {
      options.logger?.warn({ err: (error as Error).message }, 'low-stock webhook pass failed');
    } finally {
      passes++;
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().then(schedule);
    }, intervalMs);
  };
  schedule();

  return {
    get passes() {
      return passes;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
