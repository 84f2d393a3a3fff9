// The transformers built from a configuration: which rule serves which resource, the prefixes
// written, which keys read, and what a value whose key is gone reads as.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StaticTransformers } from '../../storage/value/resource-transformers.js';
import { buildTransformerOverrides } from './build-transformers.js';
import { decodeEncryptionConfiguration } from './decode-config.js';
import { encryptionConfig, newKey, providerKinds, type TestProvider } from './testing/encryption-configs.js';

const ctx = { key: '/registry/secrets/default/s1' };
const plain = Buffer.from('{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}');

function transformers(resources: readonly string[], providers: readonly TestProvider[]): StaticTransformers {
  return new StaticTransformers(
    buildTransformerOverrides(decodeEncryptionConfiguration(encryptionConfig(resources, providers))),
  );
}

describe('encryption transformers from a configuration', () => {
  for (const kind of providerKinds) {
    it(`${kind}: writes k8s:enc:${kind}:v1:<key>: and no plaintext, reads it back`, () => {
      const t = transformers(['secrets'], [{ kind, keys: [newKey('key1')] }]).transformerForResource({
        group: '',
        resource: 'secrets',
      });
      const stored = t.transformToStorage(plain, ctx);
      assert.ok(stored.toString('latin1').startsWith(`k8s:enc:${kind}:v1:key1:`));
      assert.ok(!stored.includes('aHVudGVyMg=='));
      assert.ok(!stored.includes('Secret'));
      assert.deepEqual(t.transformFromStorage(stored, ctx), { data: plain, stale: false });
    });
  }

  it('resolves a resource, then `*.group`, then `*.*`, else identity', () => {
    const key = newKey('k');
    const text = JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        { resources: ['secrets'], providers: [{ aescbc: { keys: [key] } }] },
        { resources: ['*.apps'], providers: [{ aesgcm: { keys: [key] } }] },
        { resources: ['*.'], providers: [{ secretbox: { keys: [key] } }] },
        { resources: ['*.*'], providers: [{ identity: {} }] },
      ],
    });
    const rt = new StaticTransformers(buildTransformerOverrides(decodeEncryptionConfiguration(text)));
    const written = (group: string, resource: string): string =>
      rt
        .transformerForResource({ group, resource })
        .transformToStorage(plain, ctx)
        .subarray(0, 18)
        .toString();
    assert.equal(written('', 'secrets'), 'k8s:enc:aescbc:v1:');
    assert.equal(written('apps', 'deployments'), 'k8s:enc:aesgcm:v1:');
    assert.equal(written('', 'configmaps'), 'k8s:enc:secretbox:');
    assert.equal(written('batch', 'jobs'), plain.subarray(0, 18).toString());
    const none = new StaticTransformers(new Map()).transformerForResource({ group: '', resource: 'secrets' });
    assert.throws(() => none.transformFromStorage(Buffer.from('k8s:enc:aescbc:v1:k:x'), ctx), {
      message: 'identity transformer tried to read encrypted data',
    });
  });

  it('rotation: a second key reads old values as stale; made first, it writes; the old key gone, old values fail clearly', () => {
    const key1 = newKey('key1');
    const key2 = newKey('key2');
    const gr = { group: '', resource: 'secrets' };
    const before = transformers(['secrets'], [{ kind: 'aesgcm', keys: [key1] }]).transformerForResource(gr);
    const old = before.transformToStorage(plain, ctx);
    const added = transformers(['secrets'], [{ kind: 'aesgcm', keys: [key1, key2] }]).transformerForResource(
      gr,
    );
    assert.deepEqual(added.transformFromStorage(old, ctx), { data: plain, stale: false });
    const swapped = transformers(
      ['secrets'],
      [{ kind: 'aesgcm', keys: [key2, key1] }],
    ).transformerForResource(gr);
    assert.deepEqual(swapped.transformFromStorage(old, ctx), { data: plain, stale: true });
    const rewritten = swapped.transformToStorage(plain, ctx);
    assert.ok(rewritten.toString('latin1').startsWith('k8s:enc:aesgcm:v1:key2:'));
    const only2 = transformers(['secrets'], [{ kind: 'aesgcm', keys: [key2] }]).transformerForResource(gr);
    assert.deepEqual(only2.transformFromStorage(rewritten, ctx).data, plain);
    assert.throws(() => only2.transformFromStorage(old, ctx), {
      message: 'no matching key was found for the provided AES transformer',
    });
    const otherProvider = transformers(
      ['secrets'],
      [{ kind: 'secretbox', keys: [key2] }, 'identity'],
    ).transformerForResource(gr);
    assert.throws(() => otherProvider.transformFromStorage(old, ctx), {
      message: 'no matching prefix found',
    });
  });

  it('moving between providers: the old provider listed second reads, stale', () => {
    const gr = { group: '', resource: 'secrets' };
    const key = newKey('k');
    const cbc = transformers(['secrets'], [{ kind: 'aescbc', keys: [key] }]).transformerForResource(gr);
    const old = cbc.transformToStorage(plain, ctx);
    const gcmFirst = transformers(
      ['secrets'],
      [
        { kind: 'aesgcm', keys: [newKey('n')] },
        { kind: 'aescbc', keys: [key] },
      ],
    );
    assert.deepEqual(gcmFirst.transformerForResource(gr).transformFromStorage(old, ctx), {
      data: plain,
      stale: true,
    });
    // Decrypting to plaintext: identity first writes plaintext and still reads the old values.
    const identityFirst = transformers(
      ['secrets'],
      ['identity', { kind: 'aescbc', keys: [key] }],
    ).transformerForResource(gr);
    assert.deepEqual(identityFirst.transformFromStorage(old, ctx), { data: plain, stale: true });
    assert.deepEqual(identityFirst.transformToStorage(plain, ctx), plain);
  });
});
