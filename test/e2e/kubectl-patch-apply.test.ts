// Real kubectl against a Capstan process: client-side and server-side apply and the handover from
// one to the other, the three patch types, prune, diff and strict validation on ConfigMaps, and
// `kubectl set image|env` on a bare pod.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

const cm = (name: string, data: Record<string, string>, labels: Record<string, string> = {}): string =>
  [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${name}`,
    '  namespace: default',
    ...(Object.keys(labels).length === 0
      ? []
      : ['  labels:', ...Object.entries(labels).map(([k, v]) => `    ${k}: ${v}`)]),
    'data:',
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
    '',
  ].join('\n');

interface ConfigMap {
  metadata: {
    annotations?: Record<string, string>;
    managedFields?: { manager: string; operation: string; fieldsV1?: unknown }[];
  };
  data?: Record<string, string>;
}

describe('kubectl against capstan: patch and apply', () => {
  let capstan: CapstanProcess;
  const kubectl = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath, ...(input === undefined ? {} : { input }) });
  const ok = (r: KubectlResult): KubectlResult => {
    assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
    return r;
  };
  const getCM = async (name: string): Promise<ConfigMap> =>
    JSON.parse(
      ok(await kubectl(['get', 'configmap', name, '-n', 'default', '-o', 'json', '--show-managed-fields']))
        .stdout,
    ) as ConfigMap;

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });
  after(async () => {
    await capstan.stop();
  });

  it('apply -f twice with a change keeps the last-applied annotation', async () => {
    ok(await kubectl(['apply', '-f', '-'], cm('csa', { a: '1', b: '2' })));
    const second = ok(await kubectl(['apply', '-f', '-'], cm('csa', { a: '1', c: '3' })));
    assert.match(second.stdout, /configmap\/csa configured/);
    const got = await getCM('csa');
    assert.deepEqual(got.data, { a: '1', c: '3' });
    const last = JSON.parse(
      got.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}',
    ) as ConfigMap;
    assert.deepEqual(last.data, { a: '1', c: '3' });
    assert.match(
      ok(await kubectl(['apply', '-f', '-'], cm('csa', { a: '1', c: '3' }))).stdout,
      /configmap\/csa unchanged/,
    );
  });

  it('apply --server-side from two managers: conflict, then --force-conflicts', async () => {
    ok(await kubectl(['apply', '--server-side', '--field-manager=alpha', '-f', '-'], cm('ssa', { x: '1' })));
    const clash = await kubectl(
      ['apply', '--server-side', '--field-manager=beta', '-f', '-'],
      cm('ssa', { x: '2' }),
    );
    assert.notEqual(clash.code, 0);
    assert.match(clash.stderr, /Apply failed with 1 conflict: conflict with "alpha": \.data\.x/);
    ok(
      await kubectl(
        ['apply', '--server-side', '--field-manager=beta', '--force-conflicts', '-f', '-'],
        cm('ssa', { x: '2' }),
      ),
    );
    const got = await getCM('ssa');
    assert.deepEqual(got.data, { x: '2' });
    assert.deepEqual(
      got.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`),
      ['beta/Apply'],
    );
  });

  it('patch --type=strategic|merge|json', async () => {
    ok(await kubectl(['create', '-f', '-'], cm('patched', { a: '1' })));
    ok(await kubectl(['patch', 'configmap', 'patched', '-n', 'default', '-p', '{"data":{"b":"2"}}']));
    ok(
      await kubectl([
        'patch',
        'configmap',
        'patched',
        '-n',
        'default',
        '--type=merge',
        '-p',
        '{"data":{"a":null}}',
      ]),
    );
    ok(
      await kubectl([
        'patch',
        'configmap',
        'patched',
        '-n',
        'default',
        '--type=json',
        '-p',
        '[{"op":"add","path":"/data/c","value":"3"}]',
      ]),
    );
    assert.deepEqual((await getCM('patched')).data, { b: '2', c: '3' });
  });

  it('apply --prune -l removes what left the set', async () => {
    const both =
      cm('p1', { a: '1' }, { group: 'pruned' }) + '---\n' + cm('p2', { a: '2' }, { group: 'pruned' });
    ok(
      await kubectl(
        ['apply', '--prune', '-l', 'group=pruned', '--prune-allowlist=core/v1/ConfigMap', '-f', '-'],
        both,
      ),
    );
    const out = ok(
      await kubectl(
        ['apply', '--prune', '-l', 'group=pruned', '--prune-allowlist=core/v1/ConfigMap', '-f', '-'],
        cm('p1', { a: '1' }, { group: 'pruned' }),
      ),
    );
    assert.match(out.stdout, /configmap\/p2 pruned/);
    assert.notEqual((await kubectl(['get', 'configmap', 'p2', '-n', 'default'])).code, 0);
  });

  it('diff exits 1 with a change and 0 without', async () => {
    ok(await kubectl(['apply', '-f', '-'], cm('diffed', { a: '1' })));
    assert.equal((await kubectl(['diff', '-f', '-'], cm('diffed', { a: '1' }))).code, 0);
    const changed = await kubectl(['diff', '-f', '-'], cm('diffed', { a: '2' }));
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /\+ {2}a: "2"/);
  });

  it('create -f with an unknown field fails under the default --validate=strict', async () => {
    const r = await kubectl(['create', '-f', '-'], `${cm('strict', { a: '1' })}bogus: true\n`);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /unknown field "bogus"/);
  });

  it('set image on a bare pod changes the image; set env fails as pod specs are immutable', async () => {
    ok(await kubectl(['run', 'setter', '-n', 'default', '--image=img:1']));
    const image = ok(await kubectl(['set', 'image', 'pod/setter', '-n', 'default', 'setter=img:2']));
    assert.match(image.stdout, /pod\/setter image updated/);
    const pod = JSON.parse(
      ok(await kubectl(['get', 'pod', 'setter', '-n', 'default', '-o', 'json'])).stdout,
    ) as {
      spec: { containers: { image: string; env?: unknown }[] };
    };
    assert.equal(pod.spec.containers[0]?.image, 'img:2');

    const env = await kubectl(['set', 'env', 'pod/setter', '-n', 'default', 'FOO=bar']);
    assert.equal(env.code, 1, env.stdout);
    assert.ok(
      env.stderr.startsWith(
        'error: failed to patch env update to pod template: Pod "setter" is invalid: spec: Forbidden: ' +
          'pod updates may not change fields other than `spec.containers[*].image`,' +
          '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
          '`spec.tolerations` (only additions to existing tolerations),' +
          '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      ),
      env.stderr,
    );
    const after = JSON.parse(
      ok(await kubectl(['get', 'pod', 'setter', '-n', 'default', '-o', 'json'])).stdout,
    ) as {
      spec: { containers: { env?: unknown }[] };
    };
    assert.equal(after.spec.containers[0]?.env, undefined);
  });

  it('client-side apply, then apply --server-side: kubectl takes its fields over without a conflict', async () => {
    ok(await kubectl(['apply', '-f', '-'], cm('handover', { a: '1', b: '2' })));
    const before = await getCM('handover');
    assert.deepEqual(
      before.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`),
      ['kubectl-client-side-apply/Update'],
    );
    // b changes: a conflict with kubectl-client-side-apply, which the server forgives because the
    // last-applied annotation shows b=2 came from kubectl's own earlier apply.
    const ssa = ok(await kubectl(['apply', '--server-side', '-f', '-'], cm('handover', { a: '1', b: '3' })));
    assert.match(ssa.stdout, /configmap\/handover serverside-applied/);
    const got = await getCM('handover');
    assert.deepEqual(got.data, { a: '1', b: '3' });
    // kubectl moved the client-side manager's fields to its Apply entry (csaupgrade) and keeps the
    // annotation under kubectl-last-applied, which the server updated to the applied configuration.
    assert.deepEqual(got.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`).sort(), [
      'kubectl-last-applied/Apply',
      'kubectl/Apply',
    ]);
    assert.deepEqual(got.metadata.managedFields.find((m) => m.manager === 'kubectl')?.fieldsV1, {
      'f:data': { 'f:a': {}, 'f:b': {} },
    });
    const last = got.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '';
    assert.equal(
      last,
      '{"apiVersion":"v1","data":{"a":"1","b":"3"},"kind":"ConfigMap","metadata":{"name":"handover","namespace":"default"}}\n',
    );
    // Server-side apply prunes what kubectl stops applying; client-side apply still works after.
    ok(await kubectl(['apply', '--server-side', '-f', '-'], cm('handover', { a: '1' })));
    assert.deepEqual((await getCM('handover')).data, { a: '1' });
    ok(await kubectl(['apply', '-f', '-'], cm('handover', { a: '1', d: '4' })));
    assert.deepEqual((await getCM('handover')).data, { a: '1', d: '4' });
  });

  it('another field manager does not inherit the client-side apply', async () => {
    ok(await kubectl(['apply', '-f', '-'], cm('handover-other', { a: '1' })));
    const clash = await kubectl(
      ['apply', '--server-side', '--field-manager=other', '-f', '-'],
      cm('handover-other', { a: '2' }),
    );
    assert.equal(clash.code, 1);
    assert.match(
      clash.stderr,
      /Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: \.data\.a/,
    );
  });

  it('cleared managedFields: the first server-side apply meets before-first-apply', async () => {
    ok(await kubectl(['create', '-f', '-'], cm('untracked', { a: '1' })));
    ok(
      await kubectl([
        'patch',
        'configmap',
        'untracked',
        '-n',
        'default',
        '--type=json',
        '-p',
        '[{"op":"replace","path":"/metadata/managedFields","value":[{}]}]',
      ]),
    );
    ok(await kubectl(['label', 'configmap', 'untracked', '-n', 'default', 'x=y']));
    assert.equal((await getCM('untracked')).metadata.managedFields, undefined);
    const clash = await kubectl(
      ['apply', '--server-side', '--field-manager=ssa', '-f', '-'],
      cm('untracked', { a: '2' }),
    );
    assert.equal(clash.code, 1);
    assert.match(
      clash.stderr,
      /Apply failed with 1 conflict: conflict with "before-first-apply" using v1: \.data\.a/,
    );
    ok(
      await kubectl(
        ['apply', '--server-side', '--field-manager=ssa', '--force-conflicts', '-f', '-'],
        cm('untracked', { a: '2' }),
      ),
    );
    const got = await getCM('untracked');
    assert.deepEqual(got.data, { a: '2' });
    assert.deepEqual(
      got.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`),
      ['ssa/Apply', 'before-first-apply/Update'],
    );
  });

  it('kubectl scale takes spec.replicas from the applier: the next apply --server-side conflicts', async () => {
    const deployment = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: scaled, namespace: default}',
      'spec:',
      '  replicas: 2',
      '  selector: {matchLabels: {app: scaled}}',
      '  template:',
      '    metadata: {labels: {app: scaled}}',
      '    spec: {containers: [{name: c, image: nginx}]}',
      '',
    ].join('\n');
    ok(await kubectl(['apply', '--server-side', '-f', '-'], deployment));
    ok(await kubectl(['scale', 'deployment/scaled', '-n', 'default', '--replicas=4']));
    const clash = await kubectl(['apply', '--server-side', '-f', '-'], deployment);
    assert.equal(clash.code, 1);
    assert.match(
      clash.stderr,
      /Apply failed with 1 conflict: conflict with "kubectl[^"]*" with subresource "scale" using apps\/v1: \.spec\.replicas/,
    );
    const got = JSON.parse(
      ok(
        await kubectl([
          'get',
          'deployment',
          'scaled',
          '-n',
          'default',
          '-o',
          'json',
          '--show-managed-fields',
        ]),
      ).stdout,
    ) as ConfigMap & { spec: { replicas: number } };
    assert.equal(got.spec.replicas, 4);
    const scaleEntry = got.metadata.managedFields?.find(
      (m) => (m as { subresource?: string }).subresource === 'scale',
    );
    assert.deepEqual(scaleEntry?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });
});
