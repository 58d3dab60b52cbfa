// Token authentication: `Authorization: Token <key>` (DRF style) or `Bearer <key>` resolves the
// calling account, which every handler then works in. Both failures answer 401 with
// `WWW-Authenticate: Token`.
import type { Context } from 'koa';
import { requestMessages } from '../../shared/index.ts';
import { apiError } from '../errors.ts';
import type { Caller, Store } from '../store/store.ts';
import { clientKey } from './client-key.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Token' };

/** The key of an `Authorization` header, null when it names no token scheme, '' when the key is malformed. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  if (!scheme || !/^(token|bearer)$/i.test(scheme)) return null;
  return rest.length === 1 ? rest[0]! : '';
}

export async function authenticateRequest(store: Store, ctx: Context): Promise<Caller> {
  const key = tokenFromHeader(ctx.get('authorization'));
  if (key === null) throw apiError(401, requestMessages.notAuthenticated, { code: 'not_authenticated', headers: CHALLENGE });
  const caller = key === '' ? undefined : await store.tokens.authenticate(key, clientKey(ctx.ip));
  if (!caller) throw apiError(401, requestMessages.invalidToken, { code: 'invalid_token', headers: CHALLENGE });
  return caller;
}
