// Types whose protobuf message is not their JSON form, converted as their Go Unmarshal and
// MarshalJSON methods do: meta/v1 time_proto.go, micro_time_proto.go, duration.go,
// util/intstr, api/resource/quantity_proto.go, runtime.RawExtension, meta/v1 FieldsV1 and the
// ExtraValue of the user-info types.
import type { ProtobufCodec } from '../../api/schema/protobuf.js';
import { hasProtobufMagic } from './envelope.js';
import {
  bytesField,
  int32Field,
  int64Field,
  readFlatMessage,
  stringField,
  type FlatMessageSpec,
} from './flat-message.js';
import { goDurationString } from './go-duration.js';
import { readScalar } from './scalars.js';
import { ProtoError, WireReader } from './wire.js';

/** Converts an object nested as protobuf (`k8s\0…`) inside a RawExtension. */
export type NestedObjectDecoder = (data: Uint8Array) => Record<string, unknown>;

const timestampSpec: FlatMessageSpec = {
  name: 'Timestamp',
  fields: { 1: { goName: 'Seconds', type: 'int64' }, 2: { goName: 'Nanos', type: 'int32' } },
};
const durationSpec: FlatMessageSpec = {
  name: 'Duration',
  fields: { 1: { goName: 'Duration', type: 'int64' } },
};
const quantitySpec: FlatMessageSpec = {
  name: 'Quantity',
  fields: { 1: { goName: 'String_', type: 'string' } },
};
const rawSpec = (name: string): FlatMessageSpec => ({
  name,
  fields: { 1: { goName: 'Raw', type: 'bytes' } },
});
const intOrStringSpec: FlatMessageSpec = {
  name: 'IntOrString',
  fields: {
    1: { goName: 'Type', type: 'int64' },
    2: { goName: 'IntVal', type: 'int32' },
    3: { goName: 'StrVal', type: 'string' },
  },
};

/** Unix seconds of Go's zero time.Time (January 1, year 1, UTC), which encodes as null. */
const zeroTimeSeconds = -62135596800n;
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function rfc3339(seconds: bigint, micros: number | undefined): string {
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtoError(`time out of range: ${seconds} seconds`);
  const year = date.getUTCFullYear();
  const y = year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
  const day = `${y}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
  const clock = `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  return `${day}T${clock}${micros === undefined ? '' : `.${pad(micros, 6)}`}Z`;
}

// Time.Unmarshal keeps whole seconds only; an empty message is the zero time.
function time(buf: Uint8Array): string | null {
  if (buf.length === 0) return null;
  const seconds = int64Field(readFlatMessage(buf, timestampSpec), 1);
  return seconds === zeroTimeSeconds ? null : rfc3339(seconds, undefined);
}

// MicroTime keeps nanoseconds (normalised as time.Unix does) and writes microseconds.
function microTime(buf: Uint8Array): string | null {
  if (buf.length === 0) return null;
  const values = readFlatMessage(buf, timestampSpec);
  const nanos = BigInt(int32Field(values, 2));
  let seconds = int64Field(values, 1) + nanos / 1_000_000_000n;
  let rest = nanos % 1_000_000_000n;
  if (rest < 0n) {
    rest += 1_000_000_000n;
    seconds -= 1n;
  }
  if (seconds === zeroTimeSeconds && rest === 0n) return null;
  return rfc3339(seconds, Number(rest / 1000n));
}

function intOrString(buf: Uint8Array): number | string {
  const values = readFlatMessage(buf, intOrStringSpec);
  const type = int64Field(values, 1);
  if (type === 0n) return int32Field(values, 2);
  if (type === 1n) return stringField(values, 3);
  throw new ProtoError('impossible IntOrString.Type');
}

function embeddedJSON(raw: Uint8Array, type: string): unknown {
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch (err) {
    throw new ProtoError(`${type} does not hold JSON: ${(err as Error).message}`);
  }
}

// A RawExtension holds JSON, or an object of its own in kube protobuf; nil Raw writes null.
function rawExtension(buf: Uint8Array, nested: NestedObjectDecoder): unknown {
  const raw = bytesField(readFlatMessage(buf, rawSpec('RawExtension')), 1);
  if (raw === undefined || raw.length === 0) return null;
  return hasProtobufMagic(raw) ? nested(raw) : embeddedJSON(raw, 'runtime.RawExtension');
}

function fieldsV1(buf: Uint8Array): unknown {
  const raw = bytesField(readFlatMessage(buf, rawSpec('FieldsV1')), 1);
  return raw === undefined ? null : embeddedJSON(raw, 'FieldsV1');
}

// ExtraValue is a message of one repeated string (`items`); its JSON form is the bare list.
function extraValue(buf: Uint8Array): string[] {
  const items: string[] = [];
  const r = new WireReader(buf, 'ExtraValue');
  while (!r.done()) {
    const tag = r.tag();
    if (tag.field === 1)
      items.push(readScalar(r, 'string', { wireType: tag.wireType, goName: 'Items' }) as string);
    else r.skip(tag.wireType);
  }
  return items;
}

/** The JSON value of a field of a hand-converted type, from its message bytes. */
export function decodeCodec(codec: ProtobufCodec, buf: Uint8Array, nested: NestedObjectDecoder): unknown {
  switch (codec) {
    case 'time':
      return time(buf);
    case 'microTime':
      return microTime(buf);
    case 'duration':
      return goDurationString(int64Field(readFlatMessage(buf, durationSpec), 1));
    case 'intOrString':
      return intOrString(buf);
    case 'quantity': {
      // The zero Quantity writes "0"; any other text is checked where JSON quantities are.
      const values = readFlatMessage(buf, quantitySpec);
      return values.has(1) ? stringField(values, 1) : '0';
    }
    case 'rawExtension':
      return rawExtension(buf, nested);
    case 'fieldsV1':
      return fieldsV1(buf);
    case 'extraValue':
      return extraValue(buf);
  }
}
