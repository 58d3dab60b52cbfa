// The HTTP ceiling: the project's own Koa stack (createApp: every middleware the real server runs),
// with one route inserted in front of the API router that answers the inventory path with response
// bytes captured from the real server beforehand. No token lookup, no SQLite, no serialisation:
// what is left is the cost of HTTP and Koa alone. A POST body is still read in full.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';
import type { Middleware } from 'koa';
import pino from 'pino';
import { INVENTORY_PATH } from '../shared/index.ts';
import { createApp } from '../server/app.ts';
import { openStore } from '../server/store/open-store.ts';

const [dbFile, getBodyFile, postBodyFile] = process.argv.slice(2);
if (!dbFile || !getBodyFile || !postBodyFile)
  throw new Error('usage: http-ceiling-server.ts <db> <get-response.json> <post-response.json>');
const getBytes = readFileSync(getBodyFile);
const postBytes = readFileSync(postBodyFile);

const precomputed: Middleware = async (ctx, next) => {
  if (ctx.path !== INVENTORY_PATH) return next();
  if (ctx.method === 'POST') await getRawBody(ctx.req, { length: ctx.request.length, limit: 1 << 20 });
  ctx.type = 'application/json';
  ctx.body = ctx.method === 'POST' ? postBytes : getBytes;
};

const store = await openStore(dbFile);
// The same logger as `barcode-inventory serve` at its default level.
const app = createApp({ store, logger: pino({ level: 'info' }, pino.destination(2)) });
const routerAt = app.middleware.findIndex((middleware) => 'router' in middleware);
app.middleware.splice(routerAt === -1 ? app.middleware.length : routerAt, 0, precomputed);

const handle = app.callback();
const server = createServer((request, response) => void handle(request, response));
server.listen(0, '127.0.0.1', () => {
  console.log(`http ceiling listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    void store.close().then(() => process.exit(0));
  });
});
