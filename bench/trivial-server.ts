// The load generator's own ceiling: the cheapest server this machine can run, a raw TCP socket
// that finds the end of each request (headers, then Content-Length bytes of body) and writes back
// a precomputed HTTP response of the same size as the real server's answer. No HTTP parser, no
// Koa, no SQLite: what is measured against it is what the load generator itself can drive. A
// server rate within 3× of this figure is flagged in the report: the generator, not the server,
// may be what limits it.
import { readFileSync } from 'node:fs';
import { type Socket, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

const [getBodyFile, postBodyFile] = process.argv.slice(2);
if (!getBodyFile || !postBodyFile) throw new Error('usage: trivial-server.ts <get-response.json> <post-response.json>');
const answer = (body: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nKeep-Alive: timeout=5\r\n\r\n`,
      'latin1',
    ),
    body,
  ]);
const getAnswer = answer(readFileSync(getBodyFile));
const postAnswer = answer(readFileSync(postBodyFile));
const HEADER_END = Buffer.from('\r\n\r\n');

function serve(socket: Socket): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.setNoDelay(true);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      const end = pending.indexOf(HEADER_END);
      if (end === -1) break;
      const head = pending.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      const total = end + 4 + length;
      if (pending.length < total) break;
      out.push(head.startsWith('POST') ? postAnswer : getAnswer);
      pending = pending.subarray(total);
    }
    if (out.length > 0) socket.write(out.length === 1 ? out[0]! : Buffer.concat(out));
  });
  socket.on('error', () => socket.destroy());
}

const server = createServer(serve);
server.listen(0, '127.0.0.1', () => {
  console.log(`trivial server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
process.once('SIGTERM', () => process.exit(0));
