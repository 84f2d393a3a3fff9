// AlwaysDeny refuses every write in both halves of admission with kube's text; AlwaysAdmit lets
// everything through.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../../machinery/errors/index.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { attributesOf } from '../../testing/attributes.js';
import { AlwaysAdmit } from '../admit/admission.js';
import { AlwaysDeny } from './admission.js';

describe('AlwaysDeny and AlwaysAdmit', () => {
  const ctx = testContext();

  it('AlwaysDeny refuses creates, updates, deletes and connects', async () => {
    const deny = new AlwaysDeny();
    for (const operation of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) {
      assert.equal(deny.handles(operation), true);
      const a = attributesOf({ operation, name: 'p' });
      for (const step of [deny.admit(ctx, a), deny.validate(ctx, a)])
        await assert.rejects(step, (err: unknown) => {
          assert.ok(isStatusError(err));
          assert.equal(err.status.code, 403);
          assert.equal(err.message, 'pods "p" is forbidden: admission control is denying all modifications');
          return true;
        });
    }
  });

  it('AlwaysAdmit admits', async () => {
    await new AlwaysAdmit().validate();
  });
});
