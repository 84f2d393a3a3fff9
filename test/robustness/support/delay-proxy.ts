// A TCP proxy that holds every byte coming back from its upstream for a fixed time before passing it
// on, in order: a slow link between one Capstan replica and etcd. Put in front of each etcd member for
// one replica, it makes that replica's watch cache lag behind etcd by the delay (its reads and writes
// take the delay longer too), so a read served from a cache that has not caught up is seen stale by
// a client that wrote through another replica just before.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export class DelayProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  private constructor(upstreamPort: number, delayMs: number) {
    this.#server = createServer((client) => {
      const upstream = connect(upstreamPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => {
          this.#sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
        s.on('error', () => undefined);
      }
      client.pipe(upstream);
      delayed(upstream, client, delayMs);
    });
  }

  /** Listens on a free loopback port in front of `upstreamPort`. */
  static async start(upstreamPort: number, delayMs: number): Promise<DelayProxy> {
    const proxy = new DelayProxy(upstreamPort, delayMs);
    await new Promise<void>((resolve, reject) => {
      proxy.#server.once('error', reject);
      proxy.#server.listen(0, '127.0.0.1', resolve);
    });
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/** Copies `from` to `to`, each chunk `delayMs` after it arrived, in arrival order. */
function delayed(from: Socket, to: Socket, delayMs: number): void {
  const queue: { readonly at: number; readonly data: Buffer }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const pump = (): void => {
    timer = undefined;
    for (let head = queue[0]; head !== undefined; head = queue[0]) {
      const wait = head.at - Date.now();
      if (wait > 0) {
        timer = setTimeout(pump, wait);
        return;
      }
      queue.shift();
      if (!to.destroyed) to.write(head.data);
    }
  };
  from.on('data', (data: Buffer) => {
    queue.push({ at: Date.now() + delayMs, data });
    timer ??= setTimeout(pump, delayMs);
  });
  from.on('close', () => {
    if (timer !== undefined) clearTimeout(timer);
  });
}
