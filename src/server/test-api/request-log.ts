// The request log a test asserts on: one small record per request served, kept in a bounded ring
// (the oldest go first), with the request and response bodies only when asked for at start.
import type { Filter, FilterScope, Handler } from '../filters/filter-scope.js';
import { isTestAPIPath } from './prefix.js';

export interface RequestRecord {
  /** The authenticated user's name ('' when the request was refused before authentication). */
  readonly user: string;
  readonly groups: readonly string[];
  /** kube's verb for the request: get, list, watch, create, update, patch, delete, deletecollection… */
  readonly verb: string;
  readonly method: string;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldManager: string;
  readonly dryRun: boolean;
  /** The query's parameters (the last value of a repeated one). */
  readonly query: Readonly<Record<string, string>>;
  readonly userAgent: string;
  /** The request's Content-Type ('' without one): which patch a PATCH was, how a body is encoded. */
  readonly contentType: string;
  /** The response's status code. */
  readonly code: number;
  /** From arrival to the end of the response (a watch's whole life). */
  readonly latencyMs: number;
  /** System time at arrival, in milliseconds since the epoch. */
  readonly receivedAt: number;
  /** The request body's bytes (JSON, YAML or protobuf as sent), when the log keeps bodies. */
  readonly requestBody?: Buffer;
  /** The response body's bytes, when the log keeps bodies (a long response is cut). */
  readonly responseBody?: Buffer;
}

/** Matches records whose fields equal every given one. */
export type RequestFilter = Partial<
  Pick<
    RequestRecord,
    | 'user'
    | 'verb'
    | 'method'
    | 'apiGroup'
    | 'resource'
    | 'subresource'
    | 'namespace'
    | 'name'
    | 'fieldManager'
    | 'dryRun'
    | 'code'
  >
>;

export interface RequestLogOptions {
  /** Records kept; the oldest are dropped first (default 10,000). */
  readonly capacity?: number;
  /** Keep request and response bodies (default false). */
  readonly bodies?: boolean;
}

/** Longest body kept, in bytes. */
const maxBodyBytes = 1 << 20;

const filterKeys = [
  'user',
  'verb',
  'method',
  'apiGroup',
  'resource',
  'subresource',
  'namespace',
  'name',
  'fieldManager',
  'dryRun',
  'code',
] as const satisfies readonly (keyof RequestFilter)[];

export class RequestLog {
  readonly #capacity: number;
  readonly #bodies: boolean;
  readonly #ring: (RequestRecord | undefined)[];
  #next = 0;
  #size = 0;

  constructor(opts: RequestLogOptions = {}) {
    const capacity = opts.capacity ?? 10_000;
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError(`request log: capacity must be a positive integer, got ${String(capacity)}`);
    this.#capacity = capacity;
    this.#bodies = opts.bodies ?? false;
    this.#ring = new Array<RequestRecord | undefined>(capacity);
  }

  /** The records kept that match `filter`, oldest first. */
  calls(filter: RequestFilter = {}): RequestRecord[] {
    const keys = filterKeys.filter((k) => filter[k] !== undefined);
    const out: RequestRecord[] = [];
    const start = this.#size < this.#capacity ? 0 : this.#next;
    for (let i = 0; i < this.#size; i++) {
      const r = this.#ring[(start + i) % this.#capacity];
      if (r !== undefined && keys.every((k) => r[k] === filter[k])) out.push(r);
    }
    return out;
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#next = 0;
    this.#size = 0;
  }

  add(record: RequestRecord): void {
    this.#ring[this.#next] = record;
    this.#next = (this.#next + 1) % this.#capacity;
    if (this.#size < this.#capacity) this.#size++;
  }

  /** The filter that records each request once its response is done. */
  readonly filter: Filter = (next) => (scope) =>
    isTestAPIPath(scope.url.pathname) ? next(scope) : this.#served(next, scope);

  async #served(next: Handler, scope: FilterScope): Promise<void> {
    const receivedAt = Date.now();
    const bodies = this.#bodies ? captureBodies(scope) : undefined;
    try {
      await next(scope);
    } finally {
      this.add(recordOf(scope, receivedAt, bodies));
    }
  }
}

function recordOf(scope: FilterScope, receivedAt: number, bodies: Captured | undefined): RequestRecord {
  const { info, url, req, res } = scope;
  const query: Record<string, string> = {};
  if (url.search !== '') for (const [k, v] of url.searchParams) query[k] = v;
  return {
    user: scope.user?.name ?? '',
    groups: scope.user?.groups ?? [],
    verb: info.verb,
    method: req.method ?? '',
    path: url.pathname,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
    fieldManager: query['fieldManager'] ?? '',
    dryRun: query['dryRun'] === 'All',
    query,
    userAgent: req.headers['user-agent'] ?? '',
    contentType: req.headers['content-type'] ?? '',
    code: res.statusCode,
    latencyMs: performance.now() - scope.receivedAt,
    receivedAt,
    ...(bodies === undefined
      ? {}
      : { requestBody: bytes(bodies.request), responseBody: bytes(bodies.response) }),
  };
}

interface Captured {
  readonly request: Buffer[];
  readonly response: Buffer[];
}

const bytes = (chunks: Buffer[]): Buffer => Buffer.concat(chunks).subarray(0, maxBodyBytes);

function keep(into: Buffer[], chunk: unknown): void {
  if (typeof chunk === 'string') into.push(Buffer.from(chunk));
  else if (chunk instanceof Uint8Array) into.push(Buffer.from(chunk));
}

/**
 * Copies the bodies as they pass: request chunks as the stream emits them to whoever reads it (the
 * stream's flow is left alone), response chunks as the handler writes them.
 */
function captureBodies(scope: FilterScope): Captured {
  const captured: Captured = { request: [], response: [] };
  const { req, res } = scope;
  const emit = req.emit.bind(req);
  req.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'data') keep(captured.request, args[0]);
    return emit(event, ...args);
  };
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => unknown;
  (res as { write: unknown }).write = (...args: unknown[]): boolean => {
    keep(captured.response, args[0]);
    return write(...args);
  };
  (res as { end: unknown }).end = (...args: unknown[]): unknown => {
    if (typeof args[0] !== 'function') keep(captured.response, args[0]);
    return end(...args);
  };
  return captured;
}
