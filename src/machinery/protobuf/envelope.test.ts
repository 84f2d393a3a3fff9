import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeEnvelope, hasProtobufMagic, protobufMagic } from './envelope.js';
import { kubeProtobuf, pb } from './testing/proto-writer.js';
import { ProtoError } from './wire.js';

const fails = (data: Uint8Array, message: string): void => {
  assert.throws(
    () => decodeEnvelope(data),
    (err: unknown) => err instanceof ProtoError && err.message === message,
    message,
  );
};
const withMagic = (w: ReturnType<typeof pb>): Uint8Array => Buffer.concat([protobufMagic, w.finish()]);

test('the envelope: type, raw bytes, content encoding and type', () => {
  const body = kubeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap' }, Uint8Array.of(1, 2, 3));
  assert.ok(hasProtobufMagic(body));
  const unk = decodeEnvelope(body);
  assert.deepEqual(
    { ...unk, raw: [...unk.raw] },
    { apiVersion: 'v1', kind: 'ConfigMap', raw: [1, 2, 3], contentEncoding: '', contentType: '' },
  );
});

test('a TypeMeta seen twice merges field by field; unknown fields are skipped', () => {
  const body = withMagic(
    pb()
      .message(1, pb().string(1, 'v1'))
      .varint(9, 1)
      .message(1, pb().string(2, 'Secret').string(7, 'x'))
      .string(4, 'application/json'),
  );
  const unk = decodeEnvelope(body);
  assert.equal(unk.apiVersion, 'v1');
  assert.equal(unk.kind, 'Secret');
  assert.equal(unk.raw.length, 0);
  assert.equal(unk.contentType, 'application/json');
});

test('missing or wrong prefix, empty body, malformed envelope', () => {
  fails(new Uint8Array(0), 'empty data');
  fails(
    Buffer.from('{"kind":"ConfigMap"}'),
    'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
  );
  fails(
    Buffer.from('k8s'),
    'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
  );
  fails(
    Buffer.from('k8s\x01abc', 'latin1'),
    'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
  );
  fails(protobufMagic, 'empty body');
  fails(withMagic(pb().varint(2, 1)), 'proto: wrong wireType = 0 for field Raw');
  fails(withMagic(pb().message(1, pb().varint(1, 1))), 'proto: wrong wireType = 0 for field APIVersion');
  fails(withMagic(pb().tag(0, 0)), 'proto: Unknown: illegal tag 0 (wire type 0)');
  fails(withMagic(pb().tag(2, 2).uvarint(10)), 'unexpected EOF');
});
