// ServiceAccount admission through the default chain over the real pod and serviceaccount storages
// (in-memory SQLite): the admitted pods storage is what the API handler serves.
import { mirrorPodAnnotation } from '../../../api/core/v1/pod.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import { rejectsWithStatus } from '../../../registry/generic/testing/assert-status.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import { newNamespaceREST } from '../../../registry/core/namespace/storage.js';
import { newPodREST, type PodStorage } from '../../../registry/core/pod/storage.js';
import { newServiceAccountREST } from '../../../registry/core/serviceaccount/storage.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isCreater, type Creater } from '../../../registry/rest/capabilities.js';
import { admittedGroups } from '../../admitted-storage.js';
import type { AdmissionChain } from '../../chain.js';
import { defaultAdmissionChain } from '../../default-chain.js';
import {
  defaultAPITokenMountPath,
  ServiceAccountAdmission,
  serviceAccountPluginName,
  tokenVolume,
} from './admission.js';

const ns = 'team';
const ctx = testContext(ns);
const mount = { name: '', readOnly: true, mountPath: defaultAPITokenMountPath };

describe('ServiceAccount admission', () => {
  let rest: MemoryRESTOptions;
  let storage: PodStorage;
  let serviceAccounts: Awaited<ReturnType<typeof newServiceAccountREST>>;
  let chain: AdmissionChain;
  let pods: Creater;
  const create = async (pod: Pod): Promise<Pod> => (await pods.create(ctx, pod, { options: {} })) as Pod;
  const pod = (
    name: string,
    spec: Partial<NonNullable<Pod['spec']>> = {},
    annotations?: Record<string, string>,
  ): Pod => ({
    metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  });
  const account = async (sa: ServiceAccount): Promise<void> => {
    await serviceAccounts.create(ctx, sa, { options: {} });
  };

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    storage = await newPodREST(opts);
    serviceAccounts = await newServiceAccountREST(opts);
    const raw: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: { pods: storage.pods, serviceaccounts: serviceAccounts } },
    };
    chain = defaultAdmissionChain([raw]);
    const admitted = admittedGroups([raw], chain)[0]?.versionedResourcesStorageMap['v1']?.['pods'];
    assert.ok(admitted !== undefined && isCreater(admitted));
    pods = admitted;
    await account({ metadata: { name: 'default' } });
    await account({ metadata: { name: 'robot' }, automountServiceAccountToken: false });
    await account({ metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'regcred' }] });
  });
  after(async () => {
    chain.close();
    await rest.close();
  });

  it('is in the default chain when serviceaccounts are served, after NamespaceLifecycle', async () => {
    // Pods are served, so DefaultTolerationSeconds (after ServiceAccount in kube's order) is too.
    assert.deepEqual(chain.names, [serviceAccountPluginName, 'DefaultTolerationSeconds']);
    const namespaces = await newNamespaceREST({ restOptionsGetter: rest.getter });
    const both = defaultAdmissionChain([
      {
        group: '',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: {
          v1: { namespaces: namespaces.namespaces, serviceaccounts: serviceAccounts },
        },
      },
    ]);
    assert.deepEqual(both.names, ['NamespaceLifecycle', serviceAccountPluginName]);
    both.close();
  });

  it('runs a pod as `default`, mounting its credentials in every container and init container', async () => {
    const out = await create(
      pod('web', {
        initContainers: [{ name: 'init', image: 'busybox' }],
        volumes: [{ name: 'scratch', emptyDir: {} }],
      }),
    );
    const spec = out.spec;
    assert.ok(spec !== undefined);
    assert.equal(spec.serviceAccountName, 'default');
    assert.equal(spec.serviceAccount, 'default');
    const volume = spec.volumes?.[1];
    assert.match(volume?.name ?? '', /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const name = volume?.name ?? '';
    assert.deepEqual(volume, {
      name,
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
            },
          },
        ],
      },
    });
    assert.deepEqual(volume, tokenVolume(name));
    assert.deepEqual(spec.containers[0]?.volumeMounts, [{ ...mount, name }]);
    assert.deepEqual(spec.initContainers?.[0]?.volumeMounts, [{ ...mount, name }]);
    assert.equal(spec.volumes?.[0]?.name, 'scratch');
  });

  it('refuses a pod naming an account that does not exist, with 403 and kube words', async () => {
    await rejectsWithStatus(create(pod('q', { serviceAccountName: 'nope' })), {
      code: 403,
      reason: 'Forbidden',
      message: `pods "q" is forbidden: error looking up service account ${ns}/nope: serviceaccount "nope" not found`,
    });
    await rejectsWithStatus(storage.pods.get(ctx, 'q', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'pods "q" not found',
    });
  });

  it('takes the deprecated serviceAccount field when serviceAccountName is empty', async () => {
    const out = await create(pod('alias', { serviceAccount: 'robot' }));
    assert.equal(out.spec?.serviceAccountName, 'robot');
    assert.equal(out.spec.serviceAccount, 'robot');
  });

  it('mounts nothing when the account or the pod opts out; the pod wins', async () => {
    const byAccount = await create(pod('quiet', { serviceAccountName: 'robot' }));
    assert.equal(byAccount.spec?.volumes, undefined);
    assert.equal(byAccount.spec?.containers[0]?.volumeMounts, undefined);
    const byPod = await create(pod('quiet2', { automountServiceAccountToken: false }));
    assert.equal(byPod.spec?.volumes, undefined);
    const podWins = await create(
      pod('loud', { serviceAccountName: 'robot', automountServiceAccountToken: true }),
    );
    assert.equal(podWins.spec?.volumes?.length, 1);
  });

  it('leaves a container that already mounts the path alone; no volume when none needs it', async () => {
    const own = { name: 'mine', mountPath: defaultAPITokenMountPath };
    const out = await create(
      pod('custom', {
        volumes: [{ name: 'mine', emptyDir: {} }],
        containers: [{ name: 'app', image: 'nginx', volumeMounts: [own] }],
      }),
    );
    assert.deepEqual(out.spec?.containers[0]?.volumeMounts, [own]);
    assert.deepEqual(
      out.spec.volumes?.map((v) => v.name),
      ['mine'],
    );
    const mixed = await create(
      pod('mixed', {
        volumes: [{ name: 'mine', emptyDir: {} }],
        containers: [
          { name: 'a', image: 'nginx', volumeMounts: [own] },
          { name: 'b', image: 'nginx' },
        ],
      }),
    );
    const added = mixed.spec?.volumes?.[1]?.name ?? '';
    assert.match(added, /^kube-api-access-/);
    assert.deepEqual(mixed.spec?.containers[1]?.volumeMounts, [{ ...mount, name: added }]);
  });

  it('leaves a pod whose volumes or containers lack names to validation (422, not a TypeError)', async () => {
    const nameless = pod('nameless', { volumes: [{ emptyDir: {} } as unknown as { name: string }] });
    await rejectsWithStatus(create(nameless), { code: 422, reason: 'Invalid' });
  });

  it("reuses a kube-api-access-* volume the pod already has and copies the account's pull secrets", async () => {
    const out = await create(
      pod('again', { serviceAccountName: 'puller', volumes: [tokenVolume('kube-api-access-zzzzz')] }),
    );
    assert.equal(out.spec?.volumes?.length, 1);
    assert.deepEqual(out.spec.containers[0]?.volumeMounts, [{ ...mount, name: 'kube-api-access-zzzzz' }]);
    assert.deepEqual(out.spec.imagePullSecrets, [{ name: 'regcred' }]);
    const own = await create(
      pod('ownpull', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] }),
    );
    assert.deepEqual(own.spec?.imagePullSecrets, [{ name: 'mine' }]);
  });

  it('leaves mirror pods unchanged and refuses their service accounts and secrets', async () => {
    const mirror = { [mirrorPodAnnotation]: 'abc' };
    // A mirror pod names its node (kube's ValidatePodSpecificAnnotations requires it).
    const out = await create(pod('static-web', { nodeName: 'n1' }, mirror));
    assert.equal(out.spec?.serviceAccountName, undefined);
    assert.equal(out.spec?.volumes, undefined);
    await rejectsWithStatus(create(pod('static-sa', { serviceAccountName: 'default' }, mirror)), {
      code: 403,
      reason: 'Forbidden',
      message: 'pods "static-sa" is forbidden: a mirror pod may not reference service accounts',
    });
    await rejectsWithStatus(
      create(pod('static-secret', { volumes: [{ name: 's', secret: { secretName: 'x' } }] }, mirror)),
      {
        code: 403,
        reason: 'Forbidden',
        message: 'pods "static-secret" is forbidden: a mirror pod may not reference secrets',
      },
    );
  });

  it('limits the secrets of an account that enforces mountable secrets', async () => {
    await account({
      metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } },
      secrets: [{ name: 'listed' }],
      imagePullSecrets: [{ name: 'pull' }],
    });
    const forbidden = (name: string, why: string): { code: number; reason: string; message: string } => ({
      code: 403,
      reason: 'Forbidden',
      message: `pods "${name}" is forbidden: ${why}`,
    });
    const ok = await create(
      pod('strict-ok', {
        serviceAccountName: 'strict',
        volumes: [{ name: 's', secret: { secretName: 'listed' } }],
        containers: [
          {
            name: 'app',
            image: 'nginx',
            env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'listed', key: 'k' } } }],
          },
        ],
      }),
    );
    assert.deepEqual(ok.spec?.imagePullSecrets, [{ name: 'pull' }]);
    await rejectsWithStatus(
      create(
        pod('strict-vol', {
          serviceAccountName: 'strict',
          volumes: [{ name: 's', secret: { secretName: 'other' } }],
        }),
      ),
      forbidden(
        'strict-vol',
        'volume with secret.secretName="other" is not allowed because service account strict does not reference that secret',
      ),
    );
    await rejectsWithStatus(
      create(
        pod('strict-env', {
          serviceAccountName: 'strict',
          initContainers: [{ name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'other' } }] }],
        }),
      ),
      forbidden(
        'strict-env',
        'init container init with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
      ),
    );
    await rejectsWithStatus(
      create(pod('strict-pull', { serviceAccountName: 'strict', imagePullSecrets: [{ name: 'other' }] })),
      forbidden(
        'strict-pull',
        'imagePullSecrets[0].name="other" is not allowed because service account strict does not reference that imagePullSecret',
      ),
    );
    // pods/ephemeralcontainers: only the added containers' secrets are checked.
    const plugin = new ServiceAccountAdmission({ serviceAccounts });
    const debugged = structuredClone(ok);
    debugged.spec = {
      ...(debugged.spec ?? { containers: [] }),
      ephemeralContainers: [
        {
          name: 'dbg',
          image: 'busybox',
          env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }],
        },
      ],
    };
    const update = {
      operation: 'UPDATE' as const,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: 'ephemeralcontainers',
      namespace: ns,
      name: 'strict-ok',
      object: debugged,
      oldObject: ok,
      userInfo: ctx.user,
      dryRun: false,
    };
    await rejectsWithStatus(
      () => plugin.validate(ctx, update),
      forbidden(
        'strict-ok',
        'ephemeral container dbg with envVar X referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
      ),
    );
    const noAccount = structuredClone(debugged);
    if (noAccount.spec !== undefined) delete noAccount.spec.serviceAccountName;
    await rejectsWithStatus(
      () => plugin.validate(ctx, { ...update, object: noAccount }),
      forbidden('strict-ok', `no service account specified for pod ${ns}/strict-ok`),
    );
  });

  it('waits for a `default` account the controller has not made yet', async () => {
    const other = testContext('fresh');
    const plugin = new ServiceAccountAdmission({ serviceAccounts, retryIntervalMs: 20 });
    const attrs = {
      operation: 'CREATE' as const,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: '',
      namespace: 'fresh',
      name: 'late',
      object: pod('late'),
      oldObject: null,
      userInfo: other.user,
      dryRun: false,
    };
    const admitted = plugin.admit(other, attrs);
    setTimeout(() => {
      void serviceAccounts.create(other, { metadata: { name: 'default' } }, { options: {} });
    }, 50);
    await admitted;
    assert.equal((attrs.object.spec as { serviceAccountName?: string }).serviceAccountName, 'default');
    assert.equal(attrs.object.spec?.volumes?.length, 1);
  });

  it('ignores other resources and subresources, and updates', async () => {
    const plugin = new ServiceAccountAdmission({ serviceAccounts });
    const base = {
      kind: { group: '', version: 'v1', kind: 'Pod' },
      namespace: ns,
      name: 'x',
      oldObject: null,
      userInfo: ctx.user,
      dryRun: false,
    };
    const binding = pod('x', { serviceAccountName: 'nope' });
    await plugin.admit(ctx, {
      ...base,
      operation: 'CREATE',
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: 'binding',
      object: binding,
    });
    const updated = pod('x', { serviceAccountName: 'nope' });
    await plugin.admit(ctx, {
      ...base,
      operation: 'UPDATE',
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: '',
      object: updated,
    });
    assert.equal(updated.spec?.volumes, undefined);
  });
});
