// The garbage collector in an in-process server over SQLite memory storage: owner chains three deep
// through a custom resource (a ConfigMap owning a Widget owning a ConfigMap owning a Secret) go in
// the background and, leaves first, in the foreground; orphaning keeps the dependents without the
// reference; a blocking dependent held by a finalizer holds its foreground owner; dangling and
// cross-namespace references are handled as kube's collector handles them; and with the collector
// off nothing is collected. Each case works in a namespace of its own on one shared server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../src/api/meta.js';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface Reply {
  readonly status: number;
  readonly body: KubeObject & { items?: KubeObject[] };
}

const adminAuth = (server: CapstanServer): string => `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`;

async function call(server: CapstanServer, method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: adminAuth(server),
      'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}

async function ok(server: CapstanServer, method: string, path: string, body?: unknown): Promise<KubeObject> {
  const r = await call(server, method, path, body);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Polls until `probe` answers something other than undefined (at most 10 s). */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const got = await probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what}: not reached within 10 s`);
}

const group = 'gc.capstan.dev';
const widgetCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

const paths = {
  configmaps: (ns: string) => `/api/v1/namespaces/${ns}/configmaps`,
  secrets: (ns: string) => `/api/v1/namespaces/${ns}/secrets`,
  widgets: (ns: string) => `/apis/${group}/v1/namespaces/${ns}/widgets`,
} as const;
type Kind = keyof typeof paths;
const kinds: Readonly<Record<Kind, { apiVersion: string; kind: string }>> = {
  configmaps: { apiVersion: 'v1', kind: 'ConfigMap' },
  secrets: { apiVersion: 'v1', kind: 'Secret' },
  widgets: { apiVersion: `${group}/v1`, kind: 'Widget' },
};

/** What a test made: where it lives, and how dependents name it. */
interface Made {
  readonly kind: Kind;
  readonly ns: string;
  readonly name: string;
  readonly ref: OwnerReference;
  readonly path: string;
}

describe('garbage collector', () => {
  let server: CapstanServer;
  let off: CapstanServer;

  const make = async (
    at: { kind: Kind; ns: string; name: string },
    owners: readonly OwnerReference[] = [],
    extra: Record<string, unknown> = {},
  ): Promise<Made> => {
    const { kind, ns, name } = at;
    const body = { ...kinds[kind], metadata: { name, ownerReferences: owners, ...extra } };
    const created = await ok(server, 'POST', paths[kind](ns), body);
    const ref: OwnerReference = { ...kinds[kind], name, uid: created.metadata?.uid ?? '' };
    return { kind, ns, name, ref, path: `${paths[kind](ns)}/${name}` };
  };
  const blocking = (m: Made): OwnerReference => ({ ...m.ref, blockOwnerDeletion: true });
  const gone = (s: CapstanServer, m: Made) => async () =>
    (await call(s, 'GET', m.path)).status === 404 ? true : undefined;
  const read = async (m: Made): Promise<KubeObject> => ok(server, 'GET', m.path);
  const invalidNamespaceEvent = (ns: string, uid: string): Promise<Record<string, unknown>> =>
    eventually('the OwnerRefInvalidNamespace event', async () => {
      const path = `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DOwnerRefInvalidNamespace`;
      const items = (await call(server, 'GET', path)).body.items ?? [];
      return items.find((e) => (e['involvedObject'] as { uid?: string } | undefined)?.uid === uid);
    });

  /** ConfigMap → Widget → ConfigMap → Secret, each reference blocking. */
  const chain = async (ns: string): Promise<Made[]> => {
    await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const root = await make({ kind: 'configmaps', ns, name: 'root' });
    const widget = await make({ kind: 'widgets', ns, name: 'widget' }, [blocking(root)]);
    const leafOwner = await make({ kind: 'configmaps', ns, name: 'mid' }, [blocking(widget)]);
    const leaf = await make({ kind: 'secrets', ns, name: 'leaf' }, [blocking(leafOwner)]);
    return [root, widget, leafOwner, leaf];
  };

  before(async () => {
    [server, off] = await Promise.all([
      startCapstan({ storage: 'memory', scheme: 'http' }),
      startCapstan({ storage: 'memory', scheme: 'http', enableGarbageCollector: false }),
    ]);
    await ok(server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgetCRD);
  });
  after(async () => {
    await Promise.all([server.stop(), off.stop()]);
  });

  it('collects a chain three deep in the background, through a custom resource', async () => {
    const objects = await chain('gc-background');
    const [root] = objects;
    await ok(server, 'DELETE', root!.path);
    for (const m of objects) await eventually(`${m.name} gone`, gone(server, m));
  });

  it('collects a chain in the foreground, leaves first, dependents with dependents in the foreground too', async () => {
    const ns = 'gc-foreground';
    const objects = await chain(ns);
    const [root, widget, mid, leaf] = objects as [Made, Made, Made, Made];
    const watches = await Promise.all(
      (['configmaps', 'widgets', 'secrets'] as const).map((k) => watchFrom(server, paths[k](ns))),
    );
    const deleted = await ok(server, 'DELETE', root.path, { propagationPolicy: 'Foreground' });
    assert.deepEqual(deleted.metadata?.finalizers, ['foregroundDeletion']);
    const deletion = (m: Made): WatchEvent | undefined =>
      watches
        .flatMap((w) => w.events)
        .find(
          (x) =>
            x.type === 'DELETED' &&
            x.object.metadata?.name === m.name &&
            kinds[m.kind].kind === x.object.kind,
        );
    for (const m of objects) await eventually(`${m.name} gone`, () => Promise.resolve(deletion(m)));
    const events = watches.flatMap((w) => w.stop());
    const deletedAt = (m: Made): number => Number(deletion(m)?.object.metadata?.resourceVersion);
    assert.ok(deletedAt(leaf) < deletedAt(mid), 'the leaf goes before its owner');
    assert.ok(deletedAt(mid) < deletedAt(widget), 'the ConfigMap goes before the Widget owning it');
    assert.ok(deletedAt(widget) < deletedAt(root), 'the Widget goes before the root');
    const foregrounded = (m: Made): boolean =>
      events.some(
        (e) =>
          e.type === 'MODIFIED' &&
          e.object.metadata?.name === m.name &&
          (e.object.metadata.finalizers ?? []).includes('foregroundDeletion'),
      );
    assert.ok(
      foregrounded(widget) && foregrounded(mid),
      'dependents that own something are deleted in the foreground',
    );
    assert.ok(!foregrounded(leaf), 'a dependent without dependents is deleted in the background');
  });

  it('orphans: the dependents stay, without the reference to the owner', async () => {
    const ns = 'gc-orphan';
    await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const owner = await make({ kind: 'widgets', ns, name: 'owner' });
    const other = await make({ kind: 'configmaps', ns, name: 'other-owner' });
    const only = await make({ kind: 'configmaps', ns, name: 'only' }, [blocking(owner)]);
    const shared = await make({ kind: 'configmaps', ns, name: 'shared' }, [owner.ref, other.ref]);
    const deleted = await ok(server, 'DELETE', owner.path, { propagationPolicy: 'Orphan' });
    assert.deepEqual(deleted.metadata?.finalizers, ['orphan']);
    await eventually('owner gone', gone(server, owner));
    assert.equal((await read(only)).metadata?.ownerReferences, undefined);
    assert.deepEqual((await read(shared)).metadata?.ownerReferences, [other.ref]);
  });

  it('orphans a custom resource as a client does: its managedFields no longer claim the reference', async () => {
    const ns = 'gc-orphan-cr';
    await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const owner = await make({ kind: 'configmaps', ns, name: 'owner' });
    const widget = await make({ kind: 'widgets', ns, name: 'dependent' }, [owner.ref]);
    const claims = (o: KubeObject): string[] =>
      (o.metadata?.managedFields ?? [])
        .filter((e) => JSON.stringify(e.fieldsV1 ?? {}).includes('f:ownerReferences'))
        .map((e) => e.manager ?? '');
    assert.equal(claims(await read(widget)).length, 1, 'the creator owns the reference');
    await ok(server, 'DELETE', owner.path, { propagationPolicy: 'Orphan' });
    await eventually('owner gone', gone(server, owner));
    const after = await read(widget);
    assert.equal(after.metadata?.ownerReferences, undefined);
    assert.deepEqual(claims(after), [], 'the removed reference is owned by nobody');
  });

  it('holds a foreground owner while a blocking dependent is still there', async () => {
    const ns = 'gc-block';
    await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const owner = await make({ kind: 'configmaps', ns, name: 'owner' });
    const held = await make({ kind: 'configmaps', ns, name: 'held' }, [blocking(owner)], {
      finalizers: ['example.com/hold'],
    });
    const free = await make({ kind: 'configmaps', ns, name: 'free' }, [owner.ref]);
    await ok(server, 'DELETE', owner.path, { propagationPolicy: 'Foreground' });
    await eventually('held is being deleted', async () =>
      (await read(held)).metadata?.deletionTimestamp === undefined ? undefined : true,
    );
    await eventually('free gone', gone(server, free));
    assert.deepEqual((await read(owner)).metadata?.finalizers, ['foregroundDeletion']);
    await ok(server, 'PATCH', held.path, { metadata: { finalizers: null } });
    await eventually('held gone', gone(server, held));
    await eventually('owner gone', gone(server, owner));
  });

  it('deletes a dependent whose only owner never existed, and drops a dangling reference next to a live owner', async () => {
    const ns = 'gc-dangling';
    await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const ghost: OwnerReference = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'ghost',
      uid: '0f5ad2b4-0000-4000-8000-000000000001',
    };
    const live = await make({ kind: 'widgets', ns, name: 'live' });
    const orphaned = await make({ kind: 'configmaps', ns, name: 'orphaned' }, [ghost]);
    const kept = await make({ kind: 'configmaps', ns, name: 'kept' }, [ghost, live.ref]);
    await eventually('orphaned gone', gone(server, orphaned));
    await eventually('dangling reference dropped', async () => {
      const refs = (await read(kept)).metadata?.ownerReferences;
      return refs?.length === 1 ? refs : undefined;
    });
    assert.deepEqual((await read(kept)).metadata?.ownerReferences, [live.ref]);
  });

  it('refuses an owner in another namespace, with an OwnerRefInvalidNamespace event on the dependent', async () => {
    for (const ns of ['gc-owner-ns', 'gc-dependent-ns'])
      await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
    const owner = await make({ kind: 'configmaps', ns: 'gc-owner-ns', name: 'owner' });
    const dependent = await make({ kind: 'configmaps', ns: 'gc-dependent-ns', name: 'dependent' }, [
      owner.ref,
    ]);
    await eventually('dependent gone', gone(server, dependent));
    const event = await invalidNamespaceEvent('gc-dependent-ns', dependent.ref.uid);
    assert.equal(event['type'], 'Warning');
    assert.equal(
      event['message'],
      `ownerRef [v1/ConfigMap, namespace: gc-dependent-ns, name: owner, uid: ${owner.ref.uid}] does not exist in namespace "gc-dependent-ns"`,
    );
    assert.deepEqual(event['involvedObject'], {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      namespace: 'gc-dependent-ns',
      name: 'dependent',
      uid: dependent.ref.uid,
    });
    assert.deepEqual(event['source'], { component: 'garbage-collector-controller' });
    assert.equal((await read(owner)).metadata?.name, 'owner');
  });

  it('leaves a cluster-scoped dependent of a namespaced owner alone, with the event in default', async () => {
    await ok(server, 'POST', '/api/v1/namespaces', { metadata: { name: 'gc-cluster-owner' } });
    const owner = await make({ kind: 'configmaps', ns: 'gc-cluster-owner', name: 'owner' });
    const role = await ok(server, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'gc-owned-role', ownerReferences: [owner.ref] },
      rules: [],
    });
    const event = await invalidNamespaceEvent('default', role.metadata?.uid ?? '');
    assert.equal(
      event['message'],
      `ownerRef [v1/ConfigMap, namespace: , name: owner, uid: ${owner.ref.uid}] does not exist in namespace ""`,
    );
    const after = await call(server, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-owned-role');
    assert.equal(after.status, 200);
    assert.equal(after.body.metadata?.deletionTimestamp, undefined);
  });

  it('collects nothing when it is off', async () => {
    const made: Record<string, Made> = {};
    for (const [name, s] of [
      ['on', server],
      ['off', off],
    ] as const) {
      const ns = `gc-switch-${name}`;
      await ok(s, 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
      const owner = await ok(s, 'POST', paths.configmaps(ns), { metadata: { name: 'owner' } });
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' };
      await ok(s, 'POST', paths.configmaps(ns), { metadata: { name: 'dependent', ownerReferences: [ref] } });
      made[name] = {
        kind: 'configmaps',
        ns,
        name: 'dependent',
        ref,
        path: `${paths.configmaps(ns)}/dependent`,
      };
      await ok(s, 'DELETE', `${paths.configmaps(ns)}/owner`);
    }
    // By the time the running collector has taken its dependent, the other would have too.
    await eventually('collected where it runs', gone(server, made['on']!));
    assert.equal((await call(off, 'GET', made['off']!.path)).status, 200);
    const orphaning = await ok(off, 'DELETE', `${paths.configmaps('gc-switch-off')}/dependent`, {
      propagationPolicy: 'Orphan',
    });
    assert.equal(orphaning.kind, 'Status', 'without a collector no finalizer is added');
  });
});

interface WatchEvent {
  readonly type: string;
  readonly object: KubeObject;
}

/** Watches the collection from now on, keeping every event until stopped. */
async function watchFrom(
  server: CapstanServer,
  path: string,
): Promise<{ readonly events: readonly WatchEvent[]; stop(): WatchEvent[] }> {
  const list = await call(server, 'GET', path);
  const rv = (list.body.metadata as { resourceVersion?: string } | undefined)?.resourceVersion ?? '';
  const abort = new AbortController();
  const res = await fetch(`${server.url}${path}?watch=1&resourceVersion=${rv}`, {
    headers: { authorization: adminAuth(server) },
    signal: abort.signal,
  });
  const events: WatchEvent[] = [];
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (chunk === undefined || chunk.done) return;
        pending += decoder.decode(chunk.value as Uint8Array, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line) as WatchEvent);
      }
    } catch {
      // Aborted.
    }
  })();
  return {
    events,
    stop: () => {
      abort.abort();
      return events;
    },
  };
}
