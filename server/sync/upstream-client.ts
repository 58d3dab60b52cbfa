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
  type SyncProblemCode,
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
  /** Extra fields of the refusal (a push's `resume`, its `code`). */
  readonly answer: Record<string, unknown>;
  /** What the client itself made of a failure its status does not tell apart (a certificate, an answer not understood). */
  readonly problem: SyncProblemCode | undefined;
  constructor(status: number, message: string, answer: Record<string, unknown> = {}, problem?: SyncProblemCode) {
    super(message);
    this.status = status;
    this.answer = answer;
    this.problem = problem;
  }
}

/** A TLS failure to trust the upstream's certificate (Node's codes from OpenSSL's verify errors, and a name that does not match). */
const certificateFailure = (error: unknown) =>
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(String((error as NodeJS.ErrnoException).code ?? ''));

/**
 * The longest `have` a pull sends: a request's line and headers must fit the 16 KiB an upstream reads
 * (server/start.ts), whatever the number of origins.
 */
export const MAX_HAVE_CHARS = 8 * 1024;

const catalogueAnswerSchema = zod.object({ version: zod.number().int(), catalogue: zod.unknown() });

/** A page of up to 500 movements: checked like a push on the upstream (server/http/compiled-check.ts). */
const pullPageCheck = compileCheck(pullPageSchema);

/**
 * How long a kept-alive connection may sit idle before this side closes it: shorter than the idle
 * timeout of the server at the other end (Node's 5 s, which it announces, and which Node's agent then
 * goes by; a reverse proxy on the path may close sooner and say nothing), so a connection is seldom
 * reused just as the other end closes it. A round's requests follow one another closely and still
 * share one connection; the next round, seconds later, opens a new one.
 */
export const IDLE_CONNECTION_MS = 2_000;

/** One pool of kept-alive connections per scheme: a round's pushes and pulls reuse one connection. */
const agents: Record<string, http.Agent> = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

/** An answer longer than the client reads (MAX_ANSWER_BYTES). */
class AnswerTooLarge extends Error {
  readonly status: number;
  constructor(status: number, maxBytes: number) {
    super(syncMessages.upstreamAnswerTooLarge(status, Math.round(maxBytes / 1024 / 1024)));
    this.status = status;
  }
}

/**
 * A request sent on a kept-alive connection that the other end had closed while it sat idle: the
 * close crossed the request on the wire (or waited unread while this process was busy), and the
 * request failed before any answer came. Such a connection is dropped; the request is sent again once,
 * on a new connection. Every request of this client may be sent twice: reads, a registration (the
 * same token and instance again), and a push (a movement the upstream holds already is skipped).
 */
const closedWhileIdle = (error: unknown, reused: boolean, answered: boolean) =>
  reused && !answered && ['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * One request and its whole answer as text; rejects on a network failure, after `timeoutMs`, or as
 * soon as the answer passes `maxBytes` (the connection is then dropped, not read to its end). A
 * request lost to a kept-alive connection closed while idle is sent again once (closedWhileIdle).
 */
async function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  maxBytes: number,
): Promise<{ status: number; text: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await exchangeOnce(url, method, headers, body, signal, maxBytes, agents[url.protocol]!);
  } catch (error) {
    if (!(error instanceof IdleConnectionClosed)) throw error;
    // A connection of its own: another idle one of the pool may have been closed too.
    return exchangeOnce(url, method, headers, body, signal, maxBytes, false);
  }
}

/** The request went out on a kept-alive connection the other end had closed (closedWhileIdle). */
class IdleConnectionClosed extends Error {}

function exchangeOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
  maxBytes: number,
  agent: http.Agent | false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(body);
    let answered = false;
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method,
        agent,
        signal,
        headers: data ? { ...headers, 'Content-Length': String(data.length) } : headers,
      },
      (response) => {
        answered = true;
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
    request.on('error', (error) =>
      reject(closedWhileIdle(error, request.reusedSocket, answered) ? new IdleConnectionClosed(error.message, { cause: error }) : error),
    );
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
      if (error instanceof AnswerTooLarge) throw new UpstreamError(502, error.message, {}, 'upstream_incompatible');
      const timedOut = (error as { cause?: Error }).cause?.name === 'TimeoutError';
      throw new UpstreamError(
        0,
        syncMessages.upstreamUnreachable(this.url, timedOut ? `no answer within ${this.timeoutMs / 1000} s` : (error as Error).message),
        {},
        certificateFailure(error) ? 'upstream_certificate' : 'upstream_unreachable',
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
        {},
        ok ? 'upstream_incompatible' : undefined,
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
        {},
        'upstream_incompatible',
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
