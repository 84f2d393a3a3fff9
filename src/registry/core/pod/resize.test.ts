import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { ResizeREST } from './resize.js';
import { newPodREST, type PodStorage } from './storage.js';

const put = (obj: Pod): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

const app = (resources: NonNullable<Container['resources']>, extra: Partial<Container> = {}): Container => ({
  name: 'app',
  image: 'nginx:1.25',
  resources,
  ...extra,
});

describe('pods/resize', () => {
  let env: MemoryRESTOptions;
  let s: PodStorage;
  let rest: ResizeREST;
  const ctx = testContext('default');
  let n = 0;

  /** A new pod of these containers; its name. */
  const makePod = async (
    spec: Partial<Pod['spec']> & { containers: Container[] },
    meta: Pod['metadata'] = {},
  ) => {
    const name = `p${String(++n)}`;
    await s.pods.create(ctx, { metadata: { ...meta, name }, spec }, { options: {} });
    return name;
  };
  const resize = async (name: string, change: (p: Pod) => void): Promise<Pod> => {
    const pod = await rest.get(ctx, name, {});
    change(pod);
    return (await rest.update(ctx, name, put(pod))).object;
  };
  const container = (p: Pod, i = 0): Container => p.spec?.containers[i] as Container;
  const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } };

  before(async () => {
    env = await memoryRESTOptions();
    s = await newPodREST({ restOptionsGetter: env.getter });
    rest = new ResizeREST(s.pods);
  });
  after(() => env.close());

  it('changes cpu and memory and nothing else of the pod; the generation moves', async () => {
    const name = await makePod({ containers: [app(burstable)] }, { labels: { a: '1' } });
    const before = await s.pods.get(ctx, name, {});
    const out = await resize(name, (p) => {
      container(p).resources = {
        requests: { cpu: '150m', memory: '64Mi' },
        limits: { cpu: '300m', memory: '256Mi' },
      };
      container(p).image = 'nginx:1.27';
      (p.metadata ??= {}).labels = { a: '2' };
      (p.status ??= {}).phase = 'Running';
    });
    assert.deepEqual(container(out).resources, {
      requests: { cpu: '150m', memory: '64Mi' },
      limits: { cpu: '300m', memory: '256Mi' },
    });
    assert.equal(container(out).image, 'nginx:1.25');
    assert.equal(out.metadata?.generation, (before.metadata?.generation ?? 0) + 1);
    assert.deepEqual(out.metadata.labels, { a: '1' });
    assert.equal(out.status?.phase, 'Pending');
  });

  it('refuses a change of QoS class', async () => {
    const name = await makePod({ containers: [app(burstable)] });
    await rejectsWithStatus(
      resize(name, (p) => {
        container(p).resources = {
          requests: { cpu: '200m', memory: '128Mi' },
          limits: { cpu: '200m', memory: '128Mi' },
        };
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${name}" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing`,
      },
    );
  });

  it('refuses removed requests and limits, and a lower or new memory limit unless the container restarts', async () => {
    const name = await makePod({ containers: [app(burstable)] });
    await rejectsWithStatus(
      resize(name, (p) => {
        container(p).resources = { requests: { cpu: '100m' }, limits: { cpu: '200m', memory: '100Mi' } };
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          `Pod "${name}" is invalid: [spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed, ` +
          'spec.containers[0].resources.limits[memory]: Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer]',
      },
    );
    const loose = await makePod({ containers: [app({ requests: { cpu: '100m', memory: '64Mi' } })] });
    await rejectsWithStatus(
      resize(loose, (p) => {
        container(p).resources = { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } };
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${loose}" is invalid: spec.containers[0].resources.limits[memory]: Forbidden: memory limits cannot be added unless resizePolicy is RestartContainer`,
      },
    );
    const restarts = await makePod({
      containers: [
        app(burstable, { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] }),
      ],
    });
    const out = await resize(restarts, (p) => {
      container(p).resources = {
        requests: { cpu: '100m', memory: '64Mi' },
        limits: { cpu: '200m', memory: '100Mi' },
      };
    });
    assert.equal(container(out).resources?.limits?.memory, '100Mi');
  });

  it('refuses changes to other resources and to resize policies', async () => {
    const name = await makePod({
      containers: [app({ ...burstable, limits: { ...burstable.limits, 'ephemeral-storage': '1Gi' } })],
    });
    await rejectsWithStatus(
      resize(name, (p) => {
        (container(p).resources?.limits ?? {})['ephemeral-storage'] = '2Gi';
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${name}" is invalid: spec: Forbidden: only cpu and memory resources are mutable`,
      },
    );
    await rejectsWithStatus(
      resize(name, (p) => {
        container(p).resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }];
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${name}" is invalid: spec: Forbidden: only cpu and memory resources are mutable`,
      },
    );
  });

  it('takes sidecars but not other init containers', async () => {
    const init = (name: string, extra: Partial<Container> = {}): Container => ({
      name,
      image: 'busybox',
      resources: { requests: { cpu: '50m' } },
      ...extra,
    });
    const name = await makePod({
      initContainers: [init('setup'), init('proxy', { restartPolicy: 'Always' })],
      containers: [app(burstable)],
    });
    const out = await resize(name, (p) => {
      const proxy = p.spec?.initContainers?.[1] as Container;
      proxy.resources = { requests: { cpu: '80m' } };
    });
    assert.deepEqual(out.spec?.initContainers?.[1]?.resources, { requests: { cpu: '80m' } });
    await rejectsWithStatus(
      resize(name, (p) => {
        const setup = p.spec?.initContainers?.[0] as Container;
        setup.resources = { requests: { cpu: '80m' } };
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${name}" is invalid: spec: Forbidden: resources for non-sidecar init containers are immutable`,
      },
    );
  });

  it('refuses containers renamed or removed', async () => {
    const name = await makePod({ containers: [app(burstable), { name: 'b', image: 'x' }] });
    await rejectsWithStatus(
      resize(name, (p) => {
        const second = p.spec?.containers[1] as Container;
        second.name = 'c';
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${name}" is invalid: spec.containers[1].name: Forbidden: containers may not be renamed or reordered on resize`,
      },
    );
    await rejectsWithStatus(
      resize(name, (p) => {
        p.spec?.containers.pop();
      }),
      {
        code: 422,
        reason: 'Invalid',
        message: `Pod "${name}" is invalid: spec.containers: Forbidden: containers may not be added or removed on resize`,
      },
    );
  });

  it('refuses a running pod whose kubelet reports no container resources, static and windows pods', async () => {
    const name = await makePod({ containers: [app(burstable)], nodeName: 'n1' });
    const running = await s.pods.get(ctx, name, {});
    running.status = {
      ...running.status,
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          image: 'nginx:1.25',
          imageID: '',
          ready: true,
          restartCount: 0,
          state: { running: {} },
        },
      ],
    };
    await s.status.update(ctx, name, put(running));
    const cpu = (p: Pod): void => {
      const limits = container(p).resources?.limits ?? {};
      limits.cpu = '250m';
    };
    await rejectsWithStatus(resize(name, cpu), {
      code: 422,
      reason: 'Invalid',
      message: `Pod "${name}" is invalid: spec: Forbidden: Pod running on node without support for resize`,
    });
    const withResources = await s.pods.get(ctx, name, {});
    const status = withResources.status?.containerStatuses?.[0];
    assert.ok(status !== undefined);
    status.resources = burstable;
    await s.status.update(ctx, name, put(withResources));
    assert.equal(container(await resize(name, cpu)).resources?.limits?.cpu, '250m');

    const mirror = await makePod(
      { containers: [app(burstable)], nodeName: 'n1' },
      { annotations: { 'kubernetes.io/config.mirror': 'x' } },
    );
    await rejectsWithStatus(resize(mirror, cpu), {
      code: 422,
      reason: 'Invalid',
      message: `Pod "${mirror}" is invalid: []: Forbidden: static pods cannot be resized`,
    });
    const windows = await makePod({ containers: [app(burstable)], os: { name: 'windows' } });
    await rejectsWithStatus(resize(windows, cpu), {
      code: 422,
      reason: 'Invalid',
      message: `Pod "${windows}" is invalid: []: Forbidden: windows pods cannot be resized`,
    });
  });

  it('leaves the pods resource refusing a change of resources', async () => {
    const name = await makePod({ containers: [app(burstable)] });
    const pod = await s.pods.get(ctx, name, {});
    container(pod).resources = { ...burstable, limits: { cpu: '300m', memory: '128Mi' } };
    const status = await rejectsWithStatus(s.pods.update(ctx, name, put(pod)), {
      code: 422,
      reason: 'Invalid',
    });
    assert.match(status.message ?? '', /spec: Forbidden: pod updates may not change fields other than/);
  });
});
