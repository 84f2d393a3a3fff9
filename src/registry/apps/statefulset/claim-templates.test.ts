// Volumes a pod template may mount besides its own: a StatefulSet's volumeClaimTemplates (the pods
// get them as persistentVolumeClaim volumes), and the siblings of that class: ephemeral volumes and a
// volume that names no source (defaulted to an emptyDir before validation, in any workload).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { deploymentStorageMap } from '../deployment/storage.js';
import { statefulSetStorageMap } from './storage.js';

const claim = (
  name: string,
): NonNullable<NonNullable<StatefulSet['spec']>['volumeClaimTemplates']>[number] => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});

const mounting = (volume: string, extra: Partial<PodSpec> = {}): PodSpec => ({
  containers: [{ name: 'db', image: 'cassandra:4', volumeMounts: [{ name: volume, mountPath: '/data' }] }],
  ...extra,
});

const statefulSet = (name: string, spec: PodSpec, claims: string[]): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec },
    volumeClaimTemplates: claims.map(claim),
  },
});

interface Row {
  readonly name: string;
  readonly spec: PodSpec;
  readonly claims: string[];
  /** undefined: created; else the Status message kube answers. */
  readonly refused?: string;
}

const ephemeral = {
  volumeClaimTemplate: {
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  },
};

const rows: readonly Row[] = [
  { name: 'cassandra', spec: mounting('cassandra-data'), claims: ['cassandra-data'] },
  {
    name: 'own-volume-wins',
    spec: mounting('data', { volumes: [{ name: 'data', emptyDir: {} }] }),
    claims: ['data'],
  },
  { name: 'ephemeral', spec: mounting('scratch', { volumes: [{ name: 'scratch', ephemeral }] }), claims: [] },
  {
    name: 'unknown-mount',
    spec: mounting('nope'),
    claims: ['cassandra-data'],
    refused:
      'StatefulSet.apps "unknown-mount" is invalid: spec.template.spec.containers[0].volumeMounts[0].name: Not found: "nope"',
  },
  {
    name: 'ephemeral-without-template',
    spec: mounting('scratch', { volumes: [{ name: 'scratch', ephemeral: {} }] }),
    claims: [],
    refused:
      'StatefulSet.apps "ephemeral-without-template" is invalid: [spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate: Required value, spec.template.spec.containers[0].volumeMounts[0].name: Not found: "scratch"]',
  },
];

describe('volumes a workload template may mount', () => {
  let env: MemoryRESTOptions;
  let statefulSets: Store<StatefulSet>;
  let deployments: Store<Deployment>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    statefulSets = (await statefulSetStorageMap(opts))['statefulsets'] as Store<StatefulSet>;
    deployments = (await deploymentStorageMap(opts))['deployments'] as Store<Deployment>;
  });
  after(() => env.close());

  for (const row of rows) {
    it(`statefulset ${row.name}: ${row.refused === undefined ? 'created' : 'refused'}`, async () => {
      const obj = statefulSet(row.name, row.spec, row.claims);
      if (row.refused !== undefined) {
        await rejectsWithStatus(statefulSets.create(ctx, obj, { options: {} }), {
          code: 422,
          reason: 'Invalid',
          message: row.refused,
        });
        return;
      }
      const out = await statefulSets.create(ctx, obj, { options: {} });
      // The claim templates stay claim templates: the stored pod template gains no volumes.
      assert.deepEqual(out.spec?.template?.spec?.volumes, row.spec.volumes);
    });
  }

  it('defaults a volume that names no source to an emptyDir before validating it', async () => {
    const out = await deployments.create(
      ctx,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'test-volume' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: mounting('test-volume', { volumes: [{ name: 'test-volume' }] }),
          },
        },
      },
      { options: {} },
    );
    assert.deepEqual(out.spec?.template?.spec?.volumes, [{ name: 'test-volume', emptyDir: {} }]);
  });
});
