// API Priority and Fairness over HTTP in one server: kube's mandatory and suggested configuration
// bootstrapped (and the mandatory objects restored when changed), the Dangling condition, kube's
// validation texts, and every request classified: the X-Kubernetes-PF-* headers name the matching
// FlowSchema and priority level for system:masters, a service account and its probes.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

interface Obj {
  metadata: {
    name: string;
    uid: string;
    generation?: number;
    annotations?: Record<string, string>;
    resourceVersion?: string;
  };
  spec: Record<string, unknown>;
  status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
}

const fc = '/apis/flowcontrol.apiserver.k8s.io/v1';

const expectedSchemas = [
  'catch-all',
  'endpoint-controller',
  'exempt',
  'global-default',
  'kube-controller-manager',
  'kube-scheduler',
  'kube-system-service-accounts',
  'probes',
  'service-accounts',
  'system-leader-election',
  'system-node-high',
  'system-nodes',
  'workload-leader-election',
];
const expectedLevels = [
  'catch-all',
  'exempt',
  'global-default',
  'leader-election',
  'node-high',
  'system',
  'workload-high',
  'workload-low',
];

describe('flowcontrol.apiserver.k8s.io', () => {
  let server: CapstanServer;
  let saToken: string;
  let dir: string;
  const userToken = 'jane-token-0123456789';
  const call = async (
    path: string,
    init: { method?: string; body?: unknown; token?: string | null; contentType?: string } = {},
  ) => {
    const token = init.token === undefined ? (server.kubeConfig.users[0]?.user.token ?? '') : init.token;
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        accept: 'application/json',
        'content-type': init.contentType ?? 'application/json',
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: (text.startsWith('{') ? JSON.parse(text) : {}) as Record<string, unknown>,
      text,
    };
  };
  const list = async (resource: string): Promise<Obj[]> =>
    (await call(`${fc}/${resource}`)).body['items'] as Obj[];
  const get = async (resource: string, name: string): Promise<Obj> =>
    (await call(`${fc}/${resource}/${name}`)).body as unknown as Obj;
  const uidOf = async (resource: string, name: string): Promise<string> =>
    (await get(resource, name)).metadata.uid;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-flowcontrol-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${userToken},jane,u-jane\n`);
    server = await startCapstan({ storage: 'memory', scheme: 'http', tokenAuthFile: tokenFile });
    await call('/api/v1/namespaces/default/serviceaccounts', {
      method: 'POST',
      body: { metadata: { name: 'robot' } },
    });
    const tr = await call('/api/v1/namespaces/default/serviceaccounts/robot/token', {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    });
    saToken = (tr.body['status'] as { token: string }).token;
  });

  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("bootstraps kube's mandatory and suggested objects, auto-updated, none dangling", async () => {
    const schemas = await waitFor(
      'every FlowSchema with its Dangling condition',
      () => list('flowschemas'),
      (items) =>
        items.length === expectedSchemas.length && items.every((i) => i.status?.conditions?.length === 1),
    );
    assert.deepEqual(schemas.map((s) => s.metadata.name).sort(), expectedSchemas);
    for (const s of schemas) {
      assert.equal(s.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true', s.metadata.name);
      const [c] = s.status?.conditions ?? [];
      assert.deepEqual([c?.type, c?.status, c?.reason], ['Dangling', 'False', 'Found']);
    }
    const catchAll = schemas.find((s) => s.metadata.name === 'catch-all');
    assert.equal(
      catchAll?.status?.conditions?.[0]?.message,
      'This FlowSchema references the PriorityLevelConfiguration object named "catch-all" and it exists',
    );
    const levels = await list('prioritylevelconfigurations');
    assert.deepEqual(levels.map((l) => l.metadata.name).sort(), expectedLevels);
    assert.deepEqual((await get('prioritylevelconfigurations', 'exempt')).spec, {
      type: 'Exempt',
      exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 },
    });
    assert.deepEqual((await get('prioritylevelconfigurations', 'workload-low')).spec, {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 100,
        lendablePercent: 90,
        limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
      },
    });
  });

  it('classifies system:masters, a service account and probes into their FlowSchemas', async () => {
    const cases: { token: string | null; path: string; fs: string; pl: string }[] = [
      {
        token: server.kubeConfig.users[0]?.user.token ?? '',
        path: '/api/v1/namespaces',
        fs: 'exempt',
        pl: 'exempt',
      },
      {
        token: saToken,
        path: '/api/v1/namespaces/default/configmaps',
        fs: 'service-accounts',
        pl: 'workload-low',
      },
      // Anonymous requests are refused before classification under AlwaysAllow (anonymous is off, as
      // kube): a plain user's fall to the catch-all groups' schemas.
      { token: userToken, path: '/version', fs: 'global-default', pl: 'global-default' },
      { token: userToken, path: '/healthz', fs: 'probes', pl: 'exempt' },
    ];
    for (const c of cases) {
      const res = await call(c.path, { token: c.token });
      assert.equal(
        res.headers.get('x-kubernetes-pf-flowschema-uid'),
        await uidOf('flowschemas', c.fs),
        `${c.path} ${c.fs}`,
      );
      assert.equal(
        res.headers.get('x-kubernetes-pf-prioritylevel-uid'),
        await uidOf('prioritylevelconfigurations', c.pl),
        `${c.path} ${c.pl}`,
      );
    }
  });

  it('counts requests by flow schema and priority level on /metrics (apiserver_flowcontrol_*)', async () => {
    const sample = (text: string, name: string, fs: string, pl: string): number => {
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`${name}{flow_schema="${fs}",priority_level="${pl}"} `));
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const dispatched = 'apiserver_flowcontrol_dispatched_requests_total';
    const before = (await call('/metrics')).text;
    for (let i = 0; i < 3; i++)
      assert.equal((await call('/api/v1/namespaces/default/configmaps', { token: saToken })).status, 200);
    const after = (await call('/metrics')).text;
    assert.equal(
      sample(after, dispatched, 'service-accounts', 'workload-low') -
        sample(before, dispatched, 'service-accounts', 'workload-low'),
      3,
    );
    assert.ok(sample(after, dispatched, 'exempt', 'exempt') >= 2, after);
    // The scrape itself is executing while it renders.
    assert.equal(sample(after, 'apiserver_flowcontrol_current_executing_requests', 'exempt', 'exempt'), 1);
    assert.match(after, /# HELP apiserver_flowcontrol_rejected_requests_total Number of requests rejected/);
  });

  it('classifies by a new FlowSchema of lower precedence once it is created, and marks a dangling one', async () => {
    const create = await call(`${fc}/flowschemas`, {
      method: 'POST',
      body: {
        metadata: { name: 'robots' },
        spec: {
          priorityLevelConfiguration: { name: 'workload-high' },
          matchingPrecedence: 50,
          rules: [
            {
              subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'default', name: 'robot' } }],
              resourceRules: [
                { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], namespaces: ['default'] },
              ],
            },
          ],
        },
      },
    });
    assert.equal(create.status, 201, JSON.stringify(create.body));
    const uid = (create.body['metadata'] as { uid: string }).uid;
    await waitFor(
      'the robot classified by the new schema',
      async () =>
        (await call('/api/v1/namespaces/default/configmaps', { token: saToken })).headers.get(
          'x-kubernetes-pf-flowschema-uid',
        ),
      (v) => v === uid,
    );
    // Not matched by the rule's verbs: the next schema.
    const other = await call('/api/v1/namespaces/default/secrets', { token: saToken });
    assert.equal(
      other.headers.get('x-kubernetes-pf-flowschema-uid'),
      await uidOf('flowschemas', 'service-accounts'),
    );

    await call(`${fc}/flowschemas`, {
      method: 'POST',
      body: {
        metadata: { name: 'nowhere' },
        spec: { priorityLevelConfiguration: { name: 'missing' }, rules: [] },
      },
    });
    const nowhere = await waitFor(
      'the Dangling condition of a schema without its level',
      () => get('flowschemas', 'nowhere'),
      (o) => o.status?.conditions?.[0]?.status === 'True',
    );
    assert.equal(nowhere.spec['matchingPrecedence'], 1000);
    assert.deepEqual(
      nowhere.status?.conditions?.map((c) => [c.reason, c.message]),
      [
        [
          'NotFound',
          'This FlowSchema references the PriorityLevelConfiguration object named "missing" but there is no such object',
        ],
      ],
    );
  });

  it('restores a changed mandatory object, keeps a suggested one an operator took over', async () => {
    const catchAll = await get('flowschemas', 'catch-all');
    const changed = await call(`${fc}/flowschemas/catch-all`, {
      method: 'PUT',
      body: {
        ...catchAll,
        metadata: { ...catchAll.metadata, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } },
        spec: { ...catchAll.spec, matchingPrecedence: 5000 },
      },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const restored = await waitFor(
      'catch-all restored',
      () => get('flowschemas', 'catch-all'),
      (o) => o.spec['matchingPrecedence'] === 10000,
    );
    assert.equal(restored.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true');

    const system = await get('prioritylevelconfigurations', 'system');
    const limited = system.spec['limited'] as Record<string, unknown>;
    const taken = await call(`${fc}/prioritylevelconfigurations/system`, {
      method: 'PUT',
      body: {
        ...system,
        metadata: { ...system.metadata, annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } },
        spec: { ...system.spec, limited: { ...limited, nominalConcurrencyShares: 7 } },
      },
    });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    // A change to a mandatory object is what the controller answers; once it did, the suggested
    // object the operator took over must still hold the operator's value.
    const exempt = await get('prioritylevelconfigurations', 'exempt');
    await call(`${fc}/prioritylevelconfigurations/exempt`, {
      method: 'PUT',
      body: {
        ...exempt,
        spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 3, lendablePercent: 10 } },
      },
    });
    await call(`${fc}/flowschemas/exempt`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { spec: { matchingPrecedence: 1, distinguisherMethod: { type: 'ByUser' } } },
    });
    await waitFor(
      'exempt restored',
      () => get('flowschemas', 'exempt'),
      (o) => o.spec['distinguisherMethod'] === undefined,
    );
    const kept = await get('prioritylevelconfigurations', 'system');
    assert.equal((kept.spec['limited'] as Record<string, unknown>)['nominalConcurrencyShares'], 7);
    // The exempt level keeps its operator-set shares and lendable percent.
    assert.deepEqual((await get('prioritylevelconfigurations', 'exempt')).spec['exempt'], {
      nominalConcurrencyShares: 3,
      lendablePercent: 10,
    });
  });

  it("refuses invalid objects with kube's messages", async () => {
    const badSchema = await call(`${fc}/flowschemas`, {
      method: 'POST',
      body: {
        metadata: { name: 'bad' },
        spec: {
          priorityLevelConfiguration: { name: '' },
          matchingPrecedence: 1,
          distinguisherMethod: { type: 'ByColor' },
          rules: [
            {
              subjects: [{ kind: 'Robot' }, { kind: 'User' }],
              resourceRules: [{ verbs: ['get', '*'], apiGroups: [], resources: ['pods'] }],
              nonResourceRules: [{ verbs: ['fly'], nonResourceURLs: ['healthz', '/a/*/b'] }],
            },
          ],
        },
      },
    });
    assert.equal(badSchema.status, 422);
    assert.equal(
      badSchema.body['message'],
      'FlowSchema.flowcontrol.apiserver.k8s.io "bad" is invalid: [' +
        [
          "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
          'spec.distinguisherMethod.type: Unsupported value: {"type":"ByColor"}: supported values: "ByNamespace", "ByUser"',
          'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
          'spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
          "spec.rules[0].subjects[1].user: Required value: user is required when subject kind is 'User'",
          `spec.rules[0].resourceRules[0].verbs: Invalid value: ["get","*"]: if '*' is present, must not specify other verbs`,
          'spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
          'spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
          'spec.rules[0].nonResourceRules[0].verbs: Unsupported value: ["fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
          'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash',
          'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a/*/b": wildcard can only do suffix matching',
        ].join(', ') +
        ']',
    );
    const badLevel = await call(`${fc}/prioritylevelconfigurations`, {
      method: 'POST',
      body: {
        metadata: { name: 'bad' },
        spec: {
          type: 'Limited',
          exempt: {},
          limited: {
            nominalConcurrencyShares: -1,
            lendablePercent: 101,
            limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5 } },
          },
        },
      },
    });
    assert.equal(badLevel.status, 422);
    assert.equal(
      badLevel.body['message'],
      'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: [' +
        [
          'spec.exempt: Forbidden: must be nil if the type is Limited',
          'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
          'spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)',
          'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
        ].join(', ') +
        ']',
    );
    const notExempt = await call(`${fc}/prioritylevelconfigurations`, {
      method: 'POST',
      body: { metadata: { name: 'free' }, spec: { type: 'Exempt' } },
    });
    assert.equal(
      notExempt.body['message'],
      `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "free" is invalid: spec.type: Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'`,
    );
  });
});
