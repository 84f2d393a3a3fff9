// A TCP proxy in front of each etcd member's peer port, so a test can cut one member off the others
// on loopback without network namespaces (as etcd's own e2e framework does with its peer proxies).
// Members advertise the proxy's port; the proxy reads the sender from the first request's
// X-Server-From header (etcd's peer requests name their member id in hex there). While a member is
// isolated, every connection to it and every connection from it is held open and its bytes dropped,
// new ones included; heal() resets the connections that lost bytes so the members redial cleanly.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { PartitionNetwork } from './partition-network.js';

export class PeerNetwork implements PartitionNetwork {
  readonly kind = 'peer-proxies';
  readonly #isolated = new Set<string>();
  readonly #proxies: PeerProxy[] = [];

  /** Cuts a member (by name and hex member id) off from every other member, both directions. */
  isolate(name: string, hexId: string): void {
    this.#isolated.add(name);
    this.#isolated.add(hexId.toLowerCase());
  }

  heal(): void {
    this.#isolated.clear();
    for (const p of this.#proxies) p.resetDamaged();
  }

  blocks(target: string, from: string | undefined): boolean {
    return this.#isolated.has(target) || (from !== undefined && this.#isolated.has(from));
  }

  async listen(target: string, proxyPort: number, upstreamPort: number): Promise<void> {
    const proxy = new PeerProxy(this, target, upstreamPort);
    this.#proxies.push(proxy);
    await proxy.listen(proxyPort);
  }

  async close(): Promise<void> {
    await Promise.all(this.#proxies.map((p) => p.close()));
  }
}

interface Link {
  readonly client: Socket;
  upstream: Socket | null;
  from: string | undefined;
  damaged: boolean;
}

class PeerProxy {
  readonly #net: PeerNetwork;
  readonly #target: string;
  readonly #upstreamPort: number;
  readonly #links = new Set<Link>();
  readonly #server: Server;

  constructor(net: PeerNetwork, target: string, upstreamPort: number) {
    this.#net = net;
    this.#target = target;
    this.#upstreamPort = upstreamPort;
    this.#server = createServer((s) => {
      this.#accept(s);
    });
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', resolve);
    });
  }

  #blocked(link: Link): boolean {
    return this.#net.blocks(this.#target, link.from);
  }

  #accept(client: Socket): void {
    const link: Link = { client, upstream: null, from: undefined, damaged: false };
    this.#links.add(link);
    const drop = (): void => {
      link.client.destroy();
      link.upstream?.destroy();
      this.#links.delete(link);
    };
    client.on('error', drop);
    client.on('close', drop);
    client.on('data', (chunk: Buffer) => {
      if (link.upstream === null && link.from === undefined) {
        const m = /x-server-from:\s*([0-9a-f]+)/i.exec(chunk.toString('latin1'));
        link.from = m?.[1]?.toLowerCase() ?? '';
      }
      if (this.#blocked(link)) {
        link.damaged = true;
        return;
      }
      if (link.upstream === null) {
        if (link.damaged) return;
        const up = connect(this.#upstreamPort, '127.0.0.1');
        link.upstream = up;
        up.on('error', drop);
        up.on('close', drop);
        up.on('data', (back: Buffer) => {
          if (this.#blocked(link)) {
            link.damaged = true;
            return;
          }
          link.client.write(back);
        });
      }
      link.upstream.write(chunk);
    });
  }

  resetDamaged(): void {
    for (const link of [...this.#links]) {
      if (!link.damaged) continue;
      link.client.destroy();
      link.upstream?.destroy();
      this.#links.delete(link);
    }
  }

  async close(): Promise<void> {
    for (const link of this.#links) {
      link.client.destroy();
      link.upstream?.destroy();
    }
    this.#links.clear();
    await new Promise<void>((resolve) =>
      this.#server.close(() => {
        resolve();
      }),
    );
  }
}
