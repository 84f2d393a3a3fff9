// Replaying a recorded session: the requests of a request log (kept with their bodies) sent again,
// in order, to a server, each as the user who sent it (impersonated by the replaying admin), so a
// controller's writes can be reproduced against a fresh server or one holding a snapshot. Writes
// are replayed; reads only when asked; watches and connections never.
import { newBadRequest } from '../../machinery/errors/index.js';
import { sendRaw, type ClientTarget } from './http-client.js';
import type { RequestRecord } from './request-log.js';

export interface ReplayOptions {
  /** Replay gets and lists too (default: only writes). */
  readonly reads?: boolean;
  /** Send every request as the replaying user instead of impersonating the recorded one. */
  readonly asReplayer?: boolean;
}

/** One replayed request: what it was, what it was answered then, and now. */
export interface ReplayedCall {
  readonly verb: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly user: string;
  readonly recordedCode: number;
  readonly code: number;
}

const writes = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const reads = new Set(['get', 'list']);
const withBody = new Set(['POST', 'PUT', 'PATCH']);

function replayable(r: RequestRecord, o: ReplayOptions): boolean {
  if (r.user === '') return false;
  if (r.resource === '' || ['exec', 'attach', 'portforward', 'proxy'].includes(r.subresource)) return false;
  return writes.has(r.verb) || (o.reads === true && reads.has(r.verb));
}

/** The headers that make the replaying admin act as the recorded user (kube's impersonation). */
function impersonation(r: RequestRecord): Record<string, string | string[]> {
  const groups = r.groups.filter((g) => g !== 'system:authenticated');
  return { 'impersonate-user': r.user, ...(groups.length === 0 ? {} : { 'impersonate-group': groups }) };
}

/**
 * Sends the replayable records to `target` one after another; a record of a write without its body
 * (a log that kept none) is refused before anything is sent.
 */
export async function replaySession(
  records: readonly RequestRecord[],
  target: ClientTarget,
  o: ReplayOptions = {},
): Promise<ReplayedCall[]> {
  const chosen = records.filter((r) => replayable(r, o));
  const bodiless = chosen.find((r) => withBody.has(r.method) && r.requestBody === undefined);
  if (bodiless !== undefined)
    throw newBadRequest(
      `the ${bodiless.verb} of ${bodiless.resource} ${bodiless.name} was logged without its body: ` +
        'record with requestLog: { bodies: true } to replay it',
    );
  const out: ReplayedCall[] = [];
  for (const r of chosen) {
    const query = new URLSearchParams(r.query).toString();
    const answer = await sendRaw(target, {
      method: r.method,
      path: `${r.path}${query === '' ? '' : `?${query}`}`,
      headers: {
        accept: 'application/json',
        ...(r.contentType === '' ? {} : { 'content-type': r.contentType }),
        ...(o.asReplayer === true ? {} : impersonation(r)),
      },
      ...(r.requestBody === undefined ? {} : { body: r.requestBody }),
    });
    const { verb, resource, subresource, namespace, name, user } = r;
    out.push({ verb, resource, subresource, namespace, name, user, recordedCode: r.code, code: answer.code });
  }
  return out;
}

/** A record from its JSON form (the test API's and `capstan requests -o json`'s: bodies in base64). */
export function requestRecordFromJson(j: Record<string, unknown>): RequestRecord {
  const text = (k: string): string => (typeof j[k] === 'string' ? j[k] : '');
  const bytes = (k: string): Buffer | undefined =>
    typeof j[k] === 'string' ? Buffer.from(j[k], 'base64') : undefined;
  const requestBody = bytes('requestBody');
  const responseBody = bytes('responseBody');
  const query = typeof j['query'] === 'object' && j['query'] !== null ? j['query'] : {};
  return {
    user: text('user'),
    groups: Array.isArray(j['groups']) ? j['groups'].filter((g): g is string => typeof g === 'string') : [],
    verb: text('verb'),
    method: text('method'),
    path: text('path'),
    apiGroup: text('apiGroup'),
    apiVersion: text('apiVersion'),
    resource: text('resource'),
    subresource: text('subresource'),
    namespace: text('namespace'),
    name: text('name'),
    fieldManager: text('fieldManager'),
    dryRun: j['dryRun'] === true,
    query: Object.fromEntries(
      Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
    userAgent: text('userAgent'),
    contentType: text('contentType'),
    code: typeof j['code'] === 'number' ? j['code'] : 0,
    latencyMs: typeof j['latencyMs'] === 'number' ? j['latencyMs'] : 0,
    receivedAt: typeof j['receivedAt'] === 'number' ? j['receivedAt'] : 0,
    ...(requestBody === undefined ? {} : { requestBody }),
    ...(responseBody === undefined ? {} : { responseBody }),
  };
}
