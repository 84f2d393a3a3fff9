// Scalar field values as gogo's generated code reads them, and their JSON forms as Go's
// encoding/json writes them ([]byte as standard base64, int64 as a number).
import { errWrongWireType, wireTypes, type WireReader, type WireType } from './wire.js';

export const scalarTypes = ['string', 'bytes', 'int32', 'int64', 'bool', 'double', 'float'] as const;
export type ScalarType = (typeof scalarTypes)[number];
export type ScalarValue = string | Uint8Array | number | bigint | boolean;

const expectedWireType: Record<ScalarType, WireType> = {
  string: wireTypes.len,
  bytes: wireTypes.len,
  int32: wireTypes.varint,
  int64: wireTypes.varint,
  bool: wireTypes.varint,
  double: wireTypes.fixed64,
  float: wireTypes.fixed32,
};

/** Whether repeated values of this type may also come packed in one length-delimited field. */
export const packable = (type: ScalarType): boolean => expectedWireType[type] !== wireTypes.len;

/** One value of `type` from `r`, whose tag carried `wireType`. */
export function readScalar(
  r: WireReader,
  type: ScalarType,
  field: { wireType: WireType; goName: string },
): ScalarValue {
  if (field.wireType !== expectedWireType[type]) throw errWrongWireType(field.wireType, field.goName);
  return readValue(r, type);
}

/** One value of `type` without a tag (the elements of a packed field). */
export function readValue(r: WireReader, type: ScalarType): ScalarValue {
  switch (type) {
    case 'string':
      return Buffer.from(r.lengthDelimited()).toString('utf8');
    case 'bytes':
      return Uint8Array.from(r.lengthDelimited());
    case 'int32':
      // gogo accumulates straight into an int32: the low 32 bits, two's complement.
      return Number(BigInt.asIntN(32, r.uvarint()));
    case 'int64':
      return BigInt.asIntN(64, r.uvarint());
    case 'bool':
      return r.uvarint() !== 0n;
    case 'double':
      return Buffer.from(r.fixed64()).readDoubleLE(0);
    case 'float':
      return Buffer.from(r.fixed32()).readFloatLE(0);
  }
}

/** The value Go's encoding/json would write for a decoded scalar. */
export function scalarToJSON(value: ScalarValue): string | number | boolean {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** Go's zero value of a scalar, as JSON: what `omitempty` drops. */
export function isZeroJSON(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}
