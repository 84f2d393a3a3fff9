// Requests for the defaults checklist's tests (docs/defaults-checklist.md): a body sent as JSON or as
// kube protobuf under a named field manager, the object it reads back with, and the fields that
// manager owns. Decoder defaults are in place before the field manager runs, so the manager of a
// request owns what kube's SetDefaults_* functions added to its body.
import assert from 'node:assert/strict';
import { builtinScheme } from '../../../src/api/builtin-scheme.js';
import type { CapstanServer } from '../../../src/index.js';
import { PlanEncoder } from '../../../src/machinery/protobuf/testing/plan-encoder.js';
import { kubeProtobuf } from '../../../src/machinery/protobuf/testing/proto-writer.js';
import { adminToken } from './https-call.js';

export type JSONObject = Record<string, unknown>;
export type Fields = Record<string, unknown>;

interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly fieldsV1?: Fields;
}

export class DefaultsClient {
  readonly #server: () => CapstanServer;
  readonly #encoder = new PlanEncoder(builtinScheme());

  /** `server` gives the server to call, started after this is made. */
  constructor(server: () => CapstanServer) {
    this.#server = server;
  }

  async #send(
    method: string,
    path: string,
    body?: Buffer | string,
    contentType?: string,
  ): Promise<JSONObject> {
    const server = this.#server();
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken(server)}`,
        accept: 'application/json',
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    // A create answers 201 Created; every other call here 200.
    assert.equal(res.status, method === 'POST' ? 201 : 200, `${method} ${path}: ${text}`);
    return JSON.parse(text) as JSONObject;
  }

  /** POSTs `body` as JSON to the collection `path`, as `manager`. */
  create(path: string, body: JSONObject, manager: string): Promise<JSONObject> {
    return this.#send('POST', `${path}?fieldManager=${manager}`, JSON.stringify(body), 'application/json');
  }

  /** PUTs `body` as JSON to the object `path`, as `manager`. */
  replace(path: string, body: JSONObject, manager: string): Promise<JSONObject> {
    return this.#send('PUT', `${path}?fieldManager=${manager}`, JSON.stringify(body), 'application/json');
  }

  /** PATCHes the object `path` with `patch` of the given patch type, as `manager`. */
  patch(path: string, patch: JSONObject, contentType: string, manager: string): Promise<JSONObject> {
    return this.#send('PATCH', `${path}?fieldManager=${manager}`, JSON.stringify(patch), contentType);
  }

  get(path: string): Promise<JSONObject> {
    return this.#send('GET', path);
  }

  /** POSTs `body` as kube protobuf (the message of `definition`), as `manager`. */
  createProtobuf(path: string, definition: string, body: JSONObject, manager: string): Promise<JSONObject> {
    const { apiVersion, kind, ...fields } = body;
    const raw = kubeProtobuf(
      { apiVersion: String(apiVersion), kind: String(kind) },
      this.#encoder.encode(definition, fields),
    );
    return this.#send('POST', `${path}?fieldManager=${manager}`, raw, 'application/vnd.kubernetes.protobuf');
  }
}

/** The FieldsV1 `manager` owns in `obj`; fails when it owns nothing. */
export function owned(obj: JSONObject, manager: string): Fields {
  const meta = obj['metadata'] as { managedFields?: readonly ManagedFieldsEntry[] } | undefined;
  const entry = meta?.managedFields?.find((e) => e.manager === manager);
  assert.ok(entry?.fieldsV1 !== undefined, `no managedFields entry for ${manager}`);
  return entry.fieldsV1;
}

/** The FieldsV1 set under `path` (`f:spec`, `k:{"name":"a"}`…), {} when absent. */
export function fieldsAt(fields: Fields, ...path: string[]): Fields {
  let at: Fields = fields;
  for (const step of path) at = (at[step] as Fields | undefined) ?? {};
  return at;
}

/** Asserts that `fields` holds every `f:<name>` of `names`. */
export function assertOwns(fields: Fields, names: readonly string[], what: string): void {
  const missing = names.filter((n) => !(`f:${n}` in fields));
  assert.deepEqual(missing, [], `${what}: the request's manager owns ${names.join(', ')}`);
}

/** Asserts that `fields` holds the field at `path` (FieldsV1 keys, the leaf's included). */
export function assertOwnsPath(fields: Fields, path: readonly string[]): void {
  let at: unknown = fields;
  for (const key of path) {
    assert.ok(typeof at === 'object' && at !== null && key in at, `${path.join('.')} owned`);
    at = (at as Fields)[key];
  }
}

/** The member at `path` of a decoded object (objects and arrays). */
export function at(obj: unknown, ...path: (string | number)[]): unknown {
  let v: unknown = obj;
  for (const step of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}
