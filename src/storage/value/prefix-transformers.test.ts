// Prefix transformers: the first writes, every one reads, non-first reads are stale, identity
// falls through to the providers after it, and failures read as kube's messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TransformationObservation } from './metrics.js';
import { newPrefixTransformers, type PrefixTransformer } from './prefix-transformers.js';
import { identityTransformer, type Transformer } from './transformer.js';

const ctx = { key: '/registry/secrets/ns/a' };

/** Reverses the bytes; refuses values not written by the same tag. */
const toy = (tag: string): Transformer => ({
  transformToStorage: (data) => Buffer.concat([Buffer.from(`${tag}|`), Buffer.from(data).reverse()]),
  transformFromStorage: (data) => {
    const text = data.toString();
    if (!text.startsWith(`${tag}|`)) throw new Error(`not mine: ${tag}`);
    return { data: Buffer.from(data.subarray(tag.length + 1)).reverse(), stale: false };
  },
});
const p = (prefix: string, transformer: Transformer): PrefixTransformer => ({
  prefix: Buffer.from(prefix),
  transformer,
});

describe('prefix transformers', () => {
  it('writes with the first prefix and reads every prefix, stale unless the first', () => {
    const a = newPrefixTransformers({
      noMatch: 'no matching prefix found',
      transformers: [p('A:', toy('a')), p('B:', toy('b'))],
    });
    const b = newPrefixTransformers({
      noMatch: 'no matching prefix found',
      transformers: [p('B:', toy('b')), p('A:', toy('a'))],
    });
    const stored = a.transformToStorage(Buffer.from('hello'), ctx);
    assert.equal(stored.toString(), 'A:a|olleh');
    assert.deepEqual(a.transformFromStorage(stored, ctx), { data: Buffer.from('hello'), stale: false });
    assert.deepEqual(b.transformFromStorage(stored, ctx), { data: Buffer.from('hello'), stale: true });
  });

  it('identity first writes plaintext and still reads encrypted values through later providers', () => {
    const t = newPrefixTransformers({
      noMatch: 'no matching prefix found',
      transformers: [p('', identityTransformer), p('k8s:enc:x:v1:', toy('x'))],
    });
    assert.equal(t.transformToStorage(Buffer.from('{}'), ctx).toString(), '{}');
    assert.deepEqual(t.transformFromStorage(Buffer.from('{}'), ctx), {
      data: Buffer.from('{}'),
      stale: false,
    });
    const read = t.transformFromStorage(Buffer.from('k8s:enc:x:v1:x|}{'), ctx);
    assert.deepEqual(read, { data: Buffer.from('{}'), stale: true });
  });

  it('a value no prefix matches is the configured error; identity refusing does not count', () => {
    const t = newPrefixTransformers({
      noMatch: 'no matching prefix found',
      transformers: [p('', identityTransformer)],
    });
    assert.throws(() => t.transformFromStorage(Buffer.from('k8s:enc:aescbc:v1:k1:zzz'), ctx), {
      message: 'no matching prefix found',
    });
  });

  it('tries every matching prefix and reports their errors together, once each', () => {
    const t = newPrefixTransformers({
      noMatch: 'no matching prefix found',
      transformers: [p('P:', toy('one')), p('P:', toy('two')), p('P:', toy('two'))],
    });
    assert.throws(() => t.transformFromStorage(Buffer.from('P:three|x'), ctx), {
      message: '[not mine: one, not mine: two]',
    });
    assert.deepEqual(t.transformFromStorage(Buffer.from('P:two|x'), ctx), {
      data: Buffer.from('x'),
      stale: true,
    });
    const single = newPrefixTransformers({ noMatch: 'none', transformers: [p('P:', toy('one'))] });
    assert.throws(() => single.transformFromStorage(Buffer.from('P:x'), ctx), { message: 'not mine: one' });
  });

  it('reports each transformation by provider prefix, as kube labels them', () => {
    const seen: TransformationObservation[] = [];
    const t = newPrefixTransformers({
      noMatch: 'no matching prefix found',
      transformers: [p('k8s:enc:x:v1:', toy('x')), p('', identityTransformer)],
      metrics: { recordTransformation: (o) => seen.push(o) },
    });
    const stored = t.transformToStorage(Buffer.from('{}'), ctx);
    t.transformFromStorage(stored, ctx);
    t.transformFromStorage(Buffer.from('{}'), ctx);
    assert.throws(() => t.transformFromStorage(Buffer.from('k8s:enc:x:v1:bad'), ctx));
    assert.throws(() => t.transformFromStorage(Buffer.from('k8s:enc:y:v1:zz'), ctx));
    assert.deepEqual(
      seen.map((o) => [o.type, o.prefix, o.failed]),
      [
        ['to_storage', 'k8s:enc:x:v1:', false],
        ['from_storage', 'k8s:enc:x:v1:', false],
        ['from_storage', 'identity', false],
        ['from_storage', 'k8s:enc:x:v1:', true],
        ['from_storage', 'unknown', true],
      ],
    );
    assert.ok(seen.every((o) => o.seconds >= 0 && o.seconds < 1));
  });
});
