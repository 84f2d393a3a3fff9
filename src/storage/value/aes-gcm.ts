// AES-GCM at rest (k8s.io/apiserver/pkg/storage/value/encrypt/aes/aes.go, gcm): a random 96-bit
// nonce, then the ciphertext with its 16-byte tag; the storage key is the authenticated data, so a
// value copied to another key does not decrypt.
//
// Random nonces repeat after about 2^32 writes with one key (NIST SP 800-38D): as kube warns, an
// aesgcm key must be rotated well before that (kube's docs say every 200,000 writes). Kube's
// counter nonces are only for KMS v2's per-process keys, which Capstan does not have.
import { createCipheriv, createDecipheriv, type CipherGCMTypes, type KeyObject } from 'node:crypto';
import type { FromStorage, TransformContext, Transformer } from './transformer.js';
import { aesCipherKey } from './aes-key.js';
import { randomNonce } from './random-pool.js';

const nonceSize = 12;
const tagSize = 16;
const authFailed = 'cipher: message authentication failed';

class GCMTransformer implements Transformer {
  readonly #algorithm: CipherGCMTypes;
  readonly #key: KeyObject;

  constructor(key: Buffer) {
    const k = aesCipherKey(key);
    this.#algorithm = `aes-${k.bits}-gcm`;
    this.#key = k.key;
  }

  transformFromStorage(data: Buffer, ctx: TransformContext): FromStorage {
    if (data.length < nonceSize) throw new Error('the stored data was shorter than the required size');
    if (data.length < nonceSize + tagSize) throw new Error(authFailed);
    const decipher = createDecipheriv(this.#algorithm, this.#key, data.subarray(0, nonceSize), {
      authTagLength: tagSize,
    });
    decipher.setAAD(Buffer.from(ctx.key, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - tagSize));
    const body = decipher.update(data.subarray(nonceSize, data.length - tagSize));
    try {
      const tail = decipher.final();
      return { data: tail.length === 0 ? body : Buffer.concat([body, tail]), stale: false };
    } catch {
      throw new Error(authFailed);
    }
  }

  transformToStorage(data: Buffer, ctx: TransformContext): Buffer {
    const nonce = randomNonce(nonceSize);
    const cipher = createCipheriv(this.#algorithm, this.#key, nonce, { authTagLength: tagSize });
    cipher.setAAD(Buffer.from(ctx.key, 'utf8'));
    const body = cipher.update(data);
    const tail = cipher.final();
    return Buffer.concat([nonce, body, tail, cipher.getAuthTag()]);
  }
}

/** aes.NewGCMTransformer over a 16-, 24- or 32-byte key. */
export function newGCMTransformer(key: Buffer): Transformer {
  return new GCMTransformer(key);
}
