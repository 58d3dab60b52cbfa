// Failed authentication is rate-limited per client: after `points` requests with a wrong token within
// `durationSeconds`, that client's further wrong tokens get `429` with Retry-After until the window
// ends. Only a presented token that does not authenticate counts: a missing Authorization header is
// not a guess (any web page can make a browser send such requests), and a valid token is never
// refused (tokens are 256-bit random, so a valid one is never a lucky guess, and refusing it would
// only lock out the Electron window, the browser UI and every till sharing the address).
//
// A client is its socket address, as client-key.ts says.
import type { Middleware } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { hardeningMessages } from '../../shared/index.ts';
import { apiError, isApiError } from '../errors.ts';
import { tokenFromHeader } from './authenticate.ts';
import { clientKey } from './client-key.ts';

export interface AuthRateLimitOptions {
  /** Failed authentications allowed per client and window. */
  points: number;
  durationSeconds: number;
}

export const DEFAULT_AUTH_RATE_LIMIT: AuthRateLimitOptions = { points: 30, durationSeconds: 60 };

export function authRateLimit({ points, durationSeconds }: AuthRateLimitOptions): Middleware {
  const limiter = new RateLimiterMemory({ points, duration: durationSeconds });
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const guessed = isApiError(error) && error.status === 401 && tokenFromHeader(ctx.get('authorization')) !== null;
      if (!guessed) throw error;
      const key = clientKey(ctx.ip);
      // consume() rejects with the limiter's state once the points are used up.
      const used = await limiter.consume(key).catch((state: { consumedPoints: number; msBeforeNext: number }) => state);
      if (used.consumedPoints > points) {
        const seconds = Math.max(1, Math.ceil(used.msBeforeNext / 1000));
        throw apiError(429, hardeningMessages.tooManyAuthFailures(seconds), {
          code: 'too_many_auth_failures',
          headers: { 'Retry-After': String(seconds) },
        });
      }
      throw error;
    }
  };
}
