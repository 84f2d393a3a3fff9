// An update that keeps the live object's spec (the registry shares it when the request left it
// equal) validates it once: a spec found valid is marked with the pod name it was validated for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import { deepFreeze } from '../../../../storage/cacher/freeze.js';
import { setPodDefaults } from '../defaults.js';
import { validatePod, validatePodUpdate } from '../validation.js';

const longName = 'x'.repeat(250);

/** A pod whose ephemeral volume's claim (`<pod>-scratch`) is a valid name only for a short pod name. */
function pod(name = 'p'): Pod {
  const p: Pod = {
    metadata: { name, namespace: 'default', resourceVersion: '1' },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.25' }],
      volumes: [
        {
          name: 'scratch',
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          },
        },
      ],
    },
  };
  setPodDefaults(p);
  return p;
}

/** The update a relabel makes of `live`: new metadata, the live spec itself. */
function relabeled(live: Pod, name = live.metadata?.name ?? ''): Pod {
  return { ...live, metadata: { ...live.metadata, name, labels: { tier: 'web' } } };
}

const errors = (errs: readonly { error(): string }[]): string[] => errs.map((e) => e.error());

const breakImage = (spec: PodSpec): void => {
  const c = spec.containers[0];
  assert.ok(c !== undefined);
  c.image = '';
};

/** Only the spec's own validation checks a container's name (an update's image check does not). */
const breakName = (spec: PodSpec): void => {
  const c = spec.containers[0];
  assert.ok(c !== undefined);
  c.name = '';
};

// kube checks an updated pod's images twice: in the spec's validation and in ValidateContainerUpdates.
const imageRequired = [
  'spec.containers[0].image: Required value',
  'spec.containers[0].image: Required value',
];

describe('validatePodUpdate of the live spec', () => {
  it('reports what is wrong with a live spec nothing validated, as kube does', () => {
    const live = pod();
    breakImage(live.spec as PodSpec);
    assert.deepEqual(errors(validatePodUpdate(relabeled(live), live)), imageRequired);
  });

  it('does not walk a live spec found valid again', () => {
    const live = pod();
    assert.deepEqual(validatePod(live), []);
    // Breaks the rule the mark rests on (nothing changes a live spec in place), to show that the
    // second update trusts it; a copy of the same spec is walked and the change is found.
    breakName(live.spec as PodSpec);
    assert.deepEqual(validatePodUpdate(relabeled(live), live), []);
    const copy: Pod = { ...relabeled(live), spec: structuredClone(live.spec as PodSpec) };
    assert.deepEqual(errors(validatePodUpdate(copy, live)), ['spec.containers[0].name: Required value']);
  });

  it('marks a spec for the pod name it was validated with', () => {
    const live = pod();
    assert.deepEqual(validatePodUpdate(relabeled(live), live), []);
    const renamed = errors(validatePodUpdate(relabeled(live, longName), live));
    assert.ok(
      renamed.some((e) => e.startsWith('spec.volumes[0].name: Invalid value: "scratch": PVC name')),
      renamed.join('\n'),
    );
  });

  it('never trusts a mark on a create', () => {
    const p = pod();
    assert.deepEqual(validatePod(p), []);
    breakImage(p.spec as PodSpec);
    assert.deepEqual(errors(validatePod(p)), ['spec.containers[0].image: Required value']);
  });

  it('leaves no trace in what JSON and copies see', () => {
    const live = pod();
    const before = JSON.stringify(live.spec);
    const keys = Object.keys(live.spec as PodSpec);
    assert.deepEqual(validatePod(live), []);
    assert.equal(JSON.stringify(live.spec), before);
    assert.deepEqual(Object.keys(live.spec as PodSpec), keys);
    assert.equal(Object.getOwnPropertySymbols({ ...live.spec }).length, 0);
  });

  it('validates a frozen live spec every time, as it cannot be marked', () => {
    const live = pod();
    breakImage(live.spec as PodSpec);
    deepFreeze(live.spec);
    for (let i = 0; i < 2; i++)
      assert.deepEqual(errors(validatePodUpdate(relabeled(live), live)), imageRequired);
    const valid = deepFreeze(pod().spec as PodSpec);
    const next: Pod = { ...pod(), spec: valid };
    assert.deepEqual(validatePodUpdate(relabeled(next), next), []);
  });
});
