// Protobuf request bodies (what kubectl and client-go typed clients send for built-in kinds)
// against the real configmap, secret and namespace storages; answers stay JSON.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InjectOptions } from 'light-my-request';
import * as kubectl from '../machinery/protobuf/testing/kubectl-bodies.js';
import {
  entry,
  kubeProtobuf,
  objectMeta,
  pb,
  type ProtoWriter,
} from '../machinery/protobuf/testing/proto-writer.js';
import { coreAPI, type CoreAPI } from './testing/core-api.js';

const protobuf = 'application/vnd.kubernetes.protobuf';
const headers = { 'content-type': protobuf, accept: `${protobuf},application/json` };
const cms = '/api/v1/namespaces/default/configmaps';
const configMap = (raw: ProtoWriter, kind = 'ConfigMap'): Buffer =>
  kubeProtobuf({ apiVersion: 'v1', kind }, raw);
const deleteOptions = (raw: ProtoWriter, kind = 'DeleteOptions'): Buffer =>
  kubeProtobuf({ apiVersion: 'v1', kind }, raw);

let api: CoreAPI;

async function send(
  req: InjectOptions,
): Promise<{ code: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const res = await api.request({ headers, ...req });
  return { code: res.statusCode, body: res.json(), headers: res.headers };
}

async function expectStatus(
  req: InjectOptions,
  want: { code: number; reason: string; message: string },
): Promise<void> {
  const res = await send(req);
  assert.deepEqual({ code: res.code, reason: res.body['reason'], message: res.body['message'] }, want);
}

before(async () => {
  api = await coreAPI();
  const res = await api.request({
    method: 'POST',
    url: '/api/v1/namespaces',
    headers,
    payload: kubectl.body(kubectl.createNamespace),
  });
  assert.equal(res.statusCode, 201, res.body);
  const dflt = await api.request({
    method: 'POST',
    url: '/api/v1/namespaces',
    payload: '{"metadata":{"name":"default"}}',
  });
  assert.equal(dflt.statusCode, 201, dflt.body);
});

after(async () => {
  await api.close();
});

test('kubectl create namespace: a Namespace from protobuf, answered in JSON', async () => {
  const res = await send({ method: 'GET', url: '/api/v1/namespaces/n1' });
  assert.equal(res.code, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(res.body['status'], { phase: 'Active' });
  assert.deepEqual(res.body['spec'], { finalizers: ['kubernetes'] });
});

test('kubectl create configmap and secret, with the fieldValidation=Strict kubectl sends', async () => {
  const url = `${cms}?fieldManager=kubectl-create&fieldValidation=Strict`;
  const cm = await send({ method: 'POST', url, payload: kubectl.body(kubectl.createConfigMap) });
  assert.equal(cm.code, 201, JSON.stringify(cm.body));
  assert.deepEqual(cm.body['data'], { a: 'b', c: 'd' });
  assert.equal((cm.body['metadata'] as { name: string }).name, 'cm1');
  const bin = await send({ method: 'POST', url, payload: kubectl.body(kubectl.createConfigMapBinary) });
  assert.equal(bin.code, 201, JSON.stringify(bin.body));
  assert.deepEqual(bin.body['binaryData'], { 'blob.bin': 'AAEC/2NhcHN0YW4=' });
  const secret = await send({
    method: 'POST',
    url: '/api/v1/namespaces/default/secrets',
    payload: kubectl.body(kubectl.createSecret),
  });
  assert.equal(secret.code, 201, JSON.stringify(secret.body));
  assert.equal(secret.body['type'], 'Opaque');
  assert.deepEqual(secret.body['data'], { a: 'Yg==' });
});

test('a protobuf field number this server does not know is skipped, as kube skips it', async () => {
  const raw = pb().message(1, objectMeta('extra')).varint(99, 1).message(2, entry('k', 'v'));
  const res = await send({ method: 'POST', url: `${cms}?fieldValidation=Strict`, payload: configMap(raw) });
  assert.equal(res.code, 201, JSON.stringify(res.body));
  assert.deepEqual(res.body['data'], { k: 'v' });
});

test('an update (PUT) from protobuf', async () => {
  const current = await send({ method: 'GET', url: `${cms}/cm1` });
  const meta = current.body['metadata'] as { resourceVersion: string; uid: string };
  const raw = pb()
    .message(1, objectMeta('cm1', 'default').string(6, meta.resourceVersion))
    .message(2, entry('a', 'changed'));
  const res = await send({ method: 'PUT', url: `${cms}/cm1`, payload: configMap(raw) });
  assert.equal(res.code, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body['data'], { a: 'changed' });
});

test('malformed protobuf bodies are 400 in the "cannot be handled as" form', async () => {
  await expectStatus(
    { method: 'POST', url: cms, payload: configMap(pb().tag(2, 2).uvarint(9).raw([1])) },
    {
      code: 400,
      reason: 'BadRequest',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF',
    },
  );
  await expectStatus(
    { method: 'POST', url: cms, payload: configMap(pb().varint(1, 3)) },
    {
      code: 400,
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field ObjectMeta',
    },
  );
  await expectStatus(
    { method: 'POST', url: cms, payload: Buffer.from('k8s\0\x0a\x05', 'latin1') },
    {
      code: 400,
      reason: 'BadRequest',
      message:
        'the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (6b3873000a05)',
    },
  );
  await expectStatus(
    { method: 'POST', url: cms, payload: '{"kind":"ConfigMap"}' },
    {
      code: 400,
      reason: 'BadRequest',
      message:
        'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    },
  );
});

test('the envelope names the kind: another kind, or an unknown one, fails as in JSON', async () => {
  await expectStatus(
    { method: 'POST', url: cms, payload: configMap(pb(), 'Secret') },
    {
      code: 400,
      reason: 'BadRequest',
      message:
        'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
    },
  );
  await expectStatus(
    { method: 'POST', url: cms, payload: configMap(pb(), 'Widget') },
    {
      code: 400,
      reason: 'BadRequest',
      message:
        'Widget in version "v1" cannot be handled as a ConfigMap: no kind "Widget" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    },
  );
  // An envelope without a type takes the endpoint's.
  const untyped = kubeProtobuf({ apiVersion: '', kind: '' }, pb().message(1, objectMeta('untyped')));
  assert.equal((await send({ method: 'POST', url: cms, payload: untyped })).code, 201);
});

test('protobuf DeleteOptions: preconditions, grace period, validation, errors passed through', async () => {
  const precondition = pb().message(2, pb().string(1, 'not-the-uid'));
  const conflict = await send({ method: 'DELETE', url: `${cms}/cm1`, payload: deleteOptions(precondition) });
  assert.equal(conflict.code, 409);
  assert.match(
    String(conflict.body['message']),
    /the UID in the precondition \(not-the-uid\) does not match/,
  );
  await expectStatus(
    { method: 'DELETE', url: `${cms}/cm1`, payload: deleteOptions(pb().string(5, 'X')) },
    {
      code: 422,
      reason: 'Invalid',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["X"]: supported values: "All"',
    },
  );
  await expectStatus(
    { method: 'DELETE', url: `${cms}/cm1`, payload: deleteOptions(pb(), 'Status') },
    {
      code: 400,
      reason: 'BadRequest',
      message: 'no kind "Status" is registered for version "v1" in scheme "pkg/runtime/scheme.go:100"',
    },
  );
  await expectStatus(
    { method: 'DELETE', url: `${cms}/cm1`, payload: deleteOptions(pb().string(1, 'x')) },
    {
      code: 400,
      reason: 'BadRequest',
      message: 'proto: wrong wireType = 2 for field GracePeriodSeconds',
    },
  );
  const ok = await send({
    method: 'DELETE',
    url: `${cms}/cm1`,
    payload: deleteOptions(pb().varint(1, 0).string(4, 'Background')),
  });
  assert.equal(ok.code, 200, JSON.stringify(ok.body));
  assert.equal((await send({ method: 'GET', url: `${cms}/cm1` })).code, 404);
});

test('deletecollection with a protobuf DeleteOptions body (dry run)', async () => {
  const res = await send({ method: 'DELETE', url: cms, payload: deleteOptions(pb().string(5, 'All')) });
  assert.equal(res.code, 200, JSON.stringify(res.body));
  assert.ok(((res.body['items'] as unknown[] | undefined) ?? []).length > 0);
  assert.equal((await send({ method: 'GET', url: `${cms}/cm2` })).code, 200);
});
