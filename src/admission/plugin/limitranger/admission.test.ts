// LimitRanger through the default chain over the real pod, claim and LimitRange storages: defaults
// with kube's annotation, and kube's texts for Container, Pod and PersistentVolumeClaim bounds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LimitRange, LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Container } from '../../../api/core/v1/container.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newLimitRangeREST } from '../../../registry/core/limitrange/storage.js';
import { newPersistentVolumeClaimREST } from '../../../registry/core/persistentvolumeclaim/storage.js';
import { newPodREST } from '../../../registry/core/pod/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { limitRangerAnnotation } from './admission.js';

const podsIn = (namespace: string) => ({ group: '', resource: 'pods', namespace });
const pod = (name: string, containers: Container[], initContainers?: Container[]): Pod => ({
  metadata: { name },
  spec: { containers, ...(initContainers === undefined ? {} : { initContainers }) },
});
const container = (name: string, resources?: Container['resources']): Container => ({
  name,
  image: 'nginx',
  ...(resources === undefined ? {} : { resources }),
});

describe('LimitRanger admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;
  const limitRange = (namespace: string, ...limits: LimitRangeItem[]): Promise<LimitRange> =>
    api.createRaw<LimitRange>(
      { group: '', resource: 'limitranges', namespace },
      { metadata: { name: 'limits' }, spec: { limits } },
    );
  const refusal = async (
    at: ReturnType<typeof podsIn>,
    obj: Pod | PersistentVolumeClaim,
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
    api = admittedGroupsOf(
      {
        '': {
          pods: (await newPodREST(opts)).pods,
          limitranges: await newLimitRangeREST(opts),
          persistentvolumeclaims: (await newPersistentVolumeClaimREST(opts)).persistentVolumeClaims,
        },
      },
      { disable: ['StorageObjectInUseProtection', 'DefaultTolerationSeconds'] },
    );
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('sets default limits and requests on containers and init containers, and says so', async () => {
    await limitRange('defaults', {
      type: 'Container',
      default: { cpu: '500m', memory: '256Mi' },
      defaultRequest: { cpu: '100m' },
    });
    const made = await api.create(
      podsIn('defaults'),
      pod('web', [container('app'), container('side', { limits: { cpu: '1' } })], [container('init')]),
    );
    const [app, side] = made.spec?.containers ?? [];
    assert.deepEqual(app?.resources, {
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '256Mi' },
    });
    assert.deepEqual(side?.resources?.limits, { cpu: '1', memory: '256Mi' });
    assert.deepEqual(made.spec?.initContainers?.[0]?.resources?.requests, { cpu: '100m', memory: '256Mi' });
    assert.equal(
      made.metadata?.annotations?.[limitRangerAnnotation],
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; ' +
        'cpu, memory request for container side; memory limit for container side; ' +
        'cpu, memory request for init container init; cpu, memory limit for init container init',
    );
  });

  it('leaves pods alone in a namespace without LimitRanges', async () => {
    const made = await api.create(podsIn('free'), pod('plain', [container('app')]));
    assert.equal(made.spec?.containers[0]?.resources, undefined);
    assert.equal(made.metadata?.annotations?.[limitRangerAnnotation], undefined);
  });

  it('refuses containers over max with kube’s text, several violations aggregated', async () => {
    await limitRange('max', { type: 'Container', max: { cpu: '1', memory: '1Gi' } });
    assert.equal(
      await refusal(podsIn('max'), pod('big', [container('app', { limits: { cpu: '2' } })])),
      'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
    assert.equal(
      await refusal(
        podsIn('max'),
        pod('bigger', [container('app', { limits: { cpu: '2', memory: '2Gi' } })]),
      ),
      'pods "bigger" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, ' +
        'maximum memory usage per Container is 1Gi, but limit is 2Gi]',
    );
  });

  it('holds the pod’s summed requests to a Pod minimum, and the limit/request ratio', async () => {
    await limitRange('pod', { type: 'Pod', min: { memory: '1Gi' } });
    const small = { requests: { memory: '256Mi' } };
    assert.equal(
      await refusal(podsIn('pod'), pod('small', [container('a', small), container('b', small)])),
      'pods "small" is forbidden: minimum memory usage per Pod is 1Gi, but request is 512Mi',
    );
    await limitRange('ratio', { type: 'Container', maxLimitRequestRatio: { cpu: '2' } });
    assert.equal(
      await refusal(
        podsIn('ratio'),
        pod('spiky', [container('a', { requests: { cpu: '100m' }, limits: { cpu: '1' } })]),
      ),
      'pods "spiky" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 10.000000',
    );
    await api.create(
      podsIn('ratio'),
      pod('even', [container('a', { requests: { cpu: '500m' }, limits: { cpu: '1' } })]),
    );
  });

  it('holds a claim’s storage request to PersistentVolumeClaim min and max', async () => {
    await limitRange('claims', {
      type: 'PersistentVolumeClaim',
      min: { storage: '1Gi' },
      max: { storage: '10Gi' },
    });
    const claim = (name: string, storage: string): PersistentVolumeClaim => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    });
    const at = { group: '', resource: 'persistentvolumeclaims', namespace: 'claims' };
    assert.equal(
      await refusal(at, claim('huge', '20Gi')),
      'persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    );
    assert.equal(
      await refusal(at, claim('tiny', '500Mi')),
      'persistentvolumeclaims "tiny" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    );
    await api.create(at, claim('fits', '5Gi'));
  });
});
