// A required scalar in protobuf bodies: gogo's Marshal writes every non-pointer scalar field of a
// proto2 message, zero included (a ReplicaSetStatus from client-go carries replicas=0 and the
// omitempty counts at 0); another writer may leave a zero out. The decoder keeps a required one as
// a JSON body sends it and drops the omitempty zeros, so both bodies become the object a JSON body
// gives, and the served bytes are kube's: "status":{"replicas":0} either way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { inGoMemberOrder } from '../json/go-member-order.js';
import { ProtobufDecoder } from './decoder.js';
import { pb } from './testing/proto-writer.js';

const scheme = builtinScheme();
const decoder = new ProtobufDecoder(scheme);
const STATUS = 'io.k8s.api.apps.v1.ReplicaSetStatus';

const served = (status: Record<string, unknown>): string => {
  const rs = { kind: 'ReplicaSet', apiVersion: 'apps/v1', metadata: { name: 'r' }, status };
  return JSON.stringify((inGoMemberOrder(scheme, rs) as { status: unknown }).status);
};

describe('a ReplicaSetStatus sent as protobuf', () => {
  const cases = [
    {
      name: 'as gogo writes a zero status: every non-pointer scalar at 0',
      raw: pb().varint(1, 0).varint(2, 0).varint(3, 0).varint(4, 0).varint(5, 0),
      json: { replicas: 0 },
    },
    { name: 'with nothing in it', raw: pb(), json: {} },
    {
      name: 'as gogo writes replicas 2, ready 1',
      raw: pb().varint(1, 2).varint(2, 0).varint(3, 0).varint(4, 1).varint(5, 0),
      json: { replicas: 2, readyReplicas: 1 },
    },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const got = decoder.toJSON(STATUS, c.raw.finish());
      assert.deepEqual(got, c.json);
      const want = 'readyReplicas' in c.json ? '{"replicas":2,"readyReplicas":1}' : '{"replicas":0}';
      assert.equal(served(got), want);
    });
  }
});
