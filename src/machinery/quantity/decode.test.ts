// Quantity fields of built-in types come out of the structural decoder in kube's canonical form.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { coreV1 } from '../../api/schema/api-module.js';
import { ProtobufDecoder } from '../protobuf/decoder.js';
import { entry, objectMeta, pb } from '../protobuf/testing/proto-writer.js';
import { StructuralDecoder } from '../structural/decoder.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);
const kind = (k: string) => {
  const info = scheme.kindFor('v1', k);
  if (info === undefined) throw new Error(k);
  return info;
};
const podWith = (resources: unknown) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'c', image: 'i', resources }] },
});
const decodePod = (resources: unknown) =>
  decoder.decodeText(JSON.stringify(podWith(resources)), kind('Pod'), { fieldValidation: 'Strict' });

describe('Quantity fields decode to the canonical form', () => {
  it('rewrites pod requests and limits', () => {
    const result = decodePod({
      requests: { cpu: '1000m', memory: '1024Mi', 'ephemeral-storage': ' 1.5Gi ' },
      limits: { cpu: 0.5, memory: '2000000k' },
    });
    assert.equal(result.error, undefined);
    const c = (result.object as ReturnType<typeof podWith>).spec.containers[0] as {
      resources: unknown;
    };
    assert.deepEqual(c.resources, {
      requests: { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1536Mi' },
      limits: { cpu: '500m', memory: '2G' },
    });
  });

  it('rewrites node capacity and keeps text already canonical', () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      status: { capacity: { cpu: '4', memory: '8Gi', pods: '110', x: '1e3' } },
    };
    const result = decoder.decodeText(JSON.stringify(body), kind('Node'), { fieldValidation: 'Strict' });
    assert.deepEqual((result.object as typeof body).status.capacity, {
      cpu: '4',
      memory: '8Gi',
      pods: '110',
      x: '1e3',
    });
  });

  it('refuses bad quantities with kube\u2019s errors', () => {
    assert.equal(
      decodePod({ requests: { cpu: '1.2.3' } }).error,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    assert.equal(decodePod({ requests: { cpu: '1Kii' } }).error, "unable to parse quantity's suffix");
    assert.equal(decodePod({ requests: { cpu: '' } }).error?.startsWith('quantities must match'), true);
    assert.equal(decodePod({ requests: { cpu: true } }).error?.startsWith('quantities must match'), true);
  });
});

describe('Quantity fields of protobuf bodies', () => {
  it('come out canonical once the converted body is decoded as JSON, as request bodies are', () => {
    const quantity = (text: string) => pb().string(1, text);
    const resources = pb()
      .message(1, entry('cpu', quantity('1000m')))
      .message(1, entry('memory', quantity('1024Mi')))
      .message(2, entry('cpu', quantity('0.5')));
    const container = pb().string(1, 'c').string(2, 'i').message(8, resources);
    const raw = pb().message(1, objectMeta('p', 'default')).message(2, pb().message(2, container));
    const json = new ProtobufDecoder(scheme).toJSON(coreV1('Pod'), raw.finish());
    const result = decoder.decodeValue(json, kind('Pod'), { fieldValidation: 'Ignore' });
    assert.equal(result.error, undefined);
    const c = (result.object as { spec: { containers: { resources: unknown }[] } }).spec.containers[0];
    assert.deepEqual(c?.resources, { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } });
  });
});
