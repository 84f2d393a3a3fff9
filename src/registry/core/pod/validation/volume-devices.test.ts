// ValidateVolumeDevices (pkg/apis/core/validation/validation.go): a container's raw block devices
// name claim-backed volumes (persistentVolumeClaim or ephemeral) at unique paths no mount uses; and
// validateMountRecursiveReadOnly, the mount field k8s.io/api 1.33 added beside them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../../api/core/v1/container.js';
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { setPodSpecDefaults } from '../defaults.js';
import { validatePodSpec } from '../validation.js';

const ephemeral = {
  volumeClaimTemplate: {
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  },
};
const volumes: PodSpec['volumes'] = [
  { name: 'block', persistentVolumeClaim: { claimName: 'raw' } },
  { name: 'scratch', ephemeral },
  { name: 'cache', emptyDir: {} },
];
const spec = (c: Partial<Container>): PodSpec => ({
  containers: [{ name: 'db', image: 'postgres:16', ...c }],
  volumes,
});

const rows: readonly { name: string; container: Partial<Container>; errors: string[] }[] = [
  {
    name: 'a claim and an ephemeral volume as devices',
    container: {
      volumeDevices: [
        { name: 'block', devicePath: '/dev/xvda' },
        { name: 'scratch', devicePath: '/dev/xvdb' },
      ],
    },
    errors: [],
  },
  {
    name: 'an emptyDir as a device',
    container: { volumeDevices: [{ name: 'cache', devicePath: '/dev/xvda' }] },
    errors: [
      'spec.containers[0].volumeDevices[0].name: Invalid value: "cache": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
    ],
  },
  {
    name: 'an unknown volume, a missing path',
    container: { volumeDevices: [{ name: 'nope', devicePath: '' }] },
    errors: [
      'spec.containers[0].volumeDevices[0].name: Not found: "nope"',
      'spec.containers[0].volumeDevices[0].devicePath: Required value',
    ],
  },
  {
    name: 'the same device twice, with a backstep',
    container: {
      volumeDevices: [
        { name: 'block', devicePath: '/dev/../xvda' },
        { name: 'block', devicePath: '/dev/xvdc' },
      ],
    },
    errors: [
      'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/../xvda": can not contain backsteps (\'..\')',
      'spec.containers[0].volumeDevices[1].name: Invalid value: "block": must be unique',
    ],
  },
  {
    name: 'a device that is also mounted',
    container: {
      volumeMounts: [{ name: 'block', mountPath: '/dev/xvda' }],
      volumeDevices: [{ name: 'block', devicePath: '/dev/xvda' }],
    },
    errors: [
      'spec.containers[0].volumeMounts[0].name: Invalid value: "block": must not already exist in volumeDevices',
      'spec.containers[0].volumeMounts[0].mountPath: Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices',
      'spec.containers[0].volumeDevices[0].name: Invalid value: "block": must not already exist in volumeMounts',
      'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/xvda": must not already exist as a path in volumeMounts',
    ],
  },
  {
    name: 'recursiveReadOnly on a writable mount, and an unknown mode',
    container: {
      volumeMounts: [
        { name: 'cache', mountPath: '/a', recursiveReadOnly: 'Enabled' },
        { name: 'cache', mountPath: '/b', readOnly: true, recursiveReadOnly: 'Always' },
        { name: 'cache', mountPath: '/c', readOnly: true, recursiveReadOnly: 'IfPossible' },
      ],
    },
    errors: [
      // kube reports these at the list's path (ValidateVolumeMounts passes fldPath, not idxPath).
      'spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true',
      'spec.containers[0].volumeMounts.recursiveReadOnly: Unsupported value: "Always": supported values: "Disabled", "Enabled", "IfPossible"',
    ],
  },
];

describe('volume devices and mount modes', () => {
  for (const row of rows) {
    it(row.name, () => {
      const podSpec = spec(row.container);
      setPodSpecDefaults(podSpec);
      const errs = validatePodSpec(podSpec, FieldPath.of('spec'));
      assert.deepEqual(
        errs.map((e) => e.error()),
        row.errors,
      );
    });
  }
});
