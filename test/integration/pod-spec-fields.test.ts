// PodSpec fields a Deployment or Pod commonly carries beyond containers and volumes (topology
// spread, DNS config, host aliases, readiness and scheduling gates, the OS, pod and container
// security options): stored and read back as sent, accepted under fieldValidation=Strict, through
// a pod and through a Deployment's template.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

const spec = {
  containers: [
    {
      name: 'app',
      image: 'nginx',
      securityContext: {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
        appArmorProfile: { type: 'RuntimeDefault' },
        seLinuxOptions: { level: 's0:c123,c456' },
        procMount: 'Default',
      },
    },
  ],
  securityContext: {
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
    sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }],
    fsGroupChangePolicy: 'OnRootMismatch',
    supplementalGroupsPolicy: 'Merge',
  },
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'web' } },
      matchLabelKeys: ['pod-template-hash'],
    },
  ],
  dnsConfig: {
    nameservers: ['1.1.1.1'],
    searches: ['svc.example'],
    options: [{ name: 'ndots', value: '2' }],
  },
  hostAliases: [{ ip: '10.1.2.3', hostnames: ['db.local'] }],
  readinessGates: [{ conditionType: 'example.com/ready' }],
  schedulingGates: [{ name: 'example.com/quota' }],
  os: { name: 'linux' },
  shareProcessNamespace: true,
  setHostnameAsFQDN: false,
  hostUsers: false,
};

const added = Object.keys(spec).filter((k) => k !== 'containers' && k !== 'securityContext');

describe('PodSpec fields beyond containers and volumes', () => {
  let server: CapstanServer;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<{ status: number; body: Record<string, unknown>; warning: string | null }> => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      warning: res.headers.get('warning'),
    };
  };
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('stores a pod with them and reads them back as sent', async () => {
    const created = await call('POST', '/api/v1/namespaces/default/pods?fieldValidation=Strict', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'spread' },
      spec,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.warning, null);
    const read = await call('GET', '/api/v1/namespaces/default/pods/spread');
    const got = read.body.spec as Record<string, unknown>;
    for (const field of added) assert.deepEqual(got[field], spec[field as keyof typeof spec], field);
    const sc = got.securityContext as Record<string, unknown>;
    assert.deepEqual(sc.seccompProfile, { type: 'RuntimeDefault' });
    assert.deepEqual(sc.sysctls, spec.securityContext.sysctls);
    const [container] = got.containers as [{ securityContext: Record<string, unknown> }];
    assert.deepEqual(container.securityContext.appArmorProfile, { type: 'RuntimeDefault' });
    assert.deepEqual(container.securityContext.seLinuxOptions, { level: 's0:c123,c456' });
  });

  it("keeps them in a Deployment's pod template", async () => {
    const created = await call(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec },
        },
      },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const template = (created.body.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    assert.deepEqual(template.topologySpreadConstraints, spec.topologySpreadConstraints);
    assert.deepEqual(template.dnsConfig, spec.dnsConfig);
  });

  it("merges a pod's own values of matchLabelKeys into its affinity terms, and refuses a bad term with kube's text", async () => {
    const affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            labelSelector: { matchLabels: { app: 'web' } },
            topologyKey: 'kubernetes.io/hostname',
            matchLabelKeys: ['pod-template-hash'],
          },
        ],
      },
    };
    const created = await call('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'apart', labels: { app: 'web', 'pod-template-hash': '5d8f7c9b6d' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }], affinity },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const term = (created.body.spec as { affinity: typeof affinity }).affinity.podAntiAffinity
      .requiredDuringSchedulingIgnoredDuringExecution[0];
    assert.deepEqual(term?.labelSelector, {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: ['5d8f7c9b6d'] }],
    });
    const refused = await call('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'no-key' },
      spec: {
        containers: [{ name: 'c', image: 'nginx' }],
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 200, podAffinityTerm: { labelSelector: {}, topologyKey: 'zone' } },
            ],
          },
        },
      },
    });
    assert.equal(refused.status, 422);
    assert.equal(
      refused.body.message,
      'Pod "no-key" is invalid: spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 200: must be in the range 1-100',
    );
  });

  // kube's field manager records an apply before PrepareForCreate merges the keys, and the terms'
  // list is atomic: the applier owns it as sent. Applying the same manifest again sets the list back
  // without the merged requirement, which is a change to the pod's spec that an update may not make.
  it('refuses a server-side re-apply of such a pod, whose atomic terms would lose the merged requirement', async () => {
    const manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'applied', labels: { app: 'web', 'pod-template-hash': '77f9' } },
      spec: {
        containers: [{ name: 'c', image: 'nginx' }],
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'web' } },
                topologyKey: 'topology.kubernetes.io/zone',
                matchLabelKeys: ['pod-template-hash'],
              },
            ],
          },
        },
      },
    };
    const path = '/api/v1/namespaces/default/pods/applied?fieldManager=deployer';
    const first = await call('PATCH', path, manifest, 'application/apply-patch+yaml');
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const managed = (first.body.metadata as { managedFields: { fieldsV1: unknown }[] }).managedFields;
    assert.deepEqual(
      (managed[0]?.fieldsV1 as Record<string, Record<string, unknown>>)['f:spec']?.['f:affinity'],
      {
        'f:podAffinity': { 'f:requiredDuringSchedulingIgnoredDuringExecution': {} },
      },
    );
    const again = await call('PATCH', path, manifest, 'application/apply-patch+yaml');
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.equal(again.body.reason, 'Invalid');
    assert.match(
      String(again.body.message),
      /^Pod "applied" is invalid: spec: Forbidden: pod updates may not change fields/,
    );
    const stored = await call('GET', '/api/v1/namespaces/default/pods/applied');
    assert.deepEqual(
      (stored.body.spec as typeof manifest.spec).affinity.podAffinity
        .requiredDuringSchedulingIgnoredDuringExecution[0]?.labelSelector,
      {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: ['77f9'] }],
      },
    );
  });
});
