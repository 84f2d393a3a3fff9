import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pb } from './testing/proto-writer.js';
import { ProtoError, WireReader } from './wire.js';

const reader = (bytes: Iterable<number>): WireReader => new WireReader(Uint8Array.from(bytes), 'Thing');
const fails = (fn: () => unknown, message: string): void => {
  assert.throws(fn, (err: unknown) => err instanceof ProtoError && err.message === message, message);
};

test('varints up to ten bytes; the eleventh overflows', () => {
  assert.equal(reader([0x96, 0x01]).uvarint(), 150n);
  assert.equal(reader(pb().uvarint(-1).finish()).uvarint(), (1n << 64n) - 1n);
  fails(() => reader([...Array<number>(10).fill(0xff), 0x01]).uvarint(), 'proto: integer overflow');
  fails(() => reader([0x80]).uvarint(), 'unexpected EOF');
});

test('tags: end group and non-positive field numbers are refused with the message name', () => {
  assert.deepEqual(reader([0x0a]).tag(), { field: 1, wireType: 2 });
  fails(() => reader([0x0c]).tag(), 'proto: Thing: wiretype end group for non-group');
  fails(() => reader([0x02]).tag(), 'proto: Thing: illegal tag 0 (wire type 2)');
  // The field number is the tag's upper bits as a Go int32.
  fails(
    () =>
      reader(
        pb()
          .uvarint(0x7fffffffn << 4n)
          .finish(),
      ).tag(),
    'proto: Thing: illegal tag -2 (wire type 34359738352)',
  );
});

test('lengths: negative and past the end', () => {
  fails(
    () => reader(pb().uvarint(-1).finish()).lengthDelimited(),
    'proto: negative length found during unmarshaling',
  );
  fails(() => reader([0x05, 1, 2]).lengthDelimited(), 'unexpected EOF');
  assert.deepEqual([...reader([0x02, 7, 8, 9]).lengthDelimited()], [7, 8]);
});

test('skipping: every wire type, nested groups, and the failures of skipGenerated', () => {
  const r = reader(pb().varint(1, 300).double(2, 1).string(3, 'abc').float(4, 1).raw([0x0a]).finish());
  for (let i = 0; i < 4; i++) r.skip(r.tag().wireType);
  assert.deepEqual(r.tag(), { field: 1, wireType: 2 });
  const group = reader(pb().tag(5, 3).varint(1, 1).tag(6, 3).tag(6, 4).tag(5, 4).varint(9, 9).finish());
  group.skip(group.tag().wireType);
  assert.deepEqual(group.tag(), { field: 9, wireType: 0 });
  fails(() => {
    reader([0x0e]).skip(6);
  }, 'proto: illegal wireType 6');
  fails(() => {
    reader([0x01, 2]).skip(1);
  }, 'unexpected EOF');
  fails(() => {
    reader([]).skip(3);
  }, 'unexpected EOF');
  fails(() => {
    reader([]).skip(4);
  }, 'proto: unexpected end of group');
});
