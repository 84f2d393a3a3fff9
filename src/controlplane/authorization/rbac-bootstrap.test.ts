import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClusterRole, Role, RoleBinding } from '../../api/rbac/v1/rbac.js';
import { newNamespaceREST, type NamespaceStorage } from '../../registry/core/namespace/storage.js';
import type { Store } from '../../registry/generic/store.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../registry/generic/testing/memory-rest-options.js';
import {
  newClusterRoleBindingREST,
  newClusterRoleREST,
  newRoleBindingREST,
  newRoleREST,
} from '../../registry/rbac/storage.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { internalContext } from '../../registry/rest/context.js';
import type { HookContext } from '../../server/lifecycle/hooks.js';
import { Logger, memorySink } from '../../server/logging/logger.js';
import { policyKinds, RBACPolicyReconciler } from './rbac-bootstrap.js';

describe('rbac/bootstrap-roles reconciliation', () => {
  let env: MemoryRESTOptions;
  let ns: NamespaceStorage;
  let clusterRoles: Store<ClusterRole>;
  let clusterBindings: Store<RoleBinding>;
  let roles: Store<Role>;
  let reconciler: RBACPolicyReconciler;
  const sink = memorySink();
  const hook: HookContext = {
    signal: new AbortController().signal,
    logger: new Logger({ sink, verbosity: 2 }),
  };
  const cluster = internalContext();

  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    ns = await newNamespaceREST(opts);
    clusterRoles = await newClusterRoleREST(opts);
    clusterBindings = await newClusterRoleBindingREST(opts);
    roles = await newRoleREST(opts);
    const groups: APIGroupInfo[] = [
      {
        group: '',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: { v1: { namespaces: ns.namespaces } },
      },
      {
        group: 'rbac.authorization.k8s.io',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: {
          v1: {
            clusterroles: clusterRoles,
            clusterrolebindings: clusterBindings,
            roles,
            rolebindings: await newRoleBindingREST(opts),
          },
        },
      },
    ];
    reconciler = new RBACPolicyReconciler(policyKinds(groups), ns.namespaces);
  });
  after(() => env.close());

  it("creates kube's whole policy, and the namespaces of its Roles", async () => {
    await reconciler.ensure(hook);
    assert.equal((await clusterRoles.list(cluster, {})).items.length, 66);
    assert.equal((await clusterBindings.list(cluster, {})).items.length, 47);
    const kubePublic = await roles.list(internalContext({ namespace: 'kube-public' }), {});
    assert.deepEqual(
      kubePublic.items.map((r) => r.metadata?.name),
      ['system:controller:bootstrap-signer'],
    );
    assert.equal((await ns.namespaces.get(cluster, 'kube-system', {})).metadata?.name, 'kube-system');
    assert.ok(
      sink.lines.some((l) => l.includes('created clusterrole.rbac.authorization.k8s.io/system:node')),
    );
  });

  it('puts back what an autoupdate role lost, leaves a protected one, and writes nothing when all is there', async () => {
    const node = await clusterRoles.get(cluster, 'system:node', {});
    await clusterRoles.update(cluster, 'system:node', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: () => Promise.resolve({ ...node, rules: node.rules?.slice(1) }),
      },
      options: {},
    });
    const kubeDNS = await clusterRoles.get(cluster, 'system:kube-dns', {});
    await clusterRoles.update(cluster, 'system:kube-dns', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: () =>
          Promise.resolve({
            ...kubeDNS,
            metadata: {
              ...kubeDNS.metadata,
              annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' },
            },
            rules: [],
          }),
      },
      options: {},
    });
    await clusterBindings.delete(cluster, 'system:monitoring', { options: {} });
    await reconciler.ensure(hook);
    const restored = await clusterRoles.get(cluster, 'system:node', {});
    assert.deepEqual(restored.rules?.at(-1), {
      verbs: ['create'],
      apiGroups: ['authentication.k8s.io'],
      resources: ['tokenreviews'],
    });
    assert.deepEqual((await clusterRoles.get(cluster, 'system:kube-dns', {})).rules, []);
    assert.ok(
      sink.lines.some((l) =>
        l.includes('skipped reconcile-protected clusterrole.rbac.authorization.k8s.io/system:kube-dns'),
      ),
    );
    assert.ok(await clusterBindings.get(cluster, 'system:monitoring', {}));

    const before = (await clusterRoles.list(cluster, {})).metadata.resourceVersion;
    await reconciler.ensure(hook);
    assert.equal((await clusterRoles.list(cluster, {})).metadata.resourceVersion, before);
  });

  it('recreates a binding whose roleRef was changed', async () => {
    await clusterBindings.delete(cluster, 'system:basic-user', { options: {} });
    await clusterBindings.create(
      cluster,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'system:basic-user' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      },
      { options: {} },
    );
    await reconciler.ensure(hook);
    const b = await clusterBindings.get(cluster, 'system:basic-user', {});
    assert.equal(b.roleRef.name, 'system:basic-user');
    assert.equal(b.subjects?.[0]?.name, 'system:authenticated');
  });
});
