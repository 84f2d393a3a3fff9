// A small protobuf encoder for test fixtures: fields are written in the order given, so tests
// can build what gogo writes (every non-pointer field, ascending numbers) and what it never does.
import { protobufMagic } from '../envelope.js';

export class ProtoWriter {
  readonly #bytes: number[] = [];

  /** Raw bytes, for malformed input. */
  raw(bytes: Iterable<number>): this {
    this.#bytes.push(...bytes);
    return this;
  }

  uvarint(value: number | bigint): this {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.#bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.#bytes.push(Number(v));
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.uvarint((BigInt(field) << 3n) | BigInt(wireType));
  }

  /** int32, int64 and enums: negative values take ten bytes, as in Go. */
  varint(field: number, value: number | bigint): this {
    return this.tag(field, 0).uvarint(value);
  }

  bool(field: number, value: boolean): this {
    return this.varint(field, value ? 1 : 0);
  }

  bytes(field: number, value: Uint8Array): this {
    return this.tag(field, 2).uvarint(value.length).raw(value);
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: ProtoWriter | Uint8Array): this {
    return this.bytes(field, value instanceof ProtoWriter ? value.finish() : value);
  }

  double(field: number, value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    return this.tag(field, 1).raw(b);
  }

  float(field: number, value: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    return this.tag(field, 5).raw(b);
  }

  /** Repeated varints packed into one length-delimited field. */
  packed(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.uvarint(v);
    return this.message(field, inner);
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.#bytes);
  }
}

export const pb = (): ProtoWriter => new ProtoWriter();

/** A map entry {key = 1, value = 2}. */
export function entry(key: string, value: string | Uint8Array | ProtoWriter): ProtoWriter {
  const e = pb().string(1, key);
  return typeof value === 'string'
    ? e.string(2, value)
    : value instanceof ProtoWriter
      ? e.message(2, value)
      : e.bytes(2, value);
}

/** A kube protobuf body: `k8s\0` and a runtime.Unknown, with empty contentEncoding and contentType as client-go writes. */
export function kubeProtobuf(
  typeMeta: { apiVersion: string; kind: string },
  raw: ProtoWriter | Uint8Array,
): Buffer {
  const unknown = pb()
    .message(1, pb().string(1, typeMeta.apiVersion).string(2, typeMeta.kind))
    .message(2, raw)
    .string(3, '')
    .string(4, '');
  return Buffer.concat([protobufMagic, unknown.finish()]);
}

/** An ObjectMeta as gogo writes one that only has a name (and a namespace): every non-pointer field. */
export function objectMeta(name: string, namespace = ''): ProtoWriter {
  return pb()
    .string(1, name)
    .string(2, '')
    .string(3, namespace)
    .string(4, '')
    .string(5, '')
    .string(6, '')
    .varint(7, 0)
    .message(8, pb());
}
