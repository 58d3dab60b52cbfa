// Builds the Koa router from the endpoint table: for each endpoint the token check, the role check,
// the Idempotency-Key, the path ids, the query and the body are handled here, once, in that order,
// before its handler runs; each path answers its other methods with 405 and an `Allow` header, OPTIONS with
// 204. Routing is case-sensitive and strict: every path is served with and without its one trailing
// slash, and in no other spelling (no `//`, no other case).
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { z } from 'zod';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  ROLE_FORBIDDEN_CODE,
  requestMessages,
  roleMay,
  roleMessages,
  rolesAllowed,
  stocktakeMessages,
} from '../../shared/index.ts';
import { apiError, badRequest, notFound } from '../errors.ts';
import { AccountTurns } from '../http/account-turns.ts';
import { authenticateRequest } from '../http/authenticate.ts';
import { checkedParse, compileCheck } from '../http/compiled-check.ts';
import { InFlightKeys, idempotencyKeyOf, requestHash } from '../http/idempotency.ts';
import { hasNoBody, readJsonBody } from '../http/json-body.ts';
import { actFor } from '../store/acting-account.ts';
import { asOneRequest } from '../store/request-moment.ts';
import type { Caller, OnceKey, Store } from '../store/store.ts';
import { type DescribeIssues, type Endpoint, type HandlerInput, type Reply, type Resource, PUBLIC, isPublic } from './endpoint.ts';

/** `path: message; path: message`, the first message of each problem. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}
const invalidBody: DescribeIssues = (issues) => stocktakeMessages.invalidBody(describeIssues(issues));
const invalidQuery: DescribeIssues = (issues) => stocktakeMessages.invalidQuery(describeIssues(issues));

/** `/api/v1/stocktakes/{id}/lines/` → `/api/v1/stocktakes/:id/lines{/}` (the trailing slash optional). */
export function routerPath(path: string): string {
  const koa = path.replace(/\{(\w+)\}/g, ':$1');
  return koa.endsWith('/') ? `${koa.slice(0, -1)}{/}` : koa;
}

/** The declared path with its ids filled in: how a request is named wherever a path is compared. */
export function canonicalPath(path: string, params: Record<string, number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
}

/** Every method the table serves: the CORS preflight answer lists them. */
export function servedMethods(resources: readonly Resource[]): string[] {
  return [...new Set(resources.flatMap((r) => r.endpoints.map((e) => e.method)))];
}

/** A path id: digits only, else the resource does not exist. */
function pathIds(ctx: Context, names: readonly string[]): Record<string, number> {
  const ids: Record<string, number> = {};
  for (const name of names) {
    const value = ctx.params[name];
    if (value === undefined || !/^\d{1,15}$/.test(value)) throw notFound();
    ids[name] = Number(value);
  }
  return ids;
}

function queryOf(ctx: Context, joinRepeated: readonly string[] = []): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    query[key] = Array.isArray(value) ? (joinRepeated.includes(key) ? value.join(',') : value.at(-1)) : value;
  }
  return query;
}

/** What a public endpoint's handler gets instead of a caller: reading it is a programming error. */
const NO_CALLER = new Proxy({} as Caller, {
  get() {
    throw new Error('a public endpoint has no caller');
  },
});

/**
 * The caller of an endpoint that needs a token: authenticated (401 otherwise), then its role checked
 * against the endpoint's (403 `role_forbidden` naming both), before the request is read any further.
 */
async function authorised(store: Store, ctx: Context, endpoint: Endpoint): Promise<Caller> {
  const caller = await authenticateRequest(store, ctx);
  const declared = endpoint.roles;
  if (declared === PUBLIC || roleMay(caller.role, declared)) return caller;
  const roles = rolesAllowed(declared);
  throw apiError(403, roleMessages.forbidden(caller.role, endpoint.method, endpoint.path, roles), {
    code: ROLE_FORBIDDEN_CODE,
    more: { roles },
  });
}

function send(ctx: Context, reply: Reply): void {
  ctx.status = reply.status ?? 200;
  if (reply.headers) ctx.set(reply.headers);
  if (reply.replayed) ctx.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (reply.type) ctx.type = reply.type;
  ctx.body = reply.body;
}

function handle(store: Store, inFlight: InFlightKeys, turns: AccountTurns, endpoint: Endpoint): Middleware {
  const paramNames = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const bodyCheck = endpoint.body?.compiled ? compileCheck(endpoint.body.schema) : undefined;
  // One request, one moment: its kept look-ups wait for other processes' commits once (request-moment.ts).
  return (ctx) => asOneRequest(() => answer(ctx));
  async function answer(ctx: Context): Promise<void> {
    const caller = isPublic(endpoint) ? NO_CALLER : await authorised(store, ctx, endpoint);
    const key = endpoint.idempotent ? idempotencyKeyOf(ctx) : undefined;
    const run = async () => {
      const params = pathIds(ctx, paramNames);
      let query: unknown;
      if (endpoint.query) {
        const parsed = endpoint.query.schema.safeParse(queryOf(ctx, endpoint.query.joinRepeated));
        if (!parsed.success)
          throw badRequest((endpoint.query.invalid ?? invalidQuery)(parsed.error.issues), endpoint.query.code ?? 'invalid_query');
        query = parsed.data;
      }
      let body: unknown;
      let once: OnceKey | undefined;
      if (endpoint.body) {
        const sent = endpoint.body.required === false && hasNoBody(ctx) ? {} : await readJsonBody(ctx);
        // The declared path with the parsed ids, not the spelling sent (`/12/` and `/012`): one request, one hash.
        if (key !== undefined) once = { key, requestHash: requestHash(ctx.method, canonicalPath(endpoint.path, params), sent) };
        const parsed = checkedParse(endpoint.body.schema, bodyCheck, sent);
        if (!parsed.success) {
          const refusal = badRequest((endpoint.body.invalid ?? invalidBody)(parsed.error.issues), 'invalid_body');
          // A key already used with another request is a 422 whatever this body is (docs/POS.md).
          if (once !== undefined) return send(ctx, await store.refuseOnce(caller, once, refusal));
          throw refusal;
        }
        body = parsed.data;
      }
      const input: HandlerInput<unknown, unknown> = { store, caller, params, query, body, once, log: ctx.state.log as Logger };
      send(ctx, await endpoint.handler(input));
    };
    const work = key === undefined ? run : () => inFlight.hold(caller.id, key, run);
    // Public endpoints have no account to share turns by; everything else waits for its account's
    // turn, and for a PostgreSQL connection in its account's line (store/acting-account.ts).
    return isPublic(endpoint) ? work() : turns.run(caller.id, () => actFor(caller.id, work));
  }
}

/** Answers a known path's other methods: OPTIONS lists the methods, anything else is 405. */
function otherMethods(allowed: readonly string[]): Middleware {
  const allow = [...allowed, 'HEAD', 'OPTIONS'].join(', ');
  return (ctx) => {
    ctx.set('Allow', allow);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    throw apiError(405, requestMessages.methodNotAllowed(ctx.method), { headers: { Allow: allow } });
  };
}

/** Idempotency-Keys in flight, per store (tests look at them). */
const inFlightByStore = new WeakMap<Store, InFlightKeys>();

export function keysInFlight(store: Store): number {
  return inFlightByStore.get(store)?.size ?? 0;
}

export function apiRouter(store: Store, resources: readonly Resource[]): Router {
  // Case-sensitive and strict: the table's paths (each with one optional trailing slash) are the only
  // spellings served, so every check keyed on a path (no-store, idempotency hash) sees one path.
  const router = new Router({ sensitive: true, strict: true });
  let inFlight = inFlightByStore.get(store);
  if (!inFlight) inFlightByStore.set(store, (inFlight = new InFlightKeys()));
  const byPath = new Map<string, Endpoint[]>();
  for (const endpoint of resources.flatMap((r) => r.endpoints)) {
    const list = byPath.get(endpoint.path) ?? [];
    if (list.some((other) => other.method === endpoint.method)) throw new Error(`${endpoint.method} ${endpoint.path} is declared twice`);
    byPath.set(endpoint.path, [...list, endpoint]);
  }
  const turns = new AccountTurns();
  for (const [path, endpoints] of byPath) {
    for (const endpoint of endpoints) router.register(routerPath(path), [endpoint.method], handle(store, inFlight, turns, endpoint));
  }
  // After every method of every path, so a path's own methods always win.
  for (const [path, endpoints] of byPath) router.all(routerPath(path), otherMethods(endpoints.map((e) => e.method)));
  return router;
}
