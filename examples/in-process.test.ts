// Capstan inside your own process, as a test fixture: start an API server on a free port with the
// in-memory store, talk to it with @kubernetes/client-node, stop it.
//
// This file imports the source tree; after `npm run build`, an application imports the same API
// from the package instead: `import { startCapstan } from 'capstan';`
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startCapstan, type CapstanServer } from '../src/index.js';

let server: CapstanServer;
let core: CoreV1Api;

before(async () => {
  server = await startCapstan({ storage: 'memory' });
  // server.kubeConfig is a kubeconfig document (the same one written to server.kubeconfigPath);
  // JSON is YAML, so client-node reads it as is.
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(server.kubeConfig));
  core = kc.makeApiClient(CoreV1Api);
});

after(async () => {
  await server.stop();
});

test('create a ConfigMap and read it back', async () => {
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'greeting' }, data: { hello: 'world' } },
  });

  const read = await core.readNamespacedConfigMap({ name: 'greeting', namespace: 'default' });
  assert.deepEqual(read.data, { hello: 'world' });
  assert.ok(read.metadata?.uid, 'the server filled in a uid');
});
