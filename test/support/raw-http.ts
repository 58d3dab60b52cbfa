// Sends one HTTP/1.1 request as raw bytes over its own TCP connection, so a test can send what
// fetch refuses to: invalid bytes in the path, broken framing, odd methods, no Host header, and a
// chosen local address (127.0.0.x) to act as a different client.
import net from 'node:net';

export interface RawRequest {
  method: string;
  /** Request target, sent as-is (may hold any bytes). */
  target: string | Buffer;
  /** Extra header lines; `Host` is added unless `host` is null. */
  headers?: [string, string | Buffer][];
  body?: Buffer | string;
  /** Host header value; default `127.0.0.1:<port>`; null sends none. */
  host?: string | null;
  /** Sends `Content-Length` for the body (default true when there is a body). */
  contentLength?: boolean;
  localAddress?: string;
}

export interface RawResponse {
  /** 0 when the connection closed before a status line arrived. */
  status: number;
  head: string;
  body: string;
}

export function sendRaw(port: number, request: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const lines: Buffer[] = [
    Buffer.from(`${request.method} `, 'latin1'),
    Buffer.isBuffer(request.target) ? request.target : Buffer.from(request.target, 'latin1'),
    Buffer.from(' HTTP/1.1\r\n'),
  ];
  const host = request.host === undefined ? `127.0.0.1:${port}` : request.host;
  if (host !== null) lines.push(Buffer.from(`Host: ${host}\r\n`, 'latin1'));
  lines.push(Buffer.from('Connection: close\r\n'));
  for (const [name, value] of request.headers ?? [])
    lines.push(Buffer.from(`${name}: `, 'latin1'), Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'), Buffer.from('\r\n'));
  if (body !== undefined && request.contentLength !== false) lines.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
  lines.push(Buffer.from('\r\n'));
  if (body !== undefined) lines.push(body);

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: request.localAddress ?? '127.0.0.1' });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${String(request.target).slice(0, 80)}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const head = split === -1 ? raw : raw.slice(0, split);
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({
        status: match ? Number(match[1]) : 0,
        head,
        body: split === -1 ? '' : Buffer.from(raw.slice(split + 4), 'latin1').toString('utf8'),
      });
    };
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => undefined); // EPIPE/ECONNRESET when the server answers early and closes: 'close' follows
    socket.write(Buffer.concat(lines));
  });
}
