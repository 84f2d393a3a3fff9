// Random bytes for nonces and IVs, drawn from a pooled CSPRNG buffer: randomFillSync costs about as
// much for 12 bytes as a whole AES-GCM encryption of a secret, so it is called once per 4 KiB. Each
// byte is handed out once; a spent pool is replaced, never refilled in place.
import { randomFillSync } from 'node:crypto';

const poolSize = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `size` fresh random bytes (at most the pool size); the caller may keep the returned view. */
export function randomNonce(size: number): Buffer {
  if (offset + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(poolSize));
    offset = 0;
  }
  const out = pool.subarray(offset, offset + size);
  offset += size;
  return out;
}
