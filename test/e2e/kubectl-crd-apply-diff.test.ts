// Real kubectl applying, diffing and server-side applying a CustomResourceDefinition whose schema has
// defaults, index-like property names ("10", "9") and CEL rules, with a ConfigMap whose data keys are
// index-like beside it: the server stores both in Go's member order, and kubectl sees no difference
// between what it applied and what is served, a change only where there is one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

const crd = (maximum: number): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: knobs.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: knobs, singular: knob, kind: Knob}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.turn <= ${maximum}"
              message: too far
            properties:
              turn: {type: integer, minimum: 0, maximum: ${maximum}, default: 1}
              "10": {type: string, default: ten}
              "9": {type: object, default: {"b": 1, "10": 2}, x-kubernetes-preserve-unknown-fields: true}
`;

const cm = (nine: string): string => `apiVersion: v1
kind: ConfigMap
metadata: {name: digits, namespace: default, labels: {"10": a, "9": b}}
data: {"9": "${nine}", "10": ten, a: A}
`;

describe('kubectl apply and diff of a CRD and of maps with index-like keys', () => {
  let capstan: CapstanProcess;
  const kubectl = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath, ...(input === undefined ? {} : { input }) });
  const ok = (r: KubectlResult): KubectlResult => {
    assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
    return r;
  };

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });
  after(async () => {
    await capstan.stop();
  });

  it('apply, diff with and without a change, apply the change, server-side apply', async () => {
    ok(await kubectl(['apply', '-f', '-'], crd(5)));
    ok(await kubectl(['wait', '--for=condition=Established', 'crd/knobs.example.com', '--timeout=20s']));
    const same = await kubectl(['diff', '-f', '-'], crd(5));
    assert.equal(same.code, 0, `${same.stdout}${same.stderr}`);
    const changed = await kubectl(['diff', '-f', '-'], crd(7));
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /-\s+maximum: 5\n\+\s+maximum: 7/);
    assert.match(ok(await kubectl(['apply', '-f', '-'], crd(7))).stdout, /configured/);
    assert.equal((await kubectl(['diff', '-f', '-'], crd(7))).code, 0);
    ok(await kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], crd(7)));
    assert.equal((await kubectl(['diff', '--server-side', '--force-conflicts', '-f', '-'], crd(7))).code, 0);
    // The defaults and the index-like properties are in force for the custom resources.
    ok(
      await kubectl(
        ['apply', '-f', '-'],
        'apiVersion: example.com/v1\nkind: Knob\nmetadata: {name: k, namespace: default}\nspec: {}\n',
      ),
    );
    const knob = JSON.parse(
      ok(await kubectl(['get', 'knob', 'k', '-n', 'default', '-o', 'json'])).stdout,
    ) as {
      spec: unknown;
    };
    assert.deepEqual(knob.spec, { '10': 'ten', '9': { '10': 2, b: 1 }, turn: 1 });
    const refused = await kubectl(
      ['apply', '-f', '-'],
      'apiVersion: example.com/v1\nkind: Knob\nmetadata: {name: k2, namespace: default}\nspec: {turn: 9}\n',
    );
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /spec.turn: Invalid value: 9: spec.turn in body should be less than or equal to 7/,
    );
  });

  it('a ConfigMap with index-like keys: no difference after apply, one where a value changes', async () => {
    ok(await kubectl(['apply', '-f', '-'], cm('nine')));
    const same = await kubectl(['diff', '-f', '-'], cm('nine'));
    assert.equal(same.code, 0, `${same.stdout}${same.stderr}`);
    const changed = await kubectl(['diff', '-f', '-'], cm('NINE'));
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /-\s+"9": nine\n\+\s+"9": NINE/);
    const raw = ok(await kubectl(['get', '--raw', '/api/v1/namespaces/default/configmaps/digits'])).stdout;
    assert.ok(raw.includes('"data":{"10":"ten","9":"nine","a":"A"}'), raw);
    assert.ok(raw.includes('"labels":{"10":"a","9":"b"}'), raw);
  });
});
