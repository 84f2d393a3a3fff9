// Issue 17, through HTTP as clients send it (fieldValidation=Strict, as kubectl does): objects kube
// 1.33 accepts (legacy volume sources, typed affinity, source-less volumes, claim-template mounts)
// are stored with kube's defaults, the ones it refuses get its messages (an invalid volume is not
// one a container may mount, so kube reports the mount too), and an unbound pod deleted
// with a grace period is gone at once. One in-process server for the file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

const container = { name: 'app', image: 'nginx:1.25', volumeMounts: [{ name: 'data', mountPath: '/data' }] };
const pod = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [container], ...spec },
});
const volume = (source: Record<string, unknown>): Record<string, unknown> => ({
  volumes: [{ name: 'data', ...source }],
});

interface Row {
  readonly name: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** For 201: the stored value at `read` (a path of keys and indices into the object). */
  readonly read?: readonly (string | number)[];
  readonly stored?: unknown;
  /** Compare only the first items of a stored list (admission appends the service account volume). */
  readonly prefix?: boolean;
  /** For a refusal: status and message. */
  readonly refused?: { status: number; message: string };
}

const pods = '/api/v1/namespaces/default/pods?fieldValidation=Strict';
const rows: readonly Row[] = [
  {
    name: 'a pod with a cinder volume',
    path: pods,
    body: pod('cinder', volume({ cinder: { volumeID: 'vol-1', fsType: 'ext4' } })),
    read: ['spec', 'volumes', 0, 'cinder'],
    stored: { volumeID: 'vol-1', fsType: 'ext4' },
  },
  {
    name: 'a pod with an azureDisk volume, defaulted as kube does',
    path: pods,
    body: pod(
      'azure',
      volume({ azureDisk: { diskName: 'd', diskURI: 'https://a.blob.core.windows.net/c/d.vhd' } }),
    ),
    read: ['spec', 'volumes', 0, 'azureDisk'],
    stored: {
      diskName: 'd',
      diskURI: 'https://a.blob.core.windows.net/c/d.vhd',
      cachingMode: 'ReadWrite',
      fsType: 'ext4',
      readOnly: false,
      kind: 'Shared',
    },
  },
  {
    name: 'a pod whose volume names no source',
    path: pods,
    body: pod('bare', volume({})),
    read: ['spec', 'volumes', 0],
    stored: { name: 'data', emptyDir: {} },
  },
  {
    name: 'a pod with node affinity',
    path: pods,
    body: pod('affinity', {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
          ],
        },
      },
      ...volume({ emptyDir: {} }),
    }),
    read: [
      'spec',
      'affinity',
      'nodeAffinity',
      'preferredDuringSchedulingIgnoredDuringExecution',
      0,
      'weight',
    ],
    stored: 1,
  },
  {
    name: 'an unknown field inside affinity',
    path: pods,
    body: pod('bad-affinity', { affinity: { nodeAffinity: { bogus: true } }, ...volume({ emptyDir: {} }) }),
    refused: {
      status: 400,
      message:
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.affinity.nodeAffinity.bogus"',
    },
  },
  {
    name: 'a cinder volume without its volumeID',
    path: pods,
    body: pod('bad-cinder', volume({ cinder: {} })),
    refused: {
      status: 422,
      message:
        'Pod "bad-cinder" is invalid: [spec.volumes[0].cinder.volumeID: Required value, spec.containers[0].volumeMounts[0].name: Not found: "data"]',
    },
  },
  {
    name: 'a GCE disk partition out of range',
    path: pods,
    body: pod('bad-gce', volume({ gcePersistentDisk: { pdName: 'd', partition: 300 } })),
    refused: {
      status: 422,
      message:
        'Pod "bad-gce" is invalid: [spec.volumes[0].persistentDisk.partition: Invalid value: 300: must be between 1 and 255, inclusive, spec.containers[0].volumeMounts[0].name: Not found: "data"]',
    },
  },
  {
    name: 'schema defaults of volume sources: downwardAPI and projected modes, token expiry, hostPath type',
    path: pods,
    body: pod('schema-defaults', {
      volumes: [
        { name: 'data', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
        { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
        { name: 'host', hostPath: { path: '/var/log' } },
      ],
    }),
    read: ['spec', 'volumes'],
    prefix: true,
    stored: [
      {
        name: 'data',
        downwardAPI: {
          items: [{ path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }],
          defaultMode: 420,
        },
      },
      {
        name: 'token',
        projected: {
          sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }],
          defaultMode: 420,
        },
      },
      { name: 'host', hostPath: { path: '/var/log', type: '' } },
    ],
  },
  {
    name: "a CronJob's job template defaults its pod failure patterns to status True",
    path: '/apis/batch/v1/namespaces/default/cronjobs?fieldValidation=Strict',
    body: {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly' },
      spec: {
        schedule: '0 3 * * *',
        jobTemplate: {
          spec: {
            podFailurePolicy: {
              rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }],
            },
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36' }] },
            },
          },
        },
      },
    },
    read: ['spec', 'jobTemplate', 'spec', 'podFailurePolicy', 'rules', 0, 'onPodConditions'],
    stored: [{ type: 'DisruptionTarget', status: 'True' }],
  },
  {
    name: 'a PersistentVolume on a GCE disk',
    path: '/api/v1/persistentvolumes?fieldValidation=Strict',
    body: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'gce' },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4' },
      },
    },
    read: ['spec', 'gcePersistentDisk'],
    stored: { pdName: 'disk-1', fsType: 'ext4' },
  },
  {
    name: 'a Deployment whose template volume names no source',
    path: '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'test-volume' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [{ ...container, volumeMounts: [{ name: 'test-volume', mountPath: '/t' }] }],
            volumes: [{ name: 'test-volume' }],
          },
        },
      },
    },
    read: ['spec', 'template', 'spec', 'volumes', 0],
    stored: { name: 'test-volume', emptyDir: {} },
  },
  {
    name: 'a StatefulSet mounting its claim template',
    path: '/apis/apps/v1/namespaces/default/statefulsets?fieldValidation=Strict',
    body: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'cassandra' },
      spec: {
        serviceName: 'cassandra',
        selector: { matchLabels: { app: 'cassandra' } },
        template: {
          metadata: { labels: { app: 'cassandra' } },
          spec: {
            containers: [
              { ...container, volumeMounts: [{ name: 'cassandra-data', mountPath: '/var/lib/cassandra' }] },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'cassandra-data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    },
    read: ['spec', 'volumeClaimTemplates', 0, 'metadata', 'name'],
    stored: 'cassandra-data',
  },
];

function at(obj: unknown, path: readonly (string | number)[]): unknown {
  let cur: unknown = obj;
  for (const key of path) cur = (cur as Record<string | number, unknown> | undefined)?.[key];
  return cur;
}

describe('core/v1 fidelity through HTTP (issue 17)', () => {
  let server: CapstanServer;
  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  for (const row of rows) {
    it(row.name, async () => {
      const out = await call('POST', row.path, row.body);
      if (row.refused !== undefined) {
        assert.equal(out.status, row.refused.status, JSON.stringify(out.body));
        assert.equal(out.body['message'], row.refused.message);
        return;
      }
      assert.equal(out.status, 201, JSON.stringify(out.body));
      const got = at(out.body, row.read ?? []);
      if (row.prefix === true && Array.isArray(got) && Array.isArray(row.stored))
        assert.deepEqual(got.slice(0, row.stored.length), row.stored);
      else assert.deepEqual(got, row.stored);
    });
  }

  it('deletes an unbound pod at once when asked for a grace period (kubectl delete --now)', async () => {
    const created = await call('POST', pods, pod('now', volume({ emptyDir: {} })));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const deleted = await call('DELETE', '/api/v1/namespaces/default/pods/now', {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 1,
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const read = await call('GET', '/api/v1/namespaces/default/pods/now');
    assert.equal(read.status, 404);
  });
});
