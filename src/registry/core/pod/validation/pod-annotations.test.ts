// The seccomp, AppArmor and mirror pod annotations as kube validates them on create, update and
// status update, with kube's exact texts, types and paths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import type { ErrorList } from '../../../../machinery/validation/index.js';
import { setPodDefaults } from '../defaults.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from '../validation.js';

function pod(annotations: Record<string, string>, edit: (spec: PodSpec) => void = () => undefined): Pod {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'default', resourceVersion: '1', annotations },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  };
  setPodDefaults(p);
  if (p.spec !== undefined) edit(p.spec);
  return p;
}

const texts = (errs: ErrorList): string[] => errs.map((e) => `${e.type} ${e.error()}`);
const seccompPod = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompApp = 'container.seccomp.security.alpha.kubernetes.io/app';
const appArmorApp = 'container.apparmor.security.beta.kubernetes.io/app';

describe('pod annotations on create as kube', () => {
  it('checks the seccomp profiles (as a child path) and the AppArmor ones (as a key)', () => {
    const p = pod({
      [seccompPod]: 'localhost//abs',
      [seccompApp]: 'docker/default',
      'container.seccomp.security.alpha.kubernetes.io/x': 'bogus',
      'container.apparmor.security.beta.kubernetes.io/ghost': 'bogus',
      [appArmorApp]: 'localhost/p',
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueInvalid metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "/abs": must be a relative path',
      'FieldValueInvalid metadata.annotations.container.seccomp.security.alpha.kubernetes.io/x: Invalid value: "bogus": must be a valid seccomp profile',
      'FieldValueInvalid metadata.annotations[container.apparmor.security.beta.kubernetes.io/ghost]: Invalid value: "ghost": container not found',
      'FieldValueInvalid metadata.annotations[container.apparmor.security.beta.kubernetes.io/ghost]: Invalid value: "bogus": invalid AppArmor profile name: "bogus"',
    ]);
  });

  it('needs a node for a mirror pod', () => {
    assert.deepEqual(texts(validatePod(pod({ 'kubernetes.io/config.mirror': 'x' }))), [
      'FieldValueInvalid metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
    ]);
  });

  it('needs a seccomp annotation and field set together to agree', () => {
    const p = pod({ [seccompPod]: 'unconfined', [seccompApp]: 'localhost/a' }, (s) => {
      s.securityContext = { seccompProfile: { type: 'RuntimeDefault' } };
      const c = s.containers[0];
      if (c !== undefined)
        c.securityContext = { seccompProfile: { type: 'Localhost', localhostProfile: 'b' } };
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueForbidden spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match',
      'FieldValueForbidden spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match',
    ]);
  });

  it("holds a container's AppArmor annotation to the pod's profile when it has none", () => {
    const p = pod({ [appArmorApp]: 'unconfined' }, (s) => {
      s.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueForbidden spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match',
    ]);
    const windows = pod({ [appArmorApp]: 'unconfined' }, (s) => {
      s.os = { name: 'windows' };
    });
    assert.deepEqual(texts(validatePod(windows)), []);
  });
});

describe('pod annotation changes as kube', () => {
  it('forbids adding, changing or removing AppArmor and mirror annotations', () => {
    const old = pod({ [appArmorApp]: 'runtime/default', 'kubernetes.io/config.mirror': 'm' }, (s) => {
      s.nodeName = 'n';
    });
    const next = pod({ 'container.apparmor.security.beta.kubernetes.io/app2': 'unconfined' }, (s) => {
      s.nodeName = 'n';
    });
    assert.deepEqual(texts(validatePodStatusUpdate(next, old)), [
      'FieldValueForbidden metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: Forbidden: may not remove or update AppArmor annotations',
      'FieldValueForbidden metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not remove or update mirror pod annotation',
      'FieldValueForbidden metadata.annotations[container.apparmor.security.beta.kubernetes.io/app2]: Forbidden: may not add AppArmor annotations',
      'FieldValueInvalid metadata.annotations[container.apparmor.security.beta.kubernetes.io/app2]: Invalid value: "app2": container not found',
    ]);
  });

  it('reports a bad annotation twice on update, as kube validates the annotations twice', () => {
    const old = pod({});
    const next = pod({ [seccompPod]: 'bogus' });
    const bad =
      'FieldValueInvalid metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile';
    assert.deepEqual(texts(validatePodUpdate(next, old)), [bad, bad]);
  });
});
