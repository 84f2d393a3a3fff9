// Protobuf bodies by hand: kube's envelope (the magic, then runtime.Unknown) around any bytes.
const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** A length-delimited field. */
export function field(n: number, bytes: Buffer | string): Buffer {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return Buffer.concat([varint((n << 3) | 2), varint(b.length), b]);
}

/** runtime.Unknown{typeMeta{apiVersion, kind}, raw} behind the magic. */
export function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([magic, field(1, Buffer.concat([field(1, apiVersion), field(2, kind)])), field(2, raw)]);
}
