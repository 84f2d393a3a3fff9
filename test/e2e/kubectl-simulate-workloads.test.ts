// The real kubectl against a simulated cluster of three nodes (startCapstan({ simulate: { nodes: 3 },
// clock: 'virtual' }), the options of --simulate --simulate-nodes 3 --clock=virtual): `kubectl wait`
// on Ready pods, `kubectl rollout status` on a rollout past its progress deadline, a DaemonSet on every node, a StatefulSet with a claim template, a CronJob started
// by advancing the server's clock to its schedule, a suspended Job resumed and one failed by its
// podFailurePolicy, `kubectl drain` held back by a
// PodDisruptionBudget the disruption controller keeps, through pods/eviction, and an HPA without a
// metrics API (simulate.metrics off). The server runs in this process so that the test can move its
// virtual clock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';

const daemonSetYaml = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: busybox}]}
`;

const statefulSetYaml = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: postgres}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`;

const cronJobYaml = `apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations: {capstan.dev/exit-code: "0", capstan.dev/run-seconds: "0"}
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
`;

const jobsYaml = `apiVersion: batch/v1
kind: Job
metadata: {name: held}
spec:
  suspend: true
  template:
    metadata:
      annotations: {capstan.dev/exit-code: "0", capstan.dev/run-seconds: "0"}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: fatal}
spec:
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: In, values: [3]}
  template:
    metadata:
      annotations: {capstan.dev/exit-code: "3", capstan.dev/run-seconds: "0"}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
`;

const budgetYaml = (minAvailable: number): string => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: ${String(minAvailable)}
  selector: {matchLabels: {app: web}}
`;

describe('kubectl against a simulated cluster of three nodes on a virtual clock', () => {
  let server: CapstanServer;
  const { kubectl, ok } = kubectlSession(() => server.kubeconfigPath);
  /** Polls `kubectl get` until `holds` (kubectl calls take their own time: no sleeps needed). */
  const until = async (args: readonly string[], holds: (out: string) => boolean): Promise<string> => {
    let out = '';
    for (let i = 0; i < 60; i++) {
      out = await ok(args);
      if (holds(out)) return out;
    }
    assert.fail(`kubectl ${args.join(' ')}: ${out}`);
  };

  before(async () => {
    await locateKubectl();
    // Without the simulated metrics API (--simulate-metrics=false), as a cluster without metrics-server.
    server = await startCapstan({ clock: 'virtual', simulate: { nodes: 3, metrics: false } });
  });

  after(async () => {
    await server.stop();
  });

  it('kubectl wait --for=condition=Ready pod -l sees the pods of a deployment Ready', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    await until(['get', 'pods', '-l', 'app=web', '-o', 'name'], (out) => out.trim().split('\n').length === 3);
    const waited = await ok(['wait', '--for=condition=Ready', 'pod', '-l', 'app=web', '--timeout=30s']);
    assert.equal(waited.match(/condition met/g)?.length, 3, waited);
  });

  it('kubectl rollout status stops at a rollout past its progress deadline', async () => {
    // Its pods stay Pending, so the rollout makes no progress; the deadline runs on the server's clock.
    await ok(
      ['create', '-f', '-'],
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: stuck}
spec:
  progressDeadlineSeconds: 60
  selector: {matchLabels: {app: stuck}}
  template:
    metadata: {labels: {app: stuck}, annotations: {capstan.dev/stay-pending: "true"}}
    spec: {containers: [{name: c, image: nginx}]}
`,
    );
    await until(
      ['get', 'deployment', 'stuck', '-o', 'jsonpath={.status.conditions[?(@.type=="Progressing")].reason}'],
      (out) => out === 'ReplicaSetUpdated' || out === 'NewReplicaSetCreated',
    );
    await server.clock.advance(62_000);
    await until(
      ['get', 'deployment', 'stuck', '-o', 'jsonpath={.status.conditions[?(@.type=="Progressing")].reason}'],
      (out) => out === 'ProgressDeadlineExceeded',
    );
    const status = await kubectl(['rollout', 'status', 'deployment/stuck', '--timeout=30s']);
    assert.equal(status.code, 1);
    assert.match(status.stderr, /error: deployment "stuck" exceeded its progress deadline/);
  });

  it('a DaemonSet has one pod on each of the 3 nodes', async () => {
    await ok(['create', '-f', '-'], daemonSetYaml);
    assert.match(
      await ok(['rollout', 'status', 'daemonset/agent', '--timeout=30s']),
      /successfully rolled out/,
    );
    const nodes = await ok(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.nodeName}']);
    assert.deepEqual(nodes.split(' ').sort(), ['sim-node-0', 'sim-node-1', 'sim-node-2']);
    assert.equal(await ok(['get', 'ds', 'agent', '-o', 'jsonpath={.status.numberReady}']), '3');
  });

  it('a StatefulSet of 2 with a claim template gets its PVCs and its pods db-0 and db-1', async () => {
    await ok(['create', '-f', '-'], statefulSetYaml);
    assert.match(
      await ok(['rollout', 'status', 'statefulset/db', '--timeout=30s']),
      /partitioned roll out complete: 2 new pods have been updated|roll out complete/,
    );
    assert.equal(
      await ok(['get', 'pvc', '-l', 'app=db', '-o', 'name']),
      'persistentvolumeclaim/data-db-0\npersistentvolumeclaim/data-db-1\n',
    );
    assert.equal(await ok(['get', 'pods', '-l', 'app=db', '-o', 'name']), 'pod/db-0\npod/db-1\n');
    const claim = await ok([
      'get',
      'pod',
      'db-1',
      '-o',
      'jsonpath={.spec.volumes[?(@.name=="data")].persistentVolumeClaim.claimName}',
    ]);
    assert.equal(claim, 'data-db-1');
    // Ordered: the controller made db-1 only after db-0 was Ready, so its events come in that order.
    const events = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=db',
      '--sort-by=.metadata.resourceVersion',
      '-o',
      'jsonpath={range .items[*]}{.message}{"\\n"}{end}',
    ]);
    const created = events.split('\n').filter((l) => l.startsWith('create Pod'));
    assert.deepEqual(created, [
      'create Pod db-0 in StatefulSet db successful',
      'create Pod db-1 in StatefulSet db successful',
    ]);
  });

  it('a CronJob runs on schedule once the server clock reaches it', async () => {
    await ok(['create', '-f', '-'], cronJobYaml);
    await until(['get', 'cronjob', 'tick', '-o', 'jsonpath={.metadata.uid}'], (out) => out !== '');
    assert.equal(await ok(['get', 'jobs', '-o', 'name']), '');
    const now = server.clock.now();
    const due = Math.floor(now / 300_000) * 300_000 + 300_000;
    await server.clock.advance(due - now + 1000);
    const job = `tick-${String(due / 60_000)}`;
    await until(['get', 'jobs', '-o', 'name'], (out) => out === `job.batch/${job}\n`);
    assert.equal(
      await ok(['wait', '--for=condition=complete', `job/${job}`, '--timeout=30s']),
      `job.batch/${job} condition met\n`,
    );
    await until(
      ['get', 'cronjob', 'tick', '-o', 'jsonpath={.status.lastSuccessfulTime}'],
      (out) => out !== '',
    );
  });

  it('a suspended Job runs nothing until resumed; a FailJob rule of a podFailurePolicy fails a Job at once', async () => {
    await ok(['create', '-f', '-'], jobsYaml);
    await ok(['wait', '--for=condition=suspended', 'job/held', '--timeout=30s']);
    assert.match(await ok(['get', 'job', 'held', '--no-headers']), /^held\s+Suspended\s+0\/1\s/);
    assert.equal(await ok(['get', 'pods', '-l', 'batch.kubernetes.io/job-name=held', '-o', 'name']), '');
    await ok(['patch', 'job', 'held', '--type=merge', '-p', '{"spec":{"suspend":false}}']);
    await ok(['wait', '--for=condition=complete', 'job/held', '--timeout=30s']);
    const reasons = await until(
      ['get', 'events', '--field-selector', 'involvedObject.name=held', '-o', 'jsonpath={.items[*].reason}'],
      (out) => out.includes('Completed'),
    );
    assert.deepEqual(
      reasons.split(' ').filter((r) => r !== 'SuccessfulCreate'),
      ['Suspended', 'Resumed', 'Completed'],
    );

    await ok(['wait', '--for=condition=failed', 'job/fatal', '--timeout=30s']);
    const failed = 'jsonpath={.status.conditions[?(@.type=="Failed")].reason} {.status.failed}';
    assert.equal(await ok(['get', 'job', 'fatal', '-o', failed]), 'PodFailurePolicy 1');
    assert.match(
      await ok(['describe', 'job', 'fatal']),
      /Warning\s+PodFailurePolicy\s+.*job-controller\s+Container c for pod default\/fatal-\w{5} failed with exit code 3 matching FailJob rule at index 0/,
    );
  });

  it('kubectl drain evicts a node’s pods only as far as the PodDisruptionBudget allows', async () => {
    const [pod = '', node = ''] = (
      await ok([
        'get',
        'pods',
        '-l',
        'app=web',
        '-o',
        'jsonpath={.items[0].metadata.name} {.items[0].spec.nodeName}',
      ])
    ).split(' ');
    await ok(['create', '-f', '-'], budgetYaml(3));
    await until(
      ['get', 'pdb', 'web', '-o', 'jsonpath={.status.expectedPods}/{.status.disruptionsAllowed}'],
      (o) => o === '3/0',
    );
    // drain evicts through pods/eviction, which refuses while the budget allows no disruption (kubectl
    // drain would retry it every 5s until its timeout).
    const refused = await kubectl(
      ['create', '--raw', `/api/v1/namespaces/default/pods/${pod}/eviction`, '-f', '-'],
      JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod } }),
    );
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
    await ok(['apply', '-f', '-'], budgetYaml(2));
    await until(['get', 'pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}'], (o) => o === '1');
    const drained = await ok(['drain', node, '--ignore-daemonsets', '--grace-period=0', '--timeout=20s']);
    assert.match(drained, new RegExp(`node/${node} drained`));
    assert.match(drained, /pod\/web-[a-z0-9]+-[a-z0-9]{5} evicted/);
    // The Deployment's replacement runs elsewhere; the budget is whole again.
    await until(['get', 'deployment', 'web', '-o', 'jsonpath={.status.readyReplicas}'], (o) => o === '3');
    const nodes = await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].spec.nodeName}']);
    assert.ok(!nodes.split(' ').includes(node), nodes);
  });

  it('kubectl autoscale: the HPA controller brings a Deployment up to --min and reports the missing metrics API', async () => {
    await ok(['create', 'deployment', 'scaled', '--image=nginx']);
    await ok(['autoscale', 'deployment', 'scaled', '--min=3', '--max=5', '--cpu-percent=50']);
    /** Moves the clock a sync period (15 s) at a time until `holds`: the HPA syncs on the server's clock. */
    const syncUntil = async (args: readonly string[], holds: (out: string) => boolean): Promise<string> => {
      let out = '';
      for (let i = 0; i < 10; i++) {
        await server.clock.advance(15_000);
        out = await ok(args);
        if (holds(out)) return out;
      }
      assert.fail(`kubectl ${args.join(' ')}: ${out}`);
    };
    await syncUntil(['get', 'deployment', 'scaled', '-o', 'jsonpath={.spec.replicas}'], (o) => o === '3');
    const active = 'jsonpath={.status.conditions[?(@.type=="ScalingActive")].reason}';
    await syncUntil(['get', 'hpa', 'scaled', '-o', active], (o) => o === 'FailedGetResourceMetric');
    const row = await ok(['get', 'hpa', 'scaled', '--no-headers']);
    assert.match(row, /^scaled\s+Deployment\/scaled\s+cpu: <unknown>\/50%\s+3\s+5\s+3\s/);
    const described = await ok(['describe', 'hpa', 'scaled']);
    assert.match(
      described,
      /AbleToScale\s+True\s+SucceededGetScale\s+the HPA controller was able to get the target's current scale/,
    );
    assert.match(
      described,
      /ScalingActive\s+False\s+FailedGetResourceMetric\s+the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource \(get pods\.metrics\.k8s\.io\)/,
    );
    assert.match(
      described,
      /Normal\s+SuccessfulRescale\s+.*horizontal-pod-autoscaler\s+New size: 3; reason: Current number of replicas below Spec\.MinReplicas/,
    );
    assert.match(
      described,
      /Warning\s+FailedComputeMetricsReplicas\s+.*horizontal-pod-autoscaler\s+invalid metrics/,
    );
  });
});
