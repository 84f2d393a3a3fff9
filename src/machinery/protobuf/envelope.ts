// The `k8s\0` prefix and the runtime.Unknown envelope every kube protobuf body is wrapped in
// (runtime/serializer/protobuf/protobuf.go, runtime/generated.proto).
import { readFlatMessage, stringField, type FlatMessageSpec } from './flat-message.js';
import { readScalar, type ScalarType } from './scalars.js';
import { ProtoError, WireReader } from './wire.js';

/** 'k', '8', 's', then 0x00: the only encoding style defined, a runtime.Unknown message. */
export const protobufMagic: Readonly<Uint8Array> = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** runtime.Unknown: the object's type and its own encoding. */
export interface Unknown {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

const typeMetaSpec: FlatMessageSpec = {
  name: 'TypeMeta',
  fields: { 1: { goName: 'APIVersion', type: 'string' }, 2: { goName: 'Kind', type: 'string' } },
};

const unknownFields: Readonly<Record<number, { readonly goName: string; readonly type: ScalarType }>> = {
  1: { goName: 'TypeMeta', type: 'bytes' },
  2: { goName: 'Raw', type: 'bytes' },
  3: { goName: 'ContentEncoding', type: 'string' },
  4: { goName: 'ContentType', type: 'string' },
};

export function hasProtobufMagic(data: Uint8Array): boolean {
  return data.length >= protobufMagic.length && protobufMagic.every((b, i) => data[i] === b);
}

// Unknown.Unmarshal: an embedded TypeMeta seen twice merges into the first, as gogo's does.
function readUnknown(buf: Uint8Array): Unknown {
  const out: { -readonly [K in keyof Unknown]: Unknown[K] } = {
    apiVersion: '',
    kind: '',
    raw: new Uint8Array(0),
    contentEncoding: '',
    contentType: '',
  };
  const r = new WireReader(buf, 'Unknown');
  while (!r.done()) {
    const tag = r.tag();
    const field = unknownFields[tag.field];
    if (field === undefined) {
      r.skip(tag.wireType);
      continue;
    }
    const value = readScalar(r, field.type, { wireType: tag.wireType, goName: field.goName });
    if (tag.field === 1 && value instanceof Uint8Array) {
      const meta = readFlatMessage(value, typeMetaSpec);
      if (meta.has(1)) out.apiVersion = stringField(meta, 1);
      if (meta.has(2)) out.kind = stringField(meta, 2);
    } else if (tag.field === 2 && value instanceof Uint8Array) {
      out.raw = value;
    } else if (typeof value === 'string') {
      if (tag.field === 3) out.contentEncoding = value;
      else out.contentType = value;
    }
  }
  return out;
}

/** The envelope of a protobuf body; ProtoError with kube's text when there is none. */
export function decodeEnvelope(data: Uint8Array): Unknown {
  if (data.length === 0) throw new ProtoError('empty data');
  if (!hasProtobufMagic(data)) {
    throw new ProtoError(
      `provided data does not appear to be a protobuf message, expected prefix [${protobufMagic.join(' ')}]`,
    );
  }
  if (data.length === protobufMagic.length) throw new ProtoError('empty body');
  return readUnknown(data.subarray(protobufMagic.length));
}
