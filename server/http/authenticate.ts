// Token authentication (decisions.md): `Authorization: Token <key>` or `Bearer <key>` resolves the
// calling account, which every handler then works in.
import type { Middleware } from 'koa';
import { requestMessages } from '../../shared/index.ts';
import type { Database } from '../store/database.ts';
import { type Caller, authenticate } from '../store/tokens.ts';
import { HttpError } from './http-error.ts';

export interface CallerState {
  caller: Caller;
}

const CHALLENGE = { 'WWW-Authenticate': 'Token' };

/** The key of an `Authorization` header, null when it names no token scheme, '' when the key is malformed. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, ...rest] = header.trim().split(/\s+/);
  if (!scheme || !/^(token|bearer)$/i.test(scheme)) return null;
  return rest.length === 1 ? rest[0]! : '';
}

export function authenticateCaller(db: Database): Middleware<CallerState> {
  return async (ctx, next) => {
    const key = tokenFromHeader(ctx.get('authorization'));
    if (key === null) throw new HttpError(401, requestMessages.notAuthenticated, CHALLENGE);
    const caller = key === '' ? undefined : authenticate(db, key);
    if (!caller) throw new HttpError(401, requestMessages.invalidToken, CHALLENGE);
    ctx.state.caller = caller;
    await next();
  };
}
