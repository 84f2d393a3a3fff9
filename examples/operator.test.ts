// Testing an operator's reconcile logic against a real API server: install the operator's CRD,
// create a custom resource, run one reconcile that reads it and writes its status, check the result.
// The server is in this process on the in-memory store; nothing to install, nothing to clean up.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { startCapstan, type CapstanServer } from '../src/index.js';

interface Greeting {
  metadata: { name: string; namespace: string };
  spec: { message: string };
  status?: { configMap?: string };
}

const greetings = { group: 'demo.example.com', version: 'v1', plural: 'greetings' } as const;

let server: CapstanServer;
let kc: KubeConfig;

before(async () => {
  server = await startCapstan({ storage: 'memory' });
  kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(server.kubeConfig));
  // Install the CRD as the operator's manifests would. It is served as soon as it is created.
  await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
    body: {
      metadata: { name: 'greetings.demo.example.com' },
      spec: {
        group: greetings.group,
        scope: 'Namespaced',
        names: { plural: 'greetings', singular: 'greeting', kind: 'Greeting' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['message'],
                    properties: { message: { type: 'string' } },
                  },
                  status: { type: 'object', properties: { configMap: { type: 'string' } } },
                },
              },
            },
          },
        ],
      },
    },
  });
});

after(async () => {
  await server.stop();
});

/** The operator under test: one reconcile of one Greeting writes a ConfigMap and records it. */
async function reconcile(namespace: string, name: string): Promise<void> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const core = kc.makeApiClient(CoreV1Api);
  const greeting = (await custom.getNamespacedCustomObject({ ...greetings, namespace, name })) as Greeting;
  const configMap = `${name}-greeting`;
  await core.createNamespacedConfigMap({
    namespace,
    body: { metadata: { name: configMap }, data: { message: greeting.spec.message } },
  });
  await custom.replaceNamespacedCustomObjectStatus({
    ...greetings,
    namespace,
    name,
    body: { ...greeting, status: { configMap } },
  });
}

test('reconciling a Greeting writes its ConfigMap and records it in the status', async () => {
  const custom = kc.makeApiClient(CustomObjectsApi);
  await custom.createNamespacedCustomObject({
    ...greetings,
    namespace: 'default',
    body: {
      apiVersion: 'demo.example.com/v1',
      kind: 'Greeting',
      metadata: { name: 'hello' },
      spec: { message: 'hi' },
    },
  });

  await reconcile('default', 'hello');

  const cm = await kc
    .makeApiClient(CoreV1Api)
    .readNamespacedConfigMap({ namespace: 'default', name: 'hello-greeting' });
  assert.deepEqual(cm.data, { message: 'hi' });
  const after = (await custom.getNamespacedCustomObject({
    ...greetings,
    namespace: 'default',
    name: 'hello',
  })) as Greeting;
  assert.deepEqual(after.status, { configMap: 'hello-greeting' });
});
