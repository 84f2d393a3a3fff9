import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import { testContext } from '../../generic/testing/widgets.js';
import { replicationControllerStatusStrategy, replicationControllerStrategy } from './strategy.js';

const template = (nodeSelector: Record<string, string>): PodTemplateSpec => ({
  spec: { containers: [{ name: 'c', image: 'nginx' }], nodeSelector },
});
const rc = (generation: number, t: PodTemplateSpec): ReplicationController => ({
  metadata: { name: 'web.v1', generation },
  spec: { template: t },
});
const ctx = testContext('default');

it('warns on create about the name and the template at spec.template', () => {
  assert.deepEqual(
    replicationControllerStrategy.warningsOnCreate(ctx, rc(1, template({ 'beta.kubernetes.io/os': 'x' }))),
    [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
      'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
    ],
  );
});

it('warns on update about the old template, as kube 1.33 does, once the generation moves', () => {
  const old = rc(1, template({ 'beta.kubernetes.io/arch': 'amd64' }));
  const next = rc(2, template({ 'beta.kubernetes.io/os': 'linux' }));
  assert.deepEqual(replicationControllerStrategy.warningsOnUpdate(ctx, next, old), [
    'spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
  ]);
  assert.deepEqual(
    replicationControllerStrategy.warningsOnUpdate(ctx, { ...next, metadata: { generation: 1 } }, old),
    [],
  );
  assert.deepEqual(replicationControllerStatusStrategy.warningsOnUpdate(), []);
});
