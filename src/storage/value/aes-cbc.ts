// AES-CBC at rest (k8s.io/apiserver/pkg/storage/value/encrypt/aes/aes.go, cbc): a random 16-byte
// IV, then the ciphertext of the PKCS#7-padded value. CBC authenticates nothing, so the storage key
// is not bound to the value (kube's aescbc does not use it either); prefer aesgcm or secretbox.
import { createCipheriv, createDecipheriv, type KeyObject } from 'node:crypto';
import { aesCipherKey } from './aes-key.js';
import { randomNonce } from './random-pool.js';
import type { FromStorage, Transformer } from './transformer.js';

const blockSize = 16;

/** Strips PKCS#7 padding with kube's checks and messages. */
function unpad(result: Buffer): Buffer {
  const c = result[result.length - 1] ?? 0;
  const size = result.length - c;
  if (c === 0 || c > result.length) throw new Error('invalid PKCS7 data (empty or not padded)');
  for (let i = size; i < result.length; i++) {
    if (result[i] !== c) throw new Error('invalid padding on input');
  }
  return result.subarray(0, size);
}

class CBCTransformer implements Transformer {
  readonly #algorithm: string;
  readonly #key: KeyObject;

  constructor(key: Buffer) {
    const k = aesCipherKey(key);
    this.#algorithm = `aes-${k.bits}-cbc`;
    this.#key = k.key;
  }

  transformFromStorage(data: Buffer): FromStorage {
    if (data.length < blockSize) throw new Error('the stored data was shorter than the required size');
    const body = data.subarray(blockSize);
    if (body.length % blockSize !== 0) throw new Error('the stored data is not a multiple of the block size');
    const decipher = createDecipheriv(this.#algorithm, this.#key, data.subarray(0, blockSize));
    // The padding is checked below, so that a bad value gets kube's error rather than OpenSSL's.
    decipher.setAutoPadding(false);
    const result = Buffer.concat([decipher.update(body), decipher.final()]);
    return { data: unpad(result), stale: false };
  }

  transformToStorage(data: Buffer): Buffer {
    const iv = randomNonce(blockSize);
    // node's cipher pads with PKCS#7, as kube does by hand.
    const cipher = createCipheriv(this.#algorithm, this.#key, iv);
    return Buffer.concat([iv, cipher.update(data), cipher.final()]);
  }
}

/** aes.NewCBCTransformer over a 16-, 24- or 32-byte key. */
export function newCBCTransformer(key: Buffer): Transformer {
  return new CBCTransformer(key);
}
