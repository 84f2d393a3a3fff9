// The real kubectl against one Capstan process: ValidatingAdmissionPolicy is enforced as kube-apiserver
// enforces it. A policy whose limit comes from a param ConfigMap refuses a Deployment over it with
// kube's text, Warn bindings add kube's Warning, Audit bindings neither deny nor warn (their
// annotations have no audit log to go to yet), and a mistyped expression is reported in the
// policy's status and fails requests under failurePolicy Fail. Expressions may use CEL's optional
// types. Each case's binding selects its own
// namespace; the plugin reads policies through a watch, so each case first waits, with a server-side
// dry run, until its binding takes effect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

const deploymentRule = {
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  operations: ['CREATE', 'UPDATE'],
  resources: ['deployments'],
};

const inNamespace = (ns: string): Record<string, unknown> => ({
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
});

function deployment(name: string, ns: string, replicas: number): Record<string, unknown> {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

describe('kubectl against capstan: ValidatingAdmissionPolicy', () => {
  let capstan: CapstanProcess;
  const kubectl = (args: readonly string[], input?: unknown): Promise<KubectlResult> =>
    runKubectl(args, {
      kubeconfig: capstan.kubeconfigPath,
      ...(input === undefined ? {} : { input: JSON.stringify(input) }),
    });
  const ok = async (args: readonly string[], input?: unknown): Promise<string> => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  /** Retries `attempt` (a dry run) until `done` holds for its result, for at most 10 s. */
  const until = async (
    attempt: () => Promise<KubectlResult>,
    done: (r: KubectlResult) => boolean,
  ): Promise<void> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await attempt();
      if (done(r)) return;
      assert.ok(Date.now() < deadline, `condition not reached; last: ${r.code} ${r.stdout} ${r.stderr}`);
    }
  };
  const policy = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec,
  });
  const binding = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec,
  });

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess({ port: await freePort(), args: ['--storage-backend=memory'] });
    const namespaces = [
      'vap-limit',
      'vap-warn',
      'vap-audit',
      'vap-broken',
      'vap-optional',
      'vap-variables',
      'vap-exec',
    ].map((name) => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    }));
    const limit = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'replica-limit', namespace: 'vap-limit' },
      data: { maxReplicas: '3' },
    };
    // One kubectl call for every object the cases need; each binding selects its case's namespace.
    const items = [
      ...namespaces,
      limit,
      policy('replica-limit', {
        failurePolicy: 'Fail',
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [deploymentRule] },
        validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)' }],
      }),
      binding('replica-limit-binding', {
        policyName: 'replica-limit',
        validationActions: ['Deny'],
        paramRef: { name: 'replica-limit', namespace: 'vap-limit', parameterNotFoundAction: 'Deny' },
        matchResources: inNamespace('vap-limit'),
      }),
      policy('configmap-owner', {
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        validations: [
          {
            expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels",
            message: 'a ConfigMap names its owner',
          },
        ],
      }),
      // Written before the Warn binding: once the Warn binding acts, the plugin has this one too.
      binding('configmap-owner-audit', {
        policyName: 'configmap-owner',
        validationActions: ['Audit'],
        matchResources: inNamespace('vap-audit'),
      }),
      binding('configmap-owner-warn', {
        policyName: 'configmap-owner',
        validationActions: ['Warn'],
        matchResources: inNamespace('vap-warn'),
      }),
      policy('mistyped', {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [deploymentRule] },
        validations: [{ expression: 'object.spec.replica > 1' }],
      }),
      // CEL's optional types, which kube 1.33's policies may use.
      policy('no-root', {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [deploymentRule] },
        validations: [
          {
            expression:
              'object.spec.template.spec.containers.all(c, c.?securityContext.?runAsUser.orValue(1) != 0)',
            message: 'containers must not run as UID 0',
          },
        ],
      }),
      binding('no-root-binding', {
        policyName: 'no-root',
        validationActions: ['Deny'],
        matchResources: inNamespace('vap-optional'),
      }),
      // A variable read only where the annotation it converts is there, as kube evaluates it.
      policy('annotated-limit', {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [deploymentRule] },
        variables: [{ name: 'limit', expression: "int(object.metadata.annotations['max-replicas'])" }],
        validations: [
          {
            expression:
              "!has(object.metadata.annotations) || !('max-replicas' in object.metadata.annotations) || object.spec.replicas <= variables.limit",
            messageExpression: "'at most ' + string(variables.limit) + ' replicas'",
          },
        ],
      }),
      binding('annotated-limit-binding', {
        policyName: 'annotated-limit',
        validationActions: ['Deny'],
        matchResources: inNamespace('vap-variables'),
      }),
      // kubectl exec is admitted as CONNECT, its PodExecOptions the object.
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'shell', namespace: 'vap-exec' },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      },
      policy('no-rm-exec', {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CONNECT'], resources: ['pods/exec'] },
          ],
        },
        validations: [{ expression: "!object.command.exists(c, c == 'rm')", message: 'no rm through exec' }],
      }),
      binding('no-rm-exec-binding', {
        policyName: 'no-rm-exec',
        validationActions: ['Deny'],
        matchResources: inNamespace('vap-exec'),
      }),
      binding('mistyped-binding', {
        policyName: 'mistyped',
        validationActions: ['Deny'],
        matchResources: inNamespace('vap-broken'),
      }),
    ];
    await ok(['create', '-f', '-'], { apiVersion: 'v1', kind: 'List', items });
  });

  after(async () => {
    await capstan.stop();
  });

  it('refuses a Deployment over the replica limit of its param ConfigMap with kube’s text', async () => {
    const over = deployment('web', 'vap-limit', 5);
    await until(
      () => kubectl(['create', '--dry-run=server', '-f', '-'], over),
      (r) => r.code !== 0,
    );
    const r = await kubectl(['create', '-f', '-'], over);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      'The deployments "web" is invalid: : ValidatingAdmissionPolicy \'replica-limit\' with binding ' +
        "'replica-limit-binding' denied request: failed expression: object.spec.replicas <= int(params.data.maxReplicas)\n",
    );
    assert.equal(
      await ok(['create', '-f', '-'], deployment('web', 'vap-limit', 3)),
      'deployment.apps/web created\n',
    );
    // Raising spec.replicas past the limit is an UPDATE the policy refuses too (the scale
    // subresource is another resource, which the rule does not name, as in kube).
    const patch = await kubectl([
      'patch',
      'deployment',
      'web',
      '-n',
      'vap-limit',
      '-p',
      '{"spec":{"replicas":4}}',
    ]);
    assert.equal(patch.code, 1, patch.stdout);
    assert.match(
      patch.stderr,
      /^The deployments "web" is invalid: : ValidatingAdmissionPolicy 'replica-limit' .* denied request: failed expression: /,
    );
  });

  it('evaluates expressions written with CEL optional types', async () => {
    const asRoot = deployment('root', 'vap-optional', 1);
    const spec = (asRoot['spec'] as { template: { spec: { containers: Record<string, unknown>[] } } })
      .template.spec;
    spec.containers = [{ name: 'c', image: 'nginx', securityContext: { runAsUser: 0 } }];
    await until(
      () => kubectl(['create', '--dry-run=server', '-f', '-'], asRoot),
      (r) => r.code !== 0,
    );
    const r = await kubectl(['create', '-f', '-'], asRoot);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      'The deployments "root" is invalid: : ValidatingAdmissionPolicy \'no-root\' with binding ' +
        "'no-root-binding' denied request: containers must not run as UID 0\n",
    );
    // No securityContext at all: the optional chain is none, and the default applies.
    assert.equal(
      await ok(['create', '-f', '-'], deployment('plain', 'vap-optional', 1)),
      'deployment.apps/plain created\n',
    );
  });

  it('evaluates a variable where an expression reads it, with kube’s error when it fails', async () => {
    const annotated = (name: string, replicas: number, max: string): Record<string, unknown> => {
      const d = deployment(name, 'vap-variables', replicas);
      return { ...d, metadata: { ...(d['metadata'] as object), annotations: { 'max-replicas': max } } };
    };
    await until(
      () => kubectl(['create', '--dry-run=server', '-f', '-'], annotated('probe', 3, '2')),
      (r) => r.code !== 0,
    );
    const over = await kubectl(['create', '-f', '-'], annotated('over', 3, '2'));
    assert.equal(over.code, 1, over.stdout);
    assert.equal(
      over.stderr,
      'The deployments "over" is invalid: : ValidatingAdmissionPolicy \'annotated-limit\' with binding ' +
        "'annotated-limit-binding' denied request: at most 2 replicas\n",
    );
    // Without the annotation nothing reads the variable, which would fail.
    assert.equal(
      await ok(['create', '-f', '-'], deployment('free', 'vap-variables', 5)),
      'deployment.apps/free created\n',
    );
    const bad = await kubectl(['create', '-f', '-'], annotated('bad', 1, 'two'));
    assert.equal(bad.code, 1, bad.stdout);
    assert.match(
      bad.stderr,
      /denied request: expression '.*' resulted in error: composited variable "limit" fails to evaluate: /,
    );
  });

  it('Warn adds kube’s Warning and admits; Audit neither warns nor denies', async () => {
    const warning =
      "Warning: Validation failed for ValidatingAdmissionPolicy 'configmap-owner' with binding 'configmap-owner-warn': a ConfigMap names its owner\n";
    await until(
      () => kubectl(['create', 'configmap', 'probe', '-n', 'vap-warn', '--dry-run=server']),
      (r) => r.stderr === warning,
    );
    const r = await kubectl(['create', 'configmap', 'unowned', '-n', 'vap-warn']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/unowned created\n');
    assert.equal(r.stderr, warning);
    const owned = await kubectl(['create', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owned', namespace: 'vap-warn', labels: { owner: 'me' } },
    });
    assert.deepEqual([owned.code, owned.stderr], [0, '']);

    const audited = await kubectl(['create', 'configmap', 'unowned', '-n', 'vap-audit']);
    assert.deepEqual([audited.code, audited.stdout, audited.stderr], [0, 'configmap/unowned created\n', '']);
  });

  it('refuses a policy whose expression does not compile, as kube’s validation does', async () => {
    const r = await kubectl(
      ['create', '-f', '-'],
      policy('undeclared', {
        matchConstraints: { resourceRules: [deploymentRule] },
        validations: [{ expression: 'foo.bar' }],
      }),
    );
    assert.equal(r.code, 1, r.stdout);
    assert.equal(
      r.stderr,
      'The ValidatingAdmissionPolicy "undeclared" is invalid: spec.validations[0].expression: Invalid value: ' +
        "\"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar\n | ^\n",
    );
  });

  it('reports a mistyped expression in the policy status, and fails requests under failurePolicy Fail', async () => {
    await until(
      () =>
        kubectl([
          'get',
          'validatingadmissionpolicy',
          'mistyped',
          '-o',
          'jsonpath={.status.observedGeneration}',
        ]),
      (r) => r.stdout === '1',
    );
    const status = JSON.parse(
      await ok(['get', 'validatingadmissionpolicy', 'mistyped', '-o', 'jsonpath={.status}']),
    ) as Record<string, unknown>;
    assert.deepEqual(status, {
      observedGeneration: 1,
      typeChecking: {
        expressionWarnings: [
          {
            fieldRef: 'spec.validations[0].expression',
            warning:
              "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1\n | ...........^\n",
          },
        ],
      },
    });
    const d = deployment('api', 'vap-broken', 1);
    await until(
      () => kubectl(['create', '--dry-run=server', '-f', '-'], d),
      (r) => r.code !== 0,
    );
    const r = await kubectl(['create', '-f', '-'], d);
    assert.equal(
      r.stderr,
      'The deployments "api" is invalid: : ValidatingAdmissionPolicy \'mistyped\' with binding ' +
        "'mistyped-binding' denied request: expression 'object.spec.replica > 1' resulted in error: no such key: replica\n",
    );
  });

  it('refuses kubectl exec by its command, as CONNECT admission of pods/exec', async () => {
    const exec = (command: readonly string[]): Promise<KubectlResult> =>
      kubectl(['exec', 'shell', '-n', 'vap-exec', '--', ...command]);
    await until(
      () => exec(['rm', '-rf', '/tmp/x']),
      (r) => r.stderr.includes('denied request'),
    );
    const denied = await exec(['rm', '-rf', '/tmp/x']);
    assert.equal(denied.code, 1);
    assert.match(
      denied.stderr,
      /ValidatingAdmissionPolicy 'no-rm-exec' with binding 'no-rm-exec-binding' denied request: no rm through exec/,
    );
    // Admitted, the exec goes on to the pod, which no kubelet runs.
    const admitted = await exec(['ls']);
    assert.equal(admitted.code, 1);
    assert.match(admitted.stderr, /pod shell does not have a host assigned/);
  });
});
