// The defaults kube's decoder sets (the SetDefaults_* functions the schema cannot state: a
// container's imagePullPolicy from its image's tag, a Pod's enableServiceLinks, a Deployment's
// strategy) are in place before the field manager runs, so managedFields record them as the
// request's own fields, as kube 1.33 records them, for a create, a PUT and a patch alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';

interface Entry {
  readonly manager?: string;
  readonly fieldsV1?: Record<string, Record<string, unknown>>;
}
interface Answer {
  readonly metadata: { readonly managedFields?: readonly Entry[]; readonly resourceVersion?: string };
  readonly spec: Record<string, unknown>;
}

let server: CapstanServer;
const http = new RawHttp(() => server);

async function call(path: string, opts: Parameters<RawHttp['call']>[1]): Promise<Answer> {
  const { status, text } = await http.call(path, opts);
  assert.ok(status === 200 || status === 201, `${status} ${text}`);
  return JSON.parse(text) as Answer;
}

/** The fields `manager` owns, as FieldsV1. */
function owned(a: Answer, manager: string): Record<string, Record<string, unknown>> {
  const entry = a.metadata.managedFields?.find((e) => e.manager === manager);
  assert.ok(entry?.fieldsV1 !== undefined, `no managedFields entry for ${manager}`);
  return entry.fieldsV1;
}

const pods = '/api/v1/namespaces/default/pods';
const container = (name: string, image: string) => ({ name, image });

describe('defaults set as a body is decoded, before the field manager', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    http.close();
    await server.stop();
  });

  it("records a create's decoder defaults for its manager", async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [container('app', 'nginx')] },
    };
    const created = await call(`${pods}?fieldManager=creator`, { method: 'POST', body: pod });
    const spec = owned(created, 'creator')['f:spec'] ?? {};
    assert.ok('f:enableServiceLinks' in spec, 'SetDefaults_Pod: enableServiceLinks');
    const app = (spec['f:containers'] as Record<string, Record<string, unknown>>)['k:{"name":"app"}'] ?? {};
    assert.ok('f:imagePullPolicy' in app, 'SetDefaults_Container: imagePullPolicy');
    assert.equal(
      (created.spec['containers'] as { imagePullPolicy?: string }[])[0]?.imagePullPolicy,
      'Always',
    );
  });

  it("records a patch's decoder defaults for the patch's manager, not the creator's", async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const template = {
      metadata: { labels: { app: 'd' } },
      spec: { containers: [container('app', 'nginx:1.27')] },
    };
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template },
    };
    await call(`${deployments}?fieldManager=creator`, { method: 'POST', body: d });
    const added = {
      spec: {
        template: { spec: { containers: [container('app', 'nginx:1.27'), container('side', 'busybox')] } },
      },
    };
    const patched = await call(`${deployments}/d?fieldManager=patcher`, {
      method: 'PATCH',
      body: added,
      contentType: 'application/strategic-merge-patch+json',
    });
    const containers = ((
      (owned(patched, 'patcher')['f:spec'] ?? {})['f:template'] as Record<string, Record<string, unknown>>
    )['f:spec'] ?? {})['f:containers'] as Record<string, Record<string, unknown>>;
    assert.ok(
      'f:imagePullPolicy' in (containers['k:{"name":"side"}'] ?? {}),
      "the sidecar's pull policy is the patch's",
    );
    const creator = owned(patched, 'creator')['f:spec'] ?? {};
    assert.ok('f:strategy' in creator, "SetDefaults_Deployment: the strategy is the creator's");
  });

  it("records a PUT's decoder defaults for its manager", async () => {
    const rcs = '/api/v1/namespaces/default/replicationcontrollers';
    const rc = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: {
        selector: { app: 'rc' },
        template: {
          metadata: { labels: { app: 'rc' } },
          spec: { containers: [container('app', 'nginx:1.27')] },
        },
      },
    };
    const created = await call(rcs, { method: 'POST', body: rc });
    const put = {
      ...rc,
      metadata: { name: 'rc', resourceVersion: created.metadata.resourceVersion },
      spec: {
        ...rc.spec,
        template: {
          ...rc.spec.template,
          spec: { containers: [container('app', 'nginx:1.27'), container('side', 'busybox')] },
        },
      },
    };
    const replaced = await call(`${rcs}/rc?fieldManager=putter`, { method: 'PUT', body: put });
    const spec = owned(replaced, 'putter')['f:spec'] ?? {};
    const containers = ((spec['f:template'] as Record<string, Record<string, unknown>>)['f:spec'] ?? {})[
      'f:containers'
    ] as Record<string, Record<string, unknown>>;
    assert.ok('f:imagePullPolicy' in (containers['k:{"name":"side"}'] ?? {}));
  });
});
