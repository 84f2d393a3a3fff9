import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorageError } from '../errors.js';
import { prepareKey } from './keys.js';

describe('prepareKey', () => {
  it('refuses a `.` or `..` segment anywhere, as storage.PrepareKey does', () => {
    for (const key of ['..', '.', '../pods', './pods', '/pods/..', '/pods/.', '/pods/../x', '/pods/./x']) {
      assert.throws(() => prepareKey('/pods/', key, false), StorageError, key);
    }
  });

  it('takes dots inside segments', () => {
    for (const key of [
      '/pods/ns/a.b',
      '/pods/ns/...',
      '/pods/ns/.a',
      '/pods/ns/a.',
      '/pods/ns/..a',
      '/pods/n.s/x..',
    ]) {
      assert.equal(prepareKey('/pods/', key, false), key);
    }
  });

  it('adds the leading slash, and the trailing one for a recursive key', () => {
    assert.equal(prepareKey('/pods/', 'pods/ns', true), '/pods/ns/');
    assert.equal(prepareKey('/pods/', '/pods/ns/', true), '/pods/ns/');
    assert.throws(() => prepareKey('/pods/', '/secrets/x', false), /lacks resource prefix/);
    assert.throws(() => prepareKey('/pods/', '', false), /empty key/);
  });
});
