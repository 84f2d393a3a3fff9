// ResourceQuota through the default chain over the real pod, ConfigMap and ResourceQuota storages:
// usage charged to status.used at admission, kube's refusal texts (exceeded, failed constraints,
// unknown status), object counts, scopes, and quotas whose status the controller has not written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ResourceQuota, ResourceQuotaStatus } from '../../../api/core/v1/resource-quota.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { newConfigMapREST } from '../../../registry/core/configmap/storage.js';
import { newPodREST } from '../../../registry/core/pod/storage.js';
import {
  newResourceQuotaREST,
  type ResourceQuotaStorage,
} from '../../../registry/core/resourcequota/storage.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import type { Lister } from '../../../registry/rest/capabilities.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { attributesOf } from '../../testing/attributes.js';
import { ResourceQuotaAdmission } from './admission.js';

const podsIn = (namespace: string) => ({ group: '', resource: 'pods', namespace });
const pod = (name: string, resources?: Container['resources']): Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx', ...(resources === undefined ? {} : { resources }) }] },
});

describe('ResourceQuota admission', () => {
  let rest: MemoryRESTOptions;
  let quotas: ResourceQuotaStorage;
  let api: AdmittedGroups;

  /** A quota with the status its controller would have written. */
  const quota = async (
    namespace: string,
    name: string,
    spec: NonNullable<ResourceQuota['spec']>,
    status?: ResourceQuotaStatus,
  ): Promise<void> => {
    await api.createRaw<ResourceQuota>(
      { group: '', resource: 'resourcequotas', namespace },
      { metadata: { name }, spec },
    );
    if (status === undefined) return;
    await quotas.status.update(testContext(namespace), name, {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => Promise.resolve({ ...old, status }),
      },
      options: {},
    });
  };
  const usedOf = async (namespace: string, name: string): Promise<Record<string, string> | undefined> =>
    (await quotas.resourceQuotas.get(testContext(namespace), name, {})).status?.used;
  const refusal = async (
    at: ReturnType<typeof podsIn>,
    obj: Pod | Record<string, unknown>,
  ): Promise<string> => {
    try {
      await api.create(at, obj);
    } catch (err) {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 403);
      assert.equal(err.reason, 'Forbidden');
      return err.message;
    }
    assert.fail('created');
  };

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    quotas = await newResourceQuotaREST(opts);
    api = admittedGroupsOf(
      {
        '': {
          pods: (await newPodREST(opts)).pods,
          configmaps: await newConfigMapREST(opts),
          resourcequotas: quotas.resourceQuotas,
          'resourcequotas/status': quotas.status,
        },
      },
      { disable: ['DefaultTolerationSeconds'] },
    );
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('charges pods to status.used and refuses the one over the bound with kube’s text', async () => {
    await quota('two', 'pods-quota', { hard: { pods: '2' } }, { hard: { pods: '2' }, used: { pods: '0' } });
    await Promise.all([api.create(podsIn('two'), pod('p1')), api.create(podsIn('two'), pod('p2'))]);
    assert.deepEqual(await usedOf('two', 'pods-quota'), { pods: '2' });
    assert.equal(
      await refusal(podsIn('two'), pod('p3')),
      'pods "p3" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=2, limited: pods=2',
    );
    assert.deepEqual(await usedOf('two', 'pods-quota'), { pods: '2' });
  });

  it('counts objects by count/<resource> and the older names', async () => {
    const hard = { 'count/configmaps': '1', configmaps: '5' };
    await quota('counts', 'objects', { hard }, { hard, used: { 'count/configmaps': '0', configmaps: '0' } });
    const at = { group: '', resource: 'configmaps', namespace: 'counts' };
    await api.create(at, { metadata: { name: 'c1' } });
    assert.deepEqual(await usedOf('counts', 'objects'), { configmaps: '1', 'count/configmaps': '1' });
    assert.equal(
      await refusal(at, { metadata: { name: 'c2' } }),
      'configmaps "c2" is forbidden: exceeded quota: objects, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1',
    );
  });

  it('requires cpu requests of every container under a requests.cpu quota, then sums them', async () => {
    const hard = { 'requests.cpu': '1' };
    await quota('cpu', 'cpu-quota', { hard }, { hard, used: { 'requests.cpu': '0' } });
    assert.equal(
      await refusal(podsIn('cpu'), pod('bare')),
      'pods "bare" is forbidden: failed quota: cpu-quota: must specify requests.cpu for: app',
    );
    await api.create(podsIn('cpu'), pod('a', { requests: { cpu: '600m' } }));
    assert.deepEqual(await usedOf('cpu', 'cpu-quota'), { 'requests.cpu': '600m' });
    assert.equal(
      await refusal(podsIn('cpu'), pod('b', { requests: { cpu: '600m' } })),
      'pods "b" is forbidden: exceeded quota: cpu-quota, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
  });

  it('refuses while a bounded resource has no usage yet, and ignores quotas without status', async () => {
    await quota('unknown', 'q', { hard: { pods: '1' } }, { hard: { pods: '1' } });
    assert.equal(
      await refusal(podsIn('unknown'), pod('p')),
      'pods "p" is forbidden: status unknown for quota: q, resources: pods',
    );
    await quota('fresh', 'q', { hard: { pods: '0' } });
    await api.create(podsIn('fresh'), pod('p'));
  });

  it('hands back what one quota was charged when another refuses the object', async () => {
    await quota(
      'two-quotas',
      'a-wide',
      { hard: { pods: '5' } },
      { hard: { pods: '5' }, used: { pods: '1' } },
    );
    await quota(
      'two-quotas',
      'b-tight',
      { hard: { pods: '1' } },
      { hard: { pods: '1' }, used: { pods: '1' } },
    );
    assert.equal(
      await refusal(podsIn('two-quotas'), pod('p')),
      'pods "p" is forbidden: exceeded quota: b-tight, requested: pods=1, used: pods=1, limited: pods=1',
    );
    assert.deepEqual(await usedOf('two-quotas', 'a-wide'), { pods: '1' });
  });

  it('never reads quotas for events and virtual resources, nor for updates of counted objects', async () => {
    const unread = {
      list: () => Promise.reject(new Error('quotas were read')),
    } as unknown as Lister;
    const plugin = new ResourceQuotaAdmission({ resourceQuotas: unread, status: quotas.status });
    const event = { metadata: { name: 'e' } };
    await plugin.validate(
      testContext('ns'),
      attributesOf({ resource: 'events', kind: 'Event', object: event }),
    );
    await plugin.validate(
      testContext('ns'),
      attributesOf({
        resource: 'configmaps',
        kind: 'ConfigMap',
        operation: 'UPDATE',
        object: event,
        oldObject: event,
      }),
    );
    await assert.rejects(
      async () =>
        plugin.validate(
          testContext('ns'),
          attributesOf({ resource: 'configmaps', kind: 'ConfigMap', object: event }),
        ),
      /quotas were read/,
    );
  });

  it('counts a pod only against the quotas whose scopes take it in', async () => {
    const hard = { pods: '1' };
    await quota('scoped', 'best-effort', { hard, scopes: ['BestEffort'] }, { hard, used: { pods: '0' } });
    await api.create(podsIn('scoped'), pod('guaranteed', { requests: { cpu: '1' }, limits: { cpu: '1' } }));
    assert.deepEqual(await usedOf('scoped', 'best-effort'), { pods: '0' });
    await api.create(podsIn('scoped'), pod('loose'));
    assert.deepEqual(await usedOf('scoped', 'best-effort'), { pods: '1' });
    assert.match(
      await refusal(podsIn('scoped'), pod('loose2')),
      /exceeded quota: best-effort, requested: pods=1/,
    );
  });
});
