// server.installWebhooks(): envtest's WebhookInstallOptions. An operator's webhook manifests (which
// name a Service) are installed aimed at a webhook server the test runs on the address and with
// the certificate handed back; the API server then calls it for admission, and a CRD installed with
// that server as its conversion webhook is converted by it too.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer, type WebhookServing } from '../../src/index.js';
import { adminToken, call } from './support/https-call.js';

interface Review {
  request: { uid: string; object?: { metadata?: { name?: string } } };
}
interface ConversionReview {
  request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] };
}

const serviceRef = (path: string): Record<string, unknown> => ({
  service: { name: 'webhook-service', namespace: 'system', path },
});

const validating = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'validating-webhook-configuration' },
  webhooks: [
    {
      name: 'vconfigmap.example.com',
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      clientConfig: serviceRef('/validate-v1-configmap'),
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
    },
  ],
};

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'dials.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
    scope: 'Namespaced',
    conversion: {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1'], clientConfig: serviceRef('/convert') },
    },
    versions: ['v1', 'v2'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    })),
  },
};

describe('webhooks installed for a webhook server the test runs', () => {
  let dir: string;
  let server: CapstanServer;
  let token: string;
  let serving: WebhookServing;
  let hooks: Server;
  const seen: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-webhooks-'));
    await writeFile(join(dir, 'manifests.yaml'), `${JSON.stringify(validating)}\n`);
    server = await startCapstan({ storage: 'memory' });
    token = adminToken(server);
    serving = await server.installWebhooks({ paths: [dir] });
    hooks = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        // The API server adds ?timeout=10s to each call.
        const path = new URL(req.url ?? '', serving.url).pathname;
        seen.push(path);
        res.setHeader('content-type', 'application/json');
        if (path === '/convert') {
          const { request } = JSON.parse(body) as ConversionReview;
          const convertedObjects = request.objects.map((o) => ({
            ...o,
            apiVersion: request.desiredAPIVersion,
          }));
          res.end(
            JSON.stringify({
              apiVersion: 'apiextensions.k8s.io/v1',
              kind: 'ConversionReview',
              response: { uid: request.uid, result: { status: 'Success' }, convertedObjects },
            }),
          );
          return;
        }
        const { request } = JSON.parse(body) as Review;
        const allowed = request.object?.metadata?.name !== 'forbidden';
        res.end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: {
              uid: request.uid,
              allowed,
              status: { message: 'the test webhook says no', code: 403 },
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => hooks.listen(serving.port, serving.host, resolve));
  });

  after(async () => {
    await new Promise((resolve) => hooks.close(resolve));
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('aims the manifests’ webhooks at the local server, trusting the CA it hands back', async () => {
    assert.deepEqual(serving.installed, ['ValidatingWebhookConfiguration/validating-webhook-configuration']);
    assert.equal(serving.url, `https://127.0.0.1:${serving.port}`);
    const got = await call(server, {
      path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validating-webhook-configuration',
      token,
    });
    const clientConfig = (got.json['webhooks'] as { clientConfig: Record<string, unknown> }[])[0]
      ?.clientConfig;
    assert.deepEqual(clientConfig, {
      url: `${serving.url}/validate-v1-configmap`,
      caBundle: Buffer.from(serving.caPem).toString('base64'),
    });
  });

  it('has the API server call it: an allowed create and a denied one', async () => {
    const create = (name: string) =>
      call(server, {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        token,
        body: { metadata: { name } },
      });
    assert.equal((await create('allowed')).status, 201);
    const denied = await create('forbidden');
    assert.equal(denied.status, 403);
    assert.match(String(denied.json['message']), /denied the request: the test webhook says no/);
    assert.ok(seen.includes('/validate-v1-configmap'));
  });

  it('aims a CRD’s conversion webhook at it too', async () => {
    await server.installCRDs({ objects: [crd], conversionWebhook: serving });
    const made = await call(server, {
      method: 'POST',
      path: '/apis/example.com/v2/namespaces/default/dials',
      token,
      body: { apiVersion: 'example.com/v2', kind: 'Dial', metadata: { name: 'd' } },
    });
    assert.equal(made.status, 201, made.body);
    assert.equal(made.json['apiVersion'], 'example.com/v2');
    assert.ok(seen.includes('/convert'));
  });
});
