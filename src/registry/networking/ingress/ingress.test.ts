import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import type { Ingress } from '../../../api/networking/v1/ingress.js';
import { ProtobufDecoder } from '../../../machinery/protobuf/decoder.js';
import { objectMeta, pb } from '../../../machinery/protobuf/testing/proto-writer.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newIngressREST, type IngressStorage } from './storage.js';
import { ingressStatusStrategy, ingressStrategy } from './strategy.js';
import { validateIngressCreate } from './validation.js';
import { formatHosts } from './table.js';

const backend = { service: { name: 'svc1', port: { number: 8080 } } };
const ingress = (name: string, spec: NonNullable<Ingress['spec']>): Ingress => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name },
  spec,
});
const rule = (host: string) => ({ host, http: { paths: [{ path: '/a', pathType: 'Prefix', backend }] } });
const put = (obj: Ingress): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('ingresses', () => {
  let env: MemoryRESTOptions;
  let storage: IngressStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    storage = await newIngressREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores with generation 1 and an empty status (the server stores it under /registry/ingress)', async () => {
    const out = await storage.ingresses.create(ctx, ingress('web', { rules: [rule('foo.com')] }), {
      options: {},
    });
    assert.equal(out.metadata?.generation, 1);
    assert.deepEqual(out.status, {});
    assert.notEqual((await env.backend.get('/registry/ingresses/default/web')).kv, null);
    assert.deepEqual(storage.ingresses.shortNames(), ['ing']);
  });

  it('keeps status and spec apart and bumps the generation on spec changes', async () => {
    const current = await storage.ingresses.get(ctx, 'web', {});
    const status = { loadBalancer: { ingress: [{ ip: '10.0.0.9' }, { hostname: 'lb.example.com' }] } };
    const viaStatus = await storage.status.update(
      ctx,
      'web',
      put({ ...current, spec: { rules: [rule('bar.com')] }, status }),
    );
    assert.deepEqual(viaStatus.object.status, status);
    assert.equal(viaStatus.object.spec?.rules?.[0]?.host, 'foo.com');
    const viaMain = await storage.ingresses.update(
      ctx,
      'web',
      put({ ...viaStatus.object, spec: { rules: [rule('bar.com')] }, status: {} }),
    );
    assert.deepEqual(viaMain.object.status, status);
    assert.equal(viaMain.object.metadata?.generation, 2);
  });

  it('prints NAME CLASS HOSTS ADDRESS PORTS AGE', async () => {
    const table = storage.ingresses.convertToTable(ctx, await storage.ingresses.get(ctx, 'web', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 5), [
      'web',
      '<none>',
      'bar.com',
      '10.0.0.9,lb.example.com',
      '80',
    ]);
    assert.equal(formatHosts([rule('a'), rule(''), rule('b'), rule('c'), rule('d')]), 'a,b,c + 2 more...');
    assert.equal(formatHosts([rule('')]), '*');
  });

  it('warns about the deprecated class annotation on create', () => {
    const annotated = ingress('old', { rules: [rule('foo.com')] });
    annotated.metadata = { name: 'old', annotations: { 'kubernetes.io/ingress.class': 'nginx' } };
    assert.deepEqual(ingressStrategy.warningsOnCreate(ctx, annotated), [
      `annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`,
    ]);
    assert.deepEqual(ingressStrategy.warningsOnCreate(ctx, ingress('new', { rules: [rule('foo.com')] })), []);
  });

  it('rejects bad rules and backends with kube texts', async () => {
    await rejectsWithStatus(storage.ingresses.create(ctx, ingress('empty', {}), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Ingress.networking.k8s.io "empty" is invalid: spec: Invalid value: null: either `defaultBackend` or `rules` must be specified',
    });
    const bad = ingress('bad', {
      ingressClassName: 'Bad_Class',
      rules: [
        {
          host: '1.2.3.4',
          http: {
            paths: [
              { path: 'rel', pathType: 'Exact', backend: { service: { name: 'svc', port: {} } } },
              { path: '/x', pathType: 'Sometimes', backend: {} },
            ],
          },
        },
      ],
    });
    const status = await rejectsWithStatus(storage.ingresses.create(ctx, bad, { options: {} }), {
      code: 422,
      reason: 'Invalid',
    });
    assert.deepEqual(
      status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`),
      [
        'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
        'spec.rules[0].http.paths[0].path: Invalid value: "rel": must be an absolute path',
        'spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
        'spec.rules[0].http.paths[1].pathType: Unsupported value: "Sometimes": supported values: "Exact", "ImplementationSpecific", "Prefix"',
        'spec.rules[0].http.paths[1].backend: Invalid value: "": resource or service backend is required',
        "spec.ingressClassName: Invalid value: \"Bad_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    );
  });

  it('decodes a protobuf rule, whose value is an embedded message, into the inline JSON', () => {
    const decoder = new ProtobufDecoder(builtinScheme());
    const port = pb().varint(2, 8080);
    const service = pb().string(1, 'svc1').message(2, port);
    const path = pb().string(1, '/bar').message(2, pb().message(4, service)).string(3, 'Exact');
    const ruleValue = pb().message(1, pb().message(1, path));
    const ruleMsg = pb().string(1, 'foo.com').message(2, ruleValue);
    const raw = pb().message(1, objectMeta('i', 'default')).message(2, pb().message(3, ruleMsg));
    const json = decoder.toJSON('io.k8s.api.networking.v1.Ingress', raw.finish());
    assert.deepEqual(json['spec'], {
      rules: [{ host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend }] } }],
    });
  });

  it('reads IPs as netutils.ParseIPSloppy does in rule hosts and load balancer status', () => {
    const withHost = (host: string) =>
      validateIngressCreate({
        ...ingress('h', { rules: [rule(host)] }),
        metadata: { name: 'h', namespace: 'default' },
      });
    assert.deepEqual(
      withHost('010.0.0.1')
        .map((e) => e.error())
        .filter((m) => m.includes('not an IP')),
      ['spec.rules[0].host: Invalid value: "010.0.0.1": must be a DNS name, not an IP address'],
    );
    const old = ingress('s', { rules: [rule('a.example')] });
    const next = structuredClone(old);
    next.status = { loadBalancer: { ingress: [{ ip: '010.0.0.9' }, { ip: 'fe80::1%eth0' }] } };
    assert.deepEqual(
      ingressStatusStrategy.validateUpdate(ctx, next, old).map((e) => e.error()),
      [
        'status.loadBalancer.ingress[1].ip: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    );
    assert.deepEqual(ingressStatusStrategy.validateUpdate(ctx, structuredClone(next), next), []);
    assert.deepEqual(ingressStatusStrategy.warningsOnUpdate(ctx, next), [
      'status.loadBalancer.ingress[0]: non-standard IP address "010.0.0.9" will be considered invalid in a future Kubernetes release: use "10.0.0.9"',
    ]);
  });
});
