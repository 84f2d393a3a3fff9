// Connect subresources, named creates and the token subresource over HTTP: routes, discovery verbs
// and the Status each answers, on the real pod and serviceaccount storages.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { newNamespaceREST } from '../../registry/core/namespace/storage.js';
import { newPodConnecters } from '../../registry/core/pod/connect.js';
import { newPodREST } from '../../registry/core/pod/storage.js';
import { newTokenSigner, parseJwt } from '../../registry/core/serviceaccount/jwt.js';
import { newServiceAccountREST } from '../../registry/core/serviceaccount/storage.js';
import { TokenREST } from '../../registry/core/serviceaccount/token.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../registry/generic/testing/memory-rest-options.js';
import type { Getter, Storage } from '../../registry/rest/capabilities.js';
import { simulatedNodeLabel } from '../../registry/core/node/simulated.js';
import { internalContext } from '../../registry/rest/context.js';
import { newNodeProxyREST } from '../../registry/rest/no-kubelet-connecter.js';
import { createAPIHandler } from '../api-handler.js';

interface StatusBody {
  kind: string;
  code: number;
  reason: string;
  message: string;
}

describe('connect routes and named creates', () => {
  let env: MemoryRESTOptions;
  let request: (o: InjectOptions) => Promise<Response>;
  const status = async (o: InjectOptions): Promise<[number, string, string]> => {
    const res = await request(o);
    const body = res.json<StatusBody>();
    assert.equal(body.kind, 'Status');
    assert.equal(body.code, res.statusCode);
    return [res.statusCode, body.reason, body.message];
  };

  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    const pods = await newPodREST(opts);
    const serviceaccounts = await newServiceAccountREST(opts);
    const namespaces = await newNamespaceREST(opts);
    // sim-0 is a node `--simulate` runs; any other has no kubelet to reach.
    const nodes: Getter = {
      get: (_ctx, name) =>
        name === 'sim-0'
          ? Promise.resolve({ metadata: { name, labels: { [simulatedNodeLabel]: 'true' } } })
          : Promise.reject(new Error('no such node')),
    };
    const c = newPodConnecters(pods.pods, nodes);
    const signer = newTokenSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const storages: Record<string, Storage> = {
      pods: pods.pods,
      'pods/binding': pods.binding,
      'pods/log': c.log,
      'pods/exec': c.exec,
      'pods/attach': c.attach,
      'pods/portforward': c.portforward,
      'pods/proxy': c.proxy,
      // A cluster-scoped getter stands in for nodes: the proxy looks the name up in it.
      nodes: namespaces.namespaces,
      'nodes/proxy': newNodeProxyREST(namespaces.namespaces),
      serviceaccounts,
      'serviceaccounts/token': new TokenREST({
        serviceAccounts: serviceaccounts,
        issuer: { signer, issuer: 'https://iss', apiAudiences: ['https://iss'] },
      }),
    };
    const handler = createAPIHandler({
      groups: [{ group: '', prioritizedVersions: ['v1'], versionedResourcesStorageMap: { v1: storages } }],
      scheme: builtinScheme(),
    });
    const user = { name: 'tester', groups: ['system:authenticated'] };
    const dispatch = (
      req: Parameters<typeof handler.handle>[0],
      res: Parameters<typeof handler.handle>[1],
    ): void => {
      void handler.handle(req, res, { user });
    };
    request = (o) => inject(dispatch, o);
    const ctx = internalContext({ namespace: 'ns' });
    const containers = [
      { name: 'app', image: 'x' },
      { name: 'side', image: 'y' },
    ];
    await pods.pods.create(ctx, { metadata: { name: 'two' }, spec: { containers } }, { options: {} });
    await pods.pods.create(
      ctx,
      { metadata: { name: 'one' }, spec: { containers: [{ name: 'app', image: 'x' }] } },
      { options: {} },
    );
    await serviceaccounts.create(ctx, { metadata: { name: 'default' } }, { options: {} });
    const sim = await pods.pods.create(
      ctx,
      {
        metadata: { name: 'sim', annotations: { 'capstan.dev/logs': 'hello\nworld' } },
        spec: { nodeName: 'sim-0', containers: [{ name: 'app', image: 'x' }] },
      },
      { options: {} },
    );
    const running = {
      name: 'app',
      state: { running: {} },
      ready: true,
      restartCount: 0,
      image: 'x',
      imageID: '',
    };
    const withStatus = { ...sim, status: { phase: 'Running', containerStatuses: [running] } };
    await pods.status.update(ctx, 'sim', {
      objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(withStatus) },
      options: {},
    });
  });
  after(() => env.close());

  it('lists the connect subresources with kube kinds and verbs', async () => {
    const list = (await request({ method: 'GET', url: '/api/v1' })).json<{
      resources: { name: string; kind: string; verbs: string[]; group?: string; version?: string }[];
    }>();
    const byName = new Map(list.resources.map((r) => [r.name, r]));
    assert.deepEqual(byName.get('pods/log')?.verbs, ['get']);
    assert.equal(byName.get('pods/log')?.kind, 'Pod');
    assert.deepEqual(byName.get('pods/exec')?.verbs, ['create', 'get']);
    assert.equal(byName.get('pods/exec')?.kind, 'PodExecOptions');
    assert.deepEqual(byName.get('pods/attach')?.verbs, ['create', 'get']);
    assert.deepEqual(byName.get('pods/portforward')?.verbs, ['create', 'get']);
    assert.deepEqual(byName.get('pods/proxy')?.verbs, ['create', 'delete', 'get', 'patch', 'update']);
    assert.deepEqual(byName.get('pods/binding')?.verbs, ['create']);
    const token = byName.get('serviceaccounts/token');
    assert.deepEqual(
      [token?.kind, token?.group, token?.version, token?.verbs],
      ['TokenRequest', 'authentication.k8s.io', 'v1', ['create']],
    );
  });

  it('answers 204 for the log of a pod without a node, kube container errors, and 404 for a missing pod', async () => {
    const base = '/api/v1/namespaces/ns/pods';
    // kube's LogLocation: no node, no log location, which StreamObject answers 204, not an error.
    const log = await request({ method: 'GET', url: `${base}/one/log` });
    assert.deepEqual([log.statusCode, log.headers['content-type'], log.body], [204, undefined, '']);
    assert.deepEqual(await status({ method: 'GET', url: `${base}/two/log` }), [
      400,
      'BadRequest',
      'a container name must be specified for pod two, choose one of: [app side]',
    ]);
    assert.deepEqual(await status({ method: 'GET', url: `${base}/two/log?container=nope` }), [
      400,
      'BadRequest',
      'container nope is not valid for pod two',
    ]);
    assert.deepEqual(await status({ method: 'POST', url: `${base}/two/exec?container=side&command=ls` }), [
      400,
      'BadRequest',
      'pod two does not have a host assigned',
    ]);
    assert.deepEqual(await status({ method: 'GET', url: `${base}/missing/attach` }), [
      404,
      'NotFound',
      'pods "missing" not found',
    ]);
    assert.deepEqual(await status({ method: 'PUT', url: `${base}/one/exec` }), [
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    ]);
  });

  it("streams a simulated pod's log as text/plain without a length, as kube's StreamObject", async () => {
    const res = await request({ method: 'GET', url: '/api/v1/namespaces/ns/pods/sim/log?tailLines=1' });
    assert.deepEqual(
      [res.statusCode, res.headers['content-type'], res.headers['content-length'], res.body],
      [200, 'text/plain', undefined, 'world\n'],
    );
    assert.equal(res.headers['transfer-encoding'], 'chunked');
  });

  it('binds through the URL name, refuses another body name, then answers 503 for the kubelet', async () => {
    const binding = (name: string): InjectOptions => ({
      method: 'POST',
      url: '/api/v1/namespaces/ns/pods/one/binding',
      payload: { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { name: 'node-1' } },
    });
    assert.deepEqual(await status(binding('two')), [
      400,
      'BadRequest',
      'name in URL does not match name in Binding object',
    ]);
    assert.equal((await request(binding('one'))).statusCode, 201);
    const base = '/api/v1/namespaces/ns/pods/one';
    const unreachable = [503, 'ServiceUnavailable', 'no kubelet is reachable for node "node-1"'];
    assert.deepEqual(await status({ method: 'GET', url: `${base}/log` }), unreachable);
    assert.deepEqual(await status({ method: 'POST', url: `${base}/portforward` }), unreachable);
    assert.deepEqual(
      await status({ method: 'DELETE', url: '/api/v1/namespaces/ns/pods/one:8080/proxy/some/path' }),
      unreachable,
    );
    assert.deepEqual(await status({ method: 'GET', url: '/api/v1/namespaces/ns/pods/a:b:c:d/proxy' }), [
      400,
      'BadRequest',
      'invalid pod request "a:b:c:d"',
    ]);
    assert.deepEqual(await status({ method: 'GET', url: '/api/v1/namespaces/ns/pods/one/exec/extra' }), [
      404,
      'NotFound',
      'the server could not find the requested resource',
    ]);
  });

  it('reaches nodes/proxy with a subpath', async () => {
    assert.deepEqual(await status({ method: 'GET', url: '/api/v1/nodes/n1/proxy/metrics' }), [
      404,
      'NotFound',
      'namespaces "n1" not found',
    ]);
    await request({
      method: 'POST',
      url: '/api/v1/nodes',
      payload: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } },
    });
    assert.deepEqual(
      await status({ method: 'GET', url: '/api/v1/nodes/https:n1:10250/proxy/metrics/cadvisor' }),
      [503, 'ServiceUnavailable', 'no kubelet is reachable for node "n1"'],
    );
  });

  it('creates a token for the service account of the URL, 201 with status.token', async () => {
    const res = await request({
      method: 'POST',
      url: '/api/v1/namespaces/ns/serviceaccounts/default/token',
      payload: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    assert.equal(res.statusCode, 201);
    const out = res.json<{ kind: string; spec: { expirationSeconds: number }; status: { token: string } }>();
    assert.equal(out.kind, 'TokenRequest');
    assert.equal(out.spec.expirationSeconds, 3600);
    assert.equal(parseJwt(out.status.token)?.claims['sub'], 'system:serviceaccount:ns:default');
    assert.deepEqual(
      await status({
        method: 'POST',
        url: '/api/v1/namespaces/ns/serviceaccounts/ghost/token',
        payload: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
      }),
      [404, 'NotFound', 'serviceaccounts "ghost" not found'],
    );
  });
});
