import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EphemeralContainer } from '../../../api/core/v1/ephemeral-container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { EphemeralContainersREST } from './ephemeral-containers.js';
import { newPodREST, type PodStorage } from './storage.js';

const put = (obj: Pod): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const debug = (name: string, extra: Partial<EphemeralContainer> = {}): EphemeralContainer => ({
  name,
  image: 'busybox:1.36',
  ...extra,
});

describe('pods/ephemeralcontainers', () => {
  let env: MemoryRESTOptions;
  let s: PodStorage;
  let rest: EphemeralContainersREST;
  const ctx = testContext('default');
  const withEphemeral = async (containers: EphemeralContainer[], change?: (p: Pod) => void): Promise<Pod> => {
    const pod = await rest.get(ctx, 'web', {});
    pod.spec = { ...(pod.spec ?? { containers: [] }), ephemeralContainers: containers };
    change?.(pod);
    return pod;
  };

  before(async () => {
    env = await memoryRESTOptions();
    s = await newPodREST({ restOptionsGetter: env.getter });
    rest = new EphemeralContainersREST(s.pods);
    await s.pods.create(
      ctx,
      { metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } },
      { options: {} },
    );
  });
  after(() => env.close());

  it('refuses ephemeral containers on pod create', async () => {
    const pod: Pod = {
      metadata: { name: 'eager' },
      spec: { containers: [{ name: 'app', image: 'x' }], ephemeralContainers: [debug('d')] },
    };
    await rejectsWithStatus(s.pods.create(ctx, pod, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "eager" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create',
    });
  });

  it('adds one with its defaults and ignores every other change of the pod', async () => {
    const pod = await withEphemeral([debug('debugger', { targetContainerName: 'app' })], (p) => {
      const app = p.spec?.containers[0];
      if (app !== undefined) app.image = 'nginx:2';
      p.metadata = { ...p.metadata, labels: { sneaky: 'yes' } };
    });
    const { object } = await rest.update(ctx, 'web', put(pod));
    assert.deepEqual(object.spec?.ephemeralContainers, [
      {
        name: 'debugger',
        image: 'busybox:1.36',
        targetContainerName: 'app',
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ]);
    assert.equal(object.spec.containers[0]?.image, 'nginx:1.25');
    assert.equal(object.metadata?.labels, undefined);
  });

  it('refuses to remove or change an existing one, as kube words it', async () => {
    await rejectsWithStatus(rest.update(ctx, 'web', put(await withEphemeral([]))), {
      code: 422,
      reason: 'Invalid',
      message:
        'Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n',
    });
    const current = (await rest.get(ctx, 'web', {})).spec?.ephemeralContainers ?? [];
    const changed = current.map((c) => ({ ...c, image: 'alpine' }));
    await rejectsWithStatus(rest.update(ctx, 'web', put(await withEphemeral(changed))), {
      code: 422,
      reason: 'Invalid',
      message:
        'Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n',
    });
  });

  it('validates new ones: unique names, a real target, no ports or probes', async () => {
    const current = (await rest.get(ctx, 'web', {})).spec?.ephemeralContainers ?? [];
    const bad = [
      ...current,
      debug('app'),
      debug('second', { targetContainerName: 'ghost', ports: [{ containerPort: 80, protocol: 'TCP' }] }),
    ];
    const status = await rejectsWithStatus(rest.update(ctx, 'web', put(await withEphemeral(bad))), {
      code: 422,
      reason: 'Invalid',
    });
    assert.deepEqual(
      status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`),
      [
        'spec.ephemeralContainers[1].name: Duplicate value: "app"',
        'spec.ephemeralContainers[2].targetContainerName: Not found: "ghost"',
        'spec.ephemeralContainers[2].ports: Forbidden: cannot be set for an Ephemeral Container',
      ],
    );
  });

  it('refuses a regular pod update that touches ephemeral containers', async () => {
    const pod = await withEphemeral([]);
    await rejectsWithStatus(s.pods.update(ctx, 'web', put(pod)), { code: 422, reason: 'Invalid' });
  });
});
