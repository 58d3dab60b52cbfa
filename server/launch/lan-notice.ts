// What `serve` prints when it listens beyond loopback: that the API is reachable from the network,
// at which addresses, and what protects it (tokens; plain HTTP unless it serves HTTPS).
import { networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../http/host-origin-guard.ts';

export function lanNotice(host: string, port: number, tls = false): string | null {
  if (isLoopbackHost(host)) return null;
  const wildcard = host === '0.0.0.0' || host === '::';
  const addresses = wildcard
    ? Object.values(networkInterfaces())
        .flat()
        .filter((a) => a !== undefined && !a.internal && (host === '::' || a.family === 'IPv4'))
        .map((a) => (a!.family === 'IPv6' ? `[${a!.address}]` : a!.address))
    : [host.includes(':') ? `[${host}]` : host];
  const urls =
    addresses.length > 0
      ? addresses.map((a) => `  ${tls ? 'https' : 'http'}://${a}:${port}/api/v1/`).join('\n')
      : '  (no network address found yet)';
  return [
    `WARNING: listening on ${host}: the API is reachable from the network, not only from this computer:`,
    urls,
    tls
      ? 'Anyone on the network who holds a token can read and change stock; traffic is HTTPS (encrypted).'
      : 'Anyone on the network who holds a token can read and change stock; traffic is plain HTTP (not encrypted).',
    'Use --host 127.0.0.1 (the default) to keep it on this computer.',
  ].join('\n');
}
