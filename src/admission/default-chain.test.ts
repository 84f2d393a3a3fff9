// The default chain: kube 1.33's plugin names in its order, Capstan's plugins behind them each when
// what it needs is served, no-op names logged once, and the --enable/--disable-admission-plugins
// selection with kube's validation words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../registry/generic/testing/memory-rest-options.js';
import { newLimitRangeREST } from '../registry/core/limitrange/storage.js';
import { newNamespaceREST } from '../registry/core/namespace/storage.js';
import { newResourceQuotaREST } from '../registry/core/resourcequota/storage.js';
import { newNodeREST } from '../registry/core/node/storage.js';
import { newPersistentVolumeClaimREST } from '../registry/core/persistentvolumeclaim/storage.js';
import { newPodREST } from '../registry/core/pod/storage.js';
import { newServiceAccountREST } from '../registry/core/serviceaccount/storage.js';
import {
  newMutatingWebhookConfigurationREST,
  newValidatingAdmissionPolicyBindingREST,
  newValidatingAdmissionPolicyREST,
  newValidatingWebhookConfigurationREST,
} from '../registry/admissionregistration/storage.js';
import { newIngressClassREST } from '../registry/networking/ingressclass/storage.js';
import { newRuntimeClassREST } from '../registry/node/runtimeclass/storage.js';
import { newPriorityClassREST } from '../registry/scheduling/priorityclass/storage.js';
import { newStorageClassREST } from '../registry/storage/storageclass/storage.js';
import { newCertificateSigningRequestREST } from '../registry/certificates/certificatesigningrequest/storage.js';
import { alwaysAllowAuthorizer } from '../registry/rest/authorizer.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { storageWithCacher, type RESTOptionsGetter } from '../registry/generic/rest-options.js';
import type { AdmissionChain } from './chain.js';
import { isCreater, type Storage } from '../registry/rest/capabilities.js';
import type { KubeObject } from '../api/meta.js';
import type { Pod } from '../api/core/v1/pod.js';
import { testContext } from '../registry/generic/testing/widgets.js';
import { eventually } from '../storage/kv/testing/suite-context.js';
import type { Attributes } from './attributes.js';
import { attributesOf } from './testing/attributes.js';
import { kube133AdmissionPlugins as kube133 } from './testing/kube-133-plugins.js';
import {
  allOrderedPlugins,
  defaultAdmissionChain,
  enabledAdmissionPlugins,
  validateAdmissionPluginSelection,
} from './default-chain.js';

// The default-on plugins Capstan runs, in kube's order.
const kubeOrder = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
];

describe('default admission chain', () => {
  let rest: MemoryRESTOptions;
  let groups: APIGroupInfo[];
  // Every chain is closed after the tests, also when an assertion fails first: the webhook and
  // policy plugins keep watches open that would keep the test process alive.
  const chains: AdmissionChain[] = [];
  const chainOf = (...args: Parameters<typeof defaultAdmissionChain>): AdmissionChain => {
    const chain = defaultAdmissionChain(...args);
    chains.push(chain);
    return chain;
  };

  before(async () => {
    rest = await memoryRESTOptions();
    // With the watch cache in front of each storage, as the server has it: plugins read from it.
    const cached: RESTOptionsGetter = {
      getRESTOptions: (r) => ({
        ...rest.getter.getRESTOptions(r),
        decorator: storageWithCacher(rest.createRawStorage),
      }),
    };
    const opts = { restOptionsGetter: cached };
    const group = (name: string, storages: Record<string, Storage>): APIGroupInfo => ({
      group: name,
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: storages },
    });
    const quota = await newResourceQuotaREST(opts);
    groups = [
      group('', {
        namespaces: (await newNamespaceREST(opts)).namespaces,
        serviceaccounts: await newServiceAccountREST(opts),
        pods: (await newPodREST(opts)).pods,
        nodes: (await newNodeREST(opts)).nodes,
        persistentvolumeclaims: (await newPersistentVolumeClaimREST(opts)).persistentVolumeClaims,
        limitranges: await newLimitRangeREST(opts),
        resourcequotas: quota.resourceQuotas,
        'resourcequotas/status': quota.status,
      }),
      group('scheduling.k8s.io', { priorityclasses: await newPriorityClassREST(opts) }),
      group('storage.k8s.io', { storageclasses: await newStorageClassREST(opts) }),
      group('node.k8s.io', { runtimeclasses: await newRuntimeClassREST(opts) }),
      group('networking.k8s.io', { ingressclasses: await newIngressClassREST(opts) }),
      group('admissionregistration.k8s.io', {
        validatingadmissionpolicies: (await newValidatingAdmissionPolicyREST(opts)).policies,
        validatingadmissionpolicybindings: await newValidatingAdmissionPolicyBindingREST(opts),
        mutatingwebhookconfigurations: await newMutatingWebhookConfigurationREST(opts),
        validatingwebhookconfigurations: await newValidatingWebhookConfigurationREST(opts),
      }),
    ];
  });
  after(async () => {
    for (const chain of chains) chain.close();
    // The watch caches stop before the backend closes under them.
    const storages = new Set(
      groups.flatMap((g) => Object.values(g.versionedResourcesStorageMap['v1'] ?? {})),
    );
    for (const storage of storages) await storage.destroy();
    await rest.close();
  });

  it('admits and validates a pod create at once when the informers hold what it needs', async () => {
    const core = groups[0]?.versionedResourcesStorageMap['v1'] ?? {};
    const createIn = async (resource: string, namespace: string, obj: KubeObject): Promise<void> => {
      const storage = core[resource];
      assert.ok(storage !== undefined && isCreater(storage));
      await storage.create(testContext(namespace), obj, { options: {} });
    };
    await createIn('namespaces', '', { metadata: { name: 'quick' } });
    await createIn('serviceaccounts', 'quick', { metadata: { name: 'default', namespace: 'quick' } });
    const pods = chainOf(groups).forResource({ group: '', resource: 'pods' });
    const ctx = testContext('quick');
    const podCreate = (): Attributes =>
      attributesOf({
        namespace: 'quick',
        name: 'p',
        object: {
          metadata: { name: 'p', namespace: 'quick' },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        },
      });
    let a = podCreate();
    // The first creates may wait: for informers to list, for a namespace's first live reads.
    await eventually('a pod create admitted without a promise', 5000, async () => {
      a = podCreate();
      const admitted = pods.mutationChain().admit(ctx, a);
      if (admitted !== undefined) await admitted;
      const validated = pods.validationChain().validate(ctx, a);
      if (validated !== undefined) await validated;
      return admitted === undefined && validated === undefined;
    });
    const spec = (a.object as Pod).spec;
    assert.equal(spec?.serviceAccountName, 'default');
    assert.equal(spec.priority, 0);
    assert.deepEqual(
      spec.tolerations?.map((t) => t.key),
      ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'],
    );
  });

  it('has every plugin in kube’s AllOrderedPlugins order when all is served', () => {
    assert.deepEqual(allOrderedPlugins, kube133);
    const chain = chainOf(groups);
    assert.deepEqual(chain.names, kubeOrder);
    chain.close();
  });

  it('puts the CertificateSigningRequest plugins where kube does when CSRs are served and an authorizer is given', async () => {
    const csrs = await newCertificateSigningRequestREST({ restOptionsGetter: rest.getter });
    const withCsrs: APIGroupInfo[] = [
      ...groups,
      {
        group: 'certificates.k8s.io',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: {
          v1: {
            certificatesigningrequests: csrs.certificateSigningRequests,
            'certificatesigningrequests/approval': csrs.approval,
            'certificatesigningrequests/status': csrs.status,
          },
        },
      },
    ];
    const at = kubeOrder.indexOf('DefaultIngressClass');
    const csrPlugins = ['CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction'];
    const chain = chainOf(withCsrs, {}, { authorizer: alwaysAllowAuthorizer });
    assert.deepEqual(chain.names, [...kubeOrder.slice(0, at), ...csrPlugins, ...kubeOrder.slice(at)]);
    // Without an authorizer to ask, the approval and signing checks cannot be made.
    const unauthorized = chainOf(withCsrs);
    assert.deepEqual(unauthorized.names, [
      ...kubeOrder.slice(0, at),
      'CertificateSubjectRestriction',
      ...kubeOrder.slice(at),
    ]);
    await csrs.certificateSigningRequests.destroy();
  });

  it('leaves out plugins whose resources are not served', () => {
    const chain = chainOf(groups.filter((g) => g.group === ''));
    assert.deepEqual(chain.names, [
      'NamespaceLifecycle',
      'LimitRanger',
      'ServiceAccount',
      'TaintNodesByCondition',
      'PodSecurity',
      'DefaultTolerationSeconds',
      'StorageObjectInUseProtection',
      'ResourceQuota',
    ]);
    chain.close();
  });

  it('drops disabled plugins, NamespaceLifecycle included; enabling a default-on one changes nothing', () => {
    const chain = chainOf(groups, {
      disable: ['NamespaceLifecycle', 'DefaultTolerationSeconds'],
      enable: ['Priority'],
    });
    assert.deepEqual(
      chain.names,
      kubeOrder.filter((n) => n !== 'NamespaceLifecycle' && n !== 'DefaultTolerationSeconds'),
    );
    chain.close();
    assert.deepEqual(enabledAdmissionPlugins({ enable: ['RuntimeClass'] }), enabledAdmissionPlugins());
    assert.equal(enabledAdmissionPlugins().length, 22);
  });

  it('refuses unknown and overlapping names with kube words', () => {
    assert.deepEqual(
      validateAdmissionPluginSelection({ enable: ['Priority'], disable: ['ServiceAccount'] }),
      [],
    );
    assert.deepEqual(
      validateAdmissionPluginSelection({
        enable: ['LimitRangerX', 'Priority', 'ServiceAccount'],
        disable: ['Bogus', 'Priority', 'ServiceAccount'],
      }),
      [
        'enable-admission-plugins plugin "LimitRangerX" is unknown',
        'disable-admission-plugins plugin "Bogus" is unknown',
        '[Priority ServiceAccount] in enable-admission-plugins and disable-admission-plugins overlapped',
      ],
    );
  });

  it('accepts every kube 1.33 plugin name in both flags', () => {
    assert.deepEqual(validateAdmissionPluginSelection({ enable: kube133 }), []);
    assert.deepEqual(validateAdmissionPluginSelection({ disable: kube133 }), []);
    assert.deepEqual(enabledAdmissionPlugins({ disable: kube133 }), []);
    assert.deepEqual(enabledAdmissionPlugins({ enable: kube133 }), kube133);
  });

  it('runs the default-off plugins Capstan has where kube puts them when enabled', () => {
    const chain = chainOf(groups, {
      enable: [
        'AlwaysDeny',
        'AlwaysPullImages',
        'NamespaceExists',
        'NamespaceAutoProvision',
        'AlwaysAdmit',
        'PodNodeSelector',
        'NodeRestriction',
      ],
    });
    assert.deepEqual(chain.names, [
      'AlwaysAdmit',
      'NamespaceAutoProvision',
      'NamespaceLifecycle',
      'NamespaceExists',
      'LimitRanger',
      'ServiceAccount',
      'NodeRestriction',
      'TaintNodesByCondition',
      'AlwaysPullImages',
      'PodSecurity',
      'PodNodeSelector',
      ...kubeOrder.slice(5),
      'AlwaysDeny',
    ]);
    chain.close();
  });

  it('logs each enabled plugin without effect once, with its reason', () => {
    const lines: Array<{ message: string; values: Readonly<Record<string, string>>; named: boolean }> = [];
    const chain = chainOf(groups, {
      enable: ['PodTolerationRestriction', 'EventRateLimit'],
      disable: ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'MutatingAdmissionPolicy'],
      log: (message, values, named) => lines.push({ message, values, named }),
    });
    assert.deepEqual(
      chain.names,
      kubeOrder.filter((n) => n !== 'MutatingAdmissionWebhook' && n !== 'ValidatingAdmissionWebhook'),
    );
    chain.close();
    assert.deepEqual(
      lines.map((l) => l.values['plugin']),
      ['PodTolerationRestriction', 'EventRateLimit', 'ClusterTrustBundleAttest', 'PodTopologyLabels'],
    );
    assert.equal(lines[0]?.values['reason'], 'not implemented in Capstan');
    assert.ok(lines.every((l) => l.message === 'Admission plugin has no effect in Capstan'));
    assert.deepEqual(
      lines.filter((l) => l.named).map((l) => l.values['plugin']),
      ['PodTolerationRestriction', 'EventRateLimit'],
    );
  });
});
