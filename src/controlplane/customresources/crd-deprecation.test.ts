// crdDeprecationWarnings: a deprecated served version's own warning, else kube's default, which
// names the newest served version above it that is not deprecated.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import { crdDeprecationWarnings } from './crd-deprecation.js';

type Version = CustomResourceDefinition['spec']['versions'][number];
const crd = (...versions: Partial<Version>[]): CustomResourceDefinition => ({
  metadata: { name: 'things.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'things', kind: 'Thing' },
    versions: versions.map((v) => ({ name: 'v1', served: true, storage: false, ...v })),
  },
});

describe('crdDeprecationWarnings', () => {
  it('names the newest served version above it that is not deprecated', () => {
    const warnings = crdDeprecationWarnings(
      crd(
        { name: 'v1alpha1', deprecated: true },
        { name: 'v1beta1', deprecated: true },
        { name: 'v1beta2' },
        { name: 'v1', storage: true },
        { name: 'v2', served: false },
      ),
    );
    assert.deepEqual(Object.fromEntries(warnings), {
      v1alpha1: 'example.com/v1alpha1 Thing is deprecated; use example.com/v1 Thing',
      v1beta1: 'example.com/v1beta1 Thing is deprecated; use example.com/v1 Thing',
    });
  });

  it('names none when nothing newer is served, and prefers the version’s own text', () => {
    const warnings = crdDeprecationWarnings(
      crd(
        { name: 'v2', deprecated: true },
        { name: 'v1', storage: true },
        { name: 'v1beta1', deprecated: true, deprecationWarning: 'use v1' },
        { name: 'v1alpha1', deprecated: true, served: false },
      ),
    );
    assert.deepEqual(Object.fromEntries(warnings), {
      v2: 'example.com/v2 Thing is deprecated',
      v1beta1: 'use v1',
    });
  });
});
