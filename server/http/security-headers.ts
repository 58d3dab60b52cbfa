// Security headers on every response (koa-helmet), with the CSP the team agreed for the UI that the
// same server serves at `/`. API answers also say `Cache-Control: no-store`: stock figures and
// errors that echo rows must not linger in a browser or proxy cache.
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';
import { API_BASE } from '../../shared/index.ts';

export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  // wasm-unsafe-eval: the camera's barcode reader is WebAssembly (our own file, from 'self'); it lets a
  // page compile WebAssembly and nothing else: no eval, no inline script.
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

/** The CSP as one header value, for the Electron shell and the docs. */
export const CONTENT_SECURITY_POLICY_HEADER = Object.entries(CONTENT_SECURITY_POLICY)
  .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
  .join('; ');

export function securityHeaders(): Middleware {
  const headers = helmet({
    // Only the agreed directives: helmet's defaults add upgrade-insecure-requests, which would break
    // the plain-HTTP LAN mode.
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // No TLS here: HSTS would be ignored over HTTP and is a trap if a proxy adds TLS later.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const apiPrefix = `${API_BASE}/`;
  return async (ctx, next) => {
    // Routing is case-sensitive, so `/API/V1/…` is only ever a 404; it is kept out of caches all the same.
    const path = ctx.path.toLowerCase();
    if (path === API_BASE || path.startsWith(apiPrefix)) ctx.set('Cache-Control', 'no-store');
    await headers(ctx, next);
  };
}
