// PodNodeSelector: the namespace's node selector annotation merged into new pods, a conflicting
// pod refused with kube's text, namespaces without the annotation leaving pods alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import type { Getter } from '../../../registry/rest/capabilities.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { attributesOf } from '../../testing/attributes.js';
import { namespaceNodeSelectorAnnotation, PodNodeSelector, selectorToLabels } from './admission.js';

const namespaces: Getter = {
  get: (_ctx, name) => {
    const ns: Namespace = {
      metadata: {
        name,
        ...(name === 'pinned'
          ? { annotations: { [namespaceNodeSelectorAnnotation]: 'env=prod, zone==a' } }
          : {}),
        ...(name === 'odd'
          ? { annotations: { [namespaceNodeSelectorAnnotation]: 'constructor=x,toString=y' } }
          : {}),
      },
    };
    return Promise.resolve(ns);
  },
};
const pod = (nodeSelector?: Record<string, string>): Pod => ({
  metadata: { name: 'web' },
  spec: {
    containers: [{ name: 'app', image: 'nginx' }],
    ...(nodeSelector === undefined ? {} : { nodeSelector }),
  },
});

describe('PodNodeSelector', () => {
  const plugin = new PodNodeSelector({ namespaces });
  const ctx = testContext();

  it('parses kube’s selector text', () => {
    assert.deepEqual(selectorToLabels('a=1,b==2, c = 3'), { a: '1', b: '2', c: '3' });
    assert.throws(() => selectorToLabels('a!=1'));
    assert.deepEqual(Object.keys(selectorToLabels('__proto__=x')), ['__proto__']);
  });

  it('merges the namespace’s selector into a new pod, the pod’s own labels kept', async () => {
    const p = pod({ disk: 'ssd', env: 'prod' });
    await plugin.admit(ctx, attributesOf({ namespace: 'pinned', object: p }));
    assert.deepEqual(p.spec?.nodeSelector, { env: 'prod', zone: 'a', disk: 'ssd' });
    const free = pod();
    await plugin.admit(ctx, attributesOf({ namespace: 'open', object: free }));
    assert.equal(free.spec?.nodeSelector, undefined);
  });

  it('takes namespace labels named like Object.prototype members as labels the pod lacks', async () => {
    const p = pod({ disk: 'ssd' });
    await plugin.admit(ctx, attributesOf({ namespace: 'odd', object: p }));
    await plugin.validate(ctx, attributesOf({ namespace: 'odd', object: p }));
    assert.deepEqual(p.spec?.nodeSelector, { constructor: 'x', toString: 'y', disk: 'ssd' });
  });

  it('refuses a pod asking for another value of a namespace label', async () => {
    for (const step of [plugin.admit.bind(plugin), plugin.validate.bind(plugin)])
      await assert.rejects(
        step(ctx, attributesOf({ namespace: 'pinned', object: pod({ env: 'dev' }) })),
        (err: unknown) => {
          assert.ok(isStatusError(err));
          assert.equal(err.status.code, 403);
          assert.equal(
            err.message,
            'pods "web" is forbidden: pod node label selector conflicts with its namespace node label selector',
          );
          return true;
        },
      );
  });
});
