// How the client of an upstream (server/sync/upstream-client.ts) fails and what it keeps open, against
// small real HTTP servers on ephemeral ports that misbehave on purpose: refused connections, answers
// that never come or stop halfway, answers that are not JSON. No database.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { syncMessages } from '../../shared/index.ts';
import { IDLE_CONNECTION_MS, MAX_ANSWER_BYTES, UpstreamClient, UpstreamError } from '../../server/sync/upstream-client.ts';
import { problemOf } from '../../server/sync/round-problem.ts';
import { inRepo } from '../support/paths.ts';

const servers: (http.Server | https.Server)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A certificate for 127.0.0.1 that no system trusts (openssl req -x509, valid for 100 years). */
const fixture = (name: string) => readFileSync(inRepo('test', 'fixtures', name), 'utf8');
const selfSigned = { cert: fixture('self-signed-127.0.0.1.crt'), key: fixture('self-signed-127.0.0.1.key') };

async function serve(handler: http.RequestListener, tlsOptions?: https.ServerOptions): Promise<{ url: string; connections: () => number }> {
  const server = tlsOptions ? https.createServer(tlsOptions, handler) : http.createServer(handler);
  servers.push(server);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `${tlsOptions ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

const state = { instance: 'abcd1234', account: 'north', warehouses_enabled: true, catalogue_version: 1, vector: {}, now: 1763900000000 };

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('the client of an upstream', () => {
  it('asks on one kept-alive connection, round after round', async () => {
    const upstream = await serve((_, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(state)));
    for (let round = 0; round < 3; round++) expect((await new UpstreamClient(upstream.url, 't').state()).instance).toBe('abcd1234');
    expect(upstream.connections()).toBe(1);
  });

  it('reaches an https upstream, and refuses one whose certificate it cannot trust', async () => {
    const upstream = await serve((_, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(state)), selfSigned);
    const untrusted = await failure(new UpstreamClient(upstream.url, 't').state());
    expect(untrusted.status).toBe(0);
    expect(untrusted.message).toContain('self-signed certificate');
    // Offline, but said apart: a certificate to trust is not a network to fix.
    expect(problemOf(untrusted)).toBe('upstream_certificate');
    const system = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...system, selfSigned.cert]); // as an installed company CA would
    try {
      expect((await new UpstreamClient(upstream.url, 't').state()).instance).toBe('abcd1234');
    } finally {
      tls.setDefaultCACertificates(system);
    }
  });

  it('says the upstream is away when nothing listens, with the reason', async () => {
    const closed = await serve(() => undefined);
    const url = closed.url;
    servers.pop()!.close();
    const error = await failure(new UpstreamClient(url, 't').state());
    expect(error.status).toBe(0);
    expect(error.message).toContain(url);
    expect(error.message).toContain('ECONNREFUSED');
    expect(problemOf(error)).toBe('upstream_unreachable');
  });

  it('gives up after its timeout on an answer that never comes, or stops halfway', async () => {
    const silent = await serve(() => undefined);
    const halfway = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"instance":');
    });
    for (const upstream of [silent, halfway]) {
      const started = performance.now();
      const error = await failure(new UpstreamClient(upstream.url, 't', 300).state());
      expect(error.status).toBe(0);
      expect(error.message).toContain('no answer within 0.3 s');
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  it("keeps the upstream's refusal and its words, and refuses an answer that is not JSON", async () => {
    const refusing = await serve((_, res) =>
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'This token may not read north.' })),
    );
    const refusal = await failure(new UpstreamClient(refusing.url, 't').state());
    expect(refusal.status).toBe(403);
    expect(refusal.message).toContain('This token may not read north.');
    expect(problemOf(refusal)).toBe('unknown');

    const html = await serve((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>router login</h1>'));
    const notJson = await failure(new UpstreamClient(html.url, 't').state());
    expect(notJson.status).toBe(502);
    expect(notJson.message).toContain('not JSON');
    expect(problemOf(notJson)).toBe('upstream_incompatible');
  });

  it('names a refusal by the code the upstream gave it, else by its status (the problem the UI words)', async () => {
    const answering = (status: number, body: object) =>
      serve((_, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
    const cases: [number, object, string][] = [
      [403, { detail: 'x', code: 'origin_not_owned', origin: 'abcd' }, 'origin_refused'],
      [422, { detail: 'x', code: 'origin_limit' }, 'origin_refused'],
      [409, { detail: 'x', code: 'instance_registered' }, 'registration_refused'],
      [403, { detail: 'x', code: 'role_forbidden' }, 'token_not_for_sync'],
      [401, { detail: 'x', code: 'invalid_token' }, 'token_refused'],
      [401, { detail: 'x' }, 'token_refused'],
      [422, { detail: 'x', code: 'sync_movement_refused' }, 'movement_refused'],
      [404, { detail: 'Not found.' }, 'upstream_incompatible'],
      [500, { detail: 'x', code: 'internal' }, 'upstream_failed'],
    ];
    for (const [status, body, problem] of cases) {
      const upstream = await answering(status, body);
      expect(problemOf(await failure(new UpstreamClient(upstream.url, 't').state())), JSON.stringify(body)).toBe(problem);
    }
  });

  it('drops an answer larger than any real one as soon as it passes the limit, announced or streamed', async () => {
    let streamed = 0;
    const endless = await serve((_, res) => {
      // An upstream (or anything on the plain-HTTP path) that never stops sending: a megabyte at a time.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"instance":"');
      const chunk = 'x'.repeat(1024 * 1024);
      const more = () => {
        while (!res.destroyed && streamed < 64 && res.write(chunk)) streamed++;
        if (!res.destroyed && streamed < 64) res.once('drain', more);
      };
      more();
    });
    const announced = await serve((_, res) => res.writeHead(200, { 'content-length': String(MAX_ANSWER_BYTES + 1) }).write('{'));
    for (const upstream of [endless, announced]) {
      const error = await failure(new UpstreamClient(upstream.url, 't').state());
      expect(error.status).toBe(502);
      expect(error.message).toBe(syncMessages.upstreamAnswerTooLarge(200, MAX_ANSWER_BYTES / 1024 / 1024));
    }
    // Dropped at the limit, not read to the end.
    expect(streamed).toBeLessThan(64);
  });

  it('sends the token and the JSON body, with its length', async () => {
    let seen: { authorization?: string; length?: string; body: string } | undefined;
    const upstream = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen = { authorization: req.headers.authorization, length: req.headers['content-length'], body };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ applied: 0, duplicates: 0, vector: {}, now: 1 }));
      });
    });
    const answer = await new UpstreamClient(upstream.url, 'secret').push([], '{"movements":["é"]}');
    expect(answer.applied).toBe(0);
    expect(seen).toEqual({
      authorization: 'Token secret',
      length: String(Buffer.byteLength('{"movements":["é"]}')),
      body: '{"movements":["é"]}',
    });
  });
});

describe('a kept-alive connection the upstream closed while it was idle', () => {
  /**
   * A real HTTP server in a thread of its own (so it keeps running while this thread is busy) that
   * closes a connection idle for 100 ms and, like a reverse proxy, does not announce it (no
   * `Keep-Alive: timeout=` hint for the client's agent to go by).
   */
  async function closingWhenIdle(): Promise<{ url: string; connections: () => Promise<number>; stop: () => Promise<number> }> {
    const worker = new Worker(
      `
      const http = require('node:http');
      const { parentPort } = require('node:worker_threads');
      let connections = 0;
      const state = ${JSON.stringify(JSON.stringify(state))};
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' }).end(state));
      });
      server.keepAliveTimeout = 100;
      server.keepAliveTimeoutBuffer = 0; // Node 24 waits a second longer by default
      server.on('connection', () => connections++);
      server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
      parentPort.on('message', (m) => {
        if (m === 'count') parentPort.postMessage(connections);
        if (m === 'stop') { server.closeAllConnections(); server.close(() => parentPort.postMessage(connections)); }
      });
      `,
      { eval: true },
    );
    const next = () => new Promise<number>((resolve) => worker.once('message', resolve));
    const port = await next();
    return {
      url: `http://127.0.0.1:${port}`,
      connections: () => {
        worker.postMessage('count');
        return next();
      },
      stop: async () => {
        worker.postMessage('stop');
        const n = await next();
        await worker.terminate();
        return n;
      },
    };
  }

  /** This thread busy for `ms` (a big write of the synchronous SQLite engine, say): the upstream's close waits unread meanwhile. */
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('asks again on a new connection instead of saying the upstream cannot be reached', async () => {
    const upstream = await closingWhenIdle();
    try {
      const client = new UpstreamClient(upstream.url, 't');
      expect((await client.state()).instance).toBe('abcd1234');
      busy(400); // the upstream closes the idle connection after 100 ms; this side has not read that yet
      expect((await client.state()).instance).toBe('abcd1234');
      expect(await upstream.connections()).toBe(2);
    } finally {
      await upstream.stop();
    }
  });

  it('closes a connection idle for longer than IDLE_CONNECTION_MS itself, before a server that keeps it longer says nothing and drops it', async () => {
    let closedByClient = 0;
    const upstream = await serve((_, res) =>
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' }).end(JSON.stringify(state)),
    );
    const server = servers.at(-1)!;
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => socket.on('end', () => closedByClient++));
    const client = new UpstreamClient(upstream.url, 't');
    await client.state();
    await client.state();
    expect(upstream.connections()).toBe(1); // requests close together share one connection
    await new Promise((resolve) => setTimeout(resolve, IDLE_CONNECTION_MS + 500));
    expect(closedByClient).toBe(1);
    await client.state();
    expect(upstream.connections()).toBe(2);
  });
});
