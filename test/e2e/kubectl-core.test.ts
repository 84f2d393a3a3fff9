// The real kubectl against one Capstan process: configmaps and secrets through create, get (tables,
// yaml, json, selectors, -A, -w), describe, edit, patch, label, annotate, apply, delete, wait,
// discovery, explain, dry-run and raw paths, with kube's exit codes and texts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { spawnKubectl } from './support/kubectl-stream.js';
import { base64, configMap, isAge, namespace, secret, tableRows } from './support/kube-objects.js';

interface Fetched {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
    readonly creationTimestamp?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly type?: string;
  readonly data?: Record<string, string>;
  readonly stringData?: Record<string, string>;
}

const [nsA, nsB] = ['e2e-a', 'e2e-b'] as const;

describe('kubectl against capstan: configmaps and secrets', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const { kubectl, ok, fails } = kubectlSession(() => capstan.kubeconfigPath);
  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const getJson = async (resource: string, name: string, ns: string): Promise<Fetched> =>
    JSON.parse(await ok(['get', resource, name, '-n', ns, '-o', 'json'])) as Fetched;
  const names = async (args: readonly string[]): Promise<string[]> =>
    (await ok([...args, '-o', 'name'])).split('\n').filter((l) => l !== '');

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
    dir = await mkdtemp(join(tmpdir(), 'capstan-kubectl-'));
    for (const ns of [nsA, nsB]) {
      assert.equal(
        await ok(['create', '-f', '-'], JSON.stringify(namespace(ns))),
        `namespace/${ns} created\n`,
      );
    }
  });

  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports Kubernetes 1.33, trusting the CA in the kubeconfig', async () => {
    const { serverVersion } = JSON.parse(await ok(['version', '-o', 'json'])) as {
      serverVersion: Record<string, string>;
    };
    assert.equal(serverVersion['major'], '1');
    assert.equal(serverVersion['minor'], '33');
    assert.match(serverVersion['gitVersion'] ?? '', /^v1\.33\.0\+capstan/);
  });

  it('lists the system namespaces', async () => {
    const all = await names(['get', 'namespaces']);
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system', nsA, nsB]) {
      assert.ok(all.includes(`namespace/${ns}`), `${ns} in ${all.join(' ')}`);
    }
  });

  it('create -f takes a JSON file, a YAML file, stdin and a multi-document YAML', async () => {
    const alpha = configMap(
      { name: 'alpha', namespace: nsA, labels: { tier: 'web' } },
      { a: 'one', b: 'two' },
    );
    assert.equal(
      await ok(['create', '-f', await file('alpha.json', JSON.stringify(alpha))]),
      'configmap/alpha created\n',
    );
    const creds = secret(
      { name: 'creds', namespace: nsA, labels: { tier: 'db' } },
      { type: 'Opaque', data: { pass: base64('pass') }, stringData: { user: 'admin' } },
    );
    assert.equal(
      await ok(['create', '-f', await file('creds.yaml', toYaml(creds))]),
      'secret/creds created\n',
    );
    const beta = configMap({ name: 'beta', namespace: nsA, labels: { tier: 'batch' } }, { x: 'ex' });
    assert.equal(await ok(['create', '-f', '-'], toYaml(beta)), 'configmap/beta created\n');
    const two = [
      configMap({ name: 'gamma', namespace: nsB }, { g: '1' }),
      secret(
        { name: 'login', namespace: nsB },
        { type: 'kubernetes.io/basic-auth', stringData: { username: 'u' } },
      ),
    ];
    assert.equal(
      await ok(['create', '-f', await file('two.yaml', two.map((o) => toYaml(o)).join('---\n'))]),
      'configmap/gamma created\nsecret/login created\n',
    );
  });

  it('get prints the default columns kube prints for configmaps and secrets', async () => {
    const [cms, secrets, login, one] = await Promise.all([
      ok(['get', 'configmaps', '-n', nsA]).then(tableRows),
      ok(['get', 'secrets', '-n', nsA]).then(tableRows),
      ok(['get', 'secret', 'login', '-n', nsB]).then(tableRows),
      names(['get', 'cm', 'alpha', '-n', nsA]),
    ]);
    const ages = [cms, secrets, login].flatMap((table) => table.slice(1).map((row) => row.pop()));
    // kube-root-ca.crt is published into every namespace, as kube-controller-manager does.
    assert.deepEqual(cms, [
      ['NAME', 'DATA', 'AGE'],
      ['alpha', '2'],
      ['beta', '1'],
      ['kube-root-ca.crt', '1'],
    ]);
    assert.deepEqual(secrets, [
      ['NAME', 'TYPE', 'DATA', 'AGE'],
      ['creds', 'Opaque', '2'],
    ]);
    assert.deepEqual(login, [
      ['NAME', 'TYPE', 'DATA', 'AGE'],
      ['login', 'kubernetes.io/basic-auth', '1'],
    ]);
    assert.ok(ages.every(isAge), JSON.stringify(ages));
    assert.deepEqual(one, ['configmap/alpha']);
  });

  it('-o yaml and -o json print the stored object; stringData lands in data', async () => {
    const cm = parseYaml(await ok(['get', 'cm', 'alpha', '-n', nsA, '-o', 'yaml'])) as Fetched;
    assert.equal(cm.apiVersion, 'v1');
    assert.equal(cm.kind, 'ConfigMap');
    assert.deepEqual(cm.data, { a: 'one', b: 'two' });
    assert.deepEqual(cm.metadata.labels, { tier: 'web' });
    assert.equal(cm.metadata.namespace, nsA);
    assert.match(cm.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.match(cm.metadata.resourceVersion ?? '', /^\d+$/);
    assert.ok(!Number.isNaN(Date.parse(cm.metadata.creationTimestamp ?? '')));

    const s = await getJson('secret', 'creds', nsA);
    assert.equal(s.kind, 'Secret');
    assert.equal(s.type, 'Opaque');
    assert.deepEqual(s.data, { pass: base64('pass'), user: base64('admin') });
    assert.equal(s.stringData, undefined);
  });

  it('-l and --field-selector filter on the server; bad selectors get kube texts', async () => {
    const cases: [args: string[], want: string[]][] = [
      [['cm', '-n', nsA, '-l', 'tier=web'], ['configmap/alpha']],
      [
        ['cm', '-n', nsA, '-l', 'tier in (web,batch)'],
        ['configmap/alpha', 'configmap/beta'],
      ],
      // != also selects objects without the label, as kube's selectors do.
      [
        ['cm', '-n', nsA, '-l', 'tier!=web'],
        ['configmap/beta', 'configmap/kube-root-ca.crt'],
      ],
      [['cm', '-n', nsA, '-l', '!tier'], ['configmap/kube-root-ca.crt']],
      [['cm', '-n', nsA, '--field-selector', 'metadata.name=beta'], ['configmap/beta']],
      [
        ['cm', '-n', nsA, '--field-selector', 'metadata.name!=beta'],
        ['configmap/alpha', 'configmap/kube-root-ca.crt'],
      ],
      [
        ['cm', '-A', '--field-selector', `metadata.namespace=${nsB}`],
        ['configmap/gamma', 'configmap/kube-root-ca.crt'],
      ],
      [['secrets', '-A', '--field-selector', 'type=kubernetes.io/basic-auth'], ['secret/login']],
    ];
    const got = await Promise.all(cases.map(([args]) => names(['get', ...args])));
    assert.deepEqual(
      got,
      cases.map(([, want]) => want),
    );

    const [none, badField, badLabel] = await Promise.all([
      kubectl(['get', 'cm', '-n', nsA, '-l', 'tier=none']),
      fails(['get', 'cm', '-n', nsA, '--field-selector', 'data.a=1']),
      fails(['get', 'cm', '-n', nsA, '-l', 'tier in (web']),
    ]);
    assert.deepEqual(
      [none.code, none.stdout, none.stderr],
      [0, '', `No resources found in ${nsA} namespace.\n`],
    );
    assert.equal(
      badField,
      'Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector "", ' +
        'field selector "data.a=1": "data.a" is not a known field selector: only "metadata.name", "metadata.namespace"\n',
    );
    assert.equal(
      badLabel,
      'Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector ' +
        `"tier in (web", field selector "": unable to parse requirement: found '', expected: ',' or ')'\n`,
    );
  });

  it('-A lists every namespace with a NAMESPACE column', async () => {
    const rows = tableRows(await ok(['get', 'cm', '-A']));
    assert.deepEqual(rows[0], ['NAMESPACE', 'NAME', 'DATA', 'AGE']);
    assert.deepEqual(
      rows.filter((r) => r[0]?.startsWith('e2e-')).map((r) => r.slice(0, 3)),
      [
        [nsA, 'alpha', '2'],
        [nsA, 'beta', '1'],
        [nsA, 'kube-root-ca.crt', '1'],
        [nsB, 'gamma', '1'],
        [nsB, 'kube-root-ca.crt', '1'],
      ],
    );
  });

  it('get -w --output-watch-events prints later changes', async () => {
    const watch = await spawnKubectl(['get', 'cm', '-n', nsB, '-w', '--output-watch-events'], {
      kubeconfig: capstan.kubeconfigPath,
    });
    try {
      await watch.waitForStdout(/^EVENT\s+NAME\s+DATA\s+AGE\nADDED\s+gamma\s+1\s+\S+\n/);
      await ok(['patch', 'cm', 'gamma', '-n', nsB, '--type=merge', '-p', '{"data":{"h":"2"}}']);
      await watch.waitForStdout(/\nMODIFIED\s+gamma\s+2\s+\S+\n/);
      await ok(['create', '-f', '-'], JSON.stringify(configMap({ name: 'fleeting', namespace: nsB })));
      await watch.waitForStdout(/\nADDED\s+fleeting\s+0\s+\S+\n/);
      await ok(['delete', 'cm', 'fleeting', '-n', nsB]);
      await watch.waitForStdout(/\nDELETED\s+fleeting\s+0\s+\S+\n/);
    } finally {
      await watch.stop();
    }
  });

  it('describe prints a secret and a configmap', async () => {
    // kubectl walks the data map in Go's random order: compare those lines as a set.
    const described = await ok(['describe', 'secret', 'creds', '-n', nsA]);
    const [head, data = ''] = described.split('Data\n====\n');
    assert.equal(
      head,
      `Name:         creds\nNamespace:    ${nsA}\nLabels:       tier=db\nAnnotations:  <none>\n\nType:  Opaque\n\n`,
    );
    assert.deepEqual(data.split('\n').sort(), ['', 'pass:  4 bytes', 'user:  5 bytes']);
    // Without --show-events=false kubectl also lists events, a resource of another issue.
    assert.equal(
      await ok(['describe', 'cm', 'beta', '-n', nsA, '--show-events=false']),
      `Name:         beta\nNamespace:    ${nsA}\nLabels:       tier=batch\nAnnotations:  <none>\n\n` +
        'Data\n====\nx:\n----\nex\n\n\nBinaryData\n====\n\n',
    );
  });

  it('edit goes through KUBE_EDITOR; an untouched edit changes nothing', async () => {
    const editor = await file('editor.sh', '#!/bin/sh\nsed -i \'s/^  a: one$/  a: edited/\' "$1"\n');
    await chmod(editor, 0o755);
    const r = await runKubectl(['edit', 'cm', 'alpha', '-n', nsA], {
      kubeconfig: capstan.kubeconfigPath,
      env: { KUBE_EDITOR: editor },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/alpha edited\n');
    assert.deepEqual((await getJson('cm', 'alpha', nsA)).data, { a: 'edited', b: 'two' });
    const rv = (await getJson('cm', 'alpha', nsA)).metadata.resourceVersion;
    const same = await runKubectl(['edit', 'cm', 'alpha', '-n', nsA], {
      kubeconfig: capstan.kubeconfigPath,
      env: { KUBE_EDITOR: 'true' },
    });
    assert.deepEqual([same.code, same.stderr], [0, 'Edit cancelled, no changes made.\n']);
    assert.equal((await getJson('cm', 'alpha', nsA)).metadata.resourceVersion, rv);
  });

  it('patch: --type=merge, --type=json and the default strategic merge patch', async () => {
    const patch = (...args: string[]): Promise<string> => ok(['patch', 'cm', 'alpha', '-n', nsA, ...args]);
    assert.equal(await patch('--type=merge', '-p', '{"data":{"c":"three"}}'), 'configmap/alpha patched\n');
    assert.equal(
      await patch('--type=json', '-p', '[{"op":"remove","path":"/data/b"}]'),
      'configmap/alpha patched\n',
    );
    assert.equal(await patch('-p', '{"data":{"d":"four"}}'), 'configmap/alpha patched\n');
    assert.deepEqual((await getJson('cm', 'alpha', nsA)).data, { a: 'edited', c: 'three', d: 'four' });
    assert.equal(
      await patch('--type=merge', '-p', '{"data":{"c":"three"}}'),
      'configmap/alpha patched (no change)\n',
    );
    assert.equal(
      await ok(['patch', 'secret', 'creds', '-n', nsA, '--type=merge', '-p', '{"stringData":{"extra":"x"}}']),
      'secret/creds patched\n',
    );
    assert.equal((await getJson('secret', 'creds', nsA)).data?.['extra'], base64('x'));
  });

  it('label and annotate add, overwrite and remove', async () => {
    assert.equal(await ok(['label', 'cm', 'alpha', '-n', nsA, 'env=prod']), 'configmap/alpha labeled\n');
    assert.equal(
      await fails(['label', 'cm', 'alpha', '-n', nsA, 'tier=front']),
      "error: 'tier' already has a value (web), and --overwrite is false\n",
    );
    assert.equal(
      await ok(['label', 'cm', 'alpha', '-n', nsA, 'tier=front', '--overwrite']),
      'configmap/alpha labeled\n',
    );
    assert.equal(await ok(['label', 'cm', 'alpha', '-n', nsA, 'env-']), 'configmap/alpha unlabeled\n');
    assert.equal(
      await ok(['annotate', 'cm', 'alpha', '-n', nsA, 'note=hello']),
      'configmap/alpha annotated\n',
    );
    assert.equal(
      await ok(['annotate', 'secret', 'creds', '-n', nsA, 'owner=ops']),
      'secret/creds annotated\n',
    );
    const cm = await getJson('cm', 'alpha', nsA);
    assert.deepEqual(cm.metadata.labels, { tier: 'front' });
    assert.deepEqual(cm.metadata.annotations, { note: 'hello' });
    assert.equal((await getJson('secret', 'creds', nsA)).metadata.annotations?.['owner'], 'ops');
  });

  it('apply creates, then configures, then leaves unchanged', async () => {
    const path = join(dir, 'applied.yaml');
    const write = (data: Record<string, string>): Promise<void> =>
      writeFile(path, toYaml(configMap({ name: 'applied', namespace: nsB }, data)));
    await write({ k: 'v1' });
    assert.equal(await ok(['apply', '-f', path]), 'configmap/applied created\n');
    await write({ k: 'v2' });
    assert.equal(await ok(['apply', '-f', path]), 'configmap/applied configured\n');
    assert.equal(await ok(['apply', '-f', path]), 'configmap/applied unchanged\n');
    assert.deepEqual((await getJson('cm', 'applied', nsB)).data, { k: 'v2' });
  });

  it('create --dry-run=server and delete --dry-run=server store nothing', async () => {
    const path = await file(
      'dry.json',
      JSON.stringify(configMap({ name: 'dry', namespace: nsA }, { k: 'v' })),
    );
    assert.equal(
      await ok(['create', '-f', path, '--dry-run=server']),
      'configmap/dry created (server dry run)\n',
    );
    const echoed = JSON.parse(await ok(['create', '-f', path, '--dry-run=server', '-o', 'json'])) as Fetched;
    assert.deepEqual(echoed.data, { k: 'v' });
    assert.match(echoed.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(
      await fails(['get', 'cm', 'dry', '-n', nsA]),
      'Error from server (NotFound): configmaps "dry" not found\n',
    );
    assert.equal(
      await ok(['delete', 'cm', 'beta', '-n', nsA, '--dry-run=server']),
      'configmap "beta" deleted (server dry run)\n',
    );
    assert.deepEqual(await names(['get', 'cm', 'beta', '-n', nsA]), ['configmap/beta']);
  });

  it('errors: NotFound, AlreadyExists, unknown fields under strict validation, invalid names', async () => {
    const alpha = await file(
      'alpha-again.json',
      JSON.stringify(configMap({ name: 'alpha', namespace: nsA })),
    );
    const [notFound, exists, invalid, unknownType] = await Promise.all([
      fails(['get', 'cm', 'nope', '-n', nsA]),
      fails(['create', '-f', alpha]),
      fails(['create', '-f', '-'], JSON.stringify(configMap({ name: 'Bad', namespace: nsA }))),
      fails(['get', 'widgets']),
    ]);
    assert.equal(notFound, 'Error from server (NotFound): configmaps "nope" not found\n');
    assert.equal(
      exists,
      `Error from server (AlreadyExists): error when creating "${alpha}": configmaps "alpha" already exists\n`,
    );
    assert.equal(
      invalid,
      'The ConfigMap "Bad" is invalid: metadata.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must ' +
        "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric " +
        "character (e.g. 'example.com', regex used for validation is " +
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n",
    );
    assert.equal(unknownType, `error: the server doesn't have a resource type "widgets"\n`);

    const unknown = await file(
      'unknown.yaml',
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\n  namespace: ${nsA}\ndatta:\n  a: "1"\n`,
    );
    assert.equal(
      await fails(['create', '-f', unknown]),
      `Error from server (BadRequest): error when creating "${unknown}": ConfigMap in version "v1" cannot be ` +
        'handled as a ConfigMap: strict decoding error: unknown field "datta"\n',
    );
    await fails(['get', 'cm', 'typo', '-n', nsA]);
    const warned = await kubectl(['create', '-f', unknown, '--validate=warn']);
    assert.deepEqual(
      [warned.code, warned.stdout, warned.stderr],
      [0, 'configmap/typo created\n', 'Warning: unknown field "datta"\n'],
    );
  });

  it('wait --for=delete returns 0 once the object is deleted', async () => {
    await ok(['create', '-f', '-'], JSON.stringify(configMap({ name: 'doomed', namespace: nsB })));
    const wait = await spawnKubectl(
      ['wait', '--for=delete', 'cm/doomed', '-n', nsB, '--timeout=30s', '-v=6'],
      {
        kubeconfig: capstan.kubeconfigPath,
      },
    );
    try {
      await wait.waitForStderr(/fieldSelector=metadata\.name%3Ddoomed.*watch=true/);
      assert.equal(await ok(['delete', 'cm', 'doomed', '-n', nsB]), 'configmap "doomed" deleted\n');
      const r = await wait.exited;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'configmap/doomed condition met\n');
    } finally {
      await wait.stop();
    }
  });

  it('delete by name, by label and --all', async () => {
    assert.equal(await ok(['delete', 'secret', 'creds', '-n', nsA]), 'secret "creds" deleted\n');
    for (const n of ['w1', 'w2']) {
      await ok(
        ['create', '-f', '-'],
        JSON.stringify(configMap({ name: n, namespace: nsB, labels: { tier: 'batch' } })),
      );
    }
    assert.equal(
      await ok(['delete', 'cm', '-n', nsB, '-l', 'tier=batch']),
      'configmap "w1" deleted\nconfigmap "w2" deleted\n',
    );
    assert.equal(
      await ok(['delete', 'cm', '--all', '-n', nsA]),
      'configmap "alpha" deleted\nconfigmap "beta" deleted\nconfigmap "kube-root-ca.crt" deleted\nconfigmap "typo" deleted\n',
    );
    // The publisher puts kube-root-ca.crt back at once; nothing else is left.
    const empty = await kubectl(['get', 'cm', '-n', nsA, '-l', 'tier']);
    assert.deepEqual(
      [empty.code, empty.stdout, empty.stderr],
      [0, '', `No resources found in ${nsA} namespace.\n`],
    );
    assert.equal(
      await fails(['delete', 'cm', 'nope', '-n', nsA]),
      'Error from server (NotFound): configmaps "nope" not found\n',
    );
  });

  it('api-resources, api-versions and explain describe the core group', async () => {
    const [resources, clusterScoped, versions, explained, fields] = await Promise.all([
      ok(['api-resources']).then(tableRows),
      ok(['api-resources', '--namespaced=false', '-o', 'name']),
      ok(['api-versions']),
      ok(['explain', 'configmap.data']),
      ok(['explain', 'secret']),
    ]);
    assert.deepEqual(resources[0], ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    assert.deepEqual(
      resources.filter((r) => ['configmaps', 'namespaces', 'secrets'].includes(r[0] ?? '')),
      [
        ['configmaps', 'cm', 'v1', 'true', 'ConfigMap'],
        ['namespaces', 'ns', 'v1', 'false', 'Namespace'],
        ['secrets', 'v1', 'true', 'Secret'],
      ],
    );
    assert.ok(clusterScoped.split('\n').includes('namespaces'), clusterScoped);
    assert.ok(versions.split('\n').includes('v1'), versions);
    assert.match(
      explained,
      /^KIND:\s+ConfigMap\nVERSION:\s+v1\n\nFIELD: data <map\[string\]string>\n\n+DESCRIPTION:\n\s+\S/,
    );
    for (const f of ['apiVersion', 'data', 'immutable', 'kind', 'metadata', 'stringData', 'type']) {
      assert.match(fields, new RegExp(`\\n  ${f}\\t<`), `secret.${f} in\n${fields}`);
    }
  });

  it('get --raw reaches the health and version endpoints', async () => {
    const [readyz, verbose, livez, version, missing] = await Promise.all([
      ok(['get', '--raw', '/readyz']),
      ok(['get', '--raw', '/readyz?verbose']),
      ok(['get', '--raw', '/livez']),
      ok(['get', '--raw', '/version']),
      fails(['get', '--raw', '/no/such/path']),
    ]);
    assert.equal(readyz, 'ok');
    assert.match(verbose, /\[\+\]etcd ok\n[\s\S]*readyz check passed\n$/);
    assert.equal(livez, 'ok');
    assert.equal((JSON.parse(version) as Record<string, string>)['minor'], '33');
    assert.equal(missing, 'Error from server (NotFound): the server could not find the requested resource\n');
  });

  // kubectl 1.33 sends these typed creates as protobuf.
  it('create configmap / secret generic / namespace (protobuf bodies)', async () => {
    assert.equal(
      await ok(['create', 'configmap', 'typed', '-n', nsB, '--from-literal=color=blue']),
      'configmap/typed created\n',
    );
    assert.deepEqual((await getJson('cm', 'typed', nsB)).data, { color: 'blue' });
    assert.equal(
      await ok(['create', 'secret', 'generic', 'typed', '-n', nsB, '--from-literal=pw=s3cret']),
      'secret/typed created\n',
    );
    const s = await getJson('secret', 'typed', nsB);
    assert.deepEqual([s.type, s.data], ['Opaque', { pw: base64('s3cret') }]);
    assert.equal(await ok(['create', 'namespace', 'e2e-typed']), 'namespace/e2e-typed created\n');
  });
});
