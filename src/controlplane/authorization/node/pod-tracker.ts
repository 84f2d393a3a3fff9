// What the graph holds of pods (graph_populator.go addPod/updatePod/deletePod): a bound pod's
// references are fixed once it is bound, so a change is taken only when its node or uid differs, it
// gained ephemeral containers (which may name more secrets and config maps) or its generated
// resource claims changed; unbound pods are not in the graph. A relist is diffed against what was
// taken, as an informer's Replace would be.
import { mirrorPodAnnotation, type Pod } from '../../../api/core/v1/pod.js';
import {
  podConfigMapNames,
  podResourceClaimNames,
  podSecretNames,
  podVolumeClaimNames,
} from '../../../admission/plugin/noderestriction/pod-references.js';
import type { Graph } from './graph.js';

/** api.MirrorPodAnnotationKey. */

/** The parts of a bound pod whose change means new edges. */
function fingerprintOf(pod: Pod): string {
  const claims = (pod.status?.resourceClaimStatuses ?? []).map((s) => [s.name, s.resourceClaimName ?? null]);
  return JSON.stringify([
    pod.spec?.nodeName,
    pod.metadata?.uid,
    pod.spec?.ephemeralContainers?.length ?? 0,
    claims,
  ]);
}

const keyOf = (pod: Pod): string => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

export class PodTracker {
  readonly #graph: Graph;
  /** Bound pods in the graph, by namespace/name: their fingerprints. */
  readonly #taken = new Map<string, string>();

  constructor(graph: Graph) {
    this.#graph = graph;
  }

  /** An added or modified pod. */
  update(pod: Pod): void {
    const nodeName = pod.spec?.nodeName ?? '';
    if (nodeName === '') return;
    const key = keyOf(pod);
    const fingerprint = fingerprintOf(pod);
    if (this.#taken.get(key) === fingerprint) return;
    this.#taken.set(key, fingerprint);
    this.#graph.addPod({
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      nodeName,
      mirror: Object.hasOwn(pod.metadata?.annotations ?? {}, mirrorPodAnnotation),
      serviceAccountName: pod.spec?.serviceAccountName ?? '',
      secrets: podSecretNames(pod),
      configMaps: podConfigMapNames(pod),
      claims: podVolumeClaimNames(pod),
      resourceClaims: podResourceClaimNames(pod),
    });
  }

  delete(pod: Pod): void {
    if ((pod.spec?.nodeName ?? '') === '') return;
    this.#forget(keyOf(pod));
  }

  /** A full list: every listed pod taken, every pod taken before and not listed deleted. */
  replace(pods: readonly Pod[]): void {
    const listed = new Set<string>();
    for (const pod of pods) {
      listed.add(keyOf(pod));
      this.update(pod);
    }
    for (const key of [...this.#taken.keys()]) if (!listed.has(key)) this.#forget(key);
  }

  #forget(key: string): void {
    this.#taken.delete(key);
    const slash = key.indexOf('/');
    this.#graph.deletePod(key.slice(0, slash), key.slice(slash + 1));
  }
}
