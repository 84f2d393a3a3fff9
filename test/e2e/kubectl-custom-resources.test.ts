// The real kubectl against custom resources, with the CronTab CRD of the Kubernetes documentation
// ("Extend the Kubernetes API with CustomResourceDefinitions"): the CRD is applied and waited for,
// then CronTabs are created, listed with their printer columns, validated, patched, scaled through
// the status subresource's sibling, and deleted with their namespace and with their CRD.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';

const cronTabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                cronSpec:
                  type: string
                image:
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
            status:
              type: object
              properties:
                replicas:
                  type: integer
      subresources:
        status: {}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
      additionalPrinterColumns:
        - name: Spec
          type: string
          jsonPath: .spec.cronSpec
        - name: Replicas
          type: integer
          jsonPath: .spec.replicas
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
      - ct
`;

const cronTab = (name: string, extra = ''): string => `apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 2
${extra}`;

describe('kubectl against capstan: custom resources', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);
  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-cr-'));
    capstan = await startCapstanProcess();
    await ok(['apply', '-f', await file('crd.yaml', cronTabCRD)]);
    await ok(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/crontabs.stable.example.com']);
  });
  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a CronTab from YAML and lists it with its printer columns', async () => {
    assert.equal(
      await ok(['apply', '-f', await file('my-crontab.yaml', cronTab('my-new-cron-object'))]),
      'crontab.stable.example.com/my-new-cron-object created\n',
    );
    const rows = tableRows(await ok(['get', 'crontab']));
    assert.deepEqual(rows, [
      ['NAME', 'SPEC', 'REPLICAS'],
      ['my-new-cron-object', '*', '*', '*', '*', '*/5', '2'],
    ]);
    const yaml = await ok(['get', 'ct', 'my-new-cron-object', '-o', 'yaml']);
    assert.match(yaml, /^apiVersion: stable\.example\.com\/v1\nkind: CronTab\n/);
    assert.match(yaml, /image: my-awesome-cron-image/);
    const resources = tableRows(
      await ok(['api-resources', '--api-group=stable.example.com', '--no-headers']),
    );
    assert.deepEqual(resources, [['crontabs', 'ct', 'stable.example.com/v1', 'true', 'CronTab']]);
  });

  it("refuses a CronTab outside the schema with kube's message", async () => {
    const bad = await kubectl([
      'apply',
      '-f',
      await file('bad.yaml', cronTab('bad').replace('replicas: 2', 'replicas: 20')),
    ]);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stderr,
      /The CronTab "bad" is invalid: spec\.replicas: Invalid value: 20: spec\.replicas in body should be less than or equal to 10/,
    );
  });

  it('patches, scales and deletes a CronTab', async () => {
    await ok(['patch', 'crontab', 'my-new-cron-object', '--type=merge', '-p', '{"spec":{"image":"other"}}']);
    assert.equal(await ok(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.image}']), 'other');
    assert.equal(
      await ok(['scale', 'crontab', 'my-new-cron-object', '--replicas=4']),
      'crontab.stable.example.com/my-new-cron-object scaled\n',
    );
    assert.equal(await ok(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}']), '4');
    assert.equal(
      await ok(['delete', 'crontab', 'my-new-cron-object']),
      'crontab.stable.example.com "my-new-cron-object" deleted\n',
    );
    const none = await kubectl(['get', 'crontabs']);
    assert.equal(none.code, 0);
    assert.match(none.stderr, /No resources found in default namespace\./);
  });

  it('deletes the CronTabs of a namespace being deleted', async () => {
    await ok(['create', 'namespace', 'crons']);
    await ok(['apply', '-n', 'crons', '-f', await file('in-ns.yaml', cronTab('in-namespace'))]);
    await ok(['delete', 'namespace', 'crons', '--timeout=60s']);
    const left = await kubectl(['get', 'crontabs', '--all-namespaces']);
    assert.equal(left.code, 0, left.stderr);
    assert.match(left.stderr, /No resources found/);
  });

  it('stops serving CronTabs once the CRD is deleted', async () => {
    await ok(['apply', '-f', await file('last.yaml', cronTab('last'))]);
    await ok(['delete', 'crd', 'crontabs.stable.example.com']);
    const gone = await kubectl(['get', 'crontabs']);
    assert.notEqual(gone.code, 0);
    // kubectl still maps crontabs from its discovery cache; the server answers its generic 404.
    assert.match(
      gone.stderr,
      /Unable to list "stable\.example\.com\/v1, Resource=crontabs": the server could not find the requested resource/,
    );
  });
});
