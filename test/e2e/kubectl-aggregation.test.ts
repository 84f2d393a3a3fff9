// The real kubectl against one Capstan process with an aggregated API server written with Node's
// https behind it: registered by an APIService (its CA in caBundle) with a Service and Endpoints
// pointing at it, kubectl lists its resources and shows the APIService Available; once the server
// stops, the APIService turns unavailable (FailedDiscoveryCheck) and its group answers 503.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's model classes are plain JSON shapes on the wire; its own docs pass object literals */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request, type RequestOptions } from 'node:https';
import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { eventually } from './support/client-node-helpers.js';
import { kubectlSession } from './support/kubectl-session.js';
import { locateKubectl } from './support/kubectl.js';
import {
  clientCertificate,
  startAggregatedServer,
  wardle,
  type AggregatedServer,
} from './support/aggregated-server.js';
import { nonLoopbackAddress } from '../integration/support/webhook-server.js';

const ns = 'e2e-agg';
const apiServiceName = `${wardle.version}.${wardle.group}`;
const unavailableText =
  'Error from server (ServiceUnavailable): the server is currently unable to handle the request\n';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

describe('kubectl against capstan: an aggregated API server', () => {
  let capstan: CapstanProcess;
  let backend: AggregatedServer;
  let dir: string;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;
  let kc: KubeConfig;
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);

  async function available(): Promise<Condition | undefined> {
    const obj = (await custom.getClusterCustomObject({
      group: 'apiregistration.k8s.io',
      version: 'v1',
      plural: 'apiservices',
      name: apiServiceName,
    })) as { status?: { conditions?: Condition[] } };
    return obj.status?.conditions?.find((c) => c.type === 'Available');
  }

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-agg-'));
    backend = await startAggregatedServer(`wardle-api.${ns}.svc`);
    const proxyClient = clientCertificate('front-proxy-client');
    await writeFile(join(dir, 'proxy.crt'), proxyClient.cert);
    await writeFile(join(dir, 'proxy.key'), proxyClient.key);
    capstan = await startCapstanProcess({
      port: await freePort(),
      args: [
        `--proxy-client-cert-file=${join(dir, 'proxy.crt')}`,
        `--proxy-client-key-file=${join(dir, 'proxy.key')}`,
      ],
    });
    kc = new KubeConfig();
    kc.loadFromFile(capstan.kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
  });

  after(async () => {
    await capstan.stop();
    await backend.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the aggregated resources with kubectl and shows the APIService Available', async () => {
    await core.createNamespace({ body: { metadata: { name: ns } } });
    // Endpoints may not be loopback addresses: the machine's own serves, else an ExternalName.
    const address = nonLoopbackAddress();
    await core.createNamespacedService({
      namespace: ns,
      body: {
        metadata: { name: 'wardle-api' },
        spec:
          address === undefined
            ? { type: 'ExternalName', externalName: 'localhost' }
            : { ports: [{ name: 'https', port: 443, targetPort: backend.port }] },
      },
    });
    if (address !== undefined)
      await core.createNamespacedEndpoints({
        namespace: ns,
        body: {
          metadata: { name: 'wardle-api' },
          subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port: backend.port }] }],
        },
      });
    const file = join(dir, 'apiservice.json');
    await writeFile(
      file,
      JSON.stringify({
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: apiServiceName },
        spec: {
          group: wardle.group,
          version: wardle.version,
          groupPriorityMinimum: 1000,
          versionPriority: 15,
          service: {
            namespace: ns,
            name: 'wardle-api',
            ...(address === undefined ? { port: backend.port } : {}),
          },
          caBundle: backend.caBundle,
        },
      }),
    );
    assert.equal(
      await ok(['apply', '-f', file]),
      `apiservice.apiregistration.k8s.io/${apiServiceName} created\n`,
    );
    let seen: Condition | undefined;
    await eventually(
      async () => {
        seen = await available();
        return seen?.status === 'True';
      },
      'the APIService to be Available',
      { seen: () => seen },
    );
    assert.equal(seen?.reason, 'Passed');
    assert.equal(seen.message, 'all checks passed');
    const row = (await ok(['get', 'apiservices']))
      .split('\n')
      .find((l) => l.startsWith(`${apiServiceName} `));
    assert.match(
      row ?? '',
      new RegExp(`^${apiServiceName.replaceAll('.', '\\.')}\\s+${ns}/wardle-api\\s+True\\s+\\S+$`),
    );
    assert.match(await ok(['get', 'apiservices', 'v1.apps']), /\nv1\.apps\s+Local\s+True\s+\S+\n$/);
    const listed = await ok(['get', 'flunders', '-n', ns, '-o', 'name']);
    assert.equal(listed, `flunder.${wardle.group}/alpha\nflunder.${wardle.group}/beta\n`);
    const last = backend.users.at(-1);
    assert.equal(last?.user, 'capstan-admin');
    assert.ok(last.groups.includes('system:masters'), JSON.stringify(last));
    assert.equal(last.clientCN, 'front-proxy-client');
    assert.match(
      await ok(['api-resources', '--api-group', wardle.group]),
      /\nflunders\s+wardle\.example\.com\/v1\s+true\s+Flunder\n$/,
    );
  });

  it("merges the server's OpenAPI: kubectl explain reads its schema", async () => {
    const get = async (path: string): Promise<Record<string, unknown>> =>
      JSON.parse(await ok(['get', '--raw', path])) as Record<string, unknown>;
    let index: Record<string, unknown> = {};
    await eventually(
      async () => {
        index = await get('/openapi/v3');
        return (
          (index['paths'] as Record<string, unknown>)[`apis/${wardle.group}/${wardle.version}`] !== undefined
        );
      },
      'the v3 index to list the aggregated group version',
      { seen: () => Object.keys(index['paths'] ?? {}) },
    );
    const explained = await ok(['explain', 'flunders.spec']);
    assert.match(explained, /What a flunder wants\./);
    assert.match(explained, /reference\s+<string>\n\s+The name of another flunder\./);
    const v2 = await get('/openapi/v2');
    assert.ok(
      (v2['paths'] as Record<string, unknown>)[
        `/apis/${wardle.group}/${wardle.version}/namespaces/{namespace}/flunders`
      ],
    );
    assert.ok((v2['definitions'] as Record<string, unknown>)['com.example.wardle.v1.Flunder']);
    assert.ok((v2['definitions'] as Record<string, unknown>)['io.k8s.api.core.v1.Pod']);
  });

  /** An upgrade request to Capstan as kubectl's credentials make it: its 101's socket, or its answer. */
  async function upgrade(
    path: string,
    protocol: string,
  ): Promise<{ code: number; socket?: Duplex; body: string }> {
    const options: RequestOptions = {};
    await kc.applyToHTTPSOptions(options);
    const out = request(`${capstan.url}${path}`, {
      ...options,
      headers: { ...(options.headers as Record<string, string>), connection: 'Upgrade', upgrade: protocol },
    });
    out.end();
    const [answer, socket] = (await Promise.race([once(out, 'upgrade'), once(out, 'response')])) as [
      IncomingMessage,
      Duplex | undefined,
    ];
    if (socket !== undefined) return { code: answer.statusCode ?? 0, socket, body: '' };
    let body = '';
    for await (const chunk of answer) body += String(chunk);
    return { code: answer.statusCode ?? 0, body };
  }

  it('passes upgrade requests through: the server switches protocols and bytes flow both ways', async () => {
    const path = `/apis/${wardle.group}/${wardle.version}/namespaces/${ns}/flunders/alpha/echo`;
    const { code, socket } = await upgrade(path, 'echo');
    assert.equal(code, 101);
    assert.ok(socket);
    let seen = '';
    const read = async (want: string): Promise<void> => {
      while (!seen.includes(want)) seen += String((await once(socket, 'data'))[0]);
    };
    // The backend names the front-proxy user, not the caller's credentials.
    await read('user:capstan-admin\n');
    socket.write('ping');
    await read('ping');
    socket.destroy();
    // A refusal is passed on as an ordinary answer.
    const refused = await upgrade(path, 'other');
    assert.deepEqual(refused, { code: 400, body: 'upgrade refused\n' });
  });

  it('stopping the server makes the APIService unavailable and its group answer 503', async () => {
    await backend.close();
    const rawGet = (): ReturnType<typeof kubectl> =>
      kubectl(['get', '--raw', `/apis/${wardle.group}/${wardle.version}/namespaces/${ns}/flunders`]);
    // A request that cannot reach the server answers 503 at once and has the server checked again.
    const unreachable = await rawGet();
    assert.equal(unreachable.code, 1);
    assert.equal(unreachable.stderr, unavailableText);
    let seen: Condition | undefined;
    await eventually(
      async () => {
        seen = await available();
        return seen?.status === 'False';
      },
      'the APIService to turn unavailable',
      { seen: () => seen, timeoutMs: 12_000 },
    );
    assert.equal(seen?.reason, 'FailedDiscoveryCheck');
    assert.match(
      seen.message ?? '',
      /^failing or missing response from https:\/\/.+\/apis\/wardle\.example\.com\/v1: /,
    );
    const row = (await ok(['get', 'apiservices']))
      .split('\n')
      .find((l) => l.startsWith(`${apiServiceName} `));
    assert.match(row ?? '', /\sFalse \(FailedDiscoveryCheck\)\s/);
    const raw = await rawGet();
    assert.equal(raw.code, 1);
    assert.equal(raw.stderr, unavailableText);
    // kube-aggregator's status metrics, as kube-prometheus's KubeAggregatedAPIDown and
    // KubeAggregatedAPIErrors read them: 1 while unavailable, and the transition counted by reason.
    const metrics = (await ok(['get', '--raw', '/metrics'])).split('\n');
    assert.ok(metrics.includes(`aggregator_unavailable_apiservice{name="${apiServiceName}"} 1`));
    assert.ok(metrics.includes('aggregator_unavailable_apiservice{name="v1.apps"} 0'));
    assert.ok(
      metrics.includes(
        `aggregator_unavailable_apiservice_total{name="${apiServiceName}",reason="FailedDiscoveryCheck"} 1`,
      ),
    );
  });
});
