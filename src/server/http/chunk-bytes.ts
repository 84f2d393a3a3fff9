// The bytes of a chunk handed to a response's write() or end(), as Node sends them: a string in
// the encoding given beside it (responses end with latin1 text, src/endpoints/http-types.ts).

/** A copy of the chunk's bytes; undefined when it is not a chunk (a callback, nothing). */
export function chunkBytes(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (typeof chunk === 'string') {
    const enc = typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8';
    return Buffer.from(chunk, enc);
  }
  return chunk instanceof Uint8Array ? Buffer.from(chunk) : undefined;
}
