// Starts the API on a store and stops it cleanly: in-flight requests finish, then the store closes.
// Used by the launcher (launch/launch.ts) and the tests.
import { type Server, createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { requestMessages } from '../shared/index.ts';
import { type AppOptions, createApp } from './app.ts';
import { type Announcement, type DiscoveryOptions, announceService } from './discovery/announce.ts';
import { isLoopbackHost } from './http/host-origin-guard.ts';
import type { Store } from './store/store.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8270;
/** How long close() lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 10_000;

export interface StartOptions {
  /** The store to serve; closed when the server stops. */
  store: Store;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  logger?: Logger;
  /** mDNS/DNS-SD announcement on non-loopback binds (docs/POS.md); false turns it off. Never on loopback. */
  discovery?: false | DiscoveryOptions;
  /** Browser origins besides the server's own allowed to call the API (CORS); none by default. */
  allowedOrigins?: AppOptions['allowedOrigins'];
  /** Failed-authentication limit per client address; false turns it off. */
  authRateLimit?: AppOptions['authRateLimit'];
  /** Slow-request limits; the defaults suit a LAN (see SLOW_REQUEST_LIMITS). */
  timeouts?: Partial<SlowRequestLimits>;
  /** Folder of the built scanner UI to serve at `/`; none when absent. */
  uiDir?: string;
  /**
   * Serve HTTPS with this certificate and key (PEM): a phone's camera needs a secure page, and on the
   * LAN that means HTTPS with a certificate the phone trusts (docs/DEPLOY.md, "HTTPS on the LAN").
   */
  tls?: { cert: Buffer | string; key: Buffer | string };
}

/** Against slow-loris clients: how long a client may take to send its headers, and the whole request. */
export interface SlowRequestLimits {
  headersMs: number;
  requestMs: number;
  /** How often Node looks for connections past those limits. */
  checkEveryMs: number;
}

export const SLOW_REQUEST_LIMITS: SlowRequestLimits = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  store: Store;
  server: Server;
  /** The LAN announcement, or null (loopback bind, or turned off). */
  discovery: Announcement | null;
  /** Stops accepting, lets in-flight requests finish, closes the store. Safe to call twice. */
  close(): Promise<void>;
}

function urlOf(host: string, port: number, tls: boolean): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `${tls ? 'https' : 'http'}://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const host = options.host ?? DEFAULT_HOST;
  const { store } = options;
  const limits = { ...SLOW_REQUEST_LIMITS, ...options.timeouts };
  const handle = createApp({
    store,
    logger,
    bindHost: host,
    allowedOrigins: options.allowedOrigins,
    authRateLimit: options.authRateLimit,
    uiDir: options.uiDir,
  }).callback();
  const serverOptions = {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: limits.checkEveryMs,
  };
  // Koa answers every error itself: the promise of a request never rejects.
  const listener = (request: Parameters<typeof handle>[0], response: Parameters<typeof handle>[1]) => void handle(request, response);
  const server: Server = options.tls
    ? createTlsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener)
    : createServer(serverOptions, listener);
  // A failed listen rejects here and leaves the store open: a server that never started never
  // stopped, and the caller may listen again elsewhere (the desktop shell on a free port when the
  // default is taken) or close it.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Node leaves CONNECT (proxy tunnel) requests unanswered unless someone listens: refuse them.
  server.on('connect', (_request, socket) => {
    const body = JSON.stringify({ detail: requestMessages.methodNotAllowed('CONNECT'), code: 'method_not_allowed' });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  const { port } = server.address() as AddressInfo;
  const discovery = options.discovery !== false && !isLoopbackHost(host) ? announceService(port, options.discovery ?? {}, logger) : null;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      const goodbye = discovery?.stop(); // goodbye packets go out while open requests finish
      // Connections become idle as their in-flight requests finish; close each as soon as it is.
      const reapIdle = setInterval(() => server.closeIdleConnections(), 50);
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.close(() => {
        clearInterval(reapIdle);
        clearTimeout(force);
        void Promise.all([store.close(), goodbye]).then(() => resolve());
      });
      server.closeIdleConnections();
    }));

  return { url: urlOf(host, port, options.tls !== undefined), host, port, store, server, discovery, close };
}
