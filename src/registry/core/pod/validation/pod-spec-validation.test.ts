import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { validatePodTemplateSpec } from '../../podtemplate/validation.js';
import { setPodDefaults } from '../defaults.js';
import type { Deployment } from '../../../../api/apps/v1/deployment.js';
import { newDeploymentREST } from '../../../apps/deployment/storage.js';
import { podTemplate } from '../../../apps/workload/testing.js';
import { rejectsWithStatus } from '../../../generic/testing/assert-status.js';
import { memoryRESTOptions } from '../../../generic/testing/memory-rest-options.js';
import { testContext } from '../../../generic/testing/widgets.js';
import { newPodREST } from '../storage.js';
import { validatePod, validatePodUpdate } from '../validation.js';

const container = (over: Partial<Container> = {}): Container => ({
  name: 'app',
  image: 'nginx:1.25',
  ...over,
});

/** A valid pod, changed by `edit` after the defaults are set (as the strategy sets them). */
function pod(edit: (spec: PodSpec) => void = () => undefined): Pod {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      containers: [container()],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
  };
  setPodDefaults(p);
  if (p.spec !== undefined) edit(p.spec);
  return p;
}

const first = (spec: PodSpec): Container => {
  const c = spec.containers[0];
  assert.ok(c !== undefined);
  return c;
};

/** Each case: what to change, and exactly the errors kube reports (`field: body`). */
type Case = [title: string, edit: (spec: PodSpec) => void, errors: string[]];

function check(cases: readonly Case[]): void {
  for (const [title, edit, errors] of cases) {
    it(title, () => {
      assert.deepEqual(
        validatePod(pod(edit)).map((e) => e.error()),
        errors,
      );
    });
  }
}

const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('pod spec validation as kube', () => {
  it('accepts a complete valid pod', () => {
    const p = pod((s) => {
      s.volumes = [
        { name: 'data', emptyDir: { sizeLimit: '1Gi' } },
        { name: 'cfg', configMap: { name: 'cm', items: [{ key: 'a', path: 'dir/a.txt' }] } },
        { name: 'sec', secret: { secretName: 's', defaultMode: 0o400 } },
        { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'c' } },
        {
          name: 'api',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [{ path: 'ns', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
                },
              },
            ],
          },
        },
      ];
      s.initContainers = [container({ name: 'init', command: ['true'] })];
      setPodDefaults({ spec: s });
      const c = first(s);
      c.ports = [
        { name: 'http', containerPort: 80, protocol: 'TCP' },
        { name: 'dns', containerPort: 53, protocol: 'UDP', hostPort: 53 },
      ];
      c.env = [
        { name: 'A', value: '1' },
        { name: 'weird name.1', value: '2' },
        { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
        { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
      ];
      c.envFrom = [{ prefix: 'X_', secretRef: { name: 's' } }];
      c.volumeMounts = [
        { name: 'data', mountPath: '/data', subPath: 'sub/dir' },
        { name: 'cfg', mountPath: '/cfg', mountPropagation: 'HostToContainer' },
      ];
      c.resources = {
        limits: { cpu: '2', memory: '1Gi', 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' },
        requests: { cpu: '500m', memory: '1Gi', 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' },
      };
      c.livenessProbe = {
        httpGet: { path: '/healthz', port: 'http' },
        periodSeconds: 10,
        successThreshold: 1,
      };
      c.readinessProbe = { tcpSocket: { port: 80 }, successThreshold: 3 };
      c.startupProbe = { grpc: { port: 9090 } };
      c.lifecycle = { preStop: { exec: { command: ['sleep', '1'] } } };
      c.securityContext = { runAsUser: 1000, runAsGroup: 0 };
      s.securityContext = { runAsUser: 0, fsGroup: 2000, supplementalGroups: [1, 2] };
      s.hostname = 'web-0';
      s.subdomain = 'web';
      s.nodeSelector = { 'kubernetes.io/os': 'linux' };
      s.serviceAccountName = 'builder';
      s.priorityClassName = 'system-node-critical';
      s.activeDeadlineSeconds = 60;
      s.tolerations = [
        { operator: 'Exists' },
        { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ];
    });
    assert.deepEqual(
      validatePod(p).map((e) => e.error()),
      [],
    );
  });

  describe('containers', () => {
    check([
      ['at least one container', (s) => (s.containers = []), ['spec.containers: Required value']],
      [
        'a name that is no DNS label',
        (s) => (first(s).name = 'App_1'),
        [`spec.containers[0].name: Invalid value: "App_1": ${labelMsg}`],
      ],
      ['a missing name', (s) => (first(s).name = ''), ['spec.containers[0].name: Required value']],
      [
        'a name used twice among containers',
        (s) => {
          s.containers.push(container());
          setPodDefaults({ spec: s });
        },
        ['spec.containers[1].name: Duplicate value: "app"'],
      ],
      [
        'an init container named as a container',
        (s) => {
          s.initContainers = [container()];
          setPodDefaults({ spec: s });
        },
        ['spec.initContainers[0].name: Duplicate value: "app"'],
      ],
      ['a missing image', (s) => (first(s).image = ''), ['spec.containers[0].image: Required value']],
      [
        'an image with surrounding spaces, refused for pods only',
        (s) => (first(s).image = ' nginx'),
        ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'],
      ],
      [
        'an unknown imagePullPolicy',
        (s) => (first(s).imagePullPolicy = 'Sometimes'),
        [
          'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
        ],
      ],
      [
        'an unknown terminationMessagePolicy',
        (s) => (first(s).terminationMessagePolicy = 'Log'),
        [
          'spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "File", "FallbackToLogsOnError"',
        ],
      ],
      [
        'a sidecar (restartPolicy Always) with probes, next to an init container with another policy',
        (s) => {
          s.initContainers = [
            container({
              name: 'sidecar',
              restartPolicy: 'Always',
              readinessProbe: { exec: { command: ['true'] } },
            }),
            container({ name: 'once', restartPolicy: 'OnFailure' }),
          ];
          setPodDefaults({ spec: s });
        },
        ['spec.initContainers[1].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
      ],
      [
        'probes on an init container that is no sidecar',
        (s) => {
          s.initContainers = [container({ name: 'init', readinessProbe: { exec: { command: ['true'] } } })];
          setPodDefaults({ spec: s });
        },
        [
          'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
        ],
      ],
      [
        'a probe without handler, negative timings, liveness succeeding twice',
        (s) => (first(s).livenessProbe = { periodSeconds: -1, successThreshold: 2 }),
        [
          'spec.containers[0].livenessProbe: Required value: must specify a handler type',
          'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
          'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        ],
      ],
      [
        'a probe with two handlers and a bad scheme',
        (s) =>
          (first(s).readinessProbe = {
            httpGet: { path: '/', port: 80, scheme: 'FTP' },
            tcpSocket: { port: 80 },
          }),
        [
          'spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
          'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
        ],
      ],
      [
        'a grace period on a readiness probe',
        (s) => (first(s).readinessProbe = { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 }),
        [
          'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
        ],
      ],
      [
        'an exec hook without command',
        (s) => (first(s).lifecycle = { postStart: { exec: {} } }),
        ['spec.containers[0].lifecycle.postStart.exec.command: Required value'],
      ],
      [
        'a preStop sleep longer than the grace period',
        (s) => {
          s.terminationGracePeriodSeconds = 10;
          first(s).lifecycle = { preStop: { sleep: { seconds: 11 } } };
        },
        [
          'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 11: must be non-negative and less than terminationGracePeriodSeconds (10)',
        ],
      ],
      [
        'a preStop sleep of zero seconds',
        (s) => (first(s).lifecycle = { preStop: { sleep: { seconds: 0 } } }),
        [],
      ],
      [
        'negative user and group ids',
        (s) => (first(s).securityContext = { runAsUser: -1, runAsGroup: -2 }),
        [
          'spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
          'spec.containers[0].securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive',
        ],
      ],
    ]);
  });

  describe('ports', () => {
    check([
      [
        'ports out of range, unknown protocol',
        (s) =>
          (first(s).ports = [
            { containerPort: 70000, hostPort: 70000, protocol: 'ICMP' },
            { containerPort: 0, protocol: 'TCP' },
          ]),
        [
          'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
          'spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
          'spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
          'spec.containers[0].ports[1].containerPort: Required value',
        ],
      ],
      [
        'port names that are no IANA_SVC_NAME, or repeated',
        (s) =>
          (first(s).ports = [
            { name: 'Http', containerPort: 80, protocol: 'TCP' },
            { name: 'web', containerPort: 81, protocol: 'TCP' },
            { name: 'web', containerPort: 82, protocol: 'TCP' },
            { name: '123', containerPort: 83, protocol: 'TCP' },
          ]),
        [
          'spec.containers[0].ports[0].name: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
          'spec.containers[0].ports[2].name: Duplicate value: "web"',
          'spec.containers[0].ports[3].name: Invalid value: "123": must contain at least one letter (a-z)',
        ],
      ],
      [
        'one host port taken twice across containers',
        (s) => {
          first(s).ports = [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }];
          s.containers.push(
            container({ name: 'side', ports: [{ containerPort: 81, hostPort: 8080, protocol: 'TCP' }] }),
          );
          setPodDefaults({ spec: s });
        },
        ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
      ],
      [
        'with the host network, a host port apart from its container port',
        (s) => {
          s.hostNetwork = true;
          first(s).ports = [
            { containerPort: 80, hostPort: 8080, protocol: 'TCP' },
            { containerPort: 81, hostPort: 81, protocol: 'TCP' },
            { containerPort: 82, protocol: 'TCP' },
          ];
        },
        [
          'spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true',
        ],
      ],
      [
        'init containers checked one by one, each reported at index 0 as kube does',
        (s) => {
          s.initContainers = [
            container({ name: 'a', ports: [{ containerPort: 1, hostPort: 9000, protocol: 'TCP' }] }),
            container({
              name: 'b',
              ports: [
                { containerPort: 1, hostPort: 9000, protocol: 'TCP' },
                { containerPort: 2, hostPort: 9000, protocol: 'TCP' },
              ],
            }),
          ];
          setPodDefaults({ spec: s });
        },
        ['spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9000"'],
      ],
      [
        'the same host port on another protocol is free',
        (s) =>
          (first(s).ports = [
            { containerPort: 53, hostPort: 53, protocol: 'TCP' },
            { containerPort: 53, hostPort: 53, protocol: 'UDP' },
          ]),
        [],
      ],
    ]);
  });

  describe('env', () => {
    check([
      [
        'names empty or with = or non-ASCII',
        (s) =>
          (first(s).env = [
            { name: '', value: 'x' },
            { name: 'A=B', value: 'x' },
            { name: 'é', value: 'x' },
          ]),
        [
          'spec.containers[0].env[0].name: Required value',
          `spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
          `spec.containers[0].env[2].name: Invalid value: "é": a valid environment variable name must consist only of printable ASCII characters other than '='`,
        ],
      ],
      [
        'valueFrom without source, beside a value, or with two',
        (s) =>
          (first(s).env = [
            { name: 'A', valueFrom: {} },
            { name: 'B', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
            {
              name: 'C',
              valueFrom: { secretKeyRef: { name: 's', key: 'k' }, configMapKeyRef: { name: 'c', key: 'k' } },
            },
          ]),
        [
          'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
          'spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
          'spec.containers[0].env[2].valueFrom: Invalid value: "": may not have more than one field specified at a time',
        ],
      ],
      [
        'key selectors without key, with a bad key',
        (s) =>
          (first(s).env = [
            { name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: '' } } },
            { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'a/b' } } },
          ]),
        [
          'spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Required value',
          `spec.containers[0].env[1].valueFrom.secretKeyRef.key: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
        ],
      ],
      [
        'field paths env may not read',
        (s) =>
          (first(s).env = [
            { name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } } },
            { name: 'B', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.containers' } } },
            { name: 'C', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: '' } } },
            { name: 'D', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
            { name: 'E', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "spec.containers['x']" } } },
            { name: 'F', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } },
            { name: 'G', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.host' } } },
          ]),
        [
          'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
          'spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Invalid value: "spec.containers": error converting fieldPath: field label not supported: spec.containers',
          'spec.containers[0].env[2].valueFrom.fieldRef.fieldPath: Required value',
          'spec.containers[0].env[3].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
          `spec.containers[0].env[4].valueFrom.fieldRef.fieldPath: Invalid value: "spec.containers['x']": error converting fieldPath: field label does not support subscript: spec.containers['x']`,
          'spec.containers[0].env[5].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
        ],
      ],
      [
        'envFrom without source, with a bad prefix, with a missing name',
        (s) =>
          (first(s).envFrom = [
            { prefix: 'A' },
            { prefix: 'B=', configMapRef: { name: 'cm' } },
            { secretRef: {} },
          ]),
        [
          'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
          `spec.containers[0].envFrom[1].prefix: Invalid value: "B=": a valid environment variable name must consist only of printable ASCII characters other than '='`,
          'spec.containers[0].envFrom[2].secretRef.name: Required value',
        ],
      ],
    ]);
  });

  describe('volumes and mounts', () => {
    check([
      [
        'a volume without a type, one with two',
        (s) => (s.volumes = [{ name: 'none' }, { name: 'two', emptyDir: {}, hostPath: { path: '/x' } }]),
        [
          'spec.volumes[0]: Required value: must specify a volume type',
          'spec.volumes[1].hostPath: Forbidden: may not specify more than 1 volume type',
        ],
      ],
      [
        'volume names missing, invalid, repeated',
        (s) =>
          (s.volumes = [
            { name: '', emptyDir: {} },
            { name: 'Bad', emptyDir: {} },
            { name: 'data', emptyDir: {} },
            { name: 'data', emptyDir: {} },
          ]),
        [
          'spec.volumes[0].name: Required value',
          `spec.volumes[1].name: Invalid value: "Bad": ${labelMsg}`,
          'spec.volumes[3].name: Duplicate value: "data"',
        ],
      ],
      [
        'source details: sizeLimit, hostPath, names, items, modes',
        (s) =>
          (s.volumes = [
            { name: 'a', emptyDir: { sizeLimit: '-1' } },
            { name: 'b', hostPath: { path: '' } },
            { name: 'c', hostPath: { path: '/x/../y', type: 'Pipe' } },
            { name: 'd', configMap: { items: [{ key: '', path: '/abs' }] } },
            {
              name: 'e',
              secret: { secretName: 's', defaultMode: 0o1777, items: [{ key: 'k', path: '..data' }] },
            },
            { name: 'f', persistentVolumeClaim: { claimName: '' } },
          ]),
        [
          'spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity',
          'spec.volumes[1].hostPath.path: Required value',
          `spec.volumes[2].hostPath.path: Invalid value: "/x/../y": must not contain '..'`,
          'spec.volumes[2].hostPath.type: Unsupported value: "Pipe": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
          'spec.volumes[3].configMap.name: Required value',
          'spec.volumes[3].configMap.items[0].key: Required value',
          'spec.volumes[3].configMap.items[0].path: Invalid value: "/abs": must be a relative path',
          'spec.volumes[4].secret.defaultMode: Invalid value: 1023: must be a number between 0 and 0777 (octal), both inclusive',
          `spec.volumes[4].secret.items[0].path: Invalid value: "..data": must not start with '..'`,
          'spec.volumes[5].persistentVolumeClaim.claimName: Required value',
        ],
      ],
      [
        'downward API files: no source, a field volumes may not read, no container',
        (s) =>
          (s.volumes = [
            {
              name: 'd',
              downwardAPI: {
                items: [
                  { path: 'x' },
                  { path: 'y', fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
                  { path: 'z', resourceFieldRef: { resource: 'limits.cpu' } },
                ],
              },
            },
          ]),
        [
          'spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
          'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
          'spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value',
        ],
      ],
      [
        'subPath beside subPathExpr',
        (s) =>
          (first(s).volumeMounts = [{ name: 'data', mountPath: '/x', subPath: 'a', subPathExpr: '$(X)' }]),
        [
          'spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: "$(X)": subPathExpr and subPath are mutually exclusive',
        ],
      ],
      [
        'projected sources: short token, duplicate paths, two types in one',
        (s) =>
          (s.volumes = [
            {
              name: 'p',
              projected: {
                sources: [
                  { serviceAccountToken: { path: 'token', expirationSeconds: 60 } },
                  { secret: { name: 's', items: [{ key: 'k', path: 'token' }] }, configMap: { name: 'c' } },
                ],
              },
            },
          ]),
        [
          'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
          'spec.volumes[0].projected.sources[1]: Forbidden: may not specify more than 1 volume type per source',
          // The pod-only check after the spec's: this pod names no service account.
          'spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set',
        ],
      ],
      [
        'mounts of unknown or invalid volumes, repeated paths, climbing subPaths',
        (s) => {
          s.volumes = [
            { name: 'data', emptyDir: {} },
            { name: 'broken', hostPath: { path: '' } },
          ];
          first(s).volumeMounts = [
            { name: 'data', mountPath: '/data', subPath: '../up' },
            { name: 'other', mountPath: '/data' },
            { name: 'broken', mountPath: '' },
            { name: 'data', mountPath: '/p', mountPropagation: 'Bidirectional' },
          ];
        },
        [
          'spec.volumes[1].hostPath.path: Required value',
          `spec.containers[0].volumeMounts.subPath: Invalid value: "../up": must not contain '..'`,
          'spec.containers[0].volumeMounts[1].name: Not found: "other"',
          'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
          'spec.containers[0].volumeMounts[2].name: Not found: "broken"',
          'spec.containers[0].volumeMounts[2].mountPath: Required value',
          'spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers',
        ],
      ],
    ]);
  });

  describe('resources', () => {
    check([
      [
        'requests above limits, exactly',
        (s) =>
          (first(s).resources = {
            limits: { cpu: '2', memory: '1Gi' },
            requests: { cpu: '2001m', memory: '1Gi' },
          }),
        [
          'spec.containers[0].resources.requests: Invalid value: "2001m": must be less than or equal to cpu limit of 2',
        ],
      ],
      [
        'bad names and negative quantities',
        (s) =>
          (first(s).resources = {
            requests: { gpu: '1', 'example.com/gpu': '1', memory: '-1' },
          }),
        [
          'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
          'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
          'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
          'spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
        ],
      ],
      [
        'extended resources: requests must equal limits, whole numbers',
        (s) =>
          (first(s).resources = {
            limits: { 'example.com/gpu': '2' },
            requests: { 'example.com/gpu': '1500m' },
          }),
        [
          'spec.containers[0].resources.requests[example.com/gpu]: Invalid value: "1500m": must be an integer',
          'spec.containers[0].resources.requests: Invalid value: "1500m": must be equal to example.com/gpu limit of 2',
        ],
      ],
      [
        'hugepages alone, and not a whole number of pages',
        (s) =>
          (first(s).resources = { limits: { 'hugepages-2Mi': '3Mi' }, requests: { 'hugepages-2Mi': '3Mi' } }),
        [
          'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
          'spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
          'spec.containers[0].resources: Forbidden: HugePages require cpu or memory',
        ],
      ],
    ]);
  });

  describe('pod-level fields', () => {
    check([
      [
        'unknown restart and DNS policies',
        (s) => {
          s.restartPolicy = 'Sometimes';
          s.dnsPolicy = 'Google';
        },
        [
          'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
          'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
        ],
      ],
      [
        'zero deadline, bad hostname and subdomain; no bound on the grace period (kube has none)',
        (s) => {
          s.terminationGracePeriodSeconds = -1;
          s.activeDeadlineSeconds = 0;
          s.hostname = 'Web';
          s.subdomain = 'a.b';
        },
        [
          'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
          `spec.hostname: Invalid value: "Web": ${labelMsg}`,
          'spec.subdomain: Invalid value: "a.b": must not contain dots',
        ],
      ],
      [
        'node selector, service account, priority class names',
        (s) => {
          s.nodeSelector = { 'bad key!': 'v' };
          s.serviceAccountName = 'Builder';
          s.priorityClassName = 'High_Priority';
        },
        [
          `spec.nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
          `spec.serviceAccountName: Invalid value: "Builder": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
          `spec.priorityClassName: Invalid value: "High_Priority": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        ],
      ],
      [
        'tolerations as kube checks them',
        (s) =>
          (s.tolerations = [
            { operator: 'Equal', value: 'v' },
            { key: 'k', operator: 'Exists', value: 'v', effect: 'NoSchedule' },
            { key: 'k', operator: 'Lt' },
            { key: 'k', operator: 'Equal', effect: 'NoSchedule', tolerationSeconds: 10 },
            { key: 'k', operator: 'Exists', effect: 'Sometimes' },
          ]),
        [
          'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
          `spec.tolerations[1].operator: Invalid value: "v": value must be empty when \`operator\` is 'Exists'`,
          'spec.tolerations[2].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"',
          `spec.tolerations[3].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
          'spec.tolerations[4].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        ],
      ],
      [
        'pod security context ids',
        (s) => (s.securityContext = { runAsUser: -1, supplementalGroups: [5, -3] }),
        [
          'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
          'spec.securityContext.supplementalGroups[1]: Invalid value: -3: must be between 0 and 2147483647, inclusive',
        ],
      ],
    ]);
  });

  it('applies to pod templates under the template path', () => {
    const spec = pod((s) => (first(s).image = '')).spec;
    assert.ok(spec !== undefined);
    assert.deepEqual(
      validatePodTemplateSpec({ metadata: {}, spec }, FieldPath.of('spec', 'template')).map((e) => e.error()),
      ['spec.template.spec.containers[0].image: Required value'],
    );
    // A template may hold an image of spaces, to be filled in later.
    const blank = pod((s) => (first(s).image = ' ')).spec;
    assert.ok(blank !== undefined);
    assert.deepEqual(validatePodTemplateSpec({ metadata: {}, spec: blank }, FieldPath.of('template')), []);
  });

  it('refuses a bad pod with 422 Invalid through the storage, and stores a good one', async () => {
    const env = await memoryRESTOptions();
    try {
      const s = await newPodREST({ restOptionsGetter: env.getter });
      const ctx = testContext('default');
      const bad: Pod = {
        metadata: { name: 'bad' },
        spec: {
          containers: [
            { name: 'app', image: 'nginx', resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } },
          ],
          // A volume naming no source is defaulted to an emptyDir; a secret without its name is not valid.
          volumes: [{ name: 'v', secret: {} }],
        },
      };
      const status = await rejectsWithStatus(s.pods.create(ctx, bad, { options: {} }), {
        code: 422,
        reason: 'Invalid',
        message:
          'Pod "bad" is invalid: [spec.volumes[0].secret.secretName: Required value, spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1]',
      });
      assert.deepEqual(
        status.details?.causes?.map((c) => [c.reason, c.field]),
        [
          ['FieldValueRequired', 'spec.volumes[0].secret.secretName'],
          ['FieldValueInvalid', 'spec.containers[0].resources.requests'],
        ],
      );
      const good = await s.pods.create(
        ctx,
        { metadata: { name: 'good' }, spec: { containers: [container()] } },
        { options: {} },
      );
      assert.equal(good.metadata?.name, 'good');
    } finally {
      await env.close();
    }
  });

  it('refuses a Deployment whose template is no valid pod, at spec.template.spec', async () => {
    const env = await memoryRESTOptions();
    try {
      const s = await newDeploymentREST({ restOptionsGetter: env.getter });
      const template = podTemplate({ app: 'web' });
      const c = template.spec?.containers[0];
      assert.ok(c !== undefined);
      c.ports = [{ containerPort: 80, protocol: 'TCP', name: 'HTTP' }];
      c.env = [{ name: 'A=B', value: '1' }];
      const bad: Deployment = {
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: { app: 'web' } }, template },
      };
      await rejectsWithStatus(s.deployments.create(testContext('default'), bad, { options: {} }), {
        code: 422,
        reason: 'Invalid',
        message:
          `Deployment.apps "web" is invalid: [spec.template.spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-), ` +
          `spec.template.spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain at least one letter (a-z), ` +
          `spec.template.spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '=']`,
      });
    } finally {
      await env.close();
    }
  });

  it('checks the new spec on update, besides the updatable fields', () => {
    const old = pod();
    const next = pod((s) => (first(s).image = ''));
    for (const p of [old, next]) p.metadata = { ...p.metadata, resourceVersion: '1' };
    assert.deepEqual(
      validatePodUpdate(next, old).map((e) => e.error()),
      // Once by the spec's validation, once by ValidateContainerUpdates, as kube reports it.
      ['spec.containers[0].image: Required value', 'spec.containers[0].image: Required value'],
    );
    const valid = pod((s) => (first(s).image = 'nginx:1.26'));
    valid.metadata = { ...valid.metadata, resourceVersion: '1' };
    assert.deepEqual(validatePodUpdate(valid, old), []);
  });
});
