import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { coreV1 } from '../../api/schema/api-module.js';
import { ProtobufDecoder } from './decoder.js';
import { entry, kubeProtobuf, objectMeta, pb } from './testing/proto-writer.js';
import { WIDGET, widgetScheme } from './testing/widget-module.js';
import { ProtoError } from './wire.js';

const core = new ProtobufDecoder(builtinScheme());
const widgets = new ProtobufDecoder(widgetScheme());
const CONFIG_MAP = coreV1('ConfigMap');
const SECRET = coreV1('Secret');
const NAMESPACE = coreV1('Namespace');

test('a ConfigMap: maps from their entries, zero scalars dropped, a zero Time as null', () => {
  const raw = pb()
    .message(1, objectMeta('cm', 'default'))
    .message(2, entry('a', 'b'))
    .message(2, entry('c', ''))
    .message(3, entry('bin', Uint8Array.of(0, 1, 2, 255)));
  assert.deepEqual(core.toJSON(CONFIG_MAP, raw.finish()), {
    metadata: { name: 'cm', namespace: 'default', creationTimestamp: null },
    data: { a: 'b', c: '' },
    binaryData: { bin: 'AAEC/w==' },
  });
});

test('pointer fields are kept whatever their value; non-pointer zeroes are not', () => {
  const meta = objectMeta('s').varint(10, 0).message(9, pb().varint(1, 1700000000));
  const raw = pb().message(1, meta).string(3, '').bool(5, false);
  assert.deepEqual(core.toJSON(SECRET, raw.finish()), {
    metadata: {
      name: 's',
      creationTimestamp: null,
      deletionTimestamp: '2023-11-14T22:13:20Z',
      deletionGracePeriodSeconds: 0,
    },
    immutable: false,
  });
});

test('a map entry without a key or value stands for Go zero values', () => {
  const raw = pb()
    .message(2, pb().string(1, 'only-key'))
    .message(2, pb().bytes(2, Uint8Array.of(65)));
  assert.deepEqual(core.toJSON(SECRET, raw.finish()), { data: { 'only-key': '', '': 'QQ==' } });
});

test('a map key "__proto__" is data', () => {
  const out = core.toJSON(CONFIG_MAP, pb().message(2, entry('__proto__', 'x')).finish());
  assert.equal(JSON.stringify(out), '{"data":{"__proto__":"x"}}');
});

test('structs are always written, even empty; fields without omitempty keep their zero value', () => {
  const owner = pb().string(1, '').string(3, 'o').string(4, '').string(5, 'v1');
  const condition = pb()
    .string(1, 'NamespaceDeletionContentFailure')
    .string(2, '')
    .message(4, pb())
    .string(5, '')
    .string(6, '');
  const raw = pb()
    .message(1, objectMeta('n').message(13, owner))
    .message(2, pb())
    .message(3, pb().string(1, '').message(2, condition));
  assert.deepEqual(core.toJSON(NAMESPACE, raw.finish()), {
    metadata: {
      name: 'n',
      creationTimestamp: null,
      ownerReferences: [{ kind: '', name: 'o', uid: '', apiVersion: 'v1' }],
    },
    spec: {},
    status: {
      conditions: [{ type: 'NamespaceDeletionContentFailure', status: '', lastTransitionTime: null }],
    },
  });
});

test('managedFields: time, fieldsV1 as embedded JSON, repeated messages in order', () => {
  const fields = Buffer.from('{"f:data":{"f:a":{}}}');
  const mf = (manager: string): Uint8Array =>
    pb()
      .string(1, manager)
      .string(2, 'Update')
      .string(3, 'v1')
      .message(4, pb().varint(1, 0))
      .string(6, 'FieldsV1')
      .message(7, pb().bytes(1, fields))
      .string(8, '')
      .finish();
  const raw = pb().message(1, objectMeta('cm').message(17, mf('kubectl')).message(17, mf('other')));
  const meta = core.toJSON(CONFIG_MAP, raw.finish())['metadata'] as { managedFields: unknown[] };
  const expected = (manager: string): unknown => ({
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time: '1970-01-01T00:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { 'f:a': {} } },
  });
  assert.deepEqual(meta.managedFields, [expected('kubectl'), expected('other')]);
});

test('every shape: numbers, packed and unpacked lists, codecs, nested messages', () => {
  const raw = pb()
    .varint(2, -5)
    .varint(3, 9007199254740991n)
    .double(4, 0.25)
    .float(5, 1.5)
    .bool(6, false)
    .packed(7, [80, 443])
    .varint(7, 8080)
    .string(8, 'a')
    .string(8, 'b')
    .bytes(9, Buffer.from('hi'))
    .message(10, pb().varint(1, 1).varint(2, 0).string(3, 'http'))
    .message(11, entry('cpu', pb().string(1, '500m')))
    .message(11, pb().string(1, 'memory'))
    .message(12, pb().varint(1, 90_500_000_000n))
    .message(13, pb().varint(1, 1700000000).varint(2, 123456789))
    .message(14, pb().bytes(1, Buffer.from('{"x":[1,true]}')))
    .message(15, pb().string(1, 'p1').varint(2, 0))
    .message(16, entry('k', pb().string(1, 'p2').varint(2, 3)))
    .message(17, pb().string(1, '').varint(2, 0))
    .string(18, '')
    .message(19, pb())
    .message(20, pb())
    .message(21, pb().varint(1, 0).varint(2, 0));
  assert.deepEqual(widgets.toJSON(WIDGET, raw.finish()), {
    count: -5,
    total: 9007199254740991,
    ratio: 0.25,
    share: 1.5,
    enabled: false,
    ports: [80, 443, 8080],
    names: ['a', 'b'],
    blob: 'aGk=',
    port: 'http',
    limits: { cpu: '500m', memory: '0' },
    timeout: '1m30.5s',
    renewTime: '2023-11-14T22:13:20.123456Z',
    payload: { x: [1, true] },
    parts: [{ name: 'p1' }],
    partsByName: { k: { name: 'p2', weight: 3 } },
    main: { name: '' },
    optionalName: '',
    selector: {},
    when: null,
    maxUnavailable: 0,
  });
});

test('a message seen twice merges; a scalar seen twice keeps the last', () => {
  const raw = pb().message(17, pb().string(1, 'a')).message(17, pb().varint(2, 7)).varint(2, 1).varint(2, 2);
  assert.deepEqual(widgets.toJSON(WIDGET, raw.finish()), { count: 2, main: { name: 'a', weight: 7 } });
});

test('unknown field numbers are skipped, groups included, as gogo Unmarshal does', () => {
  const raw = pb()
    .varint(99, 5)
    .double(98, 1)
    .string(97, 'x')
    .float(96, 1)
    .tag(95, 3)
    .varint(1, 1)
    .tag(94, 3)
    .tag(94, 4)
    .tag(95, 4)
    .message(1, objectMeta('cm'));
  assert.deepEqual(core.toJSON(CONFIG_MAP, raw.finish()), { metadata: { name: 'cm', creationTimestamp: null } });
});

test('a RawExtension may hold an object of its own in kube protobuf', () => {
  const nested = kubeProtobuf(
    { apiVersion: 'v1', kind: 'ConfigMap' },
    pb().message(1, objectMeta('inner')).message(2, entry('k', 'v')),
  );
  const out = widgets.toJSON(WIDGET, pb().message(14, pb().bytes(1, nested)).finish());
  assert.deepEqual(out['payload'], {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'inner', creationTimestamp: null },
    data: { k: 'v' },
  });
  const unknown = kubeProtobuf({ apiVersion: 'v1', kind: 'Nope' }, pb());
  assert.throws(() => widgets.toJSON(WIDGET, pb().message(14, pb().bytes(1, unknown)).finish()), {
    message: 'no kind "Nope" is registered for protobuf in version "v1"',
  });
});

test('nesting deeper than any real object is refused, not a stack overflow', () => {
  let widget = pb().message(17, pb());
  for (let i = 0; i < 600; i++) {
    const nested = kubeProtobuf({ apiVersion: 'test.capstan.io/v1', kind: 'Widget' }, widget);
    widget = pb().message(14, pb().bytes(1, nested));
  }
  assert.throws(() => widgets.toJSON(WIDGET, widget.finish()), {
    message: 'proto: messages nested more than 500 deep',
  });
});

test('malformed values fail with the texts of kube decode errors', () => {
  const cases: [Uint8Array, string][] = [
    [pb().varint(1, 1).finish(), 'proto: wrong wireType = 0 for field ObjectMeta'],
    [pb().string(4, 'x').finish(), 'proto: wrong wireType = 2 for field Immutable'],
    [pb().message(1, pb().varint(1, 1)).finish(), 'proto: wrong wireType = 0 for field Name'],
    [pb().message(1, pb().tag(0, 2)).finish(), 'proto: ObjectMeta: illegal tag 0 (wire type 2)'],
    [pb().tag(2, 2).uvarint(5).raw([1]).finish(), 'unexpected EOF'],
    [pb().message(2, pb().varint(1, 1)).finish(), 'proto: wrong wireType = 0 for field Data'],
    [
      pb()
        .message(1, pb().message(8, pb().string(1, 'x')))
        .finish(),
      'proto: wrong wireType = 2 for field Seconds',
    ],
  ];
  for (const [raw, message] of cases) {
    assert.throws(
      () => core.toJSON(CONFIG_MAP, raw),
      (err: unknown) => err instanceof ProtoError && err.message === message,
      message,
    );
  }
  assert.throws(() => widgets.toJSON(WIDGET, pb().message(10, pb().varint(1, 2)).finish()), {
    message: 'impossible IntOrString.Type',
  });
  assert.throws(
    () =>
      widgets.toJSON(
        WIDGET,
        pb()
          .message(14, pb().bytes(1, Buffer.from('{')))
          .finish(),
      ),
    ProtoError,
  );
});
