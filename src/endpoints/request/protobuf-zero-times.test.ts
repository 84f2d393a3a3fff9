// Zero times in kube protobuf request bodies. gogo writes a metav1.Time held by value whatever it
// holds: for the zero time, Time.MarshalToSizedBuffer writes nothing, so the field is its tag and a
// length of 0 (k8s.io/apimachinery meta/v1 time_proto.go, generated.pb.go); a nil *Time is left
// out. Time.Unmarshal reads an empty message as the zero time and ignores nanos; a Timestamp of the
// zero time's seconds (-62135596800, what ProtoTime gives it) is the zero time too. Go's JSON of
// the zero time is null, and Capstan's in-memory form of it is absent (go-zero-members.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject } from '../../api/meta.js';
import { coreV1 } from '../../api/schema/api-module.js';
import { ProtobufDecoder } from '../../machinery/protobuf/index.js';
import {
  kubeProtobuf,
  objectMeta,
  pb,
  type ProtoWriter,
} from '../../machinery/protobuf/testing/proto-writer.js';
import { StructuralDecoder as SchemaDecoder } from '../../machinery/structural/index.js';
import { protobufSerializer } from '../negotiation/media-types.js';
import { decodeObject } from './decode-object.js';
import { structuralDecoderFor } from './structural-adapter.js';

const scheme = builtinScheme();
const protobuf = new ProtobufDecoder(scheme);
const structural = structuralDecoderFor(scheme, new SchemaDecoder(scheme));

const decode = (kind: string, group: string, raw: ProtoWriter): KubeObject =>
  decodeObject(kubeProtobuf({ apiVersion: group === '' ? 'v1' : `${group}/v1`, kind }, raw), {
    expected: { group, version: 'v1', kind },
    serializer: protobufSerializer,
    fieldValidation: 'Strict',
    kinds: scheme,
    structural,
    protobuf,
    addWarning: () => undefined,
  });

const zeroSeconds = -62135596800n;
const container = pb().string(1, 'app').string(2, 'nginx');

/** A Deployment whose pod template's ObjectMeta has `creation` at field 8 (or none). */
function deployment(creation: ProtoWriter | undefined): ProtoWriter {
  const meta = pb().string(1, '').string(2, '').string(3, '');
  const templateMeta = creation === undefined ? meta : meta.message(8, creation);
  const template = pb().message(1, templateMeta).message(2, pb().message(2, container));
  return pb()
    .message(1, objectMeta('d', 'default'))
    .message(
      2,
      pb()
        .message(2, pb().message(1, pb().string(1, 'app').string(2, 'x')))
        .message(3, template),
    );
}

/** A Pod whose status has one condition with `probe` as lastProbeTime (field 3) and a set lastTransitionTime. */
function podWithCondition(probe: ProtoWriter | undefined): ProtoWriter {
  const condition = pb().string(1, 'Ready').string(2, 'True');
  if (probe !== undefined) condition.message(3, probe);
  condition.message(4, pb().varint(1, 1700000000));
  return pb()
    .message(1, objectMeta('p', 'default'))
    .message(2, pb().message(2, container))
    .message(3, pb().message(2, condition));
}

describe('zero times in protobuf bodies', () => {
  const cases: { name: string; time: ProtoWriter | undefined; want: string | undefined }[] = [
    { name: 'the field with an empty message (gogo’s zero Time)', time: pb(), want: undefined },
    { name: 'a Timestamp of the zero time’s seconds', time: pb().varint(1, zeroSeconds), want: undefined },
    {
      name: 'the zero time’s seconds with nanos (Time ignores nanos)',
      time: pb().varint(1, zeroSeconds).varint(2, 5),
      want: undefined,
    },
    { name: 'no field at all', time: undefined, want: undefined },
    { name: 'a time', time: pb().varint(1, 1700000000), want: '2023-11-14T22:13:20Z' },
    {
      name: 'the Unix epoch (seconds 0: an empty-looking but present time)',
      time: pb().varint(2, 0),
      want: '1970-01-01T00:00:00Z',
    },
  ];
  for (const c of cases) {
    it(`a pod template’s creationTimestamp: ${c.name}`, () => {
      const obj = decode('Deployment', 'apps', deployment(c.time));
      const template = (obj['spec'] as { template: { metadata: Record<string, unknown> } }).template;
      assert.equal(template.metadata['creationTimestamp'], c.want);
      assert.equal('creationTimestamp' in template.metadata, c.want !== undefined);
    });
    it(`a pod condition’s lastProbeTime: ${c.name}`, () => {
      const obj = decode('Pod', '', podWithCondition(c.time));
      const [condition] = (obj['status'] as { conditions: Record<string, unknown>[] }).conditions;
      assert.equal(condition?.['lastProbeTime'], c.want);
      assert.equal('lastProbeTime' in (condition ?? {}), c.want !== undefined);
      assert.equal(condition?.['lastTransitionTime'], '2023-11-14T22:13:20Z');
    });
  }

  // MicroTime keeps nanoseconds (micro_time_proto.go): only the zero time itself is zero.
  const microCases: { name: string; time: ProtoWriter | undefined; want: string | undefined }[] = [
    { name: 'an empty message', time: pb(), want: undefined },
    { name: 'the zero time’s seconds', time: pb().varint(1, zeroSeconds), want: undefined },
    {
      name: 'the zero time’s seconds and 5 µs',
      time: pb().varint(1, zeroSeconds).varint(2, 5000),
      want: '0001-01-01T00:00:00.000005Z',
    },
    {
      name: 'a time',
      time: pb().varint(1, 1700000000).varint(2, 123456789),
      want: '2023-11-14T22:13:20.123456Z',
    },
  ];
  for (const c of microCases) {
    it(`a core Event’s eventTime (MicroTime): ${c.name}`, () => {
      const raw = pb()
        .message(1, objectMeta('e', 'default'))
        .message(2, pb().string(1, 'Pod').string(3, 'p'))
        .string(3, 'Started');
      if (c.time !== undefined) raw.message(10, c.time);
      const obj = decode('Event', '', raw);
      assert.equal(obj['eventTime'], c.want);
      assert.equal('eventTime' in obj, c.want !== undefined);
    });
  }

  it('the decoder’s JSON has null where Go’s JSON has it (a zero Time held by value)', () => {
    const raw = deployment(pb());
    const json = protobuf.toJSON('io.k8s.api.apps.v1.Deployment', raw.finish()) as {
      spec: { template: { metadata: Record<string, unknown> } };
    };
    assert.equal(json.spec.template.metadata['creationTimestamp'], null);
    assert.deepEqual(Object.keys(protobuf.toJSON(coreV1('Pod'), podWithCondition(pb()).finish())), [
      'metadata',
      'spec',
      'status',
    ]);
  });
});
