// ValidateVolumeMounts and ValidateVolumeDevices (pkg/apis/core/validation/validation.go), called
// directly: where a mount's errors sit, and how mounts and devices see each other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container, VolumeMount } from '../../../../api/core/v1/container.js';
import type { Volume } from '../../../../api/core/v1/volume.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { validateVolumeDevices, validateVolumeMounts } from './volume-mounts.js';

const volumes = new Map<string, Volume>([
  ['cache', { name: 'cache', emptyDir: {} }],
  ['block', { name: 'block', persistentVolumeClaim: { claimName: 'raw' } }],
]);
const at = FieldPath.of('spec', 'containers').index(0);

function errorsOf(c: Partial<Container>): string[] {
  const container = { name: 'app', image: 'x', ...c };
  return [
    ...validateVolumeMounts(container, volumes, at.child('volumeMounts')),
    ...validateVolumeDevices(container, volumes, at.child('volumeDevices')),
  ].map((e) => e.error());
}

describe('volume mounts as kube', () => {
  it('reports recursiveReadOnly at the list path, after mountPropagation', () => {
    assert.deepEqual(
      errorsOf({
        volumeMounts: [
          {
            name: 'cache',
            mountPath: '/a',
            readOnly: true,
            mountPropagation: 'HostToContainer',
            recursiveReadOnly: 'Enabled',
          },
        ],
      }),
      [
        'spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified',
      ],
    );
  });

  it('sees only the last path of a name listed twice, as a Go map keeps it', () => {
    assert.deepEqual(
      errorsOf({
        volumeMounts: [
          { name: 'cache', mountPath: '/dev/xvda' },
          { name: 'cache', mountPath: '/mnt' },
        ],
        volumeDevices: [{ name: 'block', devicePath: '/dev/xvda' }],
      }),
      [
        'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices',
      ],
    );
  });

  it('matches a nameless mount with a nameless device', () => {
    assert.deepEqual(
      errorsOf({
        volumeMounts: [{ mountPath: '/m' }] as unknown as VolumeMount[],
        volumeDevices: [{ devicePath: '/d' }],
      }),
      [
        'spec.containers[0].volumeMounts[0].name: Required value',
        'spec.containers[0].volumeMounts[0].name: Not found: ""',
        'spec.containers[0].volumeMounts[0].name: Invalid value: "": must not already exist in volumeDevices',
        'spec.containers[0].volumeDevices[0].name: Required value',
        'spec.containers[0].volumeDevices[0].name: Not found: ""',
        'spec.containers[0].volumeDevices[0].name: Invalid value: "": must not already exist in volumeMounts',
      ],
    );
  });
});
