// Real kubectl against a Capstan process: client-side and server-side apply, the three patch
// types, prune, diff and strict validation, all on ConfigMaps (the kinds Capstan serves today).
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
    managedFields?: { manager: string; operation: string }[];
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
});
