// A reader of the protobuf wire format that fails as kube's gogo-generated Unmarshal methods do
// (k8s.io/api/*/generated.pb.go, skipGenerated), with their error texts.

export const wireTypes = { varint: 0, fixed64: 1, len: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;
export type WireType = number;

/** A body the protobuf decoder rejects; the message is the Go error's text. */
export class ProtoError extends Error {}

export const errUnexpectedEOF = (): ProtoError => new ProtoError('unexpected EOF');
export const errIntOverflow = (): ProtoError => new ProtoError('proto: integer overflow');
export const errInvalidLength = (): ProtoError =>
  new ProtoError('proto: negative length found during unmarshaling');
const errEndOfGroup = (): ProtoError => new ProtoError('proto: unexpected end of group');

export function errWrongWireType(wireType: WireType, goField: string): ProtoError {
  return new ProtoError(`proto: wrong wireType = ${wireType} for field ${goField}`);
}

export interface Tag {
  readonly field: number;
  readonly wireType: WireType;
}

const maxInt64 = (1n << 63n) - 1n;

/** Reads one message's bytes; `message` is the Go type name kube's errors quote. */
export class WireReader {
  readonly #buf: Uint8Array;
  readonly #message: string;
  #pos = 0;

  constructor(buf: Uint8Array, message: string) {
    this.#buf = buf;
    this.#message = message;
  }

  done(): boolean {
    return this.#pos >= this.#buf.length;
  }

  /** An unsigned 64-bit varint; "proto: integer overflow" past ten bytes. */
  uvarint(): bigint {
    const buf = this.#buf;
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift >= 64n) throw errIntOverflow();
      if (this.#pos >= buf.length) throw errUnexpectedEOF();
      const b = buf[this.#pos++] as number;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
  }

  /** A field's tag, refusing an end-group marker or a field number that is not positive. */
  tag(): Tag {
    const wire = this.uvarint();
    const field = Number(BigInt.asIntN(32, wire >> 3n));
    const wireType = Number(wire & 7n);
    if (wireType === wireTypes.endGroup) {
      throw new ProtoError(`proto: ${this.#message}: wiretype end group for non-group`);
    }
    if (field <= 0) throw new ProtoError(`proto: ${this.#message}: illegal tag ${field} (wire type ${wire})`);
    return { field, wireType };
  }

  /** A length-delimited payload (string, bytes, embedded message, packed values). */
  lengthDelimited(): Uint8Array {
    const n = BigInt.asIntN(64, this.uvarint());
    if (n < 0n) throw errInvalidLength();
    const end = BigInt(this.#pos) + n;
    if (end > maxInt64) throw errInvalidLength();
    if (end > BigInt(this.#buf.length)) throw errUnexpectedEOF();
    const out = this.#buf.subarray(this.#pos, Number(end));
    this.#pos = Number(end);
    return out;
  }

  fixed64(): Uint8Array {
    return this.#take(8);
  }

  fixed32(): Uint8Array {
    return this.#take(4);
  }

  #take(n: number): Uint8Array {
    if (this.#pos + n > this.#buf.length) throw errUnexpectedEOF();
    const out = this.#buf.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return out;
  }

  /** Skips the value of an unknown field, groups included (skipGenerated). */
  skip(wireType: WireType): void {
    let depth = this.#skipOne(wireType, 0);
    while (depth > 0) depth = this.#skipOne(Number(this.uvarint() & 7n), depth);
  }

  #skipOne(wireType: WireType, depth: number): number {
    switch (wireType) {
      case wireTypes.varint:
        this.uvarint();
        return depth;
      case wireTypes.fixed64:
        this.#take(8);
        return depth;
      case wireTypes.len:
        this.lengthDelimited();
        return depth;
      case wireTypes.startGroup:
        return depth + 1;
      case wireTypes.endGroup:
        if (depth === 0) throw errEndOfGroup();
        return depth - 1;
      case wireTypes.fixed32:
        this.#take(4);
        return depth;
      default:
        throw new ProtoError(`proto: illegal wireType ${wireType}`);
    }
  }
}
