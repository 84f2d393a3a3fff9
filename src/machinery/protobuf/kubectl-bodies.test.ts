// What kubectl's protobuf bodies decode to: the JSON kubectl would send for the same objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { coreV1 } from '../../api/schema/api-module.js';
import { ProtobufDecoder } from './decoder.js';
import * as kubectl from './testing/kubectl-bodies.js';

const decoder = new ProtobufDecoder(builtinScheme());

function decode(hex: string, definition: string): { apiVersion: string; kind: string; object: unknown } {
  const unk = decoder.envelope(kubectl.body(hex));
  assert.equal(unk.contentEncoding, '');
  assert.equal(unk.contentType, '');
  return { apiVersion: unk.apiVersion, kind: unk.kind, object: decoder.toJSON(definition, unk.raw) };
}

const meta = (name: string, namespace?: string): unknown => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  creationTimestamp: null,
});

test('kubectl create configmap', () => {
  assert.deepEqual(decode(kubectl.createConfigMap, coreV1('ConfigMap')), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    object: { metadata: meta('cm1', 'default'), data: { a: 'b', c: 'd' } },
  });
  assert.deepEqual(decode(kubectl.createConfigMapBinary, coreV1('ConfigMap')).object, {
    metadata: meta('cm2', 'default'),
    data: { text: 'hello' },
    binaryData: { 'blob.bin': Buffer.from('\x00\x01\x02\xffcapstan', 'latin1').toString('base64') },
  });
});

test('kubectl create secret generic', () => {
  assert.deepEqual(decode(kubectl.createSecret, coreV1('Secret')), {
    apiVersion: 'v1',
    kind: 'Secret',
    object: { metadata: meta('s1', 'default'), data: { a: 'Yg==' } },
  });
  assert.deepEqual(decode(kubectl.createBasicAuthSecret, coreV1('Secret')).object, {
    metadata: meta('s2', 'default'),
    data: { password: 'cA==', username: 'dQ==' },
    type: 'kubernetes.io/basic-auth',
  });
});

test('kubectl create namespace', () => {
  assert.deepEqual(decode(kubectl.createNamespace, coreV1('Namespace')), {
    apiVersion: 'v1',
    kind: 'Namespace',
    object: { metadata: meta('n1'), spec: {}, status: {} },
  });
});
