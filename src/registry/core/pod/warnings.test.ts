import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { Volume } from '../../../api/core/v1/volume.js';
import type { ObjectMeta } from '../../../api/meta.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import { testContext } from '../../generic/testing/widgets.js';
import { setPodDefaults } from './defaults.js';
import { podStrategiesFor } from './strategy.js';
import {
  podNameWarnings,
  podStatusIPWarnings,
  warningsForPod,
  warningsForPodTemplate,
  workloadNameWarnings,
} from './warnings.js';

const app: Container = { name: 'app', image: 'nginx' };
const warn = (spec: Partial<PodSpec>, metadata: ObjectMeta = {}): string[] =>
  warningsForPod({ metadata, spec: { containers: [app], ...spec } });

describe('pod warnings (GetWarningsForPod, GetWarningsForPodTemplate)', () => {
  it('has nothing to say about an ordinary defaulted pod', () => {
    const pod: Pod = {
      metadata: { name: 'web-5d8f7c9b6d-abcde', annotations: { 'prometheus.io/scrape': 'true' } },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx',
            ports: [{ name: 'http', containerPort: 8080 }],
            env: [
              { name: 'A', value: '1' },
              { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
            resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '1.5Gi' } },
          },
        ],
        volumes: [
          {
            name: 'kube-api-access',
            projected: {
              sources: [
                { serviceAccountToken: { path: 'token' } },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                { downwardAPI: { items: [{ path: 'namespace' }] } },
              ],
            },
          },
          { name: 'data', emptyDir: { sizeLimit: '1Gi' } },
        ],
        hostAliases: [{ ip: '10.0.0.1' }, { ip: '2001:db8::1' }],
      },
    };
    setPodDefaults(pod);
    assert.deepEqual(podNameWarnings(pod.metadata?.name).concat(warningsForPod(pod)), []);
  });

  it('names retired node labels in the selector, node affinity and spread constraints', () => {
    assert.deepEqual(
      warn({
        nodeSelector: { 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/os': 'linux' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a b'] },
                  ],
                },
              ],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                preference: {
                  matchExpressions: [
                    { key: 'node-role.kubernetes.io/master', operator: 'In', values: ['ok', '-x'] },
                  ],
                },
              },
            ],
          },
        },
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'beta.kubernetes.io/instance-type', whenUnsatisfiable: 'DoNotSchedule' },
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: {},
          },
        ],
      }),
      [
        'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
        // Values are checked on preferred terms only.
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
        'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: node-role.kubernetes.io/master is use "node-role.kubernetes.io/control-plane" instead',
        "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[1]: -x is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        'spec.topologySpreadConstraints[0].topologyKey: beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
        'spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod',
      ],
    );
  });

  it('names annotations that no longer work, unless the field they stood for is set', () => {
    const annotations = {
      'scheduler.alpha.kubernetes.io/critical-pod': '',
      'security.alpha.kubernetes.io/unsafe-sysctls': 'x',
      'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
      'container.seccomp.security.alpha.kubernetes.io/app': 'runtime/default',
      'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default',
    };
    assert.deepEqual(warn({}, { annotations }), [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/unsafe-sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/app]: non-functional in v1.27+; use the "seccompProfile" field instead',
      // A pod's AppArmor annotations are synced to fields on create, and warned about there.
    ]);
    const withFields = {
      securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ ...app, securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }],
    };
    assert.deepEqual(warn(withFields, { annotations }).length, 2);

    const template = (spec: Partial<PodSpec>) =>
      warningsForPodTemplate(FieldPath.of('spec', 'template'), {
        metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' } },
        spec: { containers: [app], ...spec },
      });
    assert.deepEqual(template({}), [
      'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
    ]);
    assert.deepEqual(template({ securityContext: { appArmorProfile: { type: 'Unconfined' } } }), []);
    const own = { ...app, securityContext: { appArmorProfile: { type: 'Unconfined' } } };
    assert.deepEqual(template({ containers: [own] }), []);
  });

  it("words gitRepo's warning after the server's GitRepoVolumeDriver gate", () => {
    const pod: Pod = {
      metadata: { name: 'p' },
      spec: { containers: [app], volumes: [{ name: 'src', gitRepo: { repository: 'r' } }] },
    };
    const warningsWith = (gates: FeatureGates): string[] | undefined =>
      podStrategiesFor(gates).pod.warningsOnCreate(testContext('default'), pod);
    assert.deepEqual(warningsWith(FeatureGates.defaults()), [
      'spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+',
    ]);
    assert.deepEqual(warningsWith(FeatureGates.defaults().with({ GitRepoVolumeDriver: true })), [
      'spec.volumes[0].gitRepo: deprecated in v1.11',
    ]);
  });

  it('names retired volume plugins in kube order, and fractional claim template sizes', () => {
    const volumes = [
      { name: 'a', rbd: { monitors: ['m'], image: 'i' } },
      { name: 'b', gitRepo: { repository: 'r' } },
      { name: 'c', storageos: { volumeName: 'v' } },
      {
        name: 'd',
        ephemeral: {
          volumeClaimTemplate: {
            spec: { resources: { requests: { storage: '1.5' }, limits: { storage: '100m' } } },
          },
        },
      },
      { name: 'e', cephfs: { monitors: ['m'] } },
      { name: 'f', glusterfs: { endpoints: 'e', path: 'p' } },
      { name: 'g', photonPersistentDisk: { pdID: 'x' } },
      { name: 'h', scaleIO: { gateway: 'g', system: 's', secretRef: {} } },
      { name: 'i', flocker: { datasetName: 'd' } },
      { name: 'j', quobyte: { registry: 'r', volume: 'v' } },
    ] as Volume[];
    assert.deepEqual(warn({ volumes }), [
      'spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+',
      'spec.volumes[1].gitRepo: deprecated in v1.11, and disabled by default in v1.33+',
      'spec.volumes[2].storageOS: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[3].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      'spec.volumes[3].ephemeral.volumeClaimTemplate.spec.resources.limits[storage]: fractional byte value "100m" is invalid, must be an integer',
      'spec.volumes[4].cephfs: deprecated in v1.28, non-functional in v1.31+',
      'spec.volumes[5].glusterfs: deprecated in v1.25, non-functional in v1.26+',
      'spec.volumes[6].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+',
      'spec.volumes[7].scaleIO: deprecated in v1.16, non-functional in v1.22+',
      'spec.volumes[8].flocker: deprecated in v1.22, non-functional in v1.25+',
      'spec.volumes[9].quobyte: deprecated in v1.22, non-functional in v1.25+',
    ]);
  });

  it('finds files of one volume written over each other or over a directory', () => {
    const items = (...paths: string[]) => paths.map((path, i) => ({ key: `k${String(i)}`, path }));
    const volumes = [
      { name: 'cm', configMap: { name: 'conf', items: items('a', 'a/b', 'c', 'c/') } },
      { name: 'sec', secret: { secretName: 's', items: items('x', 'x') } },
      { name: 'down', downwardAPI: { items: items('ab', 'a') } },
      {
        name: 'proj',
        projected: {
          sources: [
            {},
            { configMap: { name: 'one', items: items('f') } },
            // No items: kube's loop keeps the previous source's files and places them again.
            { secret: { name: 'two' } },
            { serviceAccountToken: { path: 'f/g' } },
            { clusterTrustBundle: { signerName: 'example.com/signer', path: 'f' } },
          ],
        },
      },
    ] as Volume[];
    assert.deepEqual(warn({ volumes }), [
      'volume "cm" (ConfigMap "conf"): overlapping paths: "a/b" with "a"',
      'volume "cm" (ConfigMap "conf"): overlapping paths: "c" with "c"',
      'volume "sec" (Secret "s"): overlapping paths: "x" with "x"',
      'volume "proj" (Projected) has no sources provided',
      'volume "proj" (Projected): overlapping paths: "f" (ConfigMap "one") with "f" (ConfigMap "one")',
      'volume "proj" (Projected): overlapping paths: "f/g" (ServiceAccountToken) with "f" (ConfigMap "one")',
      'volume "proj" (Projected): overlapping paths: "f/g" (ServiceAccountToken) with "f" (ConfigMap "one")',
      'volume "proj" (Projected): overlapping paths: "f" (ClusterTrustBundle "example.com/signer") with "f" (ConfigMap "one")',
      'volume "proj" (Projected): overlapping paths: "f" (ClusterTrustBundle "example.com/signer") with "f" (ConfigMap "one")',
      'volume "proj" (Projected): overlapping paths: "f" (ClusterTrustBundle "example.com/signer") with "f/g" (ServiceAccountToken)',
    ]);
  });

  it('names repeated host aliases and pull secrets, unnamed secrets and fractional overhead', () => {
    assert.deepEqual(
      warn({
        hostAliases: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: '10.0.0.1' }],
        imagePullSecrets: [{ name: 'reg' }, {}, { name: 'reg' }, { name: '' }],
        overhead: { cpu: '250m', memory: '0.5', 'ephemeral-storage': '1001m' },
      }),
      [
        'spec.hostAliases[2].ip: duplicate ip "10.0.0.1"',
        'spec.imagePullSecrets[2].name: duplicate name "reg"',
        'spec.imagePullSecrets[3].name: duplicate name ""',
        'spec.imagePullSecrets[1].name: invalid empty name ""',
        'spec.imagePullSecrets[3].name: invalid empty name ""',
        'spec.overhead[memory]: fractional byte value "500m" is invalid, must be an integer',
        'spec.overhead[ephemeral-storage]: fractional byte value "1001m" is invalid, must be an integer',
      ],
    );
  });

  it('names fractional container bytes, limits before requests, in every kind of container', () => {
    // 1.5Ki is 1536 bytes; 0.9999 rounds up to 1000 milli-bytes, which MilliValue calls whole.
    const c = (
      name: string,
      limits: Record<string, string>,
      requests: Record<string, string>,
    ): Container => ({
      name,
      image: 'x',
      resources: { limits, requests },
    });
    assert.deepEqual(
      warn({
        initContainers: [c('init', { 'ephemeral-storage': '1.5Ki' }, { memory: '100m', cpu: '1.5' })],
        containers: [c('app', { memory: '1Gi' }, { memory: '1e-3', 'ephemeral-storage': '1500u' })],
        ephemeralContainers: [c('debug', { memory: '0.9999' }, {})],
      }),
      [
        'spec.initContainers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer',
        'spec.containers[0].resources.requests[memory]: fractional byte value "1e-3" is invalid, must be an integer',
        'spec.containers[0].resources.requests[ephemeral-storage]: fractional byte value "1500u" is invalid, must be an integer',
      ],
    );
  });

  it('names variables that hide an earlier definition without building on it', () => {
    const env = [
      { name: 'X', value: 'a' },
      { name: 'X', value: '$(X):b' },
      { name: 'X', value: '$(X)' },
      { name: 'X', value: 'c' },
      { name: 'X', value: '$(X)', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'Y', value: 'y' },
    ];
    assert.deepEqual(warn({ containers: [{ ...app, env }] }), [
      'spec.containers[0].env[2]: hides previous definition of "X", which may be dropped when using apply',
      'spec.containers[0].env[3]: hides previous definition of "X", which may be dropped when using apply',
      'spec.containers[0].env[4]: hides previous definition of "X", which may be dropped when using apply',
    ]);
    // Past a few dozen variables the earlier names are kept in a set; the answer is the same.
    const many = Array.from({ length: 40 }, (_, i) => ({ name: `V${String(i % 35)}`, value: 'v' }));
    assert.deepEqual(
      warn({ containers: [{ ...app, env: many }] }),
      [35, 36, 37, 38, 39].map(
        (i) =>
          `spec.containers[0].env[${String(i)}]: hides previous definition of "V${String(i - 35)}", which may be dropped when using apply`,
      ),
    );
  });

  it('warns of a negative grace period, selector-less pod affinity and legacy IP forms', () => {
    const term = { topologyKey: 'kubernetes.io/hostname' };
    assert.deepEqual(
      warn({
        terminationGracePeriodSeconds: -5,
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [term, { ...term, labelSelector: {} }],
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }],
          },
        },
        dnsConfig: { nameservers: ['1.1.1.1', '010.0.0.1', 'fe80::0:1'] },
        hostAliases: [{ ip: '::ffff:10.0.0.1' }],
      }),
      [
        'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
        'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod',
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
        'spec.dnsConfig.nameservers[1]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
        'spec.dnsConfig.nameservers[2]: IPv6 address "fe80::0:1" should be in RFC 5952 canonical format ("fe80::1")',
        'spec.hostAliases[0].ip: non-standard IP address "::ffff:10.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
      ],
    );
  });

  it("roots a template's paths at its own path, and says nothing of a missing template", () => {
    const template = {
      metadata: { annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } },
      spec: { containers: [app], nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } },
    };
    assert.deepEqual(warningsForPodTemplate(FieldPath.of('template'), template), [
      'template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
    ]);
    assert.deepEqual(warningsForPodTemplate(FieldPath.of('spec', 'template'), undefined), []);
    assert.deepEqual(warningsForPodTemplate(FieldPath.of('template'), { metadata: {} }), []);
  });

  it('advises DNS labels for names that become hostnames', () => {
    assert.deepEqual(podNameWarnings('web-0'), []);
    assert.deepEqual(podNameWarnings('web.example'), [
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
    assert.deepEqual(workloadNameWarnings('a'.repeat(64)), [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must be no more than 63 characters]',
    ]);
  });

  it('names status IPs in legacy forms (pods/status)', () => {
    const pod: Pod = {
      status: {
        podIPs: [{ ip: '10.1.0.7' }, { ip: '2001:DB8::7' }],
        hostIPs: [{ ip: '192.168.001.2' }],
      },
    };
    assert.deepEqual(podStatusIPWarnings(pod), [
      'status.podIPs[1].ip: IPv6 address "2001:DB8::7" should be in RFC 5952 canonical format ("2001:db8::7")',
      'status.hostIPs[0].ip: non-standard IP address "192.168.001.2" will be considered invalid in a future Kubernetes release: use "192.168.1.2"',
    ]);
  });
});
