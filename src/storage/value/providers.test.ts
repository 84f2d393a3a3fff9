// The AES-GCM, AES-CBC and secretbox providers: kube's byte layouts, key sizes and error texts.
import assert from 'node:assert/strict';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { secretbox, xsalsa20 } from '@noble/ciphers/salsa.js';
import { newCBCTransformer } from './aes-cbc.js';
import { newGCMTransformer } from './aes-gcm.js';
import { newSecretboxTransformer } from './secretbox.js';
import { identityTransformer } from './transformer.js';

const ctx = { key: '/registry/secrets/default/s1' };
const plain = Buffer.from('{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}');
const failure = (message: string) => (err: unknown) => err instanceof Error && err.message === message;

describe('aesgcm', () => {
  it('writes nonce(12) | ciphertext | tag(16) with the storage key as authenticated data', () => {
    const key = randomBytes(32);
    const stored = newGCMTransformer(key).transformToStorage(plain, ctx);
    assert.equal(stored.length, 12 + plain.length + 16);
    const d = createDecipheriv('aes-256-gcm', key, stored.subarray(0, 12));
    d.setAAD(Buffer.from(ctx.key));
    d.setAuthTag(stored.subarray(stored.length - 16));
    assert.deepEqual(Buffer.concat([d.update(stored.subarray(12, stored.length - 16)), d.final()]), plain);
    assert.deepEqual(newGCMTransformer(key).transformFromStorage(stored, ctx), { data: plain, stale: false });
  });

  it('uses a fresh random nonce for every write', () => {
    const t = newGCMTransformer(randomBytes(16));
    const nonces = new Set(
      Array.from({ length: 50 }, () => t.transformToStorage(plain, ctx).subarray(0, 12).toString('hex')),
    );
    assert.equal(nonces.size, 50);
  });

  it('a value moved to another key, tampered with or truncated does not decrypt', () => {
    const t = newGCMTransformer(randomBytes(24));
    const stored = t.transformToStorage(plain, ctx);
    const authFailed = failure('cipher: message authentication failed');
    assert.throws(() => t.transformFromStorage(stored, { key: '/registry/secrets/default/s2' }), authFailed);
    const flipped = Buffer.from(stored);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    assert.throws(() => t.transformFromStorage(flipped, ctx), authFailed);
    assert.throws(() => t.transformFromStorage(stored.subarray(0, 20), ctx), authFailed);
    assert.throws(
      () => t.transformFromStorage(stored.subarray(0, 5), ctx),
      failure('the stored data was shorter than the required size'),
    );
    assert.throws(() => newGCMTransformer(randomBytes(24)).transformFromStorage(stored, ctx), authFailed);
  });

  it('takes 16, 24 and 32 byte keys and refuses others as Go does', () => {
    for (const n of [16, 24, 32]) {
      const t = newGCMTransformer(randomBytes(n));
      assert.deepEqual(t.transformFromStorage(t.transformToStorage(plain, ctx), ctx).data, plain);
    }
    assert.throws(() => newGCMTransformer(randomBytes(10)), failure('crypto/aes: invalid key size 10'));
  });
});

describe('aescbc', () => {
  it('writes iv(16) | ciphertext of the PKCS#7-padded value', () => {
    const key = randomBytes(32);
    for (const size of [0, 1, 15, 16, 17, 100]) {
      const value = randomBytes(size);
      const stored = newCBCTransformer(key).transformToStorage(value, ctx);
      const padded = (Math.floor(size / 16) + 1) * 16;
      assert.equal(stored.length, 16 + padded);
      const d = createDecipheriv('aes-256-cbc', key, stored.subarray(0, 16));
      assert.deepEqual(Buffer.concat([d.update(stored.subarray(16)), d.final()]), value);
      assert.deepEqual(newCBCTransformer(key).transformFromStorage(stored, ctx).data, value);
    }
  });

  it('answers bad values with kube texts', () => {
    const t = newCBCTransformer(randomBytes(16));
    const stored = t.transformToStorage(plain, ctx);
    assert.throws(
      () => t.transformFromStorage(stored.subarray(0, 10), ctx),
      failure('the stored data was shorter than the required size'),
    );
    assert.throws(
      () => t.transformFromStorage(stored.subarray(0, 40), ctx),
      failure('the stored data is not a multiple of the block size'),
    );
    assert.throws(
      () => t.transformFromStorage(stored.subarray(0, 16), ctx),
      failure('invalid PKCS7 data (empty or not padded)'),
    );
    assert.throws(() => newCBCTransformer(randomBytes(31)), failure('crypto/aes: invalid key size 31'));
    // A wrong key gives garbage padding; the check turns it into an error, not a value.
    let errors = 0;
    for (let i = 0; i < 20; i++) {
      try {
        newCBCTransformer(randomBytes(16)).transformFromStorage(stored, ctx);
      } catch (err) {
        assert.match((err as Error).message, /^invalid (PKCS7 data|padding on input)/);
        errors++;
      }
    }
    assert.ok(errors >= 18);
  });
});

describe('secretbox', () => {
  it('writes nonce(24) | tag(16) | ciphertext, NaCl secretbox', () => {
    const key = randomBytes(32);
    const stored = newSecretboxTransformer(key).transformToStorage(plain, ctx);
    assert.equal(stored.length, 24 + 16 + plain.length);
    assert.deepEqual(Buffer.from(secretbox(key, stored.subarray(0, 24)).open(stored.subarray(24))), plain);
    // NaCl's layout, checked against the bare stream: the first 32 stream bytes key Poly1305, the
    // rest encrypt the value, which follows the 16-byte tag.
    const stream = xsalsa20(key, stored.subarray(0, 24), new Uint8Array(32 + plain.length));
    const body = stored.subarray(24 + 16);
    assert.deepEqual(Buffer.from(body.map((b, i) => b ^ (stream[32 + i] ?? 0))), plain);
    assert.deepEqual(newSecretboxTransformer(key).transformFromStorage(stored, ctx).data, plain);
  });

  it('refuses other keys, short values and key sizes with kube texts', () => {
    const stored = newSecretboxTransformer(randomBytes(32)).transformToStorage(plain, ctx);
    assert.throws(
      () => newSecretboxTransformer(randomBytes(32)).transformFromStorage(stored, ctx),
      failure('output array was not large enough for encryption'),
    );
    assert.throws(
      () => newSecretboxTransformer(randomBytes(32)).transformFromStorage(stored.subarray(0, 39), ctx),
      failure('the stored data was shorter than the required size'),
    );
    assert.throws(
      () => newSecretboxTransformer(randomBytes(16)),
      failure('expected key size 32 for secretbox provider, got 16'),
    );
  });
});

describe('identity', () => {
  it('passes values through and refuses encrypted ones', () => {
    assert.deepEqual(identityTransformer.transformFromStorage(plain, ctx), { data: plain, stale: false });
    assert.equal(identityTransformer.transformToStorage(plain, ctx), plain);
    assert.throws(
      () => identityTransformer.transformFromStorage(Buffer.from('k8s:enc:aescbc:v1:k:xyz'), ctx),
      failure('identity transformer tried to read encrypted data'),
    );
  });
});
