import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import {
  daemonSetStatusStrategy,
  daemonSetStrategy,
  templateGenerationAnnotation,
} from '../daemonset/strategy.js';
import { newDeploymentREST, type DeploymentStorage } from '../deployment/storage.js';
import { replicaSetStatusStrategy, replicaSetStrategy } from '../replicaset/strategy.js';
import { statefulSetStatusStrategy, statefulSetStrategy } from '../statefulset/strategy.js';
import { updateWith } from './testing.js';

/** A template kube warns about: a retired node label in its node selector. */
const template = (image = 'nginx'): PodTemplateSpec => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image }], nodeSelector: { 'beta.kubernetes.io/os': 'linux' } },
});
const selectorWarning = (root: string) =>
  `${root}.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`;
const nameWarning =
  'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]';

describe('deployment warnings', () => {
  let env: MemoryRESTOptions;
  let s: DeploymentStorage;
  before(async () => {
    env = await memoryRESTOptions();
    s = await newDeploymentREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  const deployment = (name: string): Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'web' } }, template: template() },
  });

  it('warns on create about the name and the template at spec.template', async () => {
    const ctx = testContext('default');
    await s.deployments.create(ctx, deployment('web.v1'), { options: {} });
    assert.deepEqual(ctx.warnings, [nameWarning, selectorWarning('spec.template')]);
  });

  it('warns on update only when the generation moves, and never on /status', async () => {
    await s.deployments.create(testContext('default'), deployment('web'), { options: {} });
    const labelled = testContext('default');
    await s.deployments.update(
      labelled,
      'web',
      updateWith<Deployment>((d) => {
        d.metadata = { ...d.metadata, labels: { tier: 'front' } };
      }),
    );
    assert.deepEqual(labelled.warnings, []);

    const changed = testContext('default');
    const out = await s.deployments.update(
      changed,
      'web',
      updateWith<Deployment>((d) => {
        d.spec = { ...d.spec, template: template('nginx:1.27') };
      }),
    );
    assert.equal(out.object.metadata?.generation, 2);
    assert.deepEqual(changed.warnings, [selectorWarning('spec.template')]);

    const status = testContext('default');
    await s.status.update(
      status,
      'web',
      updateWith<Deployment>((d) => {
        d.status = { ...d.status, observedGeneration: 2 };
      }),
    );
    assert.deepEqual(status.warnings, []);
  });
});

describe('apps workload warnings by strategy', () => {
  const ctx = testContext('default');

  it('ReplicaSets warn like Deployments; their status updates do not', () => {
    const rs = { metadata: { name: 'a.b', generation: 2 }, spec: { template: template() } };
    assert.deepEqual(replicaSetStrategy.warningsOnCreate(ctx, rs), [
      nameWarning,
      selectorWarning('spec.template'),
    ]);
    const old = { ...rs, metadata: { name: 'a.b', generation: 1 } };
    assert.deepEqual(replicaSetStrategy.warningsOnUpdate(ctx, rs, old), [selectorWarning('spec.template')]);
    assert.deepEqual(replicaSetStrategy.warningsOnUpdate(ctx, rs, rs), []);
    assert.deepEqual(replicaSetStatusStrategy.warningsOnUpdate(), []);
  });

  it("StatefulSets add claim template sizes (at kube's two paths) and a negative history limit", () => {
    const sts: StatefulSet = {
      metadata: { name: 'a.b', generation: 1 },
      spec: {
        template: template(),
        revisionHistoryLimit: -1,
        volumeClaimTemplates: [{ spec: { resources: { requests: { storage: '1.5' } } } }],
      },
    };
    const limit =
      'spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended';
    const claim = (at: string) =>
      `${at}.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer`;
    // No name warning: kube gives StatefulSets none.
    assert.deepEqual(statefulSetStrategy.warningsOnCreate(ctx, sts), [
      selectorWarning('spec.template'),
      claim('spec.volumeClaimTemplates[0]'),
      limit,
    ]);
    // The template is left out while the generation stands; the rest is said on every update.
    assert.deepEqual(statefulSetStrategy.warningsOnUpdate(ctx, sts, sts), [
      claim('spec.volumeClaimTemplates[0].Spec'),
      limit,
    ]);
    assert.deepEqual(statefulSetStatusStrategy.warningsOnUpdate(), []);
  });

  it('DaemonSets warn on update when the template generation moves', () => {
    const at = (generation: string): DaemonSet => ({
      metadata: { name: 'a.b', annotations: { [templateGenerationAnnotation]: generation } },
      spec: { template: template() },
    });
    assert.deepEqual(daemonSetStrategy.warningsOnCreate(ctx, at('1')), [selectorWarning('spec.template')]);
    assert.deepEqual(daemonSetStrategy.warningsOnUpdate(ctx, at('2'), at('1')), [
      selectorWarning('spec.template'),
    ]);
    assert.deepEqual(daemonSetStrategy.warningsOnUpdate(ctx, at('1'), at('1')), []);
    assert.deepEqual(daemonSetStatusStrategy.warningsOnUpdate(), []);
  });
});
