// The protobuf tables of the built-in scheme compile: every field is in its schema, numbers are
// unique, and every referenced definition has a table or a codec.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinScheme, newBuiltinScheme } from '../../api/builtin-scheme.js';
import { isProtobufCodec } from '../../api/schema/protobuf.js';
import { compileMessagePlan, guessGoName } from './plan.js';

test('every built-in protobuf table compiles against its schema', () => {
  const scheme = builtinScheme();
  let compiled = 0;
  for (const name of Object.keys(scheme.definitions())) {
    const info = scheme.protobuf(name);
    if (info === undefined || isProtobufCodec(info)) continue;
    const plan = compileMessagePlan(scheme, name);
    assert.ok(plan.fields.size > 0, name);
    compiled++;
  }
  assert.ok(compiled >= 20, `only ${compiled} tables`);
});

test('every served kind with a table decodes from protobuf', () => {
  const scheme = builtinScheme();
  for (const kind of [
    'ConfigMap',
    'ConfigMapList',
    'Secret',
    'SecretList',
    'Namespace',
    'NamespaceList',
    'Status',
    'DeleteOptions',
    'WatchEvent',
  ]) {
    const def = scheme.kindFor('v1', kind)?.definition;
    assert.ok(def !== undefined && scheme.protobuf(def) !== undefined, kind);
  }
});

test('every kind of k8s.io/api has a protobuf table: clients send them as protobuf', () => {
  const scheme = builtinScheme();
  for (const kind of scheme.kinds()) {
    if (!kind.definition.startsWith('io.k8s.api.')) continue;
    const info = scheme.protobuf(kind.definition);
    assert.ok(info !== undefined && !isProtobufCodec(info), `${kind.definition} needs a protobuf table`);
  }
});

test('an incomplete table is a programming error, named', () => {
  const scheme = newBuiltinScheme().register({
    definitions: {
      'x.Bad': { type: 'object', properties: { a: { type: 'object' }, b: { $ref: 'x.None' } } },
      'x.None': { type: 'string' },
    },
    protobuf: { 'x.Bad': { a: 1 }, 'x.Worse': { b: 2 } },
  });
  assert.throws(() => compileMessagePlan(scheme, 'x.Bad'), {
    message: 'x.Bad.a: no protobuf form for a object schema',
  });
  assert.throws(() => compileMessagePlan(scheme, 'x.Worse'), {
    message: 'x.Worse has no protobuf message table or no schema',
  });
});

test('Go field names for error texts', () => {
  assert.equal(guessGoName('metadata', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'ObjectMeta');
  assert.equal(guessGoName('apiVersion', undefined), 'APIVersion');
  assert.equal(guessGoName('uid', undefined), 'UID');
  assert.equal(guessGoName('podIPs', undefined), 'PodIPs');
  assert.equal(guessGoName('ips', undefined), 'IPs');
  assert.equal(guessGoName('identity', undefined), 'Identity');
  assert.equal(guessGoName('binaryData', undefined), 'BinaryData');
});
