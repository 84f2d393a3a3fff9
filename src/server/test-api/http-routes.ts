// The test API over HTTP, under /capstan/v1/ (served only with --enable-test-api):
//   GET  snapshots                 the snapshots taken          POST snapshots             take one → its name
//   POST snapshots/NAME/restore    restore it
//   GET  requests?verb=&resource=… the request log (JSON)        DELETE requests            clear it
//   GET  faults                    the rules in force           POST faults (a FaultRule)  add one → its id
//   DELETE faults                  remove every rule            DELETE faults/ID           remove one
//   GET  clock                     now                          POST clock/advance {"by": "5m"}
//   POST clock/set {"time": "2030-01-01T00:00:00Z"}       POST compact               compact now; watches break
// Only members of system:masters may use it (403 otherwise); every error is a Kubernetes Status.
import {
  isStatusError,
  newBadRequest,
  newInternalError,
  newNotFound,
  statusError,
  type StatusError,
} from '../../machinery/errors/index.js';
import type { FilterScope, Handler } from '../filters/filter-scope.js';
import { writeJson, writeStatus } from '../http/respond.js';
import { testAPIPrefix } from './prefix.js';
import { RealClockError } from './server-clock.js';
import { NoSnapshotError } from './snapshots.js';
import type { TestAPI } from './test-api.js';
import { clockJson, faultRuleFrom, requestFilterFrom, requestRecordJson, testAPIVersion } from './wire.js';

const mastersGroup = 'system:masters';
const maxBodyBytes = 64 * 1024;

type Route = (scope: FilterScope, params: readonly string[]) => Promise<unknown>;

interface RouteSpec {
  readonly pattern: RegExp;
  readonly methods: Readonly<Record<string, Route>>;
}

const success = (message: string): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  message,
  code: 200,
});

function routes(api: TestAPI): RouteSpec[] {
  const list = (kind: string, items: unknown[]): Record<string, unknown> => ({
    kind,
    apiVersion: testAPIVersion,
    items,
  });
  const clockNow = (): unknown => clockJson(api.clock.now(), api.clock.virtual);
  return [
    {
      pattern: /^snapshots$/,
      methods: {
        GET: () => Promise.resolve(list('SnapshotList', api.snapshots.list())),
        POST: async () => {
          const name = await api.snapshot();
          return { kind: 'Snapshot', apiVersion: testAPIVersion, name };
        },
      },
    },
    {
      pattern: /^snapshots\/([^/]+)\/restore$/,
      methods: {
        POST: async (_s, [name = '']) => {
          await api.restore(name);
          return success(`restored ${name}`);
        },
      },
    },
    {
      pattern: /^requests$/,
      methods: {
        GET: ({ url }) =>
          Promise.resolve(
            list('RequestList', api.requests(requestFilterFrom(url.searchParams)).map(requestRecordJson)),
          ),
        DELETE: () => {
          api.clearRequests();
          return Promise.resolve(success('request log cleared'));
        },
      },
    },
    {
      pattern: /^faults$/,
      methods: {
        GET: () => Promise.resolve(list('FaultList', api.faults.list())),
        POST: async (scope) => {
          const id = api.faults.add(faultRuleFrom(await jsonBody(scope)));
          return { kind: 'Fault', apiVersion: testAPIVersion, id };
        },
        DELETE: () => {
          api.faults.clear();
          return Promise.resolve(success('faults cleared'));
        },
      },
    },
    {
      pattern: /^faults\/([^/]+)$/,
      methods: {
        DELETE: (_s, [id = '']) => {
          if (!api.faults.remove(id)) throw newNotFound({ group: 'capstan', resource: 'faults' }, id);
          return Promise.resolve(success(`removed ${id}`));
        },
      },
    },
    {
      pattern: /^compact$/,
      methods: {
        POST: async () => ({ kind: 'Compaction', apiVersion: testAPIVersion, revision: await api.compact() }),
      },
    },
    { pattern: /^clock$/, methods: { GET: () => Promise.resolve(clockNow()) } },
    {
      pattern: /^clock\/advance$/,
      methods: {
        POST: async (scope) => {
          const by = field(await jsonBody(scope), 'by');
          if (typeof by !== 'string' && typeof by !== 'number')
            throw newBadRequest('clock/advance: give "by", a duration such as "5m" or milliseconds');
          await api.clock.advance(by);
          return clockNow();
        },
      },
    },
    {
      pattern: /^clock\/set$/,
      methods: {
        POST: async (scope) => {
          const time = field(await jsonBody(scope), 'time');
          const ms = typeof time === 'string' ? Date.parse(time) : Number.NaN;
          if (Number.isNaN(ms)) throw newBadRequest('clock/set: give "time", an RFC 3339 time');
          await api.clock.set(ms);
          return clockNow();
        },
      },
    },
  ];
}

function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}

async function jsonBody(scope: FilterScope): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of scope.req as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > maxBodyBytes) throw newBadRequest(`the body is larger than ${maxBodyBytes} bytes`);
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw newBadRequest(`the body is not JSON: ${(err as Error).message}`);
  }
}

function asStatusError(err: unknown): StatusError {
  if (isStatusError(err)) return err;
  if (err instanceof NoSnapshotError) return newNotFound({ group: 'capstan', resource: 'snapshots' }, err.id);
  if (err instanceof RealClockError || err instanceof RangeError) return newBadRequest(err.message);
  return newInternalError(err);
}

function forbidden(scope: FilterScope): StatusError {
  const user = scope.user?.name ?? '';
  const verb = (scope.req.method ?? 'GET').toLowerCase();
  return statusError({
    reason: 'Forbidden',
    message: `forbidden: User ${JSON.stringify(user)} cannot ${verb} path ${JSON.stringify(scope.url.pathname)}: the test API is for members of ${mastersGroup}`,
    details: {},
  });
}

/** The handler of every path under the prefix. */
export function testAPIRoutes(api: TestAPI): Handler {
  const specs = routes(api);
  return async (scope) => {
    const { res, url } = scope;
    try {
      if (!(scope.user?.groups ?? []).includes(mastersGroup)) throw forbidden(scope);
      const rest = url.pathname.slice(testAPIPrefix.length);
      for (const spec of specs) {
        const m = spec.pattern.exec(rest);
        if (m === null) continue;
        const method = scope.req.method ?? 'GET';
        const route = spec.methods[method];
        if (route === undefined)
          throw statusError({
            reason: 'MethodNotAllowed',
            message: `${method} is not supported on ${url.pathname}`,
            details: {},
          });
        const params = m.slice(1).map((p) => decodeURIComponent(p));
        const body = await route(scope, params);
        writeJson(res, method === 'POST' && /^(snapshots|faults)$/.test(rest) ? 201 : 200, body);
        return;
      }
      throw statusError({ reason: 'NotFound', message: `the test API has no ${url.pathname}`, details: {} });
    } catch (err) {
      writeStatus(res, asStatusError(err).status);
    }
  };
}
