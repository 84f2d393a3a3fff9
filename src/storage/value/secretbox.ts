// XSalsa20-Poly1305 at rest (k8s.io/apiserver/pkg/storage/value/encrypt/secretbox): a random 24-byte
// nonce, then NaCl's secretbox (tag, ciphertext). Like kube's, it authenticates the value but not
// its storage key. node:crypto has no XSalsa20, so the cipher is @noble/ciphers': audited, zero
// dependencies, maintained, byte-compatible with NaCl and Go's x/crypto/nacl/secretbox.
import { secretbox } from '@noble/ciphers/salsa.js';
import { randomNonce } from './random-pool.js';
import type { FromStorage, Transformer } from './transformer.js';

const nonceSize = 24;
const overhead = 16;

const asBuffer = (a: Uint8Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

class SecretboxTransformer implements Transformer {
  readonly #key: Uint8Array;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error(`expected key size 32 for secretbox provider, got ${key.length}`);
    this.#key = Uint8Array.from(key);
  }

  transformFromStorage(data: Buffer): FromStorage {
    if (data.length < overhead + nonceSize) {
      throw new Error('the stored data was shorter than the required size');
    }
    try {
      const opened = secretbox(this.#key, data.subarray(0, nonceSize)).open(data.subarray(nonceSize));
      return { data: asBuffer(opened), stale: false };
    } catch {
      // Go's secretbox.Open says only "not ok"; kube reports it with this text.
      throw new Error('output array was not large enough for encryption');
    }
  }

  transformToStorage(data: Buffer): Buffer {
    const nonce = randomNonce(nonceSize);
    const sealed = secretbox(this.#key, nonce).seal(data);
    return Buffer.concat([nonce, sealed]);
  }
}

/** secretbox.NewSecretboxTransformer over a 32-byte key. */
export function newSecretboxTransformer(key: Buffer): Transformer {
  return new SecretboxTransformer(key);
}
