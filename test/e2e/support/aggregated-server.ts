// An aggregated API server for tests, written with Node's https: it serves wardle.example.com/v1
// with its discovery and one namespaced resource, `flunders`, listed from memory, and records the
// front-proxy user of each request. Listens on every IPv4 address, so an endpoint may name a
// non-loopback one. An upgrade request for a flunder's `echo` subresource with `Upgrade: echo`
// switches protocols and then echoes each byte back after a line naming the front-proxy user;
// any other upgrade request is refused with a 400.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createCertificate } from '../../../src/server/tls/certificate.js';
import { tlsMaterial } from '../../integration/support/webhook-server.js';

export const wardle = { group: 'wardle.example.com', version: 'v1' } as const;

export interface AggregatedServer {
  readonly port: number;
  /** The CA, base64 as an APIService's caBundle takes it. */
  readonly caBundle: string;
  /**
   * The X-Remote-User and X-Remote-Group of each request to a resource, oldest first, with the
   * common name of the client certificate the proxy presented ('' for none).
   */
  readonly users: { user: string; groups: string[]; clientCN: string }[];
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

const flunderSchema = {
  type: 'object',
  description: 'A Flunder is a test object of the wardle server.',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      description: 'What a flunder wants.',
      properties: { reference: { type: 'string', description: 'The name of another flunder.' } },
    },
  },
  'x-kubernetes-group-version-kind': [{ group: wardle.group, version: wardle.version, kind: 'Flunder' }],
};
const listPath = `/apis/${wardle.group}/${wardle.version}/namespaces/{namespace}/flunders`;
const gvk = { group: wardle.group, version: wardle.version, kind: 'Flunder' };
/** The paths as kube-openapi writes them: each operation names its action and kind. */
const paths = {
  [listPath]: {
    get: {
      operationId: 'listWardleV1NamespacedFlunder',
      'x-kubernetes-action': 'list',
      'x-kubernetes-group-version-kind': gvk,
      responses: { '200': { description: 'OK' } },
    },
  },
  [`${listPath}/{name}`]: {
    get: {
      operationId: 'readWardleV1NamespacedFlunder',
      'x-kubernetes-action': 'get',
      'x-kubernetes-group-version-kind': gvk,
      responses: { '200': { description: 'OK' } },
    },
  },
};

/** The server's OpenAPI: v2, and v3's index and group-version document (kube-openapi's shapes). */
export const wardleOpenAPI = {
  v2: {
    swagger: '2.0',
    info: { title: 'wardle', version: 'v1' },
    paths,
    definitions: { 'com.example.wardle.v1.Flunder': flunderSchema },
  },
  v3: {
    openapi: '3.0.0',
    info: { title: 'wardle', version: 'v1' },
    paths,
    components: { schemas: { 'com.example.wardle.v1.Flunder': flunderSchema } },
  },
};
const v3Path = `apis/${wardle.group}/${wardle.version}`;

const flunder = (name: string, namespace: string): object => ({
  apiVersion: `${wardle.group}/${wardle.version}`,
  kind: 'Flunder',
  metadata: { name, namespace, creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
});

export async function startAggregatedServer(serviceName: string): Promise<AggregatedServer> {
  const tls = tlsMaterial([serviceName]);
  const users: AggregatedServer['users'] = [];
  // Asks for a client certificate (the front proxy's) without requiring one.
  const options = { cert: tls.cert, key: tls.key, requestCert: true, rejectUnauthorized: false };
  const server: Server = createServer(options, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    const send = (code: number, body: object): void => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === `/apis/${wardle.group}/${wardle.version}`) {
      send(200, discovery);
      return;
    }
    const openapi: Record<string, object> = {
      '/openapi/v2': wardleOpenAPI.v2,
      '/openapi/v3': { paths: { [v3Path]: { serverRelativeURL: `/openapi/v3/${v3Path}?hash=WARDLE1` } } },
      [`/openapi/v3/${v3Path}`]: wardleOpenAPI.v3,
    };
    const doc = openapi[path];
    if (doc !== undefined) {
      send(200, doc);
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
    const peer = req.socket instanceof TLSSocket ? req.socket.getPeerCertificate() : undefined;
    users.push({
      user: String(req.headers['x-remote-user'] ?? ''),
      groups: group === undefined ? [] : String(group).split(', '),
      clientCN: typeof peer?.subject.CN === 'string' ? peer.subject.CN : '',
    });
    const ns = list[1] ?? 'default';
    send(200, {
      apiVersion: `${wardle.group}/${wardle.version}`,
      kind: 'FlunderList',
      metadata: { resourceVersion: '1' },
      items: [flunder('alpha', ns), flunder('beta', ns)],
    });
  });
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    const echo = /^\/apis\/wardle\.example\.com\/v1\/namespaces\/[^/]+\/flunders\/[^/]+\/echo$/;
    if (req.headers.upgrade !== 'echo' || !echo.test(req.url ?? '')) {
      const body = 'upgrade refused\n';
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Length: ${String(body.length)}\r\n\r\n${body}`);
      return;
    }
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    socket.write(`user:${String(req.headers['x-remote-user'] ?? '')}\n`);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(tls.ca).toString('base64'),
    users,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A self-signed client certificate (a front proxy's) with common name `cn`, as PEM files' contents. */
export function clientCertificate(cn: string): { cert: string; key: string } {
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = { commonName: cn };
  const cert = createCertificate(
    {
      subject: name,
      publicKey: keys.publicKey,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + 86_400_000),
      isCA: false,
      usage: 'client',
    },
    { name, ...keys },
  );
  return { cert, key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
