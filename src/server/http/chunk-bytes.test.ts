import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkBytes } from './chunk-bytes.js';

describe('chunkBytes', () => {
  const utf8 = Buffer.from('{"k":"é ☃ 𝄞"}', 'utf8');

  it('reads a string in the encoding written beside it', () => {
    assert.deepEqual(chunkBytes(utf8.toString('latin1'), 'latin1'), utf8);
    assert.deepEqual(chunkBytes('é', 'utf8'), Buffer.from('é', 'utf8'));
  });

  it('takes UTF-8 when no encoding (or no known one) is given', () => {
    assert.deepEqual(chunkBytes('é', undefined), Buffer.from('é', 'utf8'));
    assert.deepEqual(
      chunkBytes('é', () => undefined),
      Buffer.from('é', 'utf8'),
    );
  });

  it('copies bytes, and ignores what is not a chunk', () => {
    const copy = chunkBytes(utf8, undefined);
    assert.deepEqual(copy, utf8);
    copy.fill(0);
    assert.equal(utf8.toString('utf8'), '{"k":"é ☃ 𝄞"}');
    assert.equal(chunkBytes(undefined, undefined), undefined);
    assert.equal(
      chunkBytes(() => undefined, undefined),
      undefined,
    );
  });
});
