import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  frameMessage,
  grpcStatus,
  GrpcStatusError,
  MessageReader,
  statusFromHeaders,
} from './grpc-frames.js';

it('MessageReader reassembles messages split across and packed into DATA chunks', () => {
  const msgs = [Buffer.from('hello'), Buffer.alloc(0), Buffer.alloc(70_000, 7), Buffer.from('x')];
  const wire = Buffer.concat(msgs.map(frameMessage));
  for (const size of [1, 3, 5, 6, 4096, wire.length]) {
    const reader = new MessageReader(1 << 20);
    const got: Buffer[] = [];
    for (let i = 0; i < wire.length; i += size) got.push(...reader.push(wire.subarray(i, i + size)));
    assert.deepEqual(got, msgs, `chunk size ${size}`);
    assert.equal(reader.pending, false);
  }
});

it('MessageReader refuses messages over its limit and compressed messages', () => {
  assert.throws(() => new MessageReader(10).push(frameMessage(Buffer.alloc(11))), GrpcStatusError);
  const compressed = frameMessage(Buffer.from('z'));
  compressed[0] = 1;
  assert.throws(() => new MessageReader(10).push(compressed), /compressed/);
});

it('statusFromHeaders reads grpc-status and the percent-encoded grpc-message', () => {
  assert.equal(statusFromHeaders({}), null);
  assert.equal(statusFromHeaders({ 'grpc-status': '0' }), 'ok');
  const err = statusFromHeaders({
    'grpc-status': '11',
    'grpc-message': 'etcdserver: mvcc: required%20revision',
  });
  assert.ok(err instanceof GrpcStatusError);
  assert.equal(err.code, grpcStatus.OUT_OF_RANGE);
  assert.equal(err.details, 'etcdserver: mvcc: required revision');
});
