// pods/log of pods on a simulated node, on the real pod storage: the annotation's lines with
// PodLogOptions as the kubelet applies them, its refusals, and follow over a watch of the pod.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodStatus } from '../../../api/core/v1/pod-status.js';
import type { ConnectAnswer, Getter, UpdateRequest } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { simulatedNodeLabel } from '../node/simulated.js';
import { newPodConnecters, type PodConnecters } from './connect.js';
import { kubeletTimestamp } from './simulated-log.js';
import { newPodREST, type PodStorage } from './storage.js';

const put = <T>(obj: T): UpdateRequest => ({
  objInfo: {
    preconditions: () => undefined,
    updatedObject: () => Promise.resolve(structuredClone(obj) as never),
  },
  options: {},
});

// Nodes named sim-* are simulated; any other is a real node without a reachable kubelet.
const nodes: Getter = {
  get: (_ctx, name) =>
    Promise.resolve({
      metadata: { name, labels: name.startsWith('sim') ? { [simulatedNodeLabel]: 'true' } : {} },
    }),
};

const started = Date.parse('2026-01-02T03:04:05Z');
const at = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const running = (name: string, id = `containerd://${name}`): PodStatus['containerStatuses'] & object => [
  {
    name,
    state: { running: { startedAt: at(started) } },
    ready: true,
    restartCount: 0,
    image: 'x',
    imageID: '',
    containerID: id,
  },
];

async function text(answer: ConnectAnswer): Promise<string> {
  if ('noContent' in answer) return '<no content>';
  if ('body' in answer) return Buffer.from(answer.body).toString('utf8');
  const chunks: Buffer[] = [];
  for await (const c of answer.stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

describe('pods/log on a simulated node', () => {
  let env: MemoryRESTOptions;
  let pods: PodStorage;
  let log: PodConnecters['log'];
  const ctx = testContext('ns');
  const read = async (name: string, query: string, c: RequestContext = ctx): Promise<string> =>
    text(await log.connect(c, name, { subpath: '', query: new URLSearchParams(query), options: null }));
  const refused = (name: string, query: string): Promise<unknown> =>
    log.connect(ctx, name, { subpath: '', query: new URLSearchParams(query), options: null });

  async function makePod(init: {
    name: string;
    containers?: string[];
    annotations?: Record<string, string>;
    node?: string;
    status?: PodStatus;
  }): Promise<Pod> {
    const containers = (init.containers ?? ['app']).map((name) => ({ name, image: 'x' }));
    const created = await pods.pods.create(
      ctx,
      {
        metadata: { name: init.name, annotations: init.annotations ?? {} },
        spec: { nodeName: init.node ?? 'sim-0', containers },
      },
      { options: {} },
    );
    const status = init.status ?? { phase: 'Running', containerStatuses: running('app') };
    return (await pods.status.update(ctx, init.name, put({ ...created, status }))).object;
  }

  before(async () => {
    env = await memoryRESTOptions();
    pods = await newPodREST({ restOptionsGetter: env.getter });
    log = newPodConnecters(pods.pods, nodes).log;
    await makePod({ name: 'web', annotations: { 'capstan.dev/logs': 'one\ntwo\nthree\n' } });
    await makePod({
      name: 'duo',
      containers: ['a', 'b'],
      annotations: { 'capstan.dev/logs': 'shared', 'capstan.dev/logs.b': 'only b\nagain b' },
      status: { phase: 'Running', containerStatuses: [...running('a'), ...running('b')] },
    });
  });
  after(() => env.close());

  it("answers the annotation's lines, the container's own annotation first, as text/plain", async () => {
    const answer = await log.connect(ctx, 'web', {
      subpath: '',
      query: new URLSearchParams(),
      options: null,
    });
    assert.ok('stream' in answer);
    assert.equal(answer.contentType, 'text/plain');
    assert.equal(await text(answer), 'one\ntwo\nthree\n');
    assert.equal(await read('duo', 'container=a'), 'shared\n');
    assert.equal(await read('duo', 'container=b'), 'only b\nagain b\n');
  });

  it('a pod not on a node has no log at all (204), as kube answers without a log location', async () => {
    await pods.pods.create(
      ctx,
      { metadata: { name: 'unscheduled' }, spec: { containers: [{ name: 'app', image: 'x' }] } },
      { options: {} },
    );
    assert.equal(await read('unscheduled', ''), '<no content>');
  });

  it('without the annotations a container printed nothing', async () => {
    await makePod({ name: 'quiet' });
    assert.equal(await read('quiet', ''), '');
  });

  it('applies tailLines, limitBytes, timestamps and since as the kubelet does', async () => {
    assert.equal(await read('web', 'tailLines=2'), 'two\nthree\n');
    assert.equal(await read('web', 'tailLines=0'), '');
    assert.equal(await read('web', 'limitBytes=6'), 'one\ntw');
    const stamp = kubeletTimestamp(started);
    assert.equal(stamp, '2026-01-02T03:04:05.000000000Z');
    assert.equal(await read('web', 'timestamps=true&tailLines=1'), `${stamp} three\n`);
    // Every line was printed when the container started.
    assert.equal(await read('web', 'sinceTime=2026-01-02T03:04:05Z'), 'one\ntwo\nthree\n');
    assert.equal(await read('web', 'sinceTime=2026-01-02T03:04:06Z'), '');
    assert.equal(await read('web', 'sinceSeconds=1'), '');
    const long = Math.ceil((Date.now() - started) / 1000) + 60;
    assert.equal(await read('web', `sinceSeconds=${String(long)}`), 'one\ntwo\nthree\n');
  });

  it('refuses as kube does: options, the container to pick, and a container that has not started', async () => {
    await rejectsWithStatus(refused('web', 'tailLines=-1'), {
      code: 422,
      reason: 'Invalid',
      message:
        'PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    });
    await rejectsWithStatus(refused('duo', ''), {
      code: 400,
      reason: 'BadRequest',
      message: 'a container name must be specified for pod duo, choose one of: [a b]',
    });
    await rejectsWithStatus(refused('duo', 'container=c'), {
      code: 400,
      reason: 'BadRequest',
      message: 'container c is not valid for pod duo',
    });
    await makePod({
      name: 'pending',
      status: {
        phase: 'Pending',
        containerStatuses: [
          {
            name: 'app',
            state: { waiting: { reason: 'ContainerCreating' } },
            ready: false,
            restartCount: 0,
            image: 'x',
            imageID: '',
          },
        ],
      },
    });
    await rejectsWithStatus(refused('pending', ''), {
      code: 400,
      reason: 'BadRequest',
      message: 'container "app" in pod "pending" is waiting to start: ContainerCreating',
    });
    await rejectsWithStatus(refused('web', 'previous=true'), {
      code: 400,
      reason: 'BadRequest',
      message: 'previous terminated container "app" in pod "web" not found',
    });
  });

  it('keeps the 503 for a pod on a node that is not simulated', async () => {
    await makePod({ name: 'real', node: 'node-1' });
    await rejectsWithStatus(refused('real', ''), {
      code: 503,
      reason: 'ServiceUnavailable',
      message: 'no kubelet is reachable for node "node-1"',
    });
  });

  it('reads the previous run at its own start time', async () => {
    const before = started - 60_000;
    await makePod({
      name: 'restarted',
      annotations: { 'capstan.dev/logs': 'boom' },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            ...running('app', 'containerd://two')[0],
            name: 'app',
            restartCount: 1,
            lastState: {
              terminated: {
                exitCode: 1,
                startedAt: at(before),
                finishedAt: at(started),
                containerID: 'containerd://one',
              },
            },
          } as NonNullable<PodStatus['containerStatuses']>[number],
        ],
      },
    });
    assert.equal(
      await read('restarted', 'previous=true&timestamps=true'),
      `${kubeletTimestamp(before)} boom\n`,
    );
  });
});

describe('pods/log follow on a simulated node', () => {
  let env: MemoryRESTOptions;
  let pods: PodStorage;
  let log: PodConnecters['log'];
  const ctx = testContext('ns');

  before(async () => {
    env = await memoryRESTOptions();
    pods = await newPodREST({ restOptionsGetter: env.getter });
    log = newPodConnecters(pods.pods, nodes).log;
  });
  after(() => env.close());

  async function follow(name: string, c: RequestContext = ctx): Promise<AsyncIterator<Uint8Array>> {
    const created = await pods.pods.create(
      ctx,
      {
        metadata: { name, annotations: { 'capstan.dev/logs': 'first' } },
        spec: { nodeName: 'sim-0', containers: [{ name: 'app', image: 'x' }] },
      },
      { options: {} },
    );
    await pods.status.update(
      ctx,
      name,
      put({ ...created, status: { phase: 'Running', containerStatuses: running('app') } }),
    );
    const answer = await log.connect(c, name, {
      subpath: '',
      query: new URLSearchParams('follow=true'),
      options: null,
    });
    assert.ok('stream' in answer);
    return answer.stream[Symbol.asyncIterator]();
  }
  const chunk = async (it: AsyncIterator<Uint8Array>): Promise<string | undefined> => {
    const next = await it.next();
    return next.done === true ? undefined : Buffer.from(next.value).toString('utf8');
  };
  async function annotate(name: string, value: string): Promise<void> {
    const pod = await pods.pods.get(ctx, name, {});
    pod.metadata = { ...pod.metadata, annotations: { 'capstan.dev/logs': value } };
    await pods.pods.update(ctx, name, put(pod));
  }

  it('streams lines added later and ends when the pod is deleted', async () => {
    const it = await follow('tail');
    assert.equal(await chunk(it), 'first\n');
    await annotate('tail', 'first\nsecond\nthird');
    assert.equal(await chunk(it), 'second\nthird\n');
    await pods.pods.delete(ctx, 'tail', { options: { gracePeriodSeconds: 0 } });
    assert.equal(await chunk(it), undefined);
  });

  it('ends when the container terminates', async () => {
    const it = await follow('job');
    assert.equal(await chunk(it), 'first\n');
    const pod = await pods.pods.get(ctx, 'job', {});
    const terminated = {
      terminated: {
        exitCode: 0,
        startedAt: at(started),
        finishedAt: at(started),
        containerID: 'containerd://app',
      },
    };
    const statuses = running('app').map((c) => ({ ...c, state: terminated, ready: false }));
    await pods.status.update(
      ctx,
      'job',
      put({ ...pod, status: { phase: 'Succeeded', containerStatuses: statuses } }),
    );
    assert.equal(await chunk(it), undefined);
  });

  it('ends when the client goes away', async () => {
    const abort = new AbortController();
    const it = await follow('gone', { ...testContext('ns'), signal: abort.signal });
    assert.equal(await chunk(it), 'first\n');
    const next = chunk(it);
    abort.abort();
    assert.equal(await next, undefined);
  });
});
