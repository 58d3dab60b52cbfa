// Two checks against browsers being used to reach the local API:
// - DNS rebinding: on a loopback bind, a request is answered only when its Host header names
//   127.0.0.1, localhost or [::1] (a rebound name such as evil.example resolves to 127.0.0.1 but
//   still sends its own name in Host). Any port: a rebound name never needs the port to differ, and
//   a tunnel (`ssh -L 9000:127.0.0.1:8270 shop-pc`) arrives with the tunnel's own port in Host.
// - Cross-origin calls: a request that carries an Origin other than the server's own is refused,
//   unless that origin is allow-listed; allow-listed origins get CORS headers. Clients that are
//   not browsers send no Origin and are not affected.
// - Cross-site requests without CORS: a page elsewhere can make a browser send a request that carries
//   no Origin (`<img src="http://127.0.0.1:8270/api/v1/…">`). Browsers mark such requests with
//   `Sec-Fetch-Site: cross-site` (or `same-site` from another port of the same host); the API refuses
//   them before authentication, unless they come from an allow-listed origin.
import type { Middleware } from 'koa';
import { API_BASE, hardeningMessages } from '../../shared/index.ts';
import { apiError } from '../errors.ts';

export interface HostOriginOptions {
  /** The address the server listens on; loopback binds check the Host header. */
  bindHost: string;
  /** Extra origins (scheme://host[:port]) allowed to call the API from a browser. */
  allowedOrigins?: readonly string[];
  /** Every method the API serves, for CORS preflights (from the endpoint table: server/api/resources.ts). */
  methods: readonly string[];
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The name of `name:port` / `[v6]:port`, lower case; null when malformed. */
function hostName(value: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value);
  return match ? match[1]!.toLowerCase() : null;
}

function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';

export function hostOriginGuard({ bindHost, allowedOrigins = [], methods }: HostOriginOptions): Middleware {
  const allowMethods = [...new Set([...methods, 'HEAD', 'OPTIONS'])].join(', ');
  const checkHost = isLoopbackHost(bindHost);
  // The names a loopback server answers to: the usual three, and the address it was bound to
  // (e.g. 127.0.0.2), which is the one its printed URL shows.
  const hostNames = new Set([...LOOPBACK_NAMES, bindHost.toLowerCase(), `[${bindHost.toLowerCase()}]`]);
  const allowed = new Set(allowedOrigins.map((o) => normalizeOrigin(o)).filter((o): o is string => o !== null));
  return async (ctx, next) => {
    const hostHeader = ctx.get('host');
    if (checkHost && hostHeader !== '') {
      const name = hostName(hostHeader);
      if (name === null || !hostNames.has(name)) {
        throw apiError(403, hardeningMessages.hostNotAllowed(hostHeader.slice(0, 200)), { code: 'host_not_allowed' });
      }
    }
    const origin = ctx.get('origin');
    if (origin === '') {
      // Absent (not a browser, or an old one), same-origin (the UI) or none (typed into the address bar) pass.
      const site = ctx.get('sec-fetch-site').toLowerCase();
      const apiPath = ctx.path.toLowerCase();
      if ((site === 'cross-site' || site === 'same-site') && (apiPath === API_BASE || apiPath.startsWith(`${API_BASE}/`))) {
        throw apiError(403, hardeningMessages.crossSiteRefused, { code: 'cross_site_refused' });
      }
      return next();
    }
    const own = hostHeader === '' ? null : normalizeOrigin(`${ctx.protocol}://${hostHeader}`);
    const normalized = normalizeOrigin(origin);
    if (normalized !== null && normalized === own) return next();
    if (normalized === null || !allowed.has(normalized)) {
      throw apiError(403, hardeningMessages.originNotAllowed(origin.slice(0, 200)), { code: 'origin_not_allowed' });
    }
    // An allow-listed browser origin: answer CORS preflights here, tag the real responses.
    ctx.set('Access-Control-Allow-Origin', normalized);
    ctx.vary('Origin');
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method') !== '') {
      ctx.set('Access-Control-Allow-Methods', allowMethods);
      ctx.set('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    return next();
  };
}
