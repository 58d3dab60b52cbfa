// Failed authentication is rate-limited per client: after `points` requests with a wrong token within
// `durationSeconds`, that client's further wrong tokens get `429` with Retry-After until the window
// ends. Only a presented token that does not authenticate counts: a missing Authorization header is
// not a guess (any web page can make a browser send such requests), and a valid token is never
// refused (tokens are 256-bit random, so a valid one is never a lucky guess, and refusing it would
// only lock out the Electron window, the browser UI and every till sharing the address).
//
// A client is its socket address (X-Forwarded-For is not trusted): every loopback address
// (127.0.0.0/8 and ::1) is one client, an IPv6 client is its /64 (one host can use a whole /64).
import { isIPv6 } from 'node:net';
import type { Middleware } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { hardeningMessages } from '../../shared/index.ts';
import { apiError, isApiError } from '../errors.ts';
import { tokenFromHeader } from './authenticate.ts';

export interface AuthRateLimitOptions {
  /** Failed authentications allowed per client and window. */
  points: number;
  durationSeconds: number;
}

export const DEFAULT_AUTH_RATE_LIMIT: AuthRateLimitOptions = { points: 30, durationSeconds: 60 };

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail counts as two), or null. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.split('%')[0]!; // a zone index (fe80::1%eth0) names an interface, not a host
  if (!isIPv6(plain)) return null;
  let text = plain;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...(tail === undefined ? [] : Array<string>(missing).fill('0')), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 ? groups : null;
}

/** The key a client's failures are counted under. */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const lower = address.toLowerCase();
  const groups = ipv6Groups(lower);
  if (groups === null) return lower.startsWith('127.') ? 'loopback' : lower;
  // An IPv4 client seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 client.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
    return v4.startsWith('127.') ? 'loopback' : v4;
  }
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return 'loopback';
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

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
