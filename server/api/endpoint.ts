// How an endpoint is declared: once, with everything the router, the input checks and the OpenAPI
// document need (docs/ARCHITECTURE.md, "Adding an endpoint"). A resource file lists its endpoints;
// server/api/resources.ts lists the resources.
import type { ErrorCode } from '../../shared/index.ts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Role } from '../../shared/index.ts';
import type { Caller, OnceKey, Store } from '../store/store.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDoc {
  description: string;
  /** JSON answer; omit for an answer without a body or for `{"detail": …}` errors. */
  schema?: z.ZodType;
  /** Another media type than JSON (e.g. text/csv), described in words. */
  contentType?: string;
}

/** What a handler answers; JSON unless `type` says otherwise. */
export interface Reply {
  /** Default 200. */
  status?: number;
  body: unknown;
  type?: string;
  headers?: Record<string, string>;
  /** Answered from the stored first answer of an Idempotency-Key (sets `Idempotent-Replayed: true`). */
  replayed?: boolean;
}

/** Turns the issues of a refused query or body into the `detail` of the 400 answer. */
export type DescribeIssues = (issues: readonly z.core.$ZodIssue[]) => string;

export interface QueryInput<Q> {
  /** An object schema: each property is one query parameter (a repeated one counts once, its last value). */
  schema: z.ZodType<Q> & { shape?: Record<string, z.ZodType> };
  /** Parameters whose repeats are joined with commas into one value, as a list parameter would be. */
  joinRepeated?: readonly string[];
  invalid?: DescribeIssues;
  /** The code of its refusal, when more telling than `invalid_query` (shared/error-codes.ts). */
  code?: ErrorCode;
}

export interface BodyInput<B> {
  /** Checks the JSON body; its output is what the handler gets. */
  schema: z.ZodType<B>;
  /** The shape the document shows, when the check is looser than the rows it lets through (rows checked one by one). */
  documented?: z.ZodType;
  description?: string;
  /** Default true; false lets an empty POST count as `{}`. */
  required?: boolean;
  /**
   * Checked first by the schema compiled to a plain function (server/http/compiled-check.ts), zod
   * only when that refuses: for bodies of hundreds of objects (a sync push). The schema must return
   * its input unchanged; the router refuses to start otherwise.
   */
  compiled?: boolean;
  invalid?: DescribeIssues;
}

export interface HandlerInput<Q, B> {
  store: Store;
  /** The token's account; an endpoint that is `public` has none and must not read it. */
  caller: Caller;
  /** Path parameters: every one is a positive integer id. */
  params: Record<string, number>;
  query: Q;
  body: B;
  /** The Idempotency-Key of an `idempotent` endpoint's request, with the request's hash; undefined without the header. */
  once: OnceKey | undefined;
  log: Logger;
}

export interface Endpoint<Q = unknown, B = unknown> {
  method: Method;
  /** With `{name}` for path parameters and the trailing slash the API documents; served with and without it. */
  path: string;
  summary: string;
  description?: string;
  /**
   * Who may call it, decided for every endpoint (docs/API.md, "Roles"): the roles whose tokens may (one
   * of the groups of `MAY`, shared/roles.ts; `full` may call every endpoint and is never listed), or
   * `PUBLIC` for the few that need no token at all (the API description itself, sign-in). Checked by
   * the router before anything else of the request; any other role gets 403 `role_forbidden`.
   */
  roles: readonly Role[] | typeof PUBLIC;
  /** Takes an optional Idempotency-Key (docs/POS.md): the handler passes `once` to the store. */
  idempotent?: boolean;
  /** Path parameter descriptions by name. */
  params?: Record<string, string>;
  query?: QueryInput<Q>;
  body?: BodyInput<B>;
  /** Every answer the endpoint gives besides 401 (token), 405 and the Idempotency-Key's 409/422, which are added. */
  responses: Record<number, ResponseDoc>;
  handler(input: HandlerInput<Q, B>): Promise<Reply> | Reply;
}

/** The `roles` of an endpoint that needs no token. */
export const PUBLIC = 'public';

export function isPublic(endpoint: Pick<Endpoint, 'roles'>): boolean {
  return endpoint.roles === PUBLIC;
}

/** A group of endpoints under one tag of the document. */
export interface Resource {
  tag: string;
  endpoints: readonly Endpoint<any, any>[];
}

/** Declares an endpoint; only here so that the handler's query and body are typed from their schemas. */
export function endpoint<Q = undefined, B = undefined>(declaration: Endpoint<Q, B>): Endpoint<Q, B> {
  return declaration;
}
