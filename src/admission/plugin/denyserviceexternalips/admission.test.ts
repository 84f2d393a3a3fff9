// DenyServiceExternalIPs: no new external IPs on create or update; existing ones may stay or go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from '../../../api/core/v1/service.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import type { AdmissionResult } from '../../interfaces.js';
import { attributesOf } from '../../testing/attributes.js';
import { DenyServiceExternalIPs } from './admission.js';

const svc = (...externalIPs: string[]): Service => ({
  metadata: { name: 'web' },
  spec: { ports: [{ port: 80 }], ...(externalIPs.length === 0 ? {} : { externalIPs }) },
});
const at = (object: Service, oldObject?: Service): ReturnType<typeof attributesOf> =>
  attributesOf({
    resource: 'services',
    kind: 'Service',
    name: 'web',
    object,
    ...(oldObject === undefined ? {} : { operation: 'UPDATE', oldObject }),
  });

describe('DenyServiceExternalIPs', () => {
  const plugin = new DenyServiceExternalIPs();
  const ctx = testContext();
  const refused = (p: AdmissionResult): Promise<void> =>
    assert.rejects(Promise.resolve(p), (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 403);
      assert.equal(
        err.message,
        'services "web" is forbidden: Use of external IPs is denied by admission control',
      );
      return true;
    });

  it('refuses a new service with external IPs and admits one without', async () => {
    await refused(plugin.validate(ctx, at(svc('1.2.3.4'))));
    await plugin.validate(ctx, at(svc()));
  });

  it('lets an update keep or drop external IPs, not add one', async () => {
    await plugin.validate(ctx, at(svc('1.2.3.4'), svc('1.2.3.4', '5.6.7.8')));
    await plugin.validate(ctx, at(svc(), svc('1.2.3.4')));
    await refused(plugin.validate(ctx, at(svc('1.2.3.4', '9.9.9.9'), svc('1.2.3.4'))));
  });
});
