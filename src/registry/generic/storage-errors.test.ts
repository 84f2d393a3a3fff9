import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStatusError } from '../../machinery/errors/index.js';
import { StorageError } from '../../storage/errors.js';
import { interpretStorageError } from './storage-errors.js';

test('an unparsable resourceVersion (InvalidError) is a 400 with its field text, on every verb', () => {
  const message = 'resourceVersion: Invalid value: "-5": strconv.ParseUint: parsing "-5": invalid syntax';
  for (const verb of ['get', 'list', 'create', 'update', 'delete'] as const) {
    const err = interpretStorageError(new StorageError({ code: 'InvalidError', key: '/k', message }), {
      verb,
      qualifiedResource: { group: '', resource: 'pods' },
      name: 'p',
    });
    assert.ok(isStatusError(err));
    assert.deepEqual([err.status.code, err.status.reason, err.status.message], [400, 'BadRequest', message]);
  }
});
