// Every served resource over HTTP, found through discovery rather than listed by hand: each list
// answers as a Table with kube's first column, and each stored kind refuses an invalid name with a
// 422 Invalid Status that names metadata.name — the strategy's validation reached through the
// whole stack, for resources added later too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

interface APIResource {
  name: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
}

interface Served {
  readonly groupVersion: string;
  readonly prefix: string;
  readonly resource: APIResource;
}

describe('every served resource over HTTP', () => {
  let server: CapstanServer;
  let served: Served[];
  const call = async (path: string, init: { method?: string; body?: unknown; accept?: string } = {}) => {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    const res = await fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        accept: init.accept ?? 'application/json',
        'content-type': 'application/json',
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const groups = (await call('/apis')).body as { groups: { preferredVersion: { groupVersion: string } }[] };
    const versions = [
      { groupVersion: 'v1', prefix: '/api/v1' },
      ...groups.groups.map((g) => ({
        groupVersion: g.preferredVersion.groupVersion,
        prefix: `/apis/${g.preferredVersion.groupVersion}`,
      })),
    ];
    served = [];
    for (const v of versions) {
      const list = (await call(v.prefix)).body as { resources: APIResource[] };
      for (const resource of list.resources)
        if (!resource.name.includes('/')) served.push({ ...v, resource });
    }
  });
  after(async () => {
    await server.stop();
  });

  const path = (s: Served): string =>
    s.resource.namespaced
      ? `${s.prefix}/namespaces/default/${s.resource.name}`
      : `${s.prefix}/${s.resource.name}`;

  it('discovers at least 50 resources across the groups', () => {
    assert.ok(served.length >= 50, String(served.length));
  });

  it('lists every listable resource as a Table with a Name column', async () => {
    const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
    for (const s of served.filter((x) => x.resource.verbs.includes('list'))) {
      const { status, body } = await call(path(s), { accept: table });
      assert.equal(status, 200, `${s.groupVersion} ${s.resource.name}: ${JSON.stringify(body)}`);
      assert.equal(body['kind'], 'Table', s.resource.name);
      // First everywhere but events, whose Name column comes last (priority 1) as kube prints it.
      const columns = (body['columnDefinitions'] as { name: string }[]).map((c) => c.name);
      assert.equal(s.resource.name === 'events' ? columns.at(-1) : columns[0], 'Name', s.resource.name);
    }
  });

  it('refuses an invalid name with 422 Invalid naming metadata.name, for every stored kind', async () => {
    const stored = served.filter(
      (x) => x.resource.verbs.includes('create') && x.resource.verbs.includes('get'),
    );
    assert.ok(stored.length >= 45, String(stored.length));
    const failures: string[] = [];
    for (const s of stored) {
      const { status, body } = await call(path(s), {
        method: 'POST',
        body: { apiVersion: s.groupVersion, kind: s.resource.kind, metadata: { name: 'bad/name' } },
      });
      const causes = ((body['details'] as { causes?: { field?: string }[] } | undefined)?.causes ?? []).map(
        (c) => c.field,
      );
      // kube does not check CertificateSigningRequest names (ValidateCertificateRequestName is empty).
      const namesChecked = s.resource.name !== 'certificatesigningrequests';
      if (
        status !== 422 ||
        body['reason'] !== 'Invalid' ||
        (namesChecked && !causes.includes('metadata.name'))
      )
        failures.push(
          `${s.groupVersion} ${s.resource.name}: ${String(status)} ${JSON.stringify(body['message'])}`,
        );
    }
    assert.deepEqual(failures, []);
  });

  it('refuses a name that is a path segment but no DNS name, except where kube takes any path segment', async () => {
    // RBAC names are only path segments in kube (ValidateRBACName); CSR names are not checked.
    const anySegment = new Set([
      'roles',
      'clusterroles',
      'rolebindings',
      'clusterrolebindings',
      'certificatesigningrequests',
    ]);
    const failures: string[] = [];
    for (const s of served.filter(
      (x) => x.resource.verbs.includes('create') && x.resource.verbs.includes('get'),
    )) {
      if (anySegment.has(s.resource.name)) continue;
      const { status, body } = await call(path(s), {
        method: 'POST',
        body: { apiVersion: s.groupVersion, kind: s.resource.kind, metadata: { name: 'Bad_Name' } },
      });
      const causes = ((body['details'] as { causes?: { field?: string }[] } | undefined)?.causes ?? []).map(
        (c) => c.field,
      );
      if (status !== 422 || !causes.includes('metadata.name'))
        failures.push(
          `${s.groupVersion} ${s.resource.name}: ${String(status)} ${JSON.stringify(body['message'])}`,
        );
    }
    assert.deepEqual(failures, []);
  });
});
