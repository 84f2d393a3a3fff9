// The pod defaulters of pkg/apis/core/v1/defaults.go, one row each, with the values kube 1.33 stores;
// pods and pod templates side by side, since SetDefaults_Pod reaches only pods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import { setPodTemplateSpecDefaults } from '../podtemplate/defaults.js';
import { defaultPullPolicy, setPodDefaults } from './defaults.js';

const app = (extra: Partial<Container> = {}): Container => ({ name: 'app', image: 'nginx:1.25', ...extra });

interface Row {
  readonly fn: string;
  readonly spec: PodSpec;
  /** What the pod's spec must hold afterwards (a deep subset). */
  readonly pod: Record<string, unknown>;
  /** What a template's spec must hold afterwards, where it differs from the pod's. */
  readonly template?: Record<string, unknown>;
}

const rows: readonly Row[] = [
  {
    fn: 'SetDefaults_PodSpec',
    spec: { containers: [app()] },
    pod: {
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    },
  },
  {
    fn: 'Convert_v1_Pod_To_core_Pod (a negative grace period)',
    spec: { containers: [app()], terminationGracePeriodSeconds: -5 },
    pod: { terminationGracePeriodSeconds: 1 },
    template: { terminationGracePeriodSeconds: -5 },
  },
  {
    fn: 'SetDefaults_Container',
    spec: {
      containers: [app({ image: 'nginx' })],
      initContainers: [app({ name: 'init', image: 'busybox:latest' })],
    },
    pod: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          imagePullPolicy: 'Always',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      initContainers: [
        {
          name: 'init',
          image: 'busybox:latest',
          imagePullPolicy: 'Always',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
    },
  },
  {
    fn: 'SetDefaults_Volume',
    spec: { containers: [app()], volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'c' } }] },
    pod: {
      volumes: [
        { name: 'scratch', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'c' } },
      ],
    },
  },
  {
    fn: 'SetDefaults_Probe + SetDefaults_HTTPGetAction',
    spec: {
      containers: [
        app({
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { timeoutSeconds: 0, exec: { command: ['true'] } },
        }),
      ],
    },
    pod: {
      containers: [
        {
          livenessProbe: {
            httpGet: { port: 80, path: '/', scheme: 'HTTP' },
            timeoutSeconds: 1,
            periodSeconds: 10,
            successThreshold: 1,
            failureThreshold: 3,
          },
          readinessProbe: {
            exec: { command: ['true'] },
            timeoutSeconds: 1,
            periodSeconds: 10,
            successThreshold: 1,
            failureThreshold: 3,
          },
        },
      ],
    },
  },
  {
    fn: 'SetDefaults_HTTPGetAction (lifecycle hooks)',
    spec: { containers: [app({ lifecycle: { preStop: { httpGet: { port: 'http' } } } })] },
    pod: {
      containers: [{ lifecycle: { preStop: { httpGet: { port: 'http', path: '/', scheme: 'HTTP' } } } }],
    },
  },
  {
    fn: 'SetDefaults_ObjectFieldSelector',
    spec: {
      containers: [app({ env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }] })],
      volumes: [
        {
          name: 'info',
          downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
      ],
    },
    pod: {
      containers: [
        {
          env: [{ name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        },
      ],
      volumes: [
        {
          name: 'info',
          downwardAPI: {
            items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }],
          },
        },
      ],
    },
  },
  {
    fn: 'SetDefaults_Pod (requests from limits)',
    spec: { containers: [app({ resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } })] },
    pod: { containers: [{ resources: { limits: { cpu: '1' }, requests: { memory: '1Gi', cpu: '1' } } }] },
    template: { containers: [{ resources: { limits: { cpu: '1' }, requests: { memory: '1Gi' } } }] },
  },
  {
    fn: 'SetDefaults_ResourceList (containers, init containers, overhead, pod resources, ephemeral claims)',
    spec: {
      containers: [app({ resources: { limits: { cpu: '100u' }, requests: { cpu: '1n', memory: '128Mi' } } })],
      initContainers: [app({ name: 'init', resources: { requests: { cpu: '1500100u' } } })],
      overhead: { cpu: '10u' },
      resources: { limits: { cpu: '999999u' } },
      volumes: [
        {
          name: 'scratch',
          ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1n' } } } } },
        },
      ],
    },
    pod: {
      containers: [{ resources: { limits: { cpu: '1m' }, requests: { cpu: '1m', memory: '128Mi' } } }],
      initContainers: [{ resources: { requests: { cpu: '1501m' } } }],
      overhead: { cpu: '1m' },
      resources: { limits: { cpu: '1' } },
      volumes: [
        { ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1m' } } } } } },
      ],
    },
  },
  {
    fn: 'SetDefaults_Pod (enableServiceLinks)',
    spec: { containers: [app()] },
    pod: { enableServiceLinks: true },
    template: { enableServiceLinks: undefined },
  },
  {
    fn: 'SetDefaults_Pod (host ports under hostNetwork)',
    spec: { hostNetwork: true, containers: [app({ ports: [{ containerPort: 8080 }] })] },
    pod: { containers: [{ ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }] }] },
    template: { containers: [{ ports: [{ containerPort: 8080, protocol: 'TCP' }] }] },
  },
];

/** Every key of `want` is in `got` with the same value; arrays compare item by item the same way. */
function assertSubset(got: unknown, want: unknown, at: string): void {
  if (want === undefined) {
    assert.equal(got, undefined, at);
    return;
  }
  if (Array.isArray(want)) {
    assert.ok(Array.isArray(got), `${at} is an array`);
    assert.equal(got.length, want.length, `${at} length`);
    want.forEach((w, i) => {
      assertSubset(got[i], w, `${at}[${String(i)}]`);
    });
    return;
  }
  if (typeof want === 'object' && want !== null) {
    assert.ok(typeof got === 'object' && got !== null, `${at} is an object`);
    const g = got as Record<string, unknown>;
    for (const [k, w] of Object.entries(want)) assertSubset(g[k], w, `${at}.${k}`);
    if (Object.keys(want).length === 0) assert.deepEqual(got, {}, at);
    return;
  }
  assert.equal(got, want, at);
}

describe('pod defaults (pkg/apis/core/v1/defaults.go)', () => {
  for (const row of rows) {
    it(row.fn, () => {
      const pod: Pod = { spec: structuredClone(row.spec) };
      setPodDefaults(pod);
      assertSubset(pod.spec, row.pod, 'pod.spec');
      const template: PodTemplateSpec = { spec: structuredClone(row.spec) };
      setPodTemplateSpecDefaults(template);
      assertSubset(template.spec, row.template ?? row.pod, 'template.spec');
    });
  }

  it('SetDefaults_Container pull policy: latest (or no tag) pulls Always, a digest or another tag IfNotPresent', () => {
    const cases: [string, string][] = [
      ['nginx', 'Always'],
      ['nginx:latest', 'Always'],
      ['localhost:5000/nginx', 'Always'],
      ['nginx:1.25', 'IfNotPresent'],
      ['nginx@sha256:0123', 'IfNotPresent'],
      ['nginx:latest@sha256:0123', 'Always'],
    ];
    for (const [image, policy] of cases) assert.equal(defaultPullPolicy(image), policy, image);
  });

  const running = (name: string) => ({
    name,
    ready: true,
    restartCount: 0,
    image: 'nginx:1.25',
    imageID: '',
  });

  it("SetDefaults_ResourceList on a pod's container statuses (allocated and applied resources)", () => {
    const main = {
      ...running('app'),
      allocatedResources: { cpu: '100u', memory: '1Gi' },
      resources: { limits: { cpu: '1n' }, requests: { cpu: '2500001u' } },
    };
    const init = { ...running('init'), allocatedResources: { cpu: '1n' } };
    setPodDefaults({
      spec: { containers: [app()] },
      status: { containerStatuses: [main], initContainerStatuses: [init] },
    });
    assert.deepEqual(main.allocatedResources, { cpu: '1m', memory: '1Gi' });
    assert.deepEqual(main.resources, { limits: { cpu: '1m' }, requests: { cpu: '2501m' } });
    assert.deepEqual(init.allocatedResources, { cpu: '1m' });
  });

  it('keeps what the client set', () => {
    const pod: Pod = {
      spec: {
        dnsPolicy: 'Default',
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 5,
        containers: [
          app({ imagePullPolicy: 'Never', livenessProbe: { tcpSocket: { port: 1 }, periodSeconds: 3 } }),
        ],
      },
    };
    setPodDefaults(pod);
    const spec = pod.spec ?? { containers: [] };
    assert.equal(spec.dnsPolicy, 'Default');
    assert.equal(spec.restartPolicy, 'Never');
    assert.equal(spec.terminationGracePeriodSeconds, 5);
    const container = spec.containers[0];
    assert.ok(container !== undefined);
    assert.equal(container.imagePullPolicy, 'Never');
    assert.equal(container.livenessProbe?.periodSeconds, 3);
  });

  it('leaves a container whose limits are all requested as it is, and fills one that lacks a request', () => {
    const requested = app({ resources: { limits: { cpu: '1' }, requests: { cpu: '500m', memory: '1Gi' } } });
    const resources = requested.resources;
    const partial = app({
      name: 'b',
      resources: { limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '1' } },
    });
    const pod: Pod = { spec: { containers: [requested, partial] } };
    setPodDefaults(pod);
    assert.equal(requested.resources, resources);
    assert.deepEqual(partial.resources, {
      limits: { cpu: '1', memory: '2Gi' },
      requests: { cpu: '1', memory: '2Gi' },
    });
  });

  it('requests a limit named like an Object.prototype member as any other (validation then refuses both)', () => {
    const bare = app({ resources: { limits: { constructor: '1' } } });
    const partial = app({
      name: 'b',
      resources: { limits: { cpu: '1', toString: '2' }, requests: { cpu: '1' } },
    });
    setPodDefaults({ spec: { containers: [bare, partial] } });
    assert.deepEqual(bare.resources?.requests, { constructor: '1' });
    assert.deepEqual(partial.resources?.requests, { cpu: '1', toString: '2' });
  });
});
