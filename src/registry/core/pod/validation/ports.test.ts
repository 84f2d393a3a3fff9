import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../../api/core/v1/container.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { checkHostPortConflicts } from './ports.js';

describe('checkHostPortConflicts', () => {
  it('names a taken host port protocol/hostIP/port, as kube prints it', () => {
    const containers: Container[] = [
      { name: 'a', ports: [{ containerPort: 80, hostPort: 8080, hostIP: '10.0.0.1', protocol: 'TCP' }] },
      { name: 'b', ports: [{ containerPort: 81, hostPort: 8080, hostIP: '10.0.0.1', protocol: 'TCP' }] },
      { name: 'c', ports: [{ containerPort: 82, hostPort: 8080, protocol: 'TCP' }] },
      { name: 'd', ports: [{ containerPort: 83, hostPort: 8080, protocol: 'TCP' }] },
    ];
    assert.deepEqual(checkHostPortConflicts(containers, FieldPath.of('spec', 'containers')).map(String), [
      'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP/10.0.0.1/8080"',
      'spec.containers[3].ports[0].hostPort: Duplicate value: "TCP//8080"',
    ]);
  });
});
