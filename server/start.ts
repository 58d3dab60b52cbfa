// Starts the API on a database file and stops it cleanly: in-flight requests finish, then the
// database closes. Used by `barcode-inventory serve`, the desktop shell and the tests.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { createApp } from './app.ts';
import { type Announcement, type DiscoveryOptions, announceService, isLoopbackHost } from './discovery/announce.ts';
import { Database } from './store/database.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8270;
/** How long close() lets in-flight requests finish before cutting their connections. */
const CLOSE_GRACE_MS = 10_000;

export interface StartOptions {
  /** SQLite file, or `:memory:`. */
  dbFile: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  logger?: Logger;
  /** mDNS/DNS-SD announcement on non-loopback binds (docs/POS.md); false turns it off. Never on loopback. */
  discovery?: false | DiscoveryOptions;
  /** Folder of the built scanner UI to serve at `/`; none when absent. */
  uiDir?: string;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  db: Database;
  server: Server;
  /** The LAN announcement, or null (loopback bind, or turned off). */
  discovery: Announcement | null;
  /** Stops accepting, lets in-flight requests finish, closes the database. Safe to call twice. */
  close(): Promise<void>;
}

function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const host = options.host ?? DEFAULT_HOST;
  const db = await Database.open(options.dbFile);
  const server = createServer(createApp({ db, logger, uiDir: options.uiDir }).callback());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? DEFAULT_PORT, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    db.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const discovery =
    options.discovery !== false && !isLoopbackHost(host) ? announceService(port, options.discovery ?? {}, logger) : null;

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
        db.close();
        void (goodbye ?? Promise.resolve()).then(() => resolve());
      });
      server.closeIdleConnections();
    }));

  return { url: urlOf(host, port), host, port, db, server, discovery, close };
}
