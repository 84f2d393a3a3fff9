import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mentionsString, metadataPeeker, peekUID } from './metadata-peek.js';

const gcFields = metadataPeeker([
  'uid',
  'name',
  'namespace',
  'ownerReferences',
  'deletionTimestamp',
  'finalizers',
]);

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    resourceVersion: '12',
    name: 'web-1',
    namespace: 'default',
    uid: 'u-1',
    labels: { app: 'web', 'odd"key': 'a}b]c' },
    annotations: { note: 'quote \\" and brace { inside', uid: 'not this one' },
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', blockOwnerDeletion: true },
    ],
    finalizers: ['example.com/x'],
    managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {} } } } }],
  },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

describe('metadataPeeker', () => {
  it('reads the named members of metadata and nothing else', () => {
    const got = gcFields(Buffer.from(JSON.stringify(pod)));
    assert.deepEqual(got, {
      uid: 'u-1',
      name: 'web-1',
      namespace: 'default',
      ownerReferences: pod.metadata.ownerReferences,
      finalizers: ['example.com/x'],
    });
  });

  it('finds metadata after other members and through whitespace', () => {
    const text = `{ "kind" : "X", "spec": {"metadata": {"uid": "inner"}} ,\n "metadata" : { "uid" : "outer" , "deletionTimestamp": "2024-01-01T00:00:00Z" } }`;
    assert.deepEqual(gcFields(Buffer.from(text)), {
      uid: 'outer',
      deletionTimestamp: '2024-01-01T00:00:00Z',
    });
  });

  it('answers an empty result for empty metadata and null for no metadata or broken JSON', () => {
    assert.deepEqual(gcFields(Buffer.from('{"metadata":{}}')), {});
    assert.equal(gcFields(Buffer.from('{"kind":"X"}')), null);
    assert.equal(gcFields(Buffer.from('{"metadata":{"uid":"a",')), null);
    assert.equal(gcFields(Buffer.from('{"metadata":{"uid":tru}}')), null);
    assert.equal(gcFields(Buffer.from('[1]')), null);
  });

  it('takes escaped strings whole', () => {
    const json = Buffer.from(JSON.stringify({ metadata: { name: 'a\\"b', uid: 'x"y' } }));
    assert.deepEqual(gcFields(json), { name: 'a\\"b', uid: 'x"y' });
  });
});

describe('peekUID', () => {
  it('stops at the uid', () => {
    assert.equal(peekUID(Buffer.from(JSON.stringify(pod))), 'u-1');
    // What follows the uid is not read, so not even checked.
    assert.equal(peekUID(Buffer.from('{"metadata":{"uid":"early","x":')), 'early');
  });

  it('is undefined without a string uid', () => {
    assert.equal(peekUID(Buffer.from('{"metadata":{"name":"a"}}')), undefined);
    assert.equal(peekUID(Buffer.from('{"metadata":{"uid":7}}')), undefined);
  });
});

describe('mentionsString', () => {
  const owners = mentionsString('ownerReferences');
  it('finds the quoted string wherever it is', () => {
    assert.equal(owners(Buffer.from('{"metadata":{"ownerReferences":[]}}')), true);
    assert.equal(owners(Buffer.from('{"a":"ownerReferences"}')), true);
    assert.equal(owners(Buffer.from('"ownerReferences"')), true);
  });
  it('does not take a longer or unquoted spelling', () => {
    assert.equal(owners(Buffer.from('{"f:ownerReferences":{}}')), false);
    assert.equal(owners(Buffer.from('{"xownerReferences":1,"wnerReferences":2}')), false);
    assert.equal(owners(Buffer.from('ownerReferences')), false);
    assert.equal(owners(Buffer.from('{"ownerReferencesX":1}')), false);
  });
  it('finds it after near misses', () => {
    assert.equal(owners(Buffer.from('{"f:ownerReferences":{},"ownerReferences":[]}')), true);
    assert.equal(mentionsString('finalizers')(Buffer.from('{"sizers":1,"finalizers":[]}')), true);
  });
});
