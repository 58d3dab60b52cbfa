// Who a request comes from, as the server counts clients: its socket address (X-Forwarded-For is not
// trusted), every loopback address (127.0.0.0/8 and ::1) one client, an IPv6 client its /64 (one
// host can use a whole /64). Failed authentication is counted per client (auth-rate-limit.ts), and
// a token never seen valid is looked up in its client's line (store/tokens.ts, TokenLines).
import { isIPv6 } from 'node:net';

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
