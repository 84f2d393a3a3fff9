// The test API's wire forms: fault rules and request filters read from JSON and query strings, and
// the JSON shapes it answers with (bodies as base64, times as RFC 3339 and milliseconds).
import { newBadRequest } from '../../machinery/errors/index.js';
import { faultCodes, type FaultCode, type FaultRule } from './faults.js';
import type { RequestFilter, RequestRecord } from './request-log.js';

/** apiVersion of the test API's own objects. */
export const testAPIVersion = 'capstan/v1';

const ruleStrings = ['resource', 'subresource', 'namespace', 'name', 'user', 'userAgent', 'message'] as const;
const ruleNumbers = [
  'times',
  'fraction',
  'retryAfterSeconds',
  'latencyMs',
  'dropWatchAfterEvents',
  'stallWatchAfterEvents',
] as const;
const ruleKeys = new Set<string>(['verb', 'respond', ...ruleStrings, ...ruleNumbers]);

/** A fault rule from a JSON body; 400 BadRequest for an unknown field or a value of the wrong type. */
export function faultRuleFrom(body: unknown): FaultRule {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw newBadRequest('a fault rule is a JSON object');
  const obj = body as Record<string, unknown>;
  const rule: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (!ruleKeys.has(k)) throw newBadRequest(`fault rule: unknown field ${JSON.stringify(k)}`);
    if (v === null || v === undefined) continue;
    const isString = (ruleStrings as readonly string[]).includes(k);
    const isNumber = (ruleNumbers as readonly string[]).includes(k) || k === 'respond';
    if (isString && typeof v !== 'string') throw newBadRequest(`fault rule: ${k} is a string`);
    if (isNumber && typeof v !== 'number') throw newBadRequest(`fault rule: ${k} is a number`);
    if (k === 'verb' && typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
      throw newBadRequest('fault rule: verb is a string or a list of strings');
    if (k === 'respond' && !(faultCodes as readonly number[]).includes(v as number))
      throw newBadRequest(`fault rule: respond is one of ${faultCodes.join(', ')}`);
    rule[k] = v;
  }
  return rule;
}

export const isFaultCode = (n: number): n is FaultCode => (faultCodes as readonly number[]).includes(n);

const filterStrings = [
  'user',
  'verb',
  'method',
  'apiGroup',
  'resource',
  'subresource',
  'namespace',
  'name',
  'fieldManager',
] as const;

/** A request filter from query parameters (`verb=patch&resource=deployments&code=409&dryRun=true`). */
export function requestFilterFrom(params: URLSearchParams): RequestFilter {
  const filter: Record<string, string | number | boolean> = {};
  for (const k of filterStrings) {
    const v = params.get(k);
    if (v !== null) filter[k] = v;
  }
  const code = params.get('code');
  if (code !== null) {
    const n = Number(code);
    if (!Number.isInteger(n)) throw newBadRequest(`code: not a status code: ${JSON.stringify(code)}`);
    filter['code'] = n;
  }
  const dryRun = params.get('dryRun');
  if (dryRun !== null) {
    if (dryRun !== 'true' && dryRun !== 'false') throw newBadRequest('dryRun: true or false');
    filter['dryRun'] = dryRun === 'true';
  }
  return filter;
}

/** The query string a filter travels as (the CLI's side of requestFilterFrom). */
export function requestFilterQuery(filter: RequestFilter): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) params.set(k, String(v));
  const q = params.toString();
  return q === '' ? '' : `?${q}`;
}

/** A record as JSON: bodies in base64. */
export function requestRecordJson(r: RequestRecord): Record<string, unknown> {
  const { requestBody, responseBody, ...rest } = r;
  return {
    ...rest,
    ...(requestBody === undefined ? {} : { requestBody: requestBody.toString('base64') }),
    ...(responseBody === undefined ? {} : { responseBody: responseBody.toString('base64') }),
  };
}

export interface ClockJson {
  readonly kind: 'Clock';
  readonly apiVersion: typeof testAPIVersion;
  /** RFC 3339 with milliseconds. */
  readonly now: string;
  readonly nowMs: number;
  readonly virtual: boolean;
}

export function clockJson(nowMs: number, virtual: boolean): ClockJson {
  return { kind: 'Clock', apiVersion: testAPIVersion, now: new Date(nowMs).toISOString(), nowMs, virtual };
}
