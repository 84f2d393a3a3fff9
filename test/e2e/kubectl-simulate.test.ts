// The real kubectl against `--simulate --simulate-nodes 3`: a Deployment made with `kubectl create
// deployment` rolls out (its pods scheduled, run and Ready on the simulated nodes), `set image`
// rolls a new ReplicaSet out, `rollout undo` goes back to the first, and `scale` grows it; `kubectl
// top` reads the simulated metrics.k8s.io; `kubectl logs` reads the log annotations.
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, Metrics, topPods } from '@kubernetes/client-node';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { spawnKubectl } from './support/kubectl-stream.js';

describe('kubectl against a simulated cluster (--simulate --simulate-nodes 3)', () => {
  let capstan: CapstanProcess;
  const { ok, fails } = kubectlSession(() => capstan.kubeconfigPath);
  const rolloutStatus = () => ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
  const images = () =>
    ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess({
      args: ['--storage-backend=memory', '--simulate', '--simulate-nodes=3'],
    });
  });

  after(async () => {
    await capstan.stop();
  });

  it('registers three Ready nodes', async () => {
    const out = await ok([
      'get',
      'nodes',
      '-o',
      'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}',
    ]);
    assert.equal(out, 'sim-node-0=True sim-node-1=True sim-node-2=True ');
  });

  it('create deployment, then rollout status succeeds and the pods are Ready', async () => {
    assert.equal(
      await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']),
      'deployment.apps/web created\n',
    );
    assert.match(await rolloutStatus(), /deployment "web" successfully rolled out\n$/);
    const waited = await ok(['wait', '--for=condition=Ready', 'pod', '-l', 'app=web', '--timeout=60s']);
    assert.equal(waited.trim().split('\n').length, 3, waited);
    assert.match(waited, /^pod\/web-[a-z0-9]+-[a-z0-9]{5} condition met$/m);
    const nodes = await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].spec.nodeName}']);
    assert.equal(new Set(nodes.split(' ')).size, 3, nodes);
  });

  it('kubectl logs answers for a simulated container, and exec says that it is simulated', async () => {
    const pod = (
      await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}'])
    ).trim();
    const node = (await ok(['get', 'pod', pod, '-o', 'jsonpath={.spec.nodeName}'])).trim();
    // Without a capstan.dev/logs annotation the container printed nothing.
    assert.equal(await ok(['logs', pod]), '');
    const simulated = `node "${node}" is simulated (capstan --simulate): its containers are not processes`;
    assert.match(
      await fails(['exec', pod, '--', 'true']),
      new RegExp(`^Error from server \\(ServiceUnavailable\\): ${simulated.replace(/[()]/g, '\\$&')}`),
    );
  });

  it('kubectl logs reads the capstan.dev/logs annotations: -c, --tail, --timestamps, and -f until the pod goes', async () => {
    const pod = (name: string, containers: string[], annotations: Record<string, string>) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, annotations },
        spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
      });
    await ok(['create', '-f', '-'], pod('talker', ['app'], { 'capstan.dev/logs': 'alpha\nbeta\ngamma' }));
    await ok(
      ['create', '-f', '-'],
      pod('duo', ['a', 'b'], { 'capstan.dev/logs': 'both', 'capstan.dev/logs.b': 'just b' }),
    );
    await ok(['wait', '--for=condition=Ready', 'pod/talker', 'pod/duo', '--timeout=60s']);
    assert.equal(await ok(['logs', 'talker']), 'alpha\nbeta\ngamma\n');
    assert.equal(await ok(['logs', 'talker', '--tail=2']), 'beta\ngamma\n');
    assert.match(
      await ok(['logs', 'talker', '--tail=1', '--timestamps']),
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z gamma\n$/,
    );
    assert.equal(await ok(['logs', 'duo', '-c', 'b']), 'just b\n');
    assert.equal(await ok(['logs', 'duo', '-c', 'a']), 'both\n');
    // kubectl picks a container itself; the API asks for one.
    assert.match(
      await fails(['get', '--raw', '/api/v1/namespaces/default/pods/duo/log']),
      /^Error from server \(BadRequest\): a container name must be specified for pod duo, choose one of: \[a b\]/,
    );

    const following = await spawnKubectl(['logs', '-f', 'talker'], { kubeconfig: capstan.kubeconfigPath });
    try {
      await following.waitForStdout(/gamma\n/);
      await ok(['annotate', '--overwrite', 'pod', 'talker', 'capstan.dev/logs=alpha\nbeta\ngamma\ndelta']);
      assert.equal(await following.waitForStdout(/delta\n/), 'alpha\nbeta\ngamma\ndelta\n');
      await ok(['delete', 'pod', 'talker', '--wait=false']);
      const done = await following.exited;
      assert.deepEqual([done.code, done.stdout], [0, 'alpha\nbeta\ngamma\ndelta\n']);
    } finally {
      await following.stop();
    }
    await ok(['delete', 'pod', 'duo', '--wait=false']);

    // A container that never starts has no log yet: the kubelet's 400.
    await ok(['create', '-f', '-'], pod('waiter', ['app'], { 'capstan.dev/stay-pending': 'true' }));
    await ok(['wait', '--for=condition=PodScheduled', 'pod/waiter', '--timeout=60s']);
    assert.match(
      await fails(['logs', 'waiter']),
      /^Error from server \(BadRequest\): container "app" in pod "waiter" is waiting to start: ContainerCreating/,
    );
    await ok(['delete', 'pod', 'waiter', '--wait=false']);
  });

  it('set image rolls out a new ReplicaSet', async () => {
    await ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.27']);
    assert.match(await rolloutStatus(), /successfully rolled out/);
    const rs = await ok([
      'get',
      'rs',
      '-l',
      'app=web',
      '-o',
      'jsonpath={range .items[*]}{.spec.replicas}:{.spec.template.spec.containers[0].image} {end}',
    ]);
    assert.deepEqual(rs.trim().split(' ').sort(), ['0:nginx', '3:nginx:1.27']);
  });

  it('rollout undo goes back to the first template, as revision 3', async () => {
    await ok(['rollout', 'undo', 'deployment/web']);
    assert.match(await rolloutStatus(), /successfully rolled out/);
    assert.equal(await images(), 'nginx');
    const history = await ok(['rollout', 'history', 'deployment/web']);
    assert.match(history, /^2\s+<none>$/m);
    assert.match(history, /^3\s+<none>$/m);
    assert.doesNotMatch(history, /^1\s/m);
  });

  it('scale grows the deployment and its ready replicas', async () => {
    await ok(['scale', 'deployment/web', '--replicas=5']);
    assert.match(await rolloutStatus(), /successfully rolled out/);
    assert.equal(await ok(['get', 'deployment', 'web', '-o', 'jsonpath={.status.readyReplicas}']), '5');
  });

  it('a Service gets an EndpointSlice with the ready pods', async () => {
    await ok(['expose', 'deployment', 'web', '--port=80']);
    const addresses = async (): Promise<string> =>
      ok([
        'get',
        'endpointslices',
        '-l',
        'kubernetes.io/service-name=web',
        '-o',
        'jsonpath={range .items[*].endpoints[?(@.conditions.ready==true)]}{.addresses[0]} {end}',
      ]);
    const podIPs = (
      await ok([
        'get',
        'pods',
        '-l',
        'app=web',
        '--field-selector=status.phase=Running',
        '-o',
        'jsonpath={.items[*].status.podIP}',
      ])
    )
      .split(' ')
      .sort();
    let seen = '';
    for (let i = 0; i < 50 && seen.trim().split(' ').length < 5; i++) seen = await addresses();
    const ready = seen.trim().split(' ');
    assert.equal(ready.length, 5, seen);
    assert.ok(
      ready.every((ip) => podIPs.includes(ip)),
      `${seen} / ${podIPs.join(' ')}`,
    );
  });

  it('kubectl patch --subresource resize resizes a running pod in place, and says when the node cannot', async () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: sized}
spec:
  containers:
  - name: app
    image: nginx
    resources:
      requests: {cpu: 100m, memory: 64Mi}
      limits: {cpu: 200m, memory: 128Mi}
`;
    await ok(['create', '-f', '-'], pod);
    await ok(['wait', '--for=condition=Ready', 'pod/sized', '--timeout=60s']);
    const sized = (path: string) => ok(['get', 'pod', 'sized', '-o', `jsonpath={${path}}`]);
    const applied = () => sized('.status.containerStatuses[0].resources');
    assert.deepEqual(JSON.parse(await applied()), {
      requests: { cpu: '100m', memory: '64Mi' },
      limits: { cpu: '200m', memory: '128Mi' },
    });
    const cpu = (request: string, limit: string) =>
      JSON.stringify({
        spec: {
          containers: [{ name: 'app', resources: { requests: { cpu: request }, limits: { cpu: limit } } }],
        },
      });
    assert.equal(
      await ok(['patch', 'pod', 'sized', '--subresource', 'resize', '--patch', cpu('300m', '400m')]),
      'pod/sized patched\n',
    );
    await ok([
      'wait',
      '--for=jsonpath={.status.containerStatuses[0].allocatedResources.cpu}=300m',
      'pod/sized',
      '--timeout=60s',
    ]);
    assert.deepEqual(JSON.parse(await applied()), {
      requests: { cpu: '300m', memory: '64Mi' },
      limits: { cpu: '400m', memory: '128Mi' },
    });
    assert.equal(await sized('.metadata.generation'), '2');

    // The pods resource itself takes no resource change; the resize keeps the QoS class.
    assert.match(
      await fails(['patch', 'pod', 'sized', '--patch', cpu('250m', '400m')]),
      /spec: Forbidden: pod updates may not change fields other than/,
    );
    assert.match(
      await fails([
        'patch',
        'pod',
        'sized',
        '--subresource',
        'resize',
        '--patch',
        JSON.stringify({
          spec: {
            containers: [
              {
                name: 'app',
                resources: {
                  requests: { cpu: '400m', memory: '128Mi' },
                  limits: { cpu: '400m', memory: '128Mi' },
                },
              },
            ],
          },
        }),
      ]),
      /The Pod "sized" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing/,
    );

    // More than a 32-cpu node has: the kubelet leaves the pod as it was and says why.
    await ok(['patch', 'pod', 'sized', '--subresource', 'resize', '--patch', cpu('64', '64')]);
    await ok([
      'wait',
      '--for=jsonpath={.status.conditions[?(@.type=="PodResizePending")].reason}=Infeasible',
      'pod/sized',
      '--timeout=60s',
    ]);
    assert.equal(
      await sized('.status.conditions[?(@.type=="PodResizePending")].message'),
      "Node didn't have enough capacity: cpu, requested: 64000, capacity: 32000",
    );
    assert.equal(await sized('.status.containerStatuses[0].allocatedResources.cpu'), '300m');
    // Asked back within the node, the resize goes through and the condition goes.
    await ok(['patch', 'pod', 'sized', '--subresource', 'resize', '--patch', cpu('500m', '1')]);
    await ok([
      'wait',
      '--for=jsonpath={.status.containerStatuses[0].allocatedResources.cpu}=500m',
      'pod/sized',
      '--timeout=60s',
    ]);
    assert.equal(await sized('.status.conditions[?(@.type=="PodResizePending")].reason'), '');
    await ok(['delete', 'pod', 'sized', '--wait=false']);
  });

  it('kubectl get pods counts a running sidecar, and shows a gated pod SchedulingGated', async () => {
    const pods = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: with-sidecar}
  spec:
    initContainers: [{name: proxy, image: envoy, restartPolicy: Always}]
    containers: [{name: app, image: nginx}]
- apiVersion: v1
  kind: Pod
  metadata: {name: gated}
  spec:
    schedulingGates: [{name: example.com/hold}]
    containers: [{name: app, image: nginx}]
`;
    await ok(['create', '-f', '-'], pods);
    await ok(['wait', '--for=condition=Ready', 'pod/with-sidecar', '--timeout=60s']);
    const columns = async (name: string): Promise<string[]> =>
      (await ok(['get', 'pod', name, '--no-headers'])).trim().split(/\s+/).slice(0, 4);
    assert.deepEqual(await columns('with-sidecar'), ['with-sidecar', '2/2', 'Running', '0']);
    assert.deepEqual(await columns('gated'), ['gated', '0/1', 'SchedulingGated', '0']);
    await ok(['delete', 'pod', 'with-sidecar', 'gated', '--grace-period=0', '--force']);
  });

  it("kubectl describe shows the kubelet's events: a pod's pulls, creates and starts, a node's start", async () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: described}
spec:
  initContainers: [{name: setup, image: "busybox:1.36"}]
  containers: [{name: app, image: "busybox:1.36"}]
`;
    await ok(['create', '-f', '-'], pod);
    await ok(['wait', '--for=condition=Ready', 'pod/described', '--timeout=60s']);
    // The events are written just after the status that starts the containers.
    let described = '';
    for (let i = 0; i < 50 && !described.includes('Started container app'); i++)
      described = await ok(['describe', 'pod', 'described']);
    const rows = described
      .slice(described.indexOf('Events:'))
      .split('\n')
      .map((line) => /^\s+Normal\s+(\w+)\s+\S+\s+(\S+)\s+(?:spec\.\S+: )?(.*)$/.exec(line))
      .flatMap((m) => (m === null ? [] : [`${m[1] ?? ''} ${m[2] ?? ''} ${m[3] ?? ''}`]));
    assert.deepEqual(rows.slice(1), [
      'Pulling kubelet Pulling image "busybox:1.36"',
      'Pulled kubelet Successfully pulled image "busybox:1.36" in 430ms (430ms including waiting). Image size: 45088768 bytes.',
      'Created kubelet Created container: setup',
      'Started kubelet Started container setup',
      'Pulled kubelet Container image "busybox:1.36" already present on machine',
      'Created kubelet Created container: app',
      'Started kubelet Started container app',
    ]);
    assert.match(
      rows[0] ?? '',
      /^Scheduled default-scheduler Successfully assigned default\/described to sim-node-\d$/,
    );
    const node = (await ok(['get', 'pod', 'described', '-o', 'jsonpath={.spec.nodeName}'])).trim();
    const sources = await ok([
      'get',
      'events',
      '--field-selector=involvedObject.name=described,reason=Started',
      '-o',
      'jsonpath={range .items[*]}{.source.host}/{.reportingInstance}/{.involvedObject.fieldPath} {end}',
    ]);
    assert.deepEqual(sources.trim().split(' ').sort(), [
      `${node}/${node}/spec.containers{app}`,
      `${node}/${node}/spec.initContainers{setup}`,
    ]);
    assert.match(
      await ok(['describe', 'node', node]),
      /Normal\s+Starting\s+\S+\s+kubelet\s+Starting kubelet\./,
    );
    await ok(['delete', 'pod', 'described', '--wait=false']);
    let killing = '';
    for (let i = 0; i < 50 && killing === ''; i++)
      killing = await ok([
        'get',
        'events',
        '--field-selector=involvedObject.name=described,reason=Killing',
        '-o',
        'jsonpath={.items[*].message}',
      ]);
    assert.equal(killing, 'Stopping container app');
  });

  it('a Job with completions 3 completes (kubectl wait --for=condition=complete)', async () => {
    const job = `apiVersion: batch/v1
kind: Job
metadata: {name: three}
spec:
  completions: 3
  parallelism: 2
  template:
    metadata:
      annotations: {capstan.dev/exit-code: "0", capstan.dev/run-seconds: "0"}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
`;
    await ok(['create', '-f', '-'], job);
    assert.equal(
      await ok(['wait', '--for=condition=complete', 'job/three', '--timeout=60s']),
      'job.batch/three condition met\n',
    );
    assert.equal(await ok(['get', 'job', 'three', '-o', 'jsonpath={.status.succeeded}']), '3');
  });

  it("a Job's unannotated pods complete, and kubectl delete pod does not wait out the grace period", async () => {
    // As kwok's default stages: a Job's pod exits 0 after a second, a deleted pod's containers
    // exit at SIGTERM at once.
    await ok(['create', 'job', 'plain', '--image=busybox', '--', 'echo', 'hi']);
    assert.equal(
      await ok(['wait', '--for=condition=complete', 'job/plain', '--timeout=30s']),
      'job.batch/plain condition met\n',
    );
    await ok(['run', 'short-lived', '--image=nginx']);
    await ok(['wait', '--for=condition=Ready', 'pod/short-lived', '--timeout=30s']);
    // kubectl waits for the pod to be gone; its grace period is 30 s, the timeout 10 s.
    assert.equal(await ok(['delete', 'pod', 'short-lived', '--timeout=10s']), 'pod "short-lived" deleted\n');
  });

  it('kubectl top pods, top pod --containers and top nodes read the annotated usage', async () => {
    const rows = (out: string): string[][] =>
      out
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/));
    const resources = rows(await ok(['api-resources', '--api-group=metrics.k8s.io', '--no-headers']));
    assert.deepEqual(resources, [
      ['nodes', 'metrics.k8s.io/v1beta1', 'false', 'NodeMetrics'],
      ['pods', 'metrics.k8s.io/v1beta1', 'true', 'PodMetrics'],
    ]);
    await ok(['create', 'deployment', 'metered', '--image=nginx', '--replicas=2']);
    await ok(['rollout', 'status', 'deployment/metered', '--timeout=60s']);
    await ok(['wait', '--for=condition=Ready', 'pod', '-l', 'app=metered', '--timeout=60s']);
    await ok([
      'annotate',
      'pods',
      '-l',
      'app=metered',
      'capstan.dev/cpu-usage=250m',
      'capstan.dev/memory-usage=64Mi',
    ]);
    const pods = rows(await ok(['top', 'pods', '-l', 'app=metered', '--no-headers']));
    assert.equal(pods.length, 2, JSON.stringify(pods));
    for (const row of pods) assert.deepEqual(row.slice(1), ['250m', '64Mi']);
    const name = pods[0]?.[0] ?? '';
    await ok(['annotate', 'pod', name, 'capstan.dev/cpu-usage.nginx=300m']);
    assert.deepEqual(rows(await ok(['top', 'pod', name, '--containers'])), [
      ['POD', 'NAME', 'CPU(cores)', 'MEMORY(bytes)'],
      [name, 'nginx', '300m', '64Mi'],
    ]);
    assert.match(
      await fails(['top', 'pod', 'nope']),
      /^Error from server \(NotFound\): pods "nope" not found/,
    );
    const nodes = rows(await ok(['top', 'nodes', '--no-headers']));
    assert.deepEqual(
      nodes.map((r) => r[0]),
      ['sim-node-0', 'sim-node-1', 'sim-node-2'],
    );
    // Each node's own 50m and 128Mi at least, and the percentages of its allocatable.
    for (const [, cpu = '', cpuPercent, memory = ''] of nodes) {
      assert.ok(Number.parseInt(cpu, 10) >= 50 && cpu.endsWith('m'), cpu);
      assert.match(cpuPercent ?? '', /^\d+%$/);
      assert.ok(Number.parseInt(memory, 10) >= 128 && memory.endsWith('Mi'), memory);
    }
    // The metrics kinds are in the OpenAPI, as metrics-server publishes them.
    const explained = await ok(['explain', 'podmetrics.containers']);
    assert.match(explained, /^KIND:\s+PodMetrics$/m);
    assert.match(explained, /^FIELD: containers <\[\]ContainerMetrics>$/m);
    assert.match(explained, /^\s+usage\s+<map\[string\]\w+> -required-$/m);
    // metrics-server's aggregated reader role is there, so `view` (and edit, admin) may run kubectl top.
    const viewRule = [
      'get',
      'clusterrole',
      'view',
      '-o',
      'jsonpath={.rules[?(@.apiGroups[0]=="metrics.k8s.io")]}',
    ];
    let rule = '';
    // The aggregation controller fills view after the start; kubectl's own calls pace the polling.
    for (let i = 0; i < 50 && rule === ''; i++) rule = await ok(viewRule);
    assert.deepEqual(JSON.parse(rule), {
      apiGroups: ['metrics.k8s.io'],
      resources: ['pods', 'nodes'],
      verbs: ['get', 'list', 'watch'],
    });
  });

  it("@kubernetes/client-node's Metrics and topPods read the same usage", async () => {
    // Runs after the kubectl top case: its `metered` pods report 64Mi and 250m, one of them 300m.
    const kc = new KubeConfig();
    kc.loadFromFile(capstan.kubeconfigPath);
    const metrics = new Metrics(kc);
    const podMetrics = await metrics.getPodMetrics('default');
    const metered = podMetrics.items.filter((p) => p.metadata.name.startsWith('metered-'));
    assert.equal(metered.length, 2);
    assert.deepEqual(metered.map((p) => p.containers[0]?.usage.cpu).sort(), ['250m', '300m']);
    for (const p of metered) assert.equal(p.containers[0]?.usage.memory, '64Mi');
    assert.equal((await metrics.getNodeMetrics()).items.length, 3);
    const top = await topPods(kc.makeApiClient(CoreV1Api), metrics, 'default');
    const usage = top.filter((p) => p.Pod.metadata?.name?.startsWith('metered-') === true);
    assert.equal(usage.length, 2);
    assert.deepEqual(usage.map((p) => Number(p.CPU.CurrentUsage)).sort(), [0.25, 0.3]);
    for (const p of usage) assert.equal(Number(p.Memory.CurrentUsage), 64 * 1024 * 1024);
  });
});
