// The real kubectl against one Capstan process serving a CustomResourceDefinition whose versions
// convert through a webhook in Node (`https`, its own CA in caBundle, by URL): objects stored at v1
// ({host, port}) read at v1 and v2 ({address}) with `kubectl get <plural>.<version>.<group>`, a
// `kubectl get -w` over v2 sees converted events, and a failing webhook gives kube's error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';
import { spawnKubectl, type KubectlStream } from './support/kubectl-stream.js';
import { startWebhookServer, type WebhookServer } from '../integration/support/webhook-server.js';
import { convertWidget as convert, widgetGroup } from '../integration/support/widget-conversion.js';

type Obj = Record<string, unknown> & { apiVersion: string };
interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: Obj[];
}

const group = widgetGroup;

function crd(plural: string, kind: string, url: string, caBundle: string): Record<string, unknown> {
  const schema = (props: Record<string, unknown>): Record<string, unknown> => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } },
  });
  const column = (path: string): Record<string, unknown>[] => [
    { name: 'Where', type: 'string', jsonPath: path },
  ];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({ host: { type: 'string' }, port: { type: 'integer' } }),
          additionalPrinterColumns: column('.spec.host'),
        },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: schema({ address: { type: 'string' } }),
          additionalPrinterColumns: column('.spec.address'),
        },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: ['v1'] },
      },
    },
  };
}

describe('kubectl against capstan: CRD conversion webhook', () => {
  let capstan: CapstanProcess | undefined;
  let hooks: WebhookServer | undefined;
  let dir: string | undefined;
  let failing = false;
  const streams: KubectlStream[] = [];
  const kubectl = (args: readonly string[]): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan?.kubeconfigPath ?? '' });
  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  const apply = async (name: string, obj: unknown): Promise<void> => {
    const file = join(dir ?? tmpdir(), `${name}.json`);
    await writeFile(file, JSON.stringify(obj));
    await ok(['apply', '-f', file]);
  };

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-e2e-conversion-'));
    const server = await startWebhookServer();
    hooks = server;
    server.handle('/convert', (review) => {
      const req = review.request as unknown as ConversionRequest;
      return {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: req.uid,
          result: failing ? { status: 'Failure', message: 'the converter is broken' } : { status: 'Success' },
          convertedObjects: failing ? [] : req.objects.map((o) => convert(o, req.desiredAPIVersion)),
        },
      };
    });
    // The in-memory store: this file tests conversion, not the SQLite file.
    capstan = await startCapstanProcess({ port: await freePort(), args: ['--storage-backend=memory'] });
    await apply('crd', crd('widgets', 'Widget', server.url('/convert'), server.caBundle));
    await ok(['wait', '--for=condition=Established', `crd/widgets.${group}`, '--timeout=10s']);
  });

  after(async () => {
    for (const s of streams) await s.stop();
    await capstan?.stop();
    await hooks?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('kubectl creates through v2 and gets v2 and v1', async () => {
    await apply('w1', {
      apiVersion: `${group}/v2`,
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default' },
      spec: { address: 'example.org:8080' },
    });
    const v2 = JSON.parse(await ok(['get', `widgets.v2.${group}`, 'w1', '-o', 'json'])) as Obj;
    assert.equal(v2.apiVersion, `${group}/v2`);
    assert.deepEqual(v2['spec'], { address: 'example.org:8080' });
    const v1 = JSON.parse(await ok(['get', `widgets.v1.${group}`, 'w1', '-o', 'json'])) as Obj;
    assert.equal(v1.apiVersion, `${group}/v1`);
    assert.deepEqual(v1['spec'], { host: 'example.org', port: 8080 });
    const table2 = await ok(['get', `widgets.v2.${group}`]);
    // Each version's own printer columns, over the object at that version.
    assert.match(table2, /^NAME\s+WHERE\nw1\s+example\.org:8080\n$/);
    const table1 = await ok(['get', `widgets.v1.${group}`]);
    assert.match(table1, /^NAME\s+WHERE\nw1\s+example\.org\n$/);
  });

  it('kubectl get -w over v2 sees converted events', async () => {
    const watch = await spawnKubectl(
      ['get', `widgets.v2.${group}`, '-w', '-o', 'json', '--output-watch-events'],
      {
        kubeconfig: capstan?.kubeconfigPath ?? '',
      },
    );
    streams.push(watch);
    await watch.waitForStdout(/"type":\s*"ADDED"[\s\S]*example\.org:8080/);
    await ok([
      'patch',
      `widgets.v2.${group}`,
      'w1',
      '--type=merge',
      '-p',
      '{"spec":{"address":"example.org:9090"}}',
    ]);
    const out = await watch.waitForStdout(/"type":\s*"MODIFIED"[\s\S]*example\.org:9090/);
    assert.doesNotMatch(out, /"host"/, 'every event is at v2');
    const v1 = JSON.parse(await ok(['get', `widgets.v1.${group}`, 'w1', '-o', 'json'])) as Obj;
    assert.deepEqual(v1['spec'], { host: 'example.org', port: 9090 });
  });

  it('a failing webhook gives kube’s error; the storage version still reads', async () => {
    failing = true;
    try {
      const r = await kubectl(['get', `widgets.v2.${group}`, 'w1']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr.trim(),
        `Error from server: conversion webhook for ${group}/v1, Kind=Widget failed: the converter is broken`,
      );
      await ok(['get', `widgets.v1.${group}`, 'w1']);
    } finally {
      failing = false;
    }
  });
});
