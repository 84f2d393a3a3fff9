// An aggregated API server for tests, written with Node's https: it serves wardle.example.com/v1
// with its discovery and one namespaced resource, `flunders`, listed from memory, and records the
// front-proxy user of each request. Listens on every IPv4 address, so an endpoint may name a
// non-loopback one.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tlsMaterial } from '../../integration/support/webhook-server.js';

export const wardle = { group: 'wardle.example.com', version: 'v1' } as const;

export interface AggregatedServer {
  readonly port: number;
  /** The CA, base64 as an APIService's caBundle takes it. */
  readonly caBundle: string;
  /** The X-Remote-User and X-Remote-Group of each request to a resource, oldest first. */
  readonly users: { user: string; groups: string[] }[];
  close(): Promise<void>;
}

const discovery = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: `${wardle.group}/${wardle.version}`,
  resources: [
    { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'] },
  ],
};

const flunder = (name: string, namespace: string): object => ({
  apiVersion: `${wardle.group}/${wardle.version}`,
  kind: 'Flunder',
  metadata: { name, namespace, creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
});

export async function startAggregatedServer(serviceName: string): Promise<AggregatedServer> {
  const tls = tlsMaterial([serviceName]);
  const users: AggregatedServer['users'] = [];
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    const send = (code: number, body: object): void => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === `/apis/${wardle.group}/${wardle.version}`) {
      send(200, discovery);
      return;
    }
    const list = new RegExp(
      `^/apis/${wardle.group}/${wardle.version}/(?:namespaces/([^/]+)/)?flunders$`,
    ).exec(path);
    if (list === null) {
      send(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
      return;
    }
    const group = req.headers['x-remote-group'];
    users.push({
      user: String(req.headers['x-remote-user'] ?? ''),
      groups: group === undefined ? [] : String(group).split(', '),
    });
    const ns = list[1] ?? 'default';
    send(200, {
      apiVersion: `${wardle.group}/${wardle.version}`,
      kind: 'FlunderList',
      metadata: { resourceVersion: '1' },
      items: [flunder('alpha', ns), flunder('beta', ns)],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(tls.ca).toString('base64'),
    users,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
