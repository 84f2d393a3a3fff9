// validatePodMetadataAndSpec's pod-only check (pkg/apis/core/validation/validation.go): a projected
// serviceAccountToken needs the pod to name a service account, on create and on every update.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import type { Volume } from '../../../../api/core/v1/volume.js';
import type { ErrorList } from '../../../../machinery/validation/index.js';
import { setPodDefaults } from '../defaults.js';
import { validatePod, validatePodUpdate } from '../validation.js';
import { validatePodTemplateSpec } from '../../podtemplate/validation.js';
import { FieldPath } from '../../../../machinery/validation/index.js';

const token = { serviceAccountToken: { path: 'token' } };

const volumes: Volume[] = [
  { name: 'plain', emptyDir: {} },
  { name: 'mixed', projected: { sources: [{ configMap: { name: 'cm' } }, token] } },
  { name: 'two', projected: { sources: [token, { serviceAccountToken: { path: 'other' } }] } },
];

function pod(edit: (spec: PodSpec) => void): Pod {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'default', resourceVersion: '1' },
    spec: { containers: [{ name: 'app', image: 'nginx' }], volumes: structuredClone(volumes) },
  };
  setPodDefaults(p);
  if (p.spec !== undefined) edit(p.spec);
  return p;
}

const texts = (errs: ErrorList): string[] => errs.map((e) => e.error());
const forbidden = (at: string): string =>
  `spec.volumes${at}.serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set`;

describe('projected service account tokens without a service account, as kube 1.33', () => {
  it('refuses each token source of a pod naming no service account', () => {
    assert.deepEqual(texts(validatePod(pod(() => undefined))), [
      forbidden('[1].projected.sources[1]'),
      forbidden('[2].projected.sources[0]'),
      forbidden('[2].projected.sources[1]'),
    ]);
  });

  it('takes a service account named by either field (serviceAccount is the v1 alias)', () => {
    assert.deepEqual(texts(validatePod(pod((s) => (s.serviceAccountName = 'sa')))), []);
    assert.deepEqual(texts(validatePod(pod((s) => (s.serviceAccount = 'sa')))), []);
    assert.deepEqual(texts(validatePod(pod((s) => (s.serviceAccountName = '')))).length, 3);
  });

  it("comes after the spec's own errors and before the images' spaces", () => {
    const p = pod((s) => {
      s.volumes = [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: '' } }] } }];
      const c = s.containers[0];
      if (c !== undefined) c.image = ' nginx';
    });
    assert.deepEqual(texts(validatePod(p)), [
      'spec.volumes[0].projected.path: Required value',
      forbidden('[0].projected.sources[0]'),
      'spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace',
    ]);
  });

  it('checks updates too, and leaves pod templates alone', () => {
    const old = pod((s) => (s.serviceAccountName = 'sa'));
    const next = pod((s) => (s.serviceAccountName = 'sa'));
    assert.deepEqual(texts(validatePodUpdate(next, old)), []);
    const bare = pod(() => undefined);
    assert.ok(texts(validatePodUpdate(bare, bare)).includes(forbidden('[1].projected.sources[1]')));
    const template = { metadata: {}, spec: pod(() => undefined).spec ?? { containers: [] } };
    assert.deepEqual(texts(validatePodTemplateSpec(template, FieldPath.of('template'))), []);
  });
});
