// Malformed requests against the real configmap, secret and namespace storages: each must fail
// with kube-apiserver's status code, reason and message, and leave the store as it was.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InjectOptions } from 'light-my-request';
import { parse as parseYAML } from 'yaml';
import { coreAPI, type CoreAPI } from './testing/core-api.js';

interface StatusBody {
  kind: string;
  apiVersion: string;
  status: string;
  code: number;
  reason: string;
  message: string;
}

interface Case {
  readonly name: string;
  readonly req: InjectOptions;
  readonly code: number;
  readonly reason: string;
  readonly message: string | RegExp;
}

const ns = '/api/v1/namespaces/default';
const cms = `${ns}/configmaps`;
const cm1 = `${cms}/cm1`;
const json = { 'content-type': 'application/json' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };
const mergePatch = { 'content-type': 'application/merge-patch+json' };
const cm = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'new' }, ...extra });
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const notFound = 'the server could not find the requested resource';
const notAllowed = 'the server does not allow this method on the requested resource';
const scheme = 'pkg/api/legacyscheme/scheme.go:30';
const rejected = 'the server rejected our request due to an error in our request';

const bodyCases: Case[] = [
  {
    name: 'bad JSON',
    req: { method: 'POST', url: cms, headers: json, payload: '{bad' },
    code: 400,
    reason: 'BadRequest',
    message:
      "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'b' looking for beginning of object key string ({bad)",
  },
  {
    name: 'empty body',
    req: { method: 'POST', url: cms, headers: json, payload: '' },
    code: 400,
    reason: 'BadRequest',
    message:
      "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
  },
  {
    name: 'truncated JSON',
    req: {
      method: 'POST',
      url: cms,
      headers: json,
      payload: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}',
    },
    code: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)`,
  },
  {
    name: 'array body',
    req: { method: 'POST', url: cms, headers: json, payload: '[1]' },
    code: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${findKindType} (5b315d)`,
  },
  {
    name: 'non-string apiVersion',
    req: { method: 'POST', url: cms, headers: json, payload: '{"apiVersion":1}' },
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string ({"apiVersion":1})',
  },
  {
    name: 'malformed apiVersion',
    req: { method: 'POST', url: cms, headers: json, payload: '{"apiVersion":"a/b/c"}' },
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})',
  },
  {
    name: 'another kind',
    req: {
      method: 'POST',
      url: cms,
      headers: json,
      payload: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }),
    },
    code: 400,
    reason: 'BadRequest',
    message:
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
  },
  {
    name: 'unknown kind',
    req: { method: 'POST', url: cms, headers: json, payload: cm({ kind: 'Foo' }) },
    code: 400,
    reason: 'BadRequest',
    message: `Foo in version "v1" cannot be handled as a ConfigMap: no kind "Foo" is registered for version "v1" in scheme "${scheme}"`,
  },
  {
    name: 'wrong group',
    req: { method: 'POST', url: cms, headers: json, payload: cm({ apiVersion: 'apps/v1' }) },
    code: 400,
    reason: 'BadRequest',
    message: `ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "${scheme}"`,
  },
  {
    name: 'unknown field, Strict',
    req: { method: 'POST', url: `${cms}?fieldValidation=Strict`, headers: json, payload: cm({ foo: 1 }) },
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "foo"',
  },
  {
    name: 'duplicate field, Strict',
    req: {
      method: 'POST',
      url: `${cms}?fieldValidation=Strict`,
      headers: json,
      payload: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"new"},"data":{},"data":{}}',
    },
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"',
  },
  {
    name: 'wrong field type',
    req: { method: 'POST', url: cms, headers: json, payload: cm({ data: 5 }) },
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string',
  },
  {
    // Go's ParseInt reads the number's text, which JSON.parse's value (1) does not keep.
    name: 'integer field written with a fraction',
    req: {
      method: 'POST',
      url: cms,
      headers: json,
      payload: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"new","generation":1.0}}',
    },
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number 1.0 into Go struct field ObjectMeta.metadata.generation of type int64',
  },
  {
    name: 'integer field written with an exponent, in an update',
    req: {
      method: 'PUT',
      url: cm1,
      headers: json,
      payload: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","generation":2E0}}',
    },
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number 2E0 into Go struct field ObjectMeta.metadata.generation of type int64',
  },
  {
    name: 'metadata not an object',
    req: { method: 'POST', url: cms, headers: json, payload: cm({ metadata: 'x' }) },
    code: 400,
    reason: 'BadRequest',
    message:
      /^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap\.metadata of type v1\.ObjectMeta$/,
  },
  {
    name: 'malformed YAML',
    req: { method: 'POST', url: cms, headers: { 'content-type': 'application/yaml' }, payload: 'a: [b' },
    code: 400,
    reason: 'BadRequest',
    message:
      /^the object provided is unrecognized \(must be of type ConfigMap\): error converting YAML to JSON: yaml: line 1: /,
  },
  {
    name: 'namespace mismatch on create',
    req: {
      method: 'POST',
      url: cms,
      headers: json,
      payload: cm({ metadata: { name: 'new', namespace: 'other' } }),
    },
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'name mismatch on update',
    req: { method: 'PUT', url: cm1, headers: json, payload: cm({ metadata: { name: 'b' } }) },
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (b) does not match the name on the URL (cm1)',
  },
  {
    name: 'namespace mismatch on update',
    req: {
      method: 'PUT',
      url: cm1,
      headers: json,
      payload: cm({ metadata: { name: 'cm1', namespace: 'other' } }),
    },
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'oversize body',
    req: {
      method: 'POST',
      url: cms,
      headers: json,
      payload: cm({ data: { big: 'x'.repeat(3 * 1024 * 1024) } }),
    },
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: limit is 3145728',
  },
  {
    name: 'protobuf body without an envelope',
    req: {
      method: 'POST',
      url: cms,
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
      payload: 'k8s\0',
    },
    code: 400,
    reason: 'BadRequest',
    message: 'the object provided is unrecognized (must be of type ConfigMap): empty body (6b387300)',
  },
  {
    name: 'text body',
    req: { method: 'PUT', url: cm1, headers: { 'content-type': 'text/plain' }, payload: 'hi' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  },
  {
    name: 'invalid name',
    req: { method: 'POST', url: cms, headers: json, payload: cm({ metadata: { name: 'Bad_Name' } }) },
    code: 422,
    reason: 'Invalid',
    message:
      /^ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/,
  },
  {
    name: 'already exists',
    req: { method: 'POST', url: cms, headers: json, payload: cm({ metadata: { name: 'cm1' } }) },
    code: 409,
    reason: 'AlreadyExists',
    message: 'configmaps "cm1" already exists',
  },
  {
    name: 'stale resourceVersion',
    req: {
      method: 'PUT',
      url: cm1,
      headers: json,
      payload: cm({ metadata: { name: 'cm1', resourceVersion: '1' } }),
    },
    code: 409,
    reason: 'Conflict',
    message:
      'Operation cannot be fulfilled on configmaps "cm1": the object has been modified; please apply your changes to the latest version and try again',
  },
];

const optionCases: Case[] = [
  {
    name: 'bad label selector',
    req: { method: 'GET', url: `${cms}?labelSelector=a%20b` },
    code: 400,
    reason: 'BadRequest',
    message: /^unable to parse requirement: |found 'b', expected/,
  },
  {
    name: 'bad field selector',
    req: { method: 'GET', url: `${cms}?fieldSelector=foo` },
    code: 400,
    reason: 'BadRequest',
    message: "invalid selector: 'foo'; can't understand 'foo'",
  },
  {
    name: 'unknown field label',
    req: { method: 'GET', url: `${cms}?fieldSelector=spec.x%3D1` },
    code: 400,
    reason: 'BadRequest',
    message: '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
  },
  {
    name: 'non-numeric limit',
    req: { method: 'GET', url: `${cms}?limit=abc` },
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "abc": invalid syntax',
  },
  {
    name: 'limit out of range',
    req: { method: 'GET', url: `${cms}?limit=99999999999999999999` },
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range',
  },
  {
    name: 'non-numeric timeoutSeconds',
    req: { method: 'GET', url: `${cms}?watch=true&timeoutSeconds=x` },
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "x": invalid syntax',
  },
  {
    name: 'resourceVersionMatch without resourceVersion',
    req: { method: 'GET', url: `${cms}?resourceVersionMatch=NotOlderThan` },
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
  },
  {
    name: 'unknown resourceVersionMatch',
    req: { method: 'GET', url: `${cms}?resourceVersion=1&resourceVersionMatch=Foo` },
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Foo": supported values: "Exact", "NotOlderThan", ""',
  },
  {
    name: 'Exact at resourceVersion 0',
    req: { method: 'GET', url: `${cms}?resourceVersion=0&resourceVersionMatch=Exact` },
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
  },
  {
    name: 'sendInitialEvents on a list',
    req: { method: 'GET', url: `${cms}?sendInitialEvents=true` },
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
  },
  {
    name: 'watch with resourceVersionMatch',
    req: { method: 'GET', url: `${cms}?watch=true&resourceVersionMatch=Exact` },
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
  },
  {
    name: 'bad continue token',
    req: { method: 'GET', url: `${cms}?limit=1&continue=garbage` },
    code: 400,
    reason: 'BadRequest',
    message: /^continue key is not valid: |^invalid continue token/,
  },
  {
    name: 'bad resourceVersion',
    req: { method: 'GET', url: `${cm1}?resourceVersion=abc` },
    code: 400,
    reason: 'BadRequest',
    message: /invalid resource version|resourceVersion: Invalid value: "abc"/,
  },
  {
    name: 'dryRun value',
    req: { method: 'POST', url: `${cms}?dryRun=Foo`, headers: json, payload: cm() },
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Foo"]: supported values: "All"',
  },
  {
    name: 'fieldValidation value',
    req: { method: 'POST', url: `${cms}?fieldValidation=Bad`, headers: json, payload: cm() },
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bad": supported values: "", "Ignore", "Strict", "Warn"',
  },
  {
    name: 'fieldManager too long',
    req: { method: 'POST', url: `${cms}?fieldManager=${'m'.repeat(129)}`, headers: json, payload: cm() },
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
  },
  {
    name: 'fieldManager not printable',
    req: { method: 'POST', url: `${cms}?fieldManager=a%01b`, headers: json, payload: cm() },
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\x01b": invalid character U+0001 (at position 1)',
  },
  {
    name: 'update dryRun value',
    req: {
      method: 'PUT',
      url: `${cm1}?dryRun=true`,
      headers: json,
      payload: cm({ metadata: { name: 'cm1' } }),
    },
    code: 422,
    reason: 'Invalid',
    message:
      'UpdateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["true"]: supported values: "All"',
  },
  {
    name: 'export',
    req: { method: 'GET', url: `${cm1}?export=true` },
    code: 400,
    reason: 'BadRequest',
    message: 'the export parameter, deprecated since v1.14, is no longer supported',
  },
  {
    name: 'named watch with another name',
    req: {
      method: 'GET',
      url: '/api/v1/watch/namespaces/default/configmaps/cm1?fieldSelector=metadata.name%3Dother',
    },
    code: 400,
    reason: 'BadRequest',
    message: "fieldSelector metadata.name doesn't match requested name",
  },
  {
    name: 'bad includeObject',
    req: {
      method: 'GET',
      url: `${cms}?includeObject=Bogus`,
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    },
    code: 400,
    reason: 'BadRequest',
    message:
      'Unable to convert to Table as requested: includeObject: Unsupported value: "Bogus": supported values: "", "Metadata", "None", "Object"',
  },
];

const patchCases: Case[] = [
  {
    name: 'patch as application/json',
    req: { method: 'PATCH', url: cm1, headers: json, payload: '{}' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message: '415: Unsupported Media Type',
  },
  {
    name: 'patch without Content-Type',
    req: { method: 'PATCH', url: cm1, payload: '{}' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message: '415: Unsupported Media Type',
  },
  {
    name: 'strategic merge patch, an array',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      payload: '[1]',
    },
    code: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
  {
    name: 'JSON patch, bad JSON',
    req: { method: 'PATCH', url: cm1, headers: jsonPatch, payload: '[bad' },
    code: 400,
    reason: 'BadRequest',
    message: "error decoding patch: invalid character 'b' looking for beginning of value",
  },
  {
    name: 'JSON patch, bad JSON, Ignore',
    req: { method: 'PATCH', url: `${cm1}?fieldValidation=Ignore`, headers: jsonPatch, payload: '[bad' },
    code: 400,
    reason: 'BadRequest',
    message: "invalid character 'b' looking for beginning of value",
  },
  {
    name: 'JSON patch not an array',
    req: { method: 'PATCH', url: cm1, headers: jsonPatch, payload: '{"op":"add"}' },
    code: 400,
    reason: 'BadRequest',
    message:
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
  },
  {
    name: 'JSON patch op not a string',
    req: { method: 'PATCH', url: cm1, headers: jsonPatch, payload: '[{"op":1}]' },
    code: 400,
    reason: 'BadRequest',
    message:
      'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
  },
  {
    name: 'JSON patch moving the document into one of its own members',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: jsonPatch,
      payload: '[{"op":"move","from":"","path":"/data/x"}]',
    },
    code: 422,
    reason: 'Invalid',
    message: rejected,
  },
  {
    name: 'JSON patch moving a member into its own child',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: jsonPatch,
      payload: '[{"op":"move","from":"/metadata","path":"/metadata/labels/x"}]',
    },
    code: 422,
    reason: 'Invalid',
    message: rejected,
  },
  {
    name: 'JSON patch test fails',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: jsonPatch,
      payload: '[{"op":"test","path":"/data/a","value":"nope"}]',
    },
    code: 422,
    reason: 'Invalid',
    message: rejected,
  },
  {
    name: 'JSON patch removes a missing path',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: jsonPatch,
      payload: '[{"op":"remove","path":"/data/missing"}]',
    },
    code: 422,
    reason: 'Invalid',
    message: rejected,
  },
  {
    name: 'JSON patch unknown op',
    req: { method: 'PATCH', url: cm1, headers: jsonPatch, payload: '[{"op":"frobnicate","path":"/data"}]' },
    code: 422,
    reason: 'Invalid',
    message: rejected,
  },
  {
    name: 'JSON patch with too many operations',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: jsonPatch,
      payload: JSON.stringify(
        Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' })),
      ),
    },
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
  },
  {
    name: 'merge patch, an array',
    req: { method: 'PATCH', url: cm1, headers: mergePatch, payload: '[1]' },
    code: 400,
    reason: 'BadRequest',
    message:
      'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
  {
    name: 'merge patch, bad JSON, Ignore',
    req: { method: 'PATCH', url: `${cm1}?fieldValidation=Ignore`, headers: mergePatch, payload: '{' },
    code: 400,
    reason: 'BadRequest',
    message: 'Invalid JSON Patch',
  },
  {
    name: 'merge patch renames',
    req: { method: 'PATCH', url: cm1, headers: mergePatch, payload: '{"metadata":{"name":"other"}}' },
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (other) does not match the name on the URL (cm1)',
  },
  {
    name: 'merge patch with a wrong type',
    req: { method: 'PATCH', url: cm1, headers: mergePatch, payload: '{"data":5}' },
    code: 422,
    reason: 'Invalid',
    message:
      /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number into Go struct field ConfigMap\.data of type map\[string\]string$/,
  },
  {
    // evanphx/json-patch's merge keeps the number's text, which the decoder's ParseInt refuses.
    name: 'merge patch setting an integer written with a fraction',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: mergePatch,
      payload: '{"metadata":{"labels":{"a":"1.5"},"generation":3.0}}',
    },
    code: 422,
    reason: 'Invalid',
    message:
      /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number 3\.0 into Go struct field ObjectMeta\.metadata\.generation of type int64$/,
  },
  {
    name: 'JSON patch adding an integer written with an exponent',
    req: {
      method: 'PATCH',
      url: cm1,
      headers: jsonPatch,
      payload:
        '[{"op":"add","path":"/metadata/labels","value":{"a":"1.5"}},{"op":"add","path":"/metadata/generation","value":3e0}]',
    },
    code: 422,
    reason: 'Invalid',
    message:
      /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number 3e0 into Go struct field ObjectMeta\.metadata\.generation of type int64$/,
  },
  {
    name: 'merge patch, unknown field, Strict',
    req: { method: 'PATCH', url: `${cm1}?fieldValidation=Strict`, headers: mergePatch, payload: '{"foo":1}' },
    code: 422,
    reason: 'Invalid',
    message: /^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: unknown field "foo"$/,
  },
  {
    name: 'patch of a missing object',
    req: { method: 'PATCH', url: `${cms}/nope`, headers: mergePatch, payload: '{}' },
    code: 404,
    reason: 'NotFound',
    message: 'configmaps "nope" not found',
  },
  {
    name: 'force on a merge patch',
    req: { method: 'PATCH', url: `${cm1}?force=true`, headers: mergePatch, payload: '{}' },
    code: 422,
    reason: 'Invalid',
    message:
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
  },
];

const routeCases: Case[] = [
  {
    name: 'unknown resource',
    req: { method: 'GET', url: `${ns}/foos` },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'unknown group',
    req: { method: 'GET', url: '/apis/example.com/v1/widgets' },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'unknown version',
    req: { method: 'GET', url: '/api/v2/configmaps' },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'unknown group discovery',
    req: { method: 'GET', url: '/apis/example.com' },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'namespaced resource without namespace',
    req: { method: 'GET', url: '/api/v1/configmaps/cm1' },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'cluster resource in a namespace',
    req: { method: 'GET', url: `${ns}/namespaces` },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'unknown subresource',
    req: { method: 'GET', url: `${cm1}/status` },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'too deep a path',
    req: { method: 'DELETE', url: `${cm1}/a/b` },
    code: 404,
    reason: 'NotFound',
    message: notFound,
  },
  {
    name: 'missing object',
    req: { method: 'GET', url: `${cms}/nope` },
    code: 404,
    reason: 'NotFound',
    message: 'configmaps "nope" not found',
  },
  {
    name: 'update of a missing object',
    req: { method: 'PUT', url: `${cms}/nope`, headers: json, payload: cm({ metadata: { name: 'nope' } }) },
    code: 404,
    reason: 'NotFound',
    message: 'configmaps "nope" not found',
  },
  {
    name: 'POST to an item',
    req: { method: 'POST', url: cm1, headers: json, payload: cm() },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'PUT to a collection',
    req: { method: 'PUT', url: cms, headers: json, payload: cm() },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'POST across namespaces',
    req: { method: 'POST', url: '/api/v1/configmaps', headers: json, payload: cm() },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'DELETE of all namespaces',
    req: { method: 'DELETE', url: '/api/v1/namespaces' },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'GET of finalize',
    req: { method: 'GET', url: '/api/v1/namespaces/default/finalize' },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'POST to discovery',
    req: { method: 'POST', url: '/api/v1', headers: json, payload: '{}' },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'OPTIONS of an object',
    req: { method: 'OPTIONS', url: cm1 },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'legacy watch with POST',
    req: { method: 'POST', url: '/api/v1/watch/namespaces/default/configmaps', headers: json, payload: '{}' },
    code: 405,
    reason: 'MethodNotAllowed',
    message: notAllowed,
  },
  {
    name: 'Accept text/html',
    req: { method: 'GET', url: cm1, headers: { accept: 'text/html' } },
    code: 406,
    reason: 'NotAcceptable',
    message: '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml',
  },
  {
    name: 'Accept protobuf only',
    req: { method: 'GET', url: cms, headers: { accept: 'application/vnd.kubernetes.protobuf' } },
    code: 406,
    reason: 'NotAcceptable',
    message:
      '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/json;stream=watch',
  },
  {
    name: 'Accept an unknown transformation',
    req: { method: 'GET', url: cm1, headers: { accept: 'application/json;as=Foo;v=v1;g=meta.k8s.io' } },
    code: 406,
    reason: 'NotAcceptable',
    message: 'only the following media types are accepted: application/json, application/yaml',
  },
  {
    name: 'watch as YAML',
    req: { method: 'GET', url: `${cms}?watch=true`, headers: { accept: 'application/yaml' } },
    code: 406,
    reason: 'NotAcceptable',
    message: 'only the following media types are accepted: application/json;stream=watch',
  },
  {
    name: 'PartialObjectMetadata of a list',
    req: {
      method: 'GET',
      url: cms,
      headers: { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' },
    },
    code: 406,
    reason: 'NotAcceptable',
    message: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)',
  },
  {
    name: 'PartialObjectMetadataList of an object',
    req: {
      method: 'GET',
      url: cm1,
      headers: { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    },
    code: 406,
    reason: 'NotAcceptable',
    message:
      'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
  },
];

const deleteCases: Case[] = [
  {
    name: 'unknown propagationPolicy',
    req: { method: 'DELETE', url: `${cm1}?propagationPolicy=Bad` },
    code: 422,
    reason: 'Invalid',
    message:
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bad": supported values: "Foreground", "Background", "Orphan", "nil"',
  },
  {
    name: 'orphanDependents with propagationPolicy',
    req: {
      method: 'DELETE',
      url: cm1,
      headers: json,
      payload: '{"orphanDependents":true,"propagationPolicy":"Orphan"}',
    },
    code: 422,
    reason: 'Invalid',
    message:
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
  },
  {
    name: 'non-numeric gracePeriodSeconds',
    req: { method: 'DELETE', url: `${cm1}?gracePeriodSeconds=soon` },
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "soon": invalid syntax',
  },
  {
    name: 'delete options body, bad JSON',
    req: { method: 'DELETE', url: cm1, headers: json, payload: '{bad' },
    code: 400,
    reason: 'BadRequest',
    message:
      "couldn't get version/kind; json parse error: invalid character 'b' looking for beginning of object key string",
  },
  {
    name: 'delete options body, wrong type',
    req: { method: 'DELETE', url: cm1, headers: json, payload: '{"gracePeriodSeconds":"x"}' },
    code: 400,
    reason: 'BadRequest',
    message:
      'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
  },
  {
    name: 'delete options body, dryRun value',
    req: { method: 'DELETE', url: cm1, headers: json, payload: '{"dryRun":["X"]}' },
    code: 422,
    reason: 'Invalid',
    message:
      'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["X"]: supported values: "All"',
  },
  {
    // Go decodes a null into a pointer or slice field as unset (found by the bad-input soak: a 500).
    name: 'delete options body, nulls',
    req: {
      method: 'DELETE',
      url: `${cms}/nope`,
      headers: json,
      payload:
        '{"apiVersion":"meta.k8s.io/v1","kind":"","gracePeriodSeconds":null,"propagationPolicy":null,"dryRun":null,"orphanDependents":null,"preconditions":{"uid":null}}',
    },
    code: 404,
    reason: 'NotFound',
    message: 'configmaps "nope" not found',
  },
  {
    name: 'delete options body, a dryRun item of the wrong type',
    req: { method: 'DELETE', url: cm1, headers: json, payload: '{"dryRun":[5]}' },
    code: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal number into Go struct field DeleteOptions.dryRun of type string',
  },
  {
    name: 'delete options body, a precondition of the wrong type',
    req: { method: 'DELETE', url: cm1, headers: json, payload: '{"preconditions":{"uid":5}}' },
    code: 400,
    reason: 'BadRequest',
    message:
      'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID',
  },
  {
    name: 'delete options body as protobuf without the prefix',
    req: {
      method: 'DELETE',
      url: cm1,
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
      payload: 'k8s',
    },
    code: 400,
    reason: 'BadRequest',
    message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
  },
  {
    name: 'delete of a missing object',
    req: { method: 'DELETE', url: `${cms}/nope` },
    code: 404,
    reason: 'NotFound',
    message: 'configmaps "nope" not found',
  },
  {
    name: 'delete precondition uid',
    req: { method: 'DELETE', url: cm1, headers: json, payload: '{"preconditions":{"uid":"nope"}}' },
    code: 409,
    reason: 'Conflict',
    message:
      /^Operation cannot be fulfilled on ConfigMap "cm1": the UID in the precondition \(nope\) does not match the UID in record \([0-9a-f-]+\)\. The object might have been deleted and then recreated$/,
  },
  {
    name: 'deletecollection, bad selector',
    req: { method: 'DELETE', url: `${cms}?labelSelector=!!` },
    code: 400,
    reason: 'BadRequest',
    message: /./,
  },
];

let api: CoreAPI;

before(async () => {
  api = await coreAPI();
  const setup = [
    { method: 'POST', url: '/api/v1/namespaces', payload: { metadata: { name: 'default' } } },
    { method: 'POST', url: cms, payload: { metadata: { name: 'cm1' }, data: { a: 'b' } } },
    { method: 'POST', url: `${ns}/secrets`, payload: { metadata: { name: 's1' }, stringData: { a: 'b' } } },
  ] as const;
  for (const r of setup) {
    const res = await api.request({ ...r, payload: JSON.stringify(r.payload), headers: json });
    assert.equal(res.statusCode, 201, res.body);
  }
});

after(async () => {
  await api.close();
});

const all = [...bodyCases, ...optionCases, ...patchCases, ...routeCases, ...deleteCases];

test('the table has at least fifty cases', () => {
  assert.ok(all.length >= 50, `${all.length} cases`);
});

for (const c of all) {
  test(`${c.req.method ?? 'GET'} ${c.name}`, async () => {
    const before = await api.snapshot();
    const res = await api.request(c.req);
    // Errors are written in the media type the client accepts, YAML included.
    const yaml = res.headers['content-type'] === 'application/yaml';
    if (!yaml) assert.equal(res.headers['content-type'], 'application/json');
    const status = (yaml ? parseYAML(res.body) : res.json()) as StatusBody;
    assert.equal(status.kind, 'Status');
    assert.equal(status.apiVersion, 'v1');
    assert.equal(status.status, 'Failure');
    assert.equal(res.statusCode, c.code, res.body);
    assert.equal(status.code, c.code);
    assert.equal(status.reason, c.reason, res.body);
    if (typeof c.message === 'string') assert.equal(status.message, c.message);
    else assert.match(status.message, c.message);
    assert.equal(await api.snapshot(), before, 'the store changed');
  });
}
