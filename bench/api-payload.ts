// The ConfigMaps bench/api sends, and the bare node:http server it measures Capstan against: the
// same JSON in and out, parsed and stringified once per request, kept in a Map as text (as a store
// keeps bytes), with no validation, admission, field management, watch cache or storage engine.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConfigMap } from '../src/api/core/v1/config-map.js';

/** A ~2 KB ConfigMap, the size of the pod FACTS.md measures with. */
export function configMap(name: string, namespace: string): ConfigMap {
  const data: Record<string, string> = {};
  for (let i = 0; i < 8; i++) data[`key-${i}.properties`] = `setting.${i}=${'v'.repeat(180)}\n`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: 'bench', tier: 'backend' } },
    data,
  };
}

export const configMapsPath = (namespace: string): string => `/api/v1/namespaces/${namespace}/configmaps`;

export interface BareServer {
  readonly url: string;
  close(): Promise<void>;
}

const route = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps(?:\/([^/?]+))?(?:\?.*)?$/;

/** The baseline: answers the bench's requests with the JSON Capstan would answer them with. */
export async function startBareServer(token: string): Promise<BareServer> {
  const store = new Map<string, Map<string, string>>();
  let revision = 1;
  const answer = (req: http.IncomingMessage, body: string): [number, string] => {
    if (req.headers.authorization !== `Bearer ${token}`) return [401, '{}'];
    if (req.url === '/api/v1/namespaces') return [201, body];
    const m = route.exec(req.url ?? '');
    if (m === null) return [404, '{}'];
    const namespace = m[1] ?? '';
    const objects = store.get(namespace) ?? new Map<string, string>();
    store.set(namespace, objects);
    if (req.method === 'POST') {
      const obj = JSON.parse(body) as ConfigMap;
      const name = obj.metadata?.name ?? '';
      if (objects.has(name)) return [409, '{}'];
      obj.metadata = {
        ...obj.metadata,
        uid: randomUUID(),
        resourceVersion: String(++revision),
        creationTimestamp: new Date().toISOString(),
      };
      const text = JSON.stringify(obj);
      objects.set(name, text);
      return [201, text];
    }
    if (m[2] !== undefined) {
      const text = objects.get(m[2]);
      return text === undefined ? [404, '{}'] : [200, JSON.stringify(JSON.parse(text))];
    }
    const items = [...objects.values()].map((t) => JSON.parse(t) as unknown);
    const list = {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(revision) },
      items,
    };
    return [200, JSON.stringify(list)];
  };
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [status, body] = answer(req, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
