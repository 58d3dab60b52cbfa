// Announces the API on the local network over mDNS/DNS-SD (docs/POS.md, "Discovery"), so a till can
// find the shop PC without a fixed IP address: service type `_barcode-inventory._tcp`, the port, and
// the API base path in the TXT record. Only for LAN binds: a loopback-only server is not reachable
// from another machine, so announcing it would only mislead.
import os from 'node:os';
import { Bonjour, type Service } from 'bonjour-service';
import type { Logger } from 'pino';
import { API_BASE } from '../../shared/index.ts';

/** DNS-SD service type (`_barcode-inventory._tcp`), without the leading underscore and protocol. */
export const SERVICE_TYPE = 'barcode-inventory';

const STOP_TIMEOUT_MS = 2000;

export interface DiscoveryOptions {
  /** Instance name shown to users; default "Barcode Inventory on <hostname>:<port>". */
  name?: string;
  /**
   * IPv4 address of the interface to announce on; default: the system's default multicast interface.
   * Tests use 127.0.0.1 (loopback multicast).
   */
  interface?: string;
}

export interface Announcement {
  name: string;
  /** Sends the goodbye packets and closes the multicast socket. */
  stop(): Promise<void>;
}

/** TXT record of the announcement: where the API lives and how it authenticates. */
export function txtRecord(): Record<string, string> {
  return { path: `${API_BASE}/`, api: 'v1', auth: 'token' };
}

/**
 * Starts announcing the API on `port`. Never throws and never stops the server: a network without
 * multicast is logged as a warning and the API keeps serving (clients can still use the address).
 */
export function announceService(port: number, options: DiscoveryOptions, logger: Logger): Announcement {
  const name = options.name ?? `Barcode Inventory on ${os.hostname()}:${port}`;
  const onError = (error: unknown) => logger.warn({ err: error }, 'mDNS announcement failed; the API keeps serving');
  // A chosen interface needs the socket bound to all addresses: one bound to the interface's own
  // address would never receive the packets sent to the multicast group.
  const socketOptions = options.interface ? { interface: options.interface, bind: '0.0.0.0' } : {};
  let bonjour: Bonjour;
  let service: Service;
  try {
    // bonjour-service hands these options to multicast-dns, though its type names another shape.
    bonjour = new Bonjour(socketOptions as ConstructorParameters<typeof Bonjour>[0], onError);
    service = bonjour.publish({ name, type: SERVICE_TYPE, protocol: 'tcp', port, txt: txtRecord() });
  } catch (error) {
    onError(error);
    return { name, stop: async () => {} };
  }
  service.on('error', onError);
  service.on('up', () => logger.info({ name, type: `_${SERVICE_TYPE}._tcp`, port }, 'announced on the local network (mDNS)'));
  let stopping: Promise<void> | undefined;
  return {
    name,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        // A broken multicast socket may never call back; shutting down must not wait for it forever.
        setTimeout(resolve, STOP_TIMEOUT_MS).unref();
        try {
          bonjour.unpublishAll(() => bonjour.destroy(() => resolve()));
        } catch (error) {
          onError(error);
          resolve();
        }
      })),
  };
}
