// Failed authentication is rate-limited per client address: after `points` failures within
// `durationSeconds`, that address gets `429` with Retry-After until the window ends, whatever token
// it sends (a guess that happens to be valid must not get through either). Tokens are 256-bit
// random, so this is about noise and CPU, not about guessing odds. The address is the socket's
// (X-Forwarded-For is not trusted).
import type { Middleware } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { hardeningMessages } from '../../shared/index.ts';
import { apiError, isApiError } from '../errors.ts';

export interface AuthRateLimitOptions {
  /** Failed authentications allowed per address and window. */
  points: number;
  durationSeconds: number;
}

export const DEFAULT_AUTH_RATE_LIMIT: AuthRateLimitOptions = { points: 30, durationSeconds: 60 };

export function authRateLimit({ points, durationSeconds }: AuthRateLimitOptions): Middleware {
  const limiter = new RateLimiterMemory({ points, duration: durationSeconds });
  return async (ctx, next) => {
    const key = ctx.ip || 'unknown';
    const used = await limiter.get(key);
    if (used !== null && used.consumedPoints >= points) {
      const seconds = Math.max(1, Math.ceil(used.msBeforeNext / 1000));
      throw apiError(429, hardeningMessages.tooManyAuthFailures(seconds), { headers: { 'Retry-After': String(seconds) } });
    }
    try {
      await next();
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        // consume() rejects once the points are used up; the failure itself is still answered 401.
        await limiter.consume(key).catch(() => undefined);
      }
      throw error;
    }
  };
}
