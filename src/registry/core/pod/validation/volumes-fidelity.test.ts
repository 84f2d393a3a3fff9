// ValidateVolumes and validateVolumeSource (pkg/apis/core/validation/validation.go): the corners
// where kube's order, paths and printed values are easy to miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Volume } from '../../../../api/core/v1/volume.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { iscsiErrors } from './volume-sources.js';
import { validateVolumes, type VolumesOptions } from './volumes.js';

const claimTemplate = {
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

function errorsOf(volumes: readonly unknown[], opts: VolumesOptions = {}): string[] {
  return validateVolumes(volumes as Volume[], FieldPath.of('spec', 'volumes'), opts).errs.map((e) =>
    e.error(),
  );
}

describe('validateVolumeSource as kube', () => {
  it('checks the created claim name only when ephemeral is the first source', () => {
    const podName = 'p'.repeat(250);
    assert.deepEqual(
      errorsOf(
        [{ name: 'scratch', emptyDir: {}, ephemeral: { volumeClaimTemplate: claimTemplate } }],
        { podName },
      ),
      ['spec.volumes[0].ephemeral: Forbidden: may not specify more than 1 volume type'],
    );
    assert.deepEqual(
      errorsOf([{ name: 'scratch', ephemeral: { volumeClaimTemplate: claimTemplate } }], { podName }),
      [
        `spec.volumes[0].name: Invalid value: "scratch": PVC name "${podName}-scratch": must be no more than 253 characters`,
      ],
    );
  });

  it('takes a null source as unset, as Go decodes it to a nil pointer', () => {
    assert.deepEqual(errorsOf([{ name: 'a', emptyDir: {}, hostPath: null }]), []);
    assert.deepEqual(errorsOf([{ name: 'a', hostPath: null }]), [
      'spec.volumes[0]: Required value: must specify a volume type',
    ]);
  });

  it('forbids claim template metadata in Go field order, with reflection names', () => {
    const metadata = {
      finalizers: [],
      uid: 'u',
      deletionGracePeriodSeconds: 0,
      name: 'n',
      generation: 0,
      creationTimestamp: null,
      labels: { a: 'b' },
    };
    assert.deepEqual(
      errorsOf([{ name: 'e', ephemeral: { volumeClaimTemplate: { ...claimTemplate, metadata } } }]),
      [
        'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set',
        'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.uID: Forbidden: cannot be set',
        'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.deletionGracePeriodSeconds: Forbidden: cannot be set',
        'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.finalizers: Forbidden: cannot be set',
      ],
    );
  });
});

describe('volume source validators as kube', () => {
  it('reads a quobyte registry as net.SplitHostPort does', () => {
    const quobyte = (registry: string) => errorsOf([{ name: 'q', quobyte: { registry, volume: 'v' } }]);
    assert.deepEqual(quobyte('a]b:80,[::1]:80,[x]y]:1,h:1['), [
      'spec.volumes[0].quobyte.registry: Invalid value: "a]b:80,[::1]:80,[x]y]:1,h:1[": must be a host:port pair or multiple pairs separated by commas',
      'spec.volumes[0].quobyte.registry: Invalid value: "a]b:80,[::1]:80,[x]y]:1,h:1[": must be a host:port pair or multiple pairs separated by commas',
      'spec.volumes[0].quobyte.registry: Invalid value: "a]b:80,[::1]:80,[x]y]:1,h:1[": must be a host:port pair or multiple pairs separated by commas',
    ]);
    assert.deepEqual(quobyte('h:1,[fe80::1]:7861,:'), []);
  });

  it('matches an iqn anywhere after its prefix, as the unanchored Go pattern does', () => {
    const iscsi = (iqn: string) =>
      errorsOf([{ name: 'i', iscsi: { targetPortal: '10.0.0.1:3260', iqn, lun: 0 } }]);
    assert.deepEqual(iscsi('iqnX-iqn.2001-04.com.example:storage'), []);
    assert.deepEqual(iscsi('iqn.2001-04.com.example:bad\u00a0x'), []);
    assert.deepEqual(iscsi('iqn.2001-04.com.example'), [
      'spec.volumes[0].iscsi.iqn: Invalid value: "iqn.2001-04.com.example": must be valid format',
    ]);
  });

  it('checks a persistent iscsi portal length with the volume name, after the portal', () => {
    const source = {
      targetPortal: `${'1'.repeat(60)}:3260`,
      iqn: 'iqn.2001-04.com.example:x',
      initiatorName: 'iqn.2001-04.com.example:i',
    };
    const errs = iscsiErrors(source, FieldPath.of('spec', 'iscsi'), { persistent: true, pvName: 'pv' });
    assert.deepEqual(
      errs.map((e) => e.error()),
      [
        `spec.iscsi.targetportal: Invalid value: "${source.targetPortal}": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.`,
      ],
    );
  });
});

describe('projected volumes as kube', () => {
  const projected = (sources: readonly unknown[]) => errorsOf([{ name: 'p', projected: { sources } }]);

  it('names a duplicate downward API path by the path', () => {
    const file = { path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } };
    assert.deepEqual(projected([{ downwardAPI: { items: [file] } }, { downwardAPI: { items: [file] } }]), [
      'spec.volumes[0].projected: Invalid value: "labels": conflicting duplicate paths',
    ]);
  });

  it('checks a token path at the volume, local, and outside the duplicate check', () => {
    assert.deepEqual(
      projected([
        { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
        { configMap: { name: 'c', items: [{ key: 'k', path: 'token' }] } },
        { serviceAccountToken: { path: '/etc/token', expirationSeconds: 3600 } },
        { serviceAccountToken: { path: '..token', expirationSeconds: 3600 } },
        { serviceAccountToken: { path: '', expirationSeconds: 3600 } },
      ]),
      [
        'spec.volumes[0].projected.path: Invalid value: "/etc/token": must be a relative path',
        'spec.volumes[0].projected.path: Invalid value: "..token": must not start with \'..\'',
        'spec.volumes[0].projected.path: Required value',
      ],
    );
  });

  it('keeps a non-local token path an old pod already has', () => {
    const sources = [{ serviceAccountToken: { path: '../token', expirationSeconds: 3600 } }];
    const volumes = [{ name: 'p', projected: { sources } }];
    assert.deepEqual(errorsOf(volumes, { allowNonLocalProjectedTokenPath: true }), []);
  });
});
