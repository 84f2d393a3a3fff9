// core/v1 Affinity: node affinity, pod affinity and anti-affinity (k8s.io/api/core/v1 types.go; field
// numbers from its `protobuf` tags).
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { atomicList, int32, ref, str, struct } from '../../schema/builders.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import type { NodeSelector, NodeSelectorTerm } from './persistent-volume.js';

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAntiAffinity;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PreferredSchedulingTerm {
  weight?: number;
  preference?: NodeSelectorTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface PodAntiAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey?: string;
  namespaceSelector?: LabelSelector;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight?: number;
  podAffinityTerm?: PodAffinityTerm;
}

export const affinityModule: APIModule = {
  definitions: {
    [coreV1('Affinity')]: struct('Scheduling constraints of a pod.', {
      nodeAffinity: ref(coreV1('NodeAffinity')),
      podAffinity: ref(coreV1('PodAffinity')),
      podAntiAffinity: ref(coreV1('PodAntiAffinity')),
    }),
    [coreV1('NodeAffinity')]: struct('Node affinity rules of a pod.', {
      preferredDuringSchedulingIgnoredDuringExecution: atomicList(ref(coreV1('PreferredSchedulingTerm'))),
      requiredDuringSchedulingIgnoredDuringExecution: ref(coreV1('NodeSelector')),
    }),
    [coreV1('PreferredSchedulingTerm')]: struct(
      'A weighted node selector term.',
      { preference: ref(coreV1('NodeSelectorTerm'), undefined, { default: {} }), weight: int32() },
      { required: ['weight', 'preference'] },
    ),
    [coreV1('PodAffinity')]: struct('Rules placing a pod together with other pods.', {
      preferredDuringSchedulingIgnoredDuringExecution: atomicList(ref(coreV1('WeightedPodAffinityTerm'))),
      requiredDuringSchedulingIgnoredDuringExecution: atomicList(ref(coreV1('PodAffinityTerm'))),
    }),
    [coreV1('PodAntiAffinity')]: struct('Rules placing a pod apart from other pods.', {
      preferredDuringSchedulingIgnoredDuringExecution: atomicList(ref(coreV1('WeightedPodAffinityTerm'))),
      requiredDuringSchedulingIgnoredDuringExecution: atomicList(ref(coreV1('PodAffinityTerm'))),
    }),
    [coreV1('PodAffinityTerm')]: struct(
      'Pods selected in namespaces, which must (or must not) share a topology domain with this pod.',
      {
        labelSelector: ref(LABEL_SELECTOR),
        matchLabelKeys: atomicList({ type: 'string' }),
        mismatchLabelKeys: atomicList({ type: 'string' }),
        namespaces: atomicList({ type: 'string' }),
        namespaceSelector: ref(LABEL_SELECTOR),
        topologyKey: str(),
      },
      { required: ['topologyKey'] },
    ),
    [coreV1('WeightedPodAffinityTerm')]: struct(
      'A weighted pod affinity term.',
      { podAffinityTerm: ref(coreV1('PodAffinityTerm'), undefined, { default: {} }), weight: int32() },
      { required: ['weight', 'podAffinityTerm'] },
    ),
  },
  protobuf: {
    [coreV1('Affinity')]: { nodeAffinity: pointer(1), podAffinity: pointer(2), podAntiAffinity: pointer(3) },
    [coreV1('NodeAffinity')]: {
      requiredDuringSchedulingIgnoredDuringExecution: pointer(1),
      preferredDuringSchedulingIgnoredDuringExecution: 2,
    },
    [coreV1('PreferredSchedulingTerm')]: { weight: 1, preference: 2 },
    [coreV1('PodAffinity')]: {
      requiredDuringSchedulingIgnoredDuringExecution: 1,
      preferredDuringSchedulingIgnoredDuringExecution: 2,
    },
    [coreV1('PodAntiAffinity')]: {
      requiredDuringSchedulingIgnoredDuringExecution: 1,
      preferredDuringSchedulingIgnoredDuringExecution: 2,
    },
    [coreV1('PodAffinityTerm')]: {
      labelSelector: pointer(1),
      namespaces: 2,
      topologyKey: 3,
      namespaceSelector: pointer(4),
      matchLabelKeys: 5,
      mismatchLabelKeys: 6,
    },
    [coreV1('WeightedPodAffinityTerm')]: { weight: 1, podAffinityTerm: 2 },
  },
};
