// Deprecated kinds and versions warn on every request to them, as kube's installer and crdHandler
// do: v1 Endpoints and ComponentStatus, and a custom resource's deprecated versions (their own
// deprecationWarning, else `<group>/<version> <Kind> is deprecated; use <newer>`). One server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
const gadgetCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      { name: 'v1', served: true, storage: true, schema, subresources: { status: {} } },
      {
        name: 'v1beta1',
        served: true,
        storage: false,
        deprecated: true,
        schema,
        subresources: { status: {} },
      },
      {
        name: 'v1alpha1',
        served: true,
        storage: false,
        deprecated: true,
        deprecationWarning: 'example.com/v1alpha1 Gadget goes away soon',
        schema,
      },
    ],
  },
};

describe('deprecation warnings', () => {
  let server: CapstanServer;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; warning: string }> => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await res.arrayBuffer();
    return { status: res.status, warning: res.headers.get('warning') ?? '' };
  };

  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    assert.equal(
      (await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', gadgetCRD)).status,
      201,
    );
  });
  after(() => server.stop());

  it('warns on every verb of v1 Endpoints, errors included, and not on EndpointSlices', async () => {
    const warning = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';
    const list = await call('GET', '/api/v1/namespaces/default/endpoints');
    assert.deepEqual(list, { status: 200, warning });
    const created = await call('POST', '/api/v1/namespaces/default/endpoints', {
      metadata: { name: 'manual' },
      subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }],
    });
    assert.deepEqual(created, { status: 201, warning });
    assert.deepEqual(await call('GET', '/api/v1/namespaces/default/endpoints/missing'), {
      status: 404,
      warning,
    });
    assert.deepEqual(await call('DELETE', '/api/v1/namespaces/default/endpoints/manual'), {
      status: 200,
      warning,
    });
    assert.deepEqual(await call('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices'), {
      status: 200,
      warning: '',
    });
  });

  it('warns on v1 ComponentStatus', async () => {
    assert.deepEqual(await call('GET', '/api/v1/componentstatuses'), {
      status: 200,
      warning: '299 - "v1 ComponentStatus is deprecated in v1.19+"',
    });
  });

  it("warns on a custom resource's deprecated versions and their subresources, not on the others", async () => {
    const at = (version: string): string => `/apis/example.com/${version}/namespaces/default/gadgets`;
    // The CRD is served once established; until then the path is not found.
    for (let i = 0; i < 100 && (await call('GET', at('v1'))).status !== 200; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(await call('GET', at('v1')), { status: 200, warning: '' });
    const beta = '299 - "example.com/v1beta1 Gadget is deprecated; use example.com/v1 Gadget"';
    const created = await call('POST', at('v1beta1'), {
      apiVersion: 'example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g' },
    });
    assert.deepEqual(created, { status: 201, warning: beta });
    assert.deepEqual(await call('GET', `${at('v1beta1')}/g/status`), { status: 200, warning: beta });
    assert.deepEqual(await call('GET', `${at('v1alpha1')}/g`), {
      status: 200,
      warning: '299 - "example.com/v1alpha1 Gadget goes away soon"',
    });
  });
});
