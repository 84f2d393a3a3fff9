// The real kubectl against one Capstan process calling admission webhooks served by a Node https
// server with its own CA: a validating webhook behind a Service denies a Pod, a mutating one adds
// labels (with reinvocation), failurePolicy Fail and Ignore with the server down, a timeout,
// matchConditions with object and namespace selectors, and a server-side dry run. Each
// configuration selects its own namespace (label `case`), so the cases share the server.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's model classes are plain JSON shapes on the wire; its own docs pass object literals */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { eventually } from './support/client-node-helpers.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';
import {
  allow,
  deny,
  nonLoopbackAddress,
  patch,
  startWebhookServer,
  type AdmissionReviewIn,
  type WebhookServer,
} from '../integration/support/webhook-server.js';

const labelsOf = (review: AdmissionReviewIn): Record<string, string> =>
  (review.request.object?.['metadata'] as { labels?: Record<string, string> } | undefined)?.labels ?? {};

/** A patch answer adding one label (and the labels map when the pod has none). */
const addLabel = (review: AdmissionReviewIn, key: string, value: string): Record<string, unknown> =>
  review.request.object?.['metadata'] !== undefined &&
  (review.request.object['metadata'] as { labels?: unknown }).labels !== undefined
    ? patch(review, [{ op: 'add', path: `/metadata/labels/${key}`, value }])
    : patch(review, [{ op: 'add', path: '/metadata/labels', value: { [key]: value } }]);

describe('kubectl against capstan: admission webhooks', () => {
  let capstan: CapstanProcess;
  let hooks: WebhookServer;
  let dir: string;
  let core: CoreV1Api;
  const kubectl = (args: readonly string[]): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath });
  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };

  async function namespace(name: string): Promise<void> {
    await core.createNamespace({ body: { metadata: { name, labels: { case: name } } } });
  }

  /** Applies one webhook configuration on pod creates in namespace `ns` with kubectl. */
  async function configure(
    kind: 'Validating' | 'Mutating',
    ns: string,
    webhook: Record<string, unknown> & { name: string },
  ): Promise<void> {
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: `${kind}WebhookConfiguration`,
      metadata: { name: `${ns}-${webhook.name}` },
      webhooks: [
        {
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
          namespaceSelector: { matchLabels: { case: ns } },
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          ...webhook,
        },
      ],
    };
    const file = join(dir, `${ns}-${webhook.name}.json`);
    await writeFile(file, JSON.stringify(config));
    await ok(['apply', '-f', file]);
  }

  /** Server-side dry-run pod creates in `ns` until `ready` holds after one (the webhook is in force). */
  async function untilInForce(ns: string, ready: (err: unknown) => boolean): Promise<void> {
    let i = 0;
    await eventually(async () => {
      i++;
      const body = {
        metadata: { name: `probe-${String(i)}` },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      };
      try {
        await core.createNamespacedPod({ namespace: ns, body, dryRun: 'All' });
        return ready(undefined);
      } catch (err) {
        return ready(err);
      }
    }, `the webhooks of ${ns} to be called`);
  }

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-webhooks-'));
    hooks = await startWebhookServer(['pod-policy.e2e-wh-deny.svc']);
    capstan = await startCapstanProcess({ port: await freePort() });
    const kc = new KubeConfig();
    kc.loadFromFile(capstan.kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
  });

  after(async () => {
    await capstan.stop();
    await hooks.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a validating webhook behind a Service denies a Pod; kubectl shows kube’s text and the warning', async () => {
    const ns = 'e2e-wh-deny';
    await namespace(ns);
    // Endpoints may not be loopback addresses: the machine's own serves, else an ExternalName.
    const address = nonLoopbackAddress();
    await core.createNamespacedService({
      namespace: ns,
      body: {
        metadata: { name: 'pod-policy' },
        spec:
          address === undefined
            ? { type: 'ExternalName', externalName: 'localhost' }
            : { ports: [{ name: 'https', port: 443, targetPort: hooks.port }] },
      },
    });
    if (address !== undefined) await ok(['apply', '-f', await endpointSliceFile(ns, address)]);
    hooks.handle('/validate', (review) =>
      labelsOf(review)['deny'] === 'yes'
        ? deny(review, 'pods labelled deny=yes are not allowed')
        : allow(review, { warnings: ['pods here are watched'] }),
    );
    await configure('Validating', ns, {
      name: 'pod-policy.example.com',
      clientConfig: {
        service: {
          namespace: ns,
          name: 'pod-policy',
          path: '/validate',
          ...(address === undefined ? { port: hooks.port } : {}),
        },
        caBundle: hooks.caBundle,
      },
    });
    await untilInForce(ns, () => hooks.received('/validate').length > 0);
    const denied = await kubectl(['run', 'denied', '-n', ns, '--image=nginx', '--labels=deny=yes']);
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      'Error from server: admission webhook "pod-policy.example.com" denied the request: pods labelled deny=yes are not allowed\n',
    );
    const allowed = await kubectl(['run', 'allowed', '-n', ns, '--image=nginx']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout, 'pod/allowed created\n');
    assert.equal(allowed.stderr, 'Warning: pods here are watched\n');
  });

  async function endpointSliceFile(ns: string, address: string): Promise<string> {
    const file = join(dir, 'slice.json');
    await writeFile(
      file,
      JSON.stringify({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: 'pod-policy-1',
          namespace: ns,
          labels: { 'kubernetes.io/service-name': 'pod-policy' },
        },
        addressType: 'IPv4',
        endpoints: [{ addresses: [address], conditions: { ready: true } }],
        ports: [{ name: 'https', port: hooks.port, protocol: 'TCP' }],
      }),
    );
    return file;
  }

  it('mutating webhooks add labels and a sidecar; the chain runs again (ServiceAccount mounts the token in it, an IfNeeded webhook sees the change)', async () => {
    const ns = 'e2e-wh-mutate';
    await namespace(ns);
    hooks.handle('/count', (review) => {
      const seen = String(Number(labelsOf(review)['count'] ?? '0') + 1);
      return addLabel(review, 'count', seen);
    });
    hooks.handle('/team', (review) => {
      const labelled = addLabel(review, 'team', 'web') as { response: { patch: string } };
      const ops = JSON.parse(Buffer.from(labelled.response.patch, 'base64').toString()) as unknown[];
      const sidecar = { name: 'sidecar', image: 'busybox' };
      return patch(review, [...ops, { op: 'add', path: '/spec/containers/-', value: sidecar }]);
    });
    await configure('Mutating', ns, {
      name: 'a-count.example.com',
      reinvocationPolicy: 'IfNeeded',
      clientConfig: { url: hooks.url('/count'), caBundle: hooks.caBundle },
    });
    await configure('Mutating', ns, {
      name: 'b-team.example.com',
      clientConfig: { url: hooks.url('/team'), caBundle: hooks.caBundle },
    });
    await untilInForce(ns, () => hooks.received('/team').length > 0);
    assert.equal(await ok(['run', 'm', '-n', ns, '--image=nginx']), 'pod/m created\n');
    const labels = JSON.parse(
      await ok(['get', 'pod', 'm', '-n', ns, '-o', 'jsonpath={.metadata.labels}']),
    ) as unknown;
    assert.deepEqual(labels, { run: 'm', count: '2', team: 'web' });
    const mounts = JSON.parse(
      await ok(['get', 'pod', 'm', '-n', ns, '-o', 'jsonpath={.spec.containers[1].volumeMounts}']),
    ) as { mountPath: string }[];
    assert.deepEqual(
      mounts.map((m) => m.mountPath),
      ['/var/run/secrets/kubernetes.io/serviceaccount'],
    );
  });

  it('failurePolicy Fail refuses a Pod when the webhook is down; Ignore lets it through', async () => {
    const port = await freePort();
    const url = `https://127.0.0.1:${String(port)}/down`;
    await namespace('e2e-wh-fail');
    await configure('Validating', 'e2e-wh-fail', {
      name: 'down.example.com',
      clientConfig: { url, caBundle: hooks.caBundle },
    });
    await namespace('e2e-wh-ignore');
    await configure('Validating', 'e2e-wh-ignore', {
      name: 'down.example.com',
      failurePolicy: 'Ignore',
      clientConfig: { url, caBundle: hooks.caBundle },
    });
    await untilInForce('e2e-wh-fail', (err) => err !== undefined);
    const failed = await kubectl(['run', 'p', '-n', 'e2e-wh-fail', '--image=nginx']);
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr,
      `Error from server (InternalError): Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "${url}?timeout=10s": dial tcp 127.0.0.1:${String(port)}: connect: connection refused\n`,
    );
    assert.equal(await ok(['run', 'p', '-n', 'e2e-wh-ignore', '--image=nginx']), 'pod/p created\n');
  });

  it('a webhook that does not answer within timeoutSeconds fails the request', async () => {
    const ns = 'e2e-wh-slow';
    await namespace(ns);
    hooks.handle('/slow', () => 'hang');
    await configure('Validating', ns, {
      name: 'slow.example.com',
      timeoutSeconds: 1,
      clientConfig: { url: hooks.url('/slow'), caBundle: hooks.caBundle },
    });
    // Each try waits out the timeout, so kubectl itself tries until the configuration is in force.
    let failed: KubectlResult | undefined;
    let i = 0;
    await eventually(async () => {
      failed = await kubectl(['run', `p-${String(i++)}`, '-n', ns, '--image=nginx']);
      return failed.code !== 0;
    }, 'the slow webhook to be called');
    assert.equal(
      failed?.stderr,
      `Error from server (InternalError): Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hooks.url('/slow')}?timeout=1s": context deadline exceeded\n`,
    );
  });

  it('matchConditions, the objectSelector and the namespaceSelector choose which Pods are sent', async () => {
    const ns = 'e2e-wh-select';
    await namespace(ns);
    await namespace('e2e-wh-other');
    hooks.handle('/select', (review) => deny(review, 'selected'));
    await configure('Validating', ns, {
      name: 'select.example.com',
      objectSelector: { matchLabels: { checked: 'yes' } },
      matchConditions: [{ name: 'not-exempt', expression: "object.metadata.name != 'exempt'" }],
      clientConfig: { url: hooks.url('/select'), caBundle: hooks.caBundle },
    });
    const run = (name: string, namespaceName: string, labels: string) =>
      kubectl(['run', name, '-n', namespaceName, '--image=nginx', `--labels=${labels}`]);
    await eventually(async () => (await run('first', ns, 'checked=yes')).code === 1, 'the webhook to deny');
    const denied = await run('checked', ns, 'checked=yes');
    assert.match(denied.stderr, /admission webhook "select.example.com" denied the request: selected/);
    assert.equal((await run('unchecked', ns, 'checked=no')).stdout, 'pod/unchecked created\n');
    assert.equal((await run('exempt', ns, 'checked=yes')).stdout, 'pod/exempt created\n');
    assert.equal((await run('elsewhere', 'e2e-wh-other', 'checked=yes')).stdout, 'pod/elsewhere created\n');
  });

  it('a server-side dry run reaches a webhook with sideEffects None as a dry run, and stores nothing', async () => {
    const ns = 'e2e-wh-dry';
    await namespace(ns);
    hooks.handle('/dry', (review) => allow(review));
    await configure('Validating', ns, {
      name: 'dry.example.com',
      clientConfig: { url: hooks.url('/dry'), caBundle: hooks.caBundle },
    });
    await untilInForce(ns, () => hooks.received('/dry').length > 0);
    assert.equal(
      await ok(['run', 'd', '-n', ns, '--image=nginx', '--dry-run=server']),
      'pod/d created (server dry run)\n',
    );
    const review = hooks.received('/dry').at(-1);
    assert.equal(review?.request['name'], 'd');
    assert.equal(review.request['dryRun'], true);
    const get = await kubectl(['get', 'pod', 'd', '-n', ns]);
    assert.equal(get.stderr, 'Error from server (NotFound): pods "d" not found\n');
  });
});
