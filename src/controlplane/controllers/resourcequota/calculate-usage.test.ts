// What the quota controller counts: pods' compute usage (finished pods only in count/pods), node
// ports and load balancers of services, claims' storage per class, object counts, scopes, and
// names no served resource counts left as they were.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import type { KubeObject } from '../../../api/meta.js';
import { resourceList } from '../../../admission/plugin/resourcequota/evaluator/resources.js';
import type { Lister } from '../../../registry/rest/capabilities.js';
import { calculateUsage, resourcesNamedBy, type UsageSources } from './calculate-usage.js';

const now = Date.parse('2026-01-01T00:10:00Z');

const objects: Readonly<Record<string, KubeObject[]>> = {
  '/pods': [
    {
      metadata: { name: 'run' },
      spec: {
        containers: [
          {
            name: 'a',
            image: 'i',
            resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1' } },
          },
        ],
      },
    },
    {
      metadata: { name: 'job' },
      spec: {
        activeDeadlineSeconds: 60,
        containers: [{ name: 'a', image: 'i', resources: { requests: { cpu: '500m' } } }],
      },
    },
    {
      metadata: { name: 'done' },
      spec: { containers: [{ name: 'a', image: 'i', resources: { requests: { cpu: '4' } } }] },
      status: { phase: 'Succeeded' },
    },
    {
      metadata: { name: 'going', deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 },
      spec: { containers: [{ name: 'a', image: 'i', resources: { requests: { cpu: '8' } } }] },
    },
  ],
  '/services': [
    { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 443 }] } },
    { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } },
    { metadata: { name: 'ip' }, spec: { ports: [{ port: 80 }] } },
  ],
  '/persistentvolumeclaims': [
    {
      metadata: { name: 'fast' },
      spec: { storageClassName: 'ssd', resources: { requests: { storage: '10Gi' } } },
    },
    { metadata: { name: 'plain' }, spec: { resources: { requests: { storage: '5Gi' } } } },
  ],
  '/configmaps': [{ metadata: { name: 'c1' } }, { metadata: { name: 'c2' } }],
};

const sources: UsageSources = {
  listerOf: (key) => (key in objects ? ({ key } as unknown as Lister) : undefined),
  list: (lister) => Promise.resolve(objects[(lister as unknown as { key: string }).key] ?? []),
  now,
};

const quota = (hard: Record<string, string>, extra: Partial<ResourceQuota> = {}): ResourceQuota => ({
  metadata: { name: 'q', namespace: 'ns' },
  spec: { hard, ...extra.spec },
  ...(extra.status === undefined ? {} : { status: extra.status }),
});

describe('quota usage calculation', () => {
  it('names the resources a quota’s hard names are about', () => {
    assert.deepEqual(resourcesNamedBy(['count/deployments.apps', 'secrets', 'count/widgets']).sort(), [
      '/persistentvolumeclaims',
      '/pods',
      '/secrets',
      '/services',
      '/widgets',
      'apps/deployments',
    ]);
  });

  it('counts pods’ compute only while they run, and every pod in count/pods', async () => {
    const used = await calculateUsage(
      quota({
        pods: '10',
        'count/pods': '10',
        'requests.cpu': '10',
        'limits.cpu': '10',
        'requests.memory': '1Gi',
      }),
      sources,
    );
    assert.deepEqual(resourceList(used), {
      'count/pods': '4',
      'limits.cpu': '1',
      pods: '2',
      'requests.cpu': '750m',
      'requests.memory': '64Mi',
    });
  });

  it('counts a resized pod at what its kubelet reports, the larger of it and its spec unless the resize is Infeasible', async () => {
    const resized: KubeObject[] = [
      {
        metadata: { name: 'grown' },
        spec: { containers: [{ name: 'a', image: 'i', resources: { requests: { cpu: '500m' } } }] },
        status: {
          phase: 'Running',
          containerStatuses: [{ name: 'a', resources: { requests: { cpu: '1' } } }],
        },
      },
      {
        metadata: { name: 'asked-too-much' },
        spec: { containers: [{ name: 'a', image: 'i', resources: { requests: { cpu: '64' } } }] },
        status: {
          phase: 'Running',
          conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }],
          containerStatuses: [{ name: 'a', resources: { requests: { cpu: '250m' } } }],
        },
      },
    ];
    const used = await calculateUsage(quota({ 'requests.cpu': '100' }), {
      ...sources,
      list: () => Promise.resolve(resized),
    });
    assert.deepEqual(resourceList(used), { 'requests.cpu': '1250m' });
  });

  it('counts only the pods the quota’s scopes take in', async () => {
    const used = await calculateUsage(quota({ pods: '10' }, { spec: { scopes: ['Terminating'] } }), sources);
    assert.deepEqual(resourceList(used), { pods: '1' });
  });

  it('counts node ports, load balancers, claims per class and object counts', async () => {
    const hard = {
      services: '9',
      'services.nodeports': '9',
      'services.loadbalancers': '9',
      'requests.storage': '1Ti',
      'ssd.storageclass.storage.k8s.io/requests.storage': '1Ti',
      'count/configmaps': '9',
      'count/widgets.example.com': '9',
    };
    const used = await calculateUsage(
      quota(hard, { status: { used: { 'count/widgets.example.com': '3', gone: '1' } } }),
      sources,
    );
    assert.deepEqual(resourceList(used), {
      'count/configmaps': '2',
      'count/widgets.example.com': '3',
      'requests.storage': '15Gi',
      services: '3',
      'services.loadbalancers': '1',
      'services.nodeports': '3',
      'ssd.storageclass.storage.k8s.io/requests.storage': '10Gi',
    });
  });
});
