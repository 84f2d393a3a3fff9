// The real kubectl against one Capstan process: a CustomResourceDefinition applied from a YAML
// file as the Kubernetes docs write it (stored, validated, Established at once; its custom
// resources: kubectl-custom-resources.test.ts), and admission webhook configurations and policies,
// stored and listed (webhooks being called: kubectl-admission-webhooks.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';
import { isAge, tableRows } from './support/kube-objects.js';

const cronTabCRD = (name: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  # name must match the spec fields below, and be in the form: <plural>.<group>
  name: ${name}
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
              x-kubernetes-preserve-unknown-fields: true
      subresources:
        status: {}
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

const webhookConfiguration = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: pod-policy.example.com
webhooks:
  - name: pod-policy.example.com
    rules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ["pods"]
        scope: Namespaced
    clientConfig:
      service:
        namespace: webhooks
        name: pod-policy
        path: /validate
    admissionReviewVersions: ["v1"]
    sideEffects: None
    timeoutSeconds: 5
  - name: pod-status.example.com
    rules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["UPDATE"]
        resources: ["pods/status"]
    clientConfig:
      url: https://webhooks.example.com/status
    admissionReviewVersions: ["v1", "v1beta1"]
    sideEffects: NoneOnDryRun
`;

const policyAndBinding = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo-policy.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: ["apps"]
        apiVersions: ["v1"]
        operations: ["CREATE", "UPDATE"]
        resources: ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: demo-binding.example.com
spec:
  policyName: demo-policy.example.com
  validationActions: [Deny]
`;

describe('kubectl against capstan: CRDs and admission configuration', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const kubectl = (args: readonly string[]): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath });
  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-crd-'));
    capstan = await startCapstanProcess();
  });
  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies a CRD from YAML; get crd lists it and it is Established', async () => {
    const file = join(dir, 'crontab-crd.yaml');
    await writeFile(file, cronTabCRD('crontabs.stable.example.com'));
    assert.equal(
      await ok(['apply', '-f', file]),
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n',
    );
    const rows = tableRows(await ok(['get', 'crd']));
    assert.deepEqual(rows[0], ['NAME', 'CREATED', 'AT']);
    const [name, createdAt] = rows[1] ?? [];
    assert.equal(name, 'crontabs.stable.example.com');
    assert.match(createdAt ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(
      await ok([
        'get',
        'crd',
        'crontabs.stable.example.com',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Established")].status}',
      ]),
      'True',
    );
    const crd = JSON.parse(
      await ok(['get', 'customresourcedefinitions', 'crontabs.stable.example.com', '-o', 'json']),
    ) as {
      spec: { names: { listKind: string }; conversion: { strategy: string } };
      status: { acceptedNames: { kind: string; shortNames: string[] }; storedVersions: string[] };
    };
    assert.equal(crd.spec.names.listKind, 'CronTabList');
    assert.equal(crd.spec.conversion.strategy, 'None');
    assert.deepEqual(crd.status.acceptedNames.shortNames, ['ct']);
    assert.deepEqual(crd.status.storedVersions, ['v1']);
    // Applying the same file again changes nothing.
    assert.equal(
      await ok(['apply', '-f', file]),
      'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com unchanged\n',
    );
  });

  it('lists both groups in api-resources, CRDs with their short name', async () => {
    const rows = tableRows(await ok(['api-resources', '--no-headers']));
    const byName = new Map(rows.map((r) => [r[0], r.slice(1)]));
    const expected: Record<string, string[]> = {
      customresourcedefinitions: ['crd,crds', 'apiextensions.k8s.io/v1', 'false', 'CustomResourceDefinition'],
      validatingwebhookconfigurations: [
        'admissionregistration.k8s.io/v1',
        'false',
        'ValidatingWebhookConfiguration',
      ],
      mutatingwebhookconfigurations: [
        'admissionregistration.k8s.io/v1',
        'false',
        'MutatingWebhookConfiguration',
      ],
      validatingadmissionpolicies: ['admissionregistration.k8s.io/v1', 'false', 'ValidatingAdmissionPolicy'],
      validatingadmissionpolicybindings: [
        'admissionregistration.k8s.io/v1',
        'false',
        'ValidatingAdmissionPolicyBinding',
      ],
    };
    for (const [resource, columns] of Object.entries(expected)) {
      assert.deepEqual(byName.get(resource), columns, resource);
    }
  });

  it('explains the recursive JSONSchemaProps from the published OpenAPI', async () => {
    const out = await ok([
      'explain',
      'customresourcedefinitions.spec.versions.schema.openAPIV3Schema.properties',
    ]);
    assert.match(out, /GROUP:\s+apiextensions\.k8s\.io/);
    assert.match(out, /FIELD: properties <map\[string\]JSONSchemaProps>/);
  });

  it("refuses a CRD whose name is not <plural>.<group>, with kube's message", async () => {
    const file = join(dir, 'bad-crd.yaml');
    await writeFile(file, cronTabCRD('crontab.stable.example.com'));
    const r = await kubectl(['apply', '-f', file]);
    assert.notEqual(r.code, 0);
    // kubectl renders a 422 Status from its details: kind, name and the causes.
    assert.equal(
      r.stderr,
      'The CustomResourceDefinition "crontab.stable.example.com" is invalid: metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group\n',
    );
  });

  it('applies a ValidatingWebhookConfiguration and lists it with its webhook count', async () => {
    const file = join(dir, 'webhook.yaml');
    await writeFile(file, webhookConfiguration);
    assert.equal(
      await ok(['apply', '-f', file]),
      'validatingwebhookconfiguration.admissionregistration.k8s.io/pod-policy.example.com created\n',
    );
    const rows = tableRows(await ok(['get', 'validatingwebhookconfigurations']));
    assert.deepEqual(rows[0], ['NAME', 'WEBHOOKS', 'AGE']);
    const [name, webhooks, age] = rows[1] ?? [];
    assert.deepEqual([name, webhooks], ['pod-policy.example.com', '2']);
    assert.ok(isAge(age ?? ''), age);
    const config = JSON.parse(
      await ok(['get', 'validatingwebhookconfiguration', 'pod-policy.example.com', '-o', 'json']),
    ) as {
      webhooks: {
        failurePolicy: string;
        timeoutSeconds: number;
        clientConfig: { service?: { port: number } };
      }[];
    };
    assert.deepEqual(
      config.webhooks.map((w) => [w.failurePolicy, w.timeoutSeconds]),
      [
        ['Fail', 5],
        ['Fail', 10],
      ],
    );
    assert.equal(config.webhooks[0]?.clientConfig.service?.port, 443);
  });

  it('applies a ValidatingAdmissionPolicy with its binding and prints their columns', async () => {
    const file = join(dir, 'policy.yaml');
    await writeFile(file, policyAndBinding);
    assert.equal(
      await ok(['apply', '-f', file]),
      'validatingadmissionpolicy.admissionregistration.k8s.io/demo-policy.example.com created\n' +
        'validatingadmissionpolicybinding.admissionregistration.k8s.io/demo-binding.example.com created\n',
    );
    const policies = tableRows(await ok(['get', 'validatingadmissionpolicies']));
    assert.deepEqual(policies[0], ['NAME', 'VALIDATIONS', 'PARAMKIND', 'AGE']);
    assert.deepEqual(policies[1]?.slice(0, 3), ['demo-policy.example.com', '1', '<unset>']);
    const bindings = tableRows(await ok(['get', 'validatingadmissionpolicybindings']));
    assert.deepEqual(bindings[0], ['NAME', 'POLICYNAME', 'PARAMREF', 'AGE']);
    assert.deepEqual(bindings[1]?.slice(0, 3), [
      'demo-binding.example.com',
      'demo-policy.example.com',
      '<unset>',
    ]);
  });
});
