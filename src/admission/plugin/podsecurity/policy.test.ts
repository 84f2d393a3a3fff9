// The Pod Security checks and levels, with kube's reasons and details.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluatePod, policyFromLabels } from './policy.js';
import type { ContainerView, PodSpecView } from './shape.js';

const good: ContainerView = {
  name: 'app',
  image: 'nginx',
  securityContext: {
    allowPrivilegeEscalation: false,
    runAsNonRoot: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  },
};
const spec = (over: Partial<PodSpecView> = {}, c: ContainerView = good): PodSpecView => ({
  containers: [c],
  ...over,
});
const detail = (level: 'baseline' | 'restricted', s: PodSpecView): string => evaluatePod(level, {}, s).detail;

describe('PodSecurity checks', () => {
  it('passes a restricted pod at every level', () => {
    for (const level of ['privileged', 'baseline', 'restricted'] as const)
      assert.equal(evaluatePod(level, {}, spec()).allowed, true);
  });
  it('baseline: host namespaces, privileged, capabilities, hostPath, hostPort', () => {
    assert.equal(
      detail('baseline', spec({ hostNetwork: true, hostPID: true })),
      'host namespaces (hostNetwork=true, hostPID=true)',
    );
    assert.equal(
      detail('baseline', spec({}, { name: 'a', securityContext: { privileged: true } })),
      'privileged (container "a" must not set securityContext.privileged=true)',
    );
    assert.equal(
      detail('baseline', {
        containers: [
          { name: 'a', securityContext: { capabilities: { add: ['SYS_ADMIN', 'CHOWN', 'BPF'] } } },
          { name: 'b', ports: [{ hostPort: 80 }] },
        ],
        volumes: [{ name: 'h', hostPath: { path: '/' } }],
      }),
      'non-default capabilities (container "a" must not include "BPF", "SYS_ADMIN" in securityContext.capabilities.add), ' +
        'hostPath volumes (volume "h"), hostPort (container "b" uses hostPort 80)',
    );
  });
  it('baseline: AppArmor, SELinux, procMount, seccomp, sysctls, hostProcess', () => {
    assert.equal(
      detail('baseline', {
        securityContext: {
          seccompProfile: { type: 'Unconfined' },
          sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.tcp_syncookies' }],
          windowsOptions: { hostProcess: true },
        },
        containers: [
          {
            name: 'a',
            securityContext: {
              appArmorProfile: { type: 'Unconfined' },
              seLinuxOptions: { type: 'spc_t', user: 'root' },
              procMount: 'Unmasked',
            },
          },
        ],
      }),
      'forbidden AppArmor profile (container "a" must not set securityContext.appArmorProfile.type to "Unconfined"), ' +
        'procMount (container "a" must not set securityContext.procMount to "Unmasked"), ' +
        'seLinuxOptions (container "a" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), ' +
        'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined"), ' +
        'forbidden sysctls (kernel.msgmax), ' +
        'hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)',
    );
  });
  it('restricted: a plain container fails every restricted check', () => {
    assert.equal(
      detail('restricted', spec({}, { name: 'app', image: 'nginx' })),
      'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });
  it('restricted: volumes, runAsUser 0, explicit bad values, NET_BIND_SERVICE allowed', () => {
    const sc = {
      ...good.securityContext,
      capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'NET_RAW'] },
    };
    assert.equal(
      detail('restricted', {
        securityContext: { runAsUser: 0, runAsNonRoot: false },
        containers: [{ name: 'a', securityContext: { ...sc, seccompProfile: { type: 'Unconfined' } } }],
        volumes: [
          { name: 'n', nfs: { server: 'x', path: '/' } },
          { name: 'c', configMap: { name: 'x' } },
        ],
      }),
      'unrestricted capabilities (container "a" must not include "NET_RAW" in securityContext.capabilities.add), ' +
        'restricted volume types (volume "n" uses restricted volume type "nfs"), ' +
        'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), ' +
        'runAsUser=0 (pod must not set runAsUser=0), ' +
        'seccompProfile (container "a" must not set securityContext.seccompProfile.type to "Unconfined")',
    );
    const podLevel: PodSpecView = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Localhost' } },
      initContainers: [
        { name: 'i', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
      ],
      containers: [
        { name: 'a', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
      ],
    };
    assert.equal(evaluatePod('restricted', {}, podLevel).allowed, true);
  });
});

describe('PodSecurity labels', () => {
  it('reads levels, defaults to privileged:latest, rejects invalid values', () => {
    const { policy, errors } = policyFromLabels({
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/warn-version': 'v1.30',
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(policy.enforce, { level: 'baseline', version: 'latest' });
    assert.deepEqual(policy.audit, { level: 'privileged', version: 'latest' });
    assert.deepEqual(policy.warn, { level: 'restricted', version: 'v1.30' });
    const bad = policyFromLabels({ 'pod-security.kubernetes.io/enforce': 'strict' });
    assert.equal(
      bad.errors[0]?.text,
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
  });
});
