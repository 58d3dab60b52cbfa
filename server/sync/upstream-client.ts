// The HTTP client an instance uses to reach the upstream it follows: the upstream's own sync
// endpoints, with the account's token, every answer checked against the shared schemas. A refusal
// keeps the upstream's status and words; a network failure or timeout says the upstream is away.
// Requests go through Node's http/https modules on kept-alive connections, not fetch: fetch's own
// work was 2-3 ms of every push (docs/BENCHMARKS.md, "Sync round, round three").
import http from 'node:http';
import https from 'node:https';
import type { z } from 'zod';
import {
  type FollowerRegistered,
  MAX_MOVEMENTS_PER_BATCH,
  type PullPage,
  type PushAnswer,
  SYNC_CATALOGUE_PATH,
  SYNC_FOLLOWERS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  type SyncMovement,
  type SyncState,
  followerRegisteredSchema,
  pullPageSchema,
  pushAnswerSchema,
  requestErrorSchema,
  syncMessages,
  syncStateSchema,
} from '../../shared/index.ts';
import { z as zod } from 'zod';
import { type CompiledCheck, checkedParse, compileCheck } from '../http/compiled-check.ts';

/** How long one request to the upstream may take before it counts as unreachable. */
export const UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * The largest answer read from an upstream: whatever crosses the network is hostile until checked,
 * and an answer is held whole before it is parsed. A page of 500 movements is well under 1 MiB and a
 * state's vector of the most origins an account may have (docs/SYNC.md) under 1 MiB too; a
 * catalogue of a million barcodes is about 140 MB.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
export const MAX_CATALOGUE_ANSWER_BYTES = 512 * 1024 * 1024;

/** The upstream refused a request (its status and `detail`), or could not be reached (status 0). */
export class UpstreamError extends Error {
  readonly status: number;
  /** Extra fields of the refusal (a push's `resume`). */
  readonly answer: Record<string, unknown>;
  constructor(status: number, message: string, answer: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.answer = answer;
  }
}

/**
 * The longest `have` a pull sends: a request's line and headers must fit the 16 KiB an upstream reads
 * (server/start.ts), whatever the number of origins.
 */
export const MAX_HAVE_CHARS = 8 * 1024;

const catalogueAnswerSchema = zod.object({ version: zod.number().int(), catalogue: zod.unknown() });

/** A page of up to 500 movements: checked like a push on the upstream (server/http/compiled-check.ts). */
const pullPageCheck = compileCheck(pullPageSchema);

/** One pool of kept-alive connections per scheme: a round's pushes and pulls reuse one connection. */
const agents: Record<string, http.Agent> = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** An answer longer than the client reads (MAX_ANSWER_BYTES). */
class AnswerTooLarge extends Error {
  readonly status: number;
  constructor(status: number, maxBytes: number) {
    super(syncMessages.upstreamAnswerTooLarge(status, Math.round(maxBytes / 1024 / 1024)));
    this.status = status;
  }
}

/**
 * One request and its whole answer as text; rejects on a network failure, after `timeoutMs`, or as
 * soon as the answer passes `maxBytes` (the connection is then dropped, not read to its end).
 */
function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  maxBytes: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(body);
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method,
        agent: agents[url.protocol],
        signal: AbortSignal.timeout(timeoutMs),
        headers: data ? { ...headers, 'Content-Length': String(data.length) } : headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        const announced = Number(response.headers['content-length'] ?? 0);
        const tooLarge = () => {
          request.destroy();
          reject(new AnswerTooLarge(response.statusCode ?? 0, maxBytes));
        };
        if (announced > maxBytes) return tooLarge();
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > maxBytes) return tooLarge();
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('error', reject);
    request.end(data);
  });
}

export class UpstreamClient {
  readonly url: string;
  private readonly token: string;
  private readonly timeoutMs: number;

  constructor(url: string, token: string, timeoutMs = UPSTREAM_TIMEOUT_MS) {
    this.url = url.replace(/\/+$/, '');
    this.token = token;
    this.timeoutMs = timeoutMs;
  }

  /** `init.json`: the body already serialized (else `init.body` is). */
  private async request<S extends z.ZodType>(
    schema: S,
    path: string,
    init: { method?: string; body?: unknown; json?: string; maxBytes?: number } = {},
    check?: CompiledCheck<z.infer<S>>,
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { Authorization: `Token ${this.token}`, Accept: 'application/json' };
    const sent = init.json ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined);
    if (sent !== undefined) headers['Content-Type'] = 'application/json';
    let response: { status: number; text: string };
    try {
      response = await exchange(
        new URL(this.url + path),
        init.method ?? 'GET',
        headers,
        sent,
        this.timeoutMs,
        init.maxBytes ?? MAX_ANSWER_BYTES,
      );
    } catch (error) {
      if (error instanceof AnswerTooLarge) throw new UpstreamError(502, error.message);
      const timedOut = (error as { cause?: Error }).cause?.name === 'TimeoutError';
      throw new UpstreamError(
        0,
        syncMessages.upstreamUnreachable(this.url, timedOut ? `no answer within ${this.timeoutMs / 1000} s` : (error as Error).message),
      );
    }
    const ok = response.status >= 200 && response.status < 300;
    let json: unknown;
    try {
      json = JSON.parse(response.text);
    } catch {
      throw new UpstreamError(
        ok ? 502 : response.status,
        syncMessages.upstreamRefused(response.status, 'an answer that is not JSON (is this a barcode-inventory server?)'),
      );
    }
    if (!ok) {
      const parsed = requestErrorSchema.safeParse(json);
      const detail = parsed.success ? parsed.data.detail : `status ${response.status}`;
      throw new UpstreamError(
        response.status,
        syncMessages.upstreamRefused(response.status, detail),
        typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {},
      );
    }
    const parsed = checkedParse(schema, check, json);
    if (!parsed.success)
      throw new UpstreamError(
        502,
        syncMessages.upstreamRefused(response.status, 'an answer this version does not understand (are both instances up to date?)'),
      );
    return parsed.data;
  }

  state(): Promise<SyncState> {
    return this.request(syncStateSchema, SYNC_STATE_PATH);
  }

  catalogue(): Promise<{ version: number; catalogue: unknown }> {
    return this.request(catalogueAnswerSchema, SYNC_CATALOGUE_PATH, { maxBytes: MAX_CATALOGUE_ANSWER_BYTES }) as Promise<{
      version: number;
      catalogue: unknown;
    }>;
  }

  /** `json`: the body `{"movements": […]}` already serialized (a round writes the next one while it waits). */
  push(movements: readonly SyncMovement[], json?: string): Promise<PushAnswer> {
    return this.request(pushAnswerSchema, SYNC_MOVEMENTS_PATH, {
      method: 'POST',
      ...(json !== undefined ? { json } : { body: { movements } }),
    });
  }

  /** Registers this instance as a follower of the upstream, under `label` (docs/SYNC.md, "Who may speak for an origin"). */
  register(instance: string, label: string): Promise<FollowerRegistered> {
    return this.request(followerRegisteredSchema, SYNC_FOLLOWERS_PATH, { method: 'POST', body: { instance, label } });
  }

  /**
   * `have`: what this instance holds, left out of the page. Any part of it is right (what is left out
   * of `have` comes back and is skipped here as held), so it is cut to what a request line carries
   * (MAX_HAVE_CHARS), the origins of `first` before the others: this instance's own and those it has
   * just pushed, whose movements would otherwise come straight back.
   */
  pull(after: number, limit = MAX_MOVEMENTS_PER_BATCH, have?: Record<string, number>, first: readonly string[] = []): Promise<PullPage> {
    const pairs: string[] = [];
    let chars = 0;
    if (have) {
      const origins = [...new Set([...first.filter((o) => o in have), ...Object.keys(have)])];
      for (const origin of origins) {
        const seq = have[origin]!;
        if (seq <= 0) continue;
        const pair = `${origin}:${seq}`;
        if (chars + pair.length + 1 > MAX_HAVE_CHARS) break;
        pairs.push(pair);
        chars += pair.length + 1;
      }
    }
    return this.request(
      pullPageSchema,
      `${SYNC_MOVEMENTS_PATH}?after=${after}&limit=${limit}${pairs.length > 0 ? `&have=${pairs.join(',')}` : ''}`,
      {},
      pullPageCheck,
    );
  }
}
