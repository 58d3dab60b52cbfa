// A TCP proxy in front of an upstream instance, for the convergence simulation: a follower's link
// points at the proxy, so the test can cut the link (refuse new connections, destroy open ones in the
// middle of a request), pause it (stop forwarding bytes in both directions, without failing anything)
// and point it at the upstream's new port after a restart.
//
// It reads the HTTP/1.1 requests that pass (request line, headers, Content-Length body), so the test
// can act at exact points of a sync round (a push on its way, a pull's answer coming back). It
// forwards them unchanged, Host included, as an SSH tunnel does: the upstream sees the proxy's port.
import net from 'node:net';
import { SYNC_MOVEMENTS_PATH } from '../../shared/index.ts';

export interface ProxiedRequest {
  method: string;
  path: string;
}

/** What a hook may do with the connection it was called for. */
export interface Connection {
  /** Destroys both sides now (the request or answer in flight is cut). */
  destroy(): void;
}

export interface ProxyHooks {
  /** A request's head and its whole body have been forwarded to the upstream. */
  onRequestSent?(request: ProxiedRequest, connection: Connection): void;
  /** The first bytes of the answer to `request` came back from the upstream and were forwarded. */
  onAnswerStarted?(request: ProxiedRequest, connection: Connection): void;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  destroy(): void;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export class LinkProxy {
  readonly name: string;
  private server: net.Server | undefined;
  private port = 0;
  private targetPort: number | undefined;
  private readonly pairs = new Set<Pair>();
  private isCut = false;
  private pauses = 0;
  hooks: ProxyHooks = {};
  /** Connections, those destroyed by cuts, requests forwarded, and requests the proxy could not read (must stay 0). */
  readonly counts = { connections: 0, destroyed: 0, requests: 0, unreadable: 0 };

  constructor(name: string) {
    this.name = name;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get cut(): boolean {
    return this.isCut;
  }

  async listen(): Promise<void> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Where the upstream listens now (undefined while it is down: connections are refused). */
  setTarget(port: number | undefined): void {
    this.targetPort = port;
  }

  /** Refuses new connections and destroys the open ones, mid-request or not. */
  cutNow(): void {
    this.isCut = true;
    for (const pair of [...this.pairs]) {
      pair.destroy();
      this.counts.destroyed++;
    }
  }

  heal(): void {
    this.isCut = false;
  }

  /** Stops forwarding in both directions (bytes wait in the sockets); nested, undone by resume. */
  pause(): void {
    if (this.pauses++ === 0) for (const pair of this.pairs) this.pausePair(pair);
  }

  resume(): void {
    if (--this.pauses === 0) for (const pair of this.pairs) this.resumePair(pair);
  }

  /**
   * Holds the next push (a POST of movements) once it has been forwarded: the upstream applies it,
   * but its answer and everything after it wait until `release()` (the link is paused meanwhile).
   * Replaces the hooks.
   */
  holdNextPush(): { release(): void } {
    let held = false;
    let released = false;
    this.hooks = {
      onRequestSent: (request) => {
        if (held || released || request.method !== 'POST' || !request.path.startsWith(SYNC_MOVEMENTS_PATH)) return;
        held = true;
        this.pause();
      },
    };
    return {
      release: () => {
        if (released) return;
        released = true;
        this.hooks = {};
        if (held) this.resume();
      },
    };
  }

  private pausePair(pair: Pair): void {
    pair.client.pause();
    pair.upstream.pause();
  }

  private resumePair(pair: Pair): void {
    pair.client.resume();
    pair.upstream.resume();
  }

  private accept(client: net.Socket): void {
    this.counts.connections++;
    client.on('error', () => undefined);
    if (this.isCut || this.targetPort === undefined) {
      client.destroy();
      return;
    }
    const targetPort = this.targetPort;
    const upstream = net.connect(targetPort, '127.0.0.1');
    upstream.on('error', () => undefined);
    const pair: Pair = {
      client,
      upstream,
      destroy: () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      },
    };
    this.pairs.add(pair);
    if (this.pauses > 0) this.pausePair(pair);
    const connection: Connection = { destroy: () => pair.destroy() };
    client.on('close', () => pair.destroy());
    upstream.on('close', () => pair.destroy());

    // A follower's client sends one request at a time on a connection and waits for its answer, so
    // the first bytes back after a request are its answer's.
    let last: ProxiedRequest | undefined;
    let answerStarted = false;
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      if (last && !answerStarted) {
        answerStarted = true;
        this.hooks.onAnswerStarted?.(last, connection);
      }
    });

    let buffered: Buffer = Buffer.alloc(0);
    let bodyLeft = 0;
    let current: ProxiedRequest | undefined;
    client.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        if (current) {
          const take = Math.min(bodyLeft, buffered.length);
          if (take > 0) {
            upstream.write(buffered.subarray(0, take));
            buffered = buffered.subarray(take);
            bodyLeft -= take;
          }
          if (bodyLeft > 0) return;
          const sent = current;
          current = undefined;
          this.hooks.onRequestSent?.(sent, connection);
          if (!this.pairs.has(pair)) return;
          continue;
        }
        const end = buffered.indexOf(HEAD_END);
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        buffered = buffered.subarray(end + HEAD_END.length);
        const [requestLine = '', ...headers] = head.split('\r\n');
        const [method = '', path = ''] = requestLine.split(' ');
        const length = headers.find((h) => /^content-length:/i.test(h));
        if (headers.some((h) => /^transfer-encoding:/i.test(h))) {
          this.counts.unreadable++;
          pair.destroy();
          return;
        }
        upstream.write(`${head}\r\n\r\n`, 'latin1');
        current = { method, path };
        last = current;
        this.counts.requests++;
        answerStarted = false;
        bodyLeft = length ? Number(length.split(':')[1]!.trim()) : 0;
      }
    });
  }

  async close(): Promise<void> {
    this.cutNow();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
