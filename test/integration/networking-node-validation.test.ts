// The 422 Status kube-apiserver 1.33 answers for bad NetworkPolicies, IngressClasses and
// RuntimeClasses (pkg/apis/networking/validation and pkg/apis/node/validation), over HTTP: the
// causes in kube's order, a NetworkPolicy update's spec errors reported twice (the strategy
// validates the object, then the update) and listed once in the message.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { jsonCall, type JSONReply } from './support/json-call.js';

type Json = Record<string, unknown>;

let server: CapstanServer;

const call = (method: string, path: string, body?: unknown): Promise<JSONReply<Json>> =>
  jsonCall<Json>(server, { method, path, body });

const networking = '/apis/networking.k8s.io/v1';
const policies = `${networking}/namespaces/default/networkpolicies`;

interface Cause {
  readonly reason: string;
  readonly field: string;
  readonly message: string;
}

/** The Status kube writes for an Invalid error of `kind` named `name`. */
function invalid(opts: { group: string; kind: string; name: string; causes: Cause[] }): Json {
  const qualified = `${opts.kind}.${opts.group}`;
  const texts = [...new Set(opts.causes.map((c) => `${c.field}: ${c.message}`))];
  const summary = texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualified} "${opts.name}" is invalid: ${summary}`,
    reason: 'Invalid',
    details: { name: opts.name, group: opts.group, kind: opts.kind, causes: opts.causes },
    code: 422,
  };
}

describe('NetworkPolicy, IngressClass and RuntimeClass validation over HTTP', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('a NetworkPolicy with too many policyTypes and a bad ipBlock', async () => {
    const reply = await call('POST', policies, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'bad' },
      spec: {
        ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/8'] }, podSelector: {} }] }],
        policyTypes: ['Ingress', 'Egress', 'Ingress'],
      },
    });
    assert.equal(reply.status, 422);
    const from = 'spec.ingress[0].from[0]';
    assert.deepEqual(
      reply.body,
      invalid({
        group: 'networking.k8s.io',
        kind: 'NetworkPolicy',
        name: 'bad',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
            field: `${from}.ipBlock.except[0]`,
          },
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: may not specify both ipBlock and another peer',
            field: from,
          },
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes',
            field: 'spec.policyTypes',
          },
        ],
      }),
    );
  });

  it("a NetworkPolicy update reports each spec error twice, as kube's strategy does", async () => {
    const created = await call('POST', policies, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'web' },
      spec: { podSelector: {} },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const body = structuredClone(created.body);
    body['spec'] = { podSelector: {}, egress: [{ ports: [{ port: 'http', endPort: 90 }] }] };
    const reply = await call('PUT', `${policies}/web`, body);
    const cause: Cause = {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: 90: may not be specified when `port` is non-numeric',
      field: 'spec.egress[0].ports[0].endPort',
    };
    assert.deepEqual(
      reply.body,
      invalid({ group: 'networking.k8s.io', kind: 'NetworkPolicy', name: 'web', causes: [cause, cause] }),
    );
  });

  it('an IngressClass with an empty parameters reference', async () => {
    const reply = await call('POST', `${networking}/ingressclasses`, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'bad' },
      spec: { controller: 'example.com/c', parameters: { apiGroup: '', kind: '', name: '' } },
    });
    assert.deepEqual(
      reply.body,
      invalid({
        group: 'networking.k8s.io',
        kind: 'IngressClass',
        name: 'bad',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            field: 'spec.parameters.apiGroup',
          },
          {
            reason: 'FieldValueRequired',
            message: 'Required value: kind is required',
            field: 'spec.parameters.kind',
          },
          {
            reason: 'FieldValueRequired',
            message: 'Required value: name is required',
            field: 'spec.parameters.name',
          },
        ],
      }),
    );
  });

  it('a RuntimeClass with a negative overhead and a repeated toleration', async () => {
    const toleration = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
    const reply = await call('POST', '/apis/node.k8s.io/v1/runtimeclasses', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'bad' },
      handler: 'runc',
      overhead: { podFixed: { cpu: '-100m' } },
      scheduling: { tolerations: [toleration, { ...toleration, operator: 'Maybe' }, toleration] },
    });
    assert.deepEqual(
      reply.body,
      invalid({
        group: 'node.k8s.io',
        kind: 'RuntimeClass',
        name: 'bad',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "-100m": must be greater than or equal to 0',
            field: 'overhead.limits[cpu]',
          },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Maybe": supported values: "Equal", "Exists"',
            field: 'scheduling.tolerations.tolerations[1].operator',
          },
          {
            reason: 'FieldValueDuplicate',
            message:
              'Duplicate value: core.Toleration{Key:"gpu", Operator:"Exists", Value:"", Effect:"NoSchedule", TolerationSeconds:(*int64)(nil)}',
            field: 'scheduling.tolerations[2]',
          },
        ],
      }),
    );
  });
});
