import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { updateWith } from '../../apps/workload/testing.js';
import { ephemeralContainersStrategy } from './ephemeral-containers.js';
import { podResizeStrategy } from './resize.js';
import { newPodREST, type PodStorage } from './storage.js';

const pod = (name: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } },
  spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80, hostIP: '10.0.0.1' }] }] },
});
const critical =
  'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead';
const hostIP =
  'spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:TCP HostIP:10.0.0.1}';

describe('pod strategy warnings', () => {
  let env: MemoryRESTOptions;
  let s: PodStorage;
  before(async () => {
    env = await memoryRESTOptions();
    s = await newPodREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('warns on create about the name and the pod, with paths from the root and defaults applied', async () => {
    const ctx = testContext('default');
    await s.pods.create(ctx, pod('web.0'), { options: {} });
    assert.deepEqual(ctx.warnings, [
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
      critical,
      hostIP,
    ]);
  });

  it('says nothing on update, as kube, nor on the ephemeral container and resize subresources', async () => {
    await s.pods.create(testContext('default'), pod('web'), { options: {} });
    const ctx = testContext('default');
    await s.pods.update(
      ctx,
      'web',
      updateWith<Pod>((p) => {
        p.metadata = { ...p.metadata, labels: { a: 'b' } };
      }),
    );
    assert.deepEqual(ctx.warnings, []);
    assert.deepEqual(ephemeralContainersStrategy.warningsOnUpdate(), []);
    assert.deepEqual(podResizeStrategy.warningsOnUpdate(), []);
  });

  it('warns on /status about IPs in legacy forms', async () => {
    await s.pods.create(testContext('default'), pod('ips'), { options: {} });
    const ctx = testContext('default');
    await s.status.update(
      ctx,
      'ips',
      updateWith<Pod>((p) => {
        p.status = { ...p.status, podIP: '2001:DB8::5', podIPs: [{ ip: '2001:DB8::5' }] };
      }),
    );
    assert.deepEqual(ctx.warnings, [
      'status.podIPs[0].ip: IPv6 address "2001:DB8::5" should be in RFC 5952 canonical format ("2001:db8::5")',
    ]);
  });
});
