import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container, ContainerPort } from '../../../api/core/v1/container.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPod, warningsForPodTemplate } from './warnings.js';

const withPorts = (name: string, ...ports: ContainerPort[]): Container => ({ name, image: 'x', ports });
const tcp = (containerPort: number, more: Partial<ContainerPort> = {}): ContainerPort => ({
  containerPort,
  protocol: 'TCP',
  ...more,
});

describe('pod port warnings', () => {
  it('names host IPs without host ports and ports that collide, across every kind of container', () => {
    const spec: PodSpec = {
      initContainers: [withPorts('init', tcp(80))],
      containers: [
        withPorts('app', tcp(80), tcp(80, { protocol: 'UDP' }), tcp(443, { hostIP: '10.0.0.1' })),
        withPorts('side', tcp(80, { hostPort: 8080 }), tcp(9000, { hostPort: 9000, hostIP: '10.0.0.1' })),
      ],
      ephemeralContainers: [withPorts('debug', tcp(9000, { hostPort: 9000 }), tcp(9000, { hostPort: 9001 }))],
    };
    assert.deepEqual(warningsForPod({ spec }), [
      'spec.containers[0].ports[0]: duplicate port definition with spec.initContainers[0].ports[0]',
      'spec.containers[0].ports[2]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:443 Protocol:TCP HostIP:10.0.0.1}',
      'spec.containers[1].ports[0]: overlapping port definition with spec.initContainers[0].ports[0]',
      'spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.ephemeralContainers[0].ports[0]: dangerously ambiguous port definition with spec.containers[1].ports[1]',
      // Two different host ports for one container port are fine.
    ]);
  });

  it('names a port name used before, against its first use', () => {
    const spec: PodSpec = {
      containers: [
        withPorts('app', tcp(8080, { name: 'http' }), tcp(9090, { name: 'metrics' })),
        withPorts('proxy', tcp(15001, { name: 'http' }), tcp(15090, { name: 'metrics' })),
        withPorts('third', tcp(7000, { name: 'http' })),
      ],
    };
    const first = 'spec.template.spec.containers[0].ports[0]';
    assert.deepEqual(warningsForPodTemplate(FieldPath.of('spec', 'template'), { spec }), [
      `spec.template.spec.containers[1].ports[0]: duplicate port name "http" with ${first}, services and probes that select ports by name will use ${first}`,
      'spec.template.spec.containers[1].ports[1]: duplicate port name "metrics" with spec.template.spec.containers[0].ports[1], services and probes that select ports by name will use spec.template.spec.containers[0].ports[1]',
      `spec.template.spec.containers[2].ports[0]: duplicate port name "http" with ${first}, services and probes that select ports by name will use ${first}`,
    ]);
  });

  it('gives the same answers for many ports, found through a map', () => {
    const ports = Array.from({ length: 20 }, (_, i) => tcp(1000 + (i % 18), { name: `p${String(i % 19)}` }));
    assert.deepEqual(warningsForPod({ spec: { containers: [withPorts('app', ...ports)] } }), [
      'spec.containers[0].ports[18]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[19]: duplicate port definition with spec.containers[0].ports[1]',
      'spec.containers[0].ports[19]: duplicate port name "p0" with spec.containers[0].ports[0], services and probes that select ports by name will use spec.containers[0].ports[0]',
    ]);
  });
});
