// AlwaysPullImages: every container gets imagePullPolicy Always on create and on updates that bring
// a new image; validation refuses one a later step set back, with kube's text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { attributesOf } from '../../testing/attributes.js';
import { AlwaysPullImages } from './admission.js';

const pod = (image: string, policy?: string): Pod => ({
  metadata: { name: 'x' },
  spec: {
    initContainers: [
      { name: 'init', image: 'busybox', ...(policy === undefined ? {} : { imagePullPolicy: policy }) },
    ],
    containers: [{ name: 'app', image, ...(policy === undefined ? {} : { imagePullPolicy: policy }) }],
  },
});
const policies = (p: Pod): Array<string | undefined> =>
  [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].map((c) => c.imagePullPolicy);

describe('AlwaysPullImages', () => {
  const plugin = new AlwaysPullImages();
  const ctx = testContext();

  it('sets Always on every container of a new pod', async () => {
    const p = pod('nginx', 'IfNotPresent');
    await plugin.admit(ctx, attributesOf({ object: p }));
    assert.deepEqual(policies(p), ['Always', 'Always']);
  });

  it('leaves an update without a new image alone, and sets Always on one with a new image', async () => {
    const same = pod('nginx', 'IfNotPresent');
    await plugin.admit(ctx, attributesOf({ operation: 'UPDATE', object: same, oldObject: pod('nginx') }));
    assert.deepEqual(policies(same), ['IfNotPresent', 'IfNotPresent']);
    const changed = pod('nginx:2', 'IfNotPresent');
    await plugin.admit(ctx, attributesOf({ operation: 'UPDATE', object: changed, oldObject: pod('nginx') }));
    assert.deepEqual(policies(changed), ['Always', 'Always']);
  });

  it('ignores subresources and other resources', async () => {
    const p = pod('nginx', 'Never');
    await plugin.admit(ctx, attributesOf({ object: p, subresource: 'status' }));
    await plugin.admit(ctx, attributesOf({ object: p, resource: 'podtemplates' }));
    assert.deepEqual(policies(p), ['Never', 'Never']);
  });

  it('refuses a pod whose container does not pull always, with kube’s text', async () => {
    const p = pod('nginx', 'Always');
    (p.spec?.containers[0] ?? { imagePullPolicy: '' }).imagePullPolicy = 'Never';
    await assert.rejects(plugin.validate(ctx, attributesOf({ object: p })), (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 403);
      assert.equal(
        err.message,
        'pods "x" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"',
      );
      return true;
    });
    await plugin.validate(ctx, attributesOf({ object: pod('nginx', 'Always') }));
  });
});
