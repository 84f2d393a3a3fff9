// The OpenAPI of the aggregated API servers (kube-aggregator's openapi and openapiv3 controllers):
// when an APIService with a service has been found Available its backend's /openapi/v2 and the
// /openapi/v3 document of its group version are downloaded (as system:kube-aggregator), and the
// server's documents merge them in; an APIService that goes away or stops being available takes
// its specs with it. A failed download keeps what was downloaded before.
import { request } from 'node:https';
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { AggregatedSpecs, OpenAPIAggregatedSource } from '../../endpoints/openapi/index.js';
import type { AggregatorProxy, ProxyTarget } from './proxy.js';

type JsonObject = Record<string, unknown>;

interface BackendSpecs {
  /** The APIService's spec they were downloaded for. */
  readonly v2: JsonObject | undefined;
  readonly v3: ReadonlyMap<string, Buffer>;
}

const downloadTimeoutMs = 5000;
/** How often an Available backend's specs are downloaded again (kube-aggregator: every minute). */
const refreshPeriodMs = 60_000;
const empty: AggregatedSpecs = { v2: [], v3: new Map() };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** GET `path` from the backend as the aggregator; the body of a 200, else undefined. */
function download(
  proxy: AggregatorProxy,
  r: { target: ProxyTarget; path: string },
): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const req = request(
      {
        ...proxy.options(r.target),
        method: 'GET',
        path: r.path,
        headers: {
          accept: 'application/json',
          'x-remote-user': 'system:kube-aggregator',
          'x-remote-group': 'system:masters',
        },
        signal: AbortSignal.timeout(downloadTimeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => {
          resolve(undefined);
        });
        res.on('end', () => {
          resolve(res.statusCode === 200 ? Buffer.concat(chunks) : undefined);
        });
      },
    );
    req.on('error', () => {
      resolve(undefined);
    });
    req.end();
  });
}

function parse(body: Buffer | undefined): JsonObject | undefined {
  if (body === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export class AggregatedOpenAPISpecs implements OpenAPIAggregatedSource {
  readonly #proxy: AggregatorProxy;
  readonly #byService = new Map<string, BackendSpecs>();
  readonly #fetchedAt = new Map<string, number>();
  #specs: AggregatedSpecs = empty;

  constructor(proxy: AggregatorProxy) {
    this.#proxy = proxy;
  }

  specs(): AggregatedSpecs {
    return this.#specs;
  }

  /** Whether the specs of APIService `name` are due for a download. */
  due(name: string, now = Date.now()): boolean {
    const at = this.#fetchedAt.get(name);
    return at === undefined || now - at >= refreshPeriodMs;
  }

  /** Downloads the specs of an Available APIService's backend at `target`. */
  async refresh(apiService: APIService, target: ProxyTarget): Promise<void> {
    const name = apiService.metadata?.name ?? '';
    this.#fetchedAt.set(name, Date.now());
    const gvPath = `apis/${apiService.spec.group ?? ''}/${apiService.spec.version ?? ''}`;
    const [v2, index] = await Promise.all([
      download(this.#proxy, { target, path: '/openapi/v2' }).then(parse),
      download(this.#proxy, { target, path: '/openapi/v3' }).then(parse),
    ]);
    const v3 = new Map<string, Buffer>();
    const paths = index?.['paths'];
    const entry = isObject(paths) ? paths[gvPath] : undefined;
    const url =
      isObject(entry) && typeof entry['serverRelativeURL'] === 'string'
        ? entry['serverRelativeURL']
        : undefined;
    if (url !== undefined) {
      const doc = await download(this.#proxy, { target, path: url });
      if (doc !== undefined && parse(doc) !== undefined) v3.set(gvPath, doc);
    }
    const before = this.#byService.get(name);
    const next: BackendSpecs = { v2: v2 ?? before?.v2, v3: v3.size > 0 ? v3 : (before?.v3 ?? new Map()) };
    if (before !== undefined && sameSpecs(before, next)) return;
    this.#byService.set(name, next);
    this.#rebuild();
  }

  /** The APIService is gone or unavailable: its specs leave the documents. */
  remove(name: string): void {
    this.#fetchedAt.delete(name);
    if (this.#byService.delete(name)) this.#rebuild();
  }

  #rebuild(): void {
    const names = [...this.#byService.keys()].sort();
    const v2: JsonObject[] = [];
    const v3 = new Map<string, Buffer>();
    for (const name of names) {
      const specs = this.#byService.get(name);
      if (specs?.v2 !== undefined) v2.push(specs.v2);
      for (const [path, body] of specs?.v3 ?? []) if (!v3.has(path)) v3.set(path, body);
    }
    this.#specs = { v2, v3 };
  }
}

function sameSpecs(a: BackendSpecs, b: BackendSpecs): boolean {
  if (JSON.stringify(a.v2) !== JSON.stringify(b.v2) || a.v3.size !== b.v3.size) return false;
  for (const [path, body] of a.v3) if (!(b.v3.get(path)?.equals(body) ?? false)) return false;
  return true;
}
