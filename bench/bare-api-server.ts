// The baseline of bench/api: a bare node:http server doing the JSON work of each request and nothing
// else (no validation, admission, field management, watch cache or storage engine). Objects are kept
// as text, as a store keeps bytes, so every read parses and every write stringifies:
//   create       parse the body, fill uid, resourceVersion, creationTimestamp; stringify; keep
//   get          parse the stored text, stringify
//   update       parse the body and the stored object, check the resourceVersion, carry uid and
//                creationTimestamp over, new resourceVersion; stringify; keep
//   patch/apply  parse the body and the stored object, merge (RFC 7386), new resourceVersion;
//                stringify; keep
//   list         parse every stored object, stringify them in one list
// DELETE of a namespace drops its objects, so the bench can bound this server's memory between
// create slices.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BareServer {
  readonly url: string;
  close(): Promise<void>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
interface Stored {
  kind?: string;
  metadata: { name: string; uid?: string; resourceVersion?: string; creationTimestamp?: string };
}

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(out, key);
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

const collectionRoute =
  /^((?:\/api\/v1|\/apis\/[^/]+\/[^/]+)\/namespaces\/([^/]+)\/[^/?]+)(?:\/([^/?]+))?(?:\?|$)/;
const namespaceRoute = /^\/api\/v1\/namespaces\/([^/?]+)$/;

interface Collection {
  readonly namespace: string;
  readonly objects: Map<string, string>;
}

type Reply = [status: number, body: string];

class BareStore {
  readonly #collections = new Map<string, Collection>();
  #revision = 1;

  answer(method: string, url: string, body: string): Reply {
    if (url === '/api/v1/namespaces' && method === 'POST') return [201, body];
    const ns = namespaceRoute.exec(url);
    if (ns !== null && method === 'DELETE') {
      for (const [path, c] of this.#collections) if (c.namespace === ns[1]) this.#collections.delete(path);
      return [200, '{}'];
    }
    const m = collectionRoute.exec(url);
    if (m === null) return [404, '{}'];
    const path = m[1]!;
    const collection = this.#collections.get(path) ?? {
      namespace: m[2]!,
      objects: new Map<string, string>(),
    };
    this.#collections.set(path, collection);
    const name = m[3];
    if (name === undefined)
      return method === 'POST' ? this.#create(collection, body) : this.#list(collection);
    const text = collection.objects.get(name);
    if (text === undefined) return [404, '{}'];
    switch (method) {
      case 'GET':
        return [200, JSON.stringify(JSON.parse(text))];
      case 'PUT':
        return this.#update(collection, text, body);
      case 'PATCH':
        return this.#patch(collection, text, body);
      default:
        return [405, '{}'];
    }
  }

  #keep(collection: Collection, obj: Stored, status: number): Reply {
    const text = JSON.stringify(obj);
    collection.objects.set(obj.metadata.name, text);
    return [status, text];
  }

  #create(collection: Collection, body: string): Reply {
    const obj = JSON.parse(body) as Stored;
    if (collection.objects.has(obj.metadata.name)) return [409, '{}'];
    obj.metadata = {
      ...obj.metadata,
      uid: randomUUID(),
      resourceVersion: String(++this.#revision),
      creationTimestamp: new Date().toISOString(),
    };
    return this.#keep(collection, obj, 201);
  }

  #update(collection: Collection, text: string, body: string): Reply {
    const obj = JSON.parse(body) as Stored;
    const current = JSON.parse(text) as Stored;
    if (obj.metadata.resourceVersion !== current.metadata.resourceVersion) return [409, '{}'];
    obj.metadata = {
      ...obj.metadata,
      ...(current.metadata.uid === undefined ? {} : { uid: current.metadata.uid }),
      ...(current.metadata.creationTimestamp === undefined
        ? {}
        : { creationTimestamp: current.metadata.creationTimestamp }),
      resourceVersion: String(++this.#revision),
    };
    return this.#keep(collection, obj, 200);
  }

  #patch(collection: Collection, text: string, body: string): Reply {
    const obj = mergePatch(JSON.parse(text) as Json, JSON.parse(body) as Json) as unknown as Stored;
    obj.metadata.resourceVersion = String(++this.#revision);
    return this.#keep(collection, obj, 200);
  }

  #list(collection: Collection): Reply {
    const items = [...collection.objects.values()].map((t) => JSON.parse(t) as Stored);
    const kind = `${items[0]?.kind ?? ''}List`;
    return [200, JSON.stringify({ kind, metadata: { resourceVersion: String(this.#revision) }, items })];
  }
}

/** Starts the baseline on a free loopback port; requests must carry `Bearer ${token}`. */
export async function startBareServer(token: string): Promise<BareServer> {
  const store = new BareStore();
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [status, body] =
        req.headers.authorization === `Bearer ${token}`
          ? store.answer(req.method ?? 'GET', req.url ?? '/', Buffer.concat(chunks).toString('utf8'))
          : [401, '{}'];
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
