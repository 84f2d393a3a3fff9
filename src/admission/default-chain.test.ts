// The default chain: Capstan's plugins in kube's order, each when what it needs is served, and the
// --enable/--disable-admission-plugins selection with kube's validation words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../registry/generic/testing/memory-rest-options.js';
import { newNamespaceREST } from '../registry/core/namespace/storage.js';
import { newNodeREST } from '../registry/core/node/storage.js';
import { newPersistentVolumeClaimREST } from '../registry/core/persistentvolumeclaim/storage.js';
import { newPodREST } from '../registry/core/pod/storage.js';
import { newServiceAccountREST } from '../registry/core/serviceaccount/storage.js';
import {
  newMutatingWebhookConfigurationREST,
  newValidatingWebhookConfigurationREST,
} from '../registry/admissionregistration/storage.js';
import { newIngressClassREST } from '../registry/networking/ingressclass/storage.js';
import { newRuntimeClassREST } from '../registry/node/runtimeclass/storage.js';
import { newPriorityClassREST } from '../registry/scheduling/priorityclass/storage.js';
import { newStorageClassREST } from '../registry/storage/storageclass/storage.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import type { Storage } from '../registry/rest/capabilities.js';
import {
  allOrderedPlugins,
  defaultAdmissionChain,
  enabledAdmissionPlugins,
  validateAdmissionPluginSelection,
} from './default-chain.js';

const kubeOrder = [
  'NamespaceLifecycle',
  'ServiceAccount',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'RuntimeClass',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
];

describe('default admission chain', () => {
  let rest: MemoryRESTOptions;
  let groups: APIGroupInfo[];

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const group = (name: string, storages: Record<string, Storage>): APIGroupInfo => ({
      group: name,
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: { v1: storages },
    });
    groups = [
      group('', {
        namespaces: (await newNamespaceREST(opts)).namespaces,
        serviceaccounts: await newServiceAccountREST(opts),
        pods: (await newPodREST(opts)).pods,
        nodes: (await newNodeREST(opts)).nodes,
        persistentvolumeclaims: (await newPersistentVolumeClaimREST(opts)).persistentVolumeClaims,
      }),
      group('scheduling.k8s.io', { priorityclasses: await newPriorityClassREST(opts) }),
      group('storage.k8s.io', { storageclasses: await newStorageClassREST(opts) }),
      group('node.k8s.io', { runtimeclasses: await newRuntimeClassREST(opts) }),
      group('networking.k8s.io', { ingressclasses: await newIngressClassREST(opts) }),
      group('admissionregistration.k8s.io', {
        mutatingwebhookconfigurations: await newMutatingWebhookConfigurationREST(opts),
        validatingwebhookconfigurations: await newValidatingWebhookConfigurationREST(opts),
      }),
    ];
  });
  after(() => rest.close());

  it('has every plugin in kube’s AllOrderedPlugins order when all is served', () => {
    assert.deepEqual(allOrderedPlugins, kubeOrder);
    const chain = defaultAdmissionChain(groups);
    assert.deepEqual(chain.names, kubeOrder);
    chain.close();
  });

  it('leaves out plugins whose resources are not served', () => {
    const chain = defaultAdmissionChain(groups.filter((g) => g.group === ''));
    assert.deepEqual(chain.names, [
      'NamespaceLifecycle',
      'ServiceAccount',
      'TaintNodesByCondition',
      'PodSecurity',
      'DefaultTolerationSeconds',
      'StorageObjectInUseProtection',
    ]);
    chain.close();
  });

  it('drops disabled plugins, NamespaceLifecycle included; enabling a default-on one changes nothing', () => {
    const chain = defaultAdmissionChain(groups, {
      disable: ['NamespaceLifecycle', 'DefaultTolerationSeconds'],
      enable: ['Priority'],
    });
    assert.deepEqual(
      chain.names,
      kubeOrder.filter((n) => n !== 'NamespaceLifecycle' && n !== 'DefaultTolerationSeconds'),
    );
    chain.close();
    assert.deepEqual(enabledAdmissionPlugins({ enable: ['RuntimeClass'] }), kubeOrder);
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

  it('names kube plugins Capstan lacks when enabled, and takes them as already off when disabled', () => {
    const errs = validateAdmissionPluginSelection({
      enable: ['NodeRestriction'],
      disable: ['PodNodeSelector', 'ResourceQuota'],
    });
    assert.equal(errs.length, 1);
    assert.match(
      errs[0] ?? '',
      /^enable-admission-plugins plugin "NodeRestriction" is a kube-apiserver plugin Capstan does not have \(it has NamespaceLifecycle, ServiceAccount, /,
    );
  });
});
