// An AES key checked as Go's aes.NewCipher checks it, held as a node:crypto KeyObject.
import { createSecretKey, type KeyObject } from 'node:crypto';

export const aesKeySizes = [16, 24, 32] as const;

export function aesCipherKey(key: Buffer): { key: KeyObject; bits: 128 | 192 | 256 } {
  switch (key.length) {
    case 16:
      return { key: createSecretKey(key), bits: 128 };
    case 24:
      return { key: createSecretKey(key), bits: 192 };
    case 32:
      return { key: createSecretKey(key), bits: 256 };
    default:
      throw new Error(`crypto/aes: invalid key size ${key.length}`);
  }
}
