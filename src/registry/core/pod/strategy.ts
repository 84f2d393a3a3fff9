// Pod policy (pkg/registry/core/pod/strategy.go): create starts Pending with its QoS class, the main
// resource keeps status, /status keeps spec; deletion is graceful once the pod is bound to a node.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setAdmittedPodDefaults, setPodDefaults } from './defaults.js';
import { computePodQOS } from './qos.js';
import { mergeAffinityLabelKeys } from './validation/affinity.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from './validation.js';

export const podStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setPodDefaults,
  prepareForCreate: (_ctx, pod) => {
    setAdmittedPodDefaults(pod);
    mergeAffinityLabelKeys(pod.spec?.affinity, pod.metadata?.labels ?? {});
    pod.status = { phase: 'Pending', qosClass: computePodQOS(pod.spec) };
  },
  validate: (_ctx, pod) => validatePod(pod),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, pod, old) => {
    setAdmittedPodDefaults(pod);
    if (old.status !== undefined) pod.status = old.status;
    else delete pod.status;
  },
  validateUpdate: (_ctx, pod, old) => validatePodUpdate(pod, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Pod> & UpdateStrategy<Pod>;

/**
 * pods/status: takes the status, keeps the spec and the owner references (old kubelets corrupted
 * them, which broke garbage collection). A status without a qosClass keeps the old one, as kube
 * backfills it (old kubelets dropped it); a different one is refused, the class being immutable.
 */
export const podStatusStrategy = {
  ...podStrategy,
  prepareForUpdate: (_ctx, pod, old) => {
    if (old.spec !== undefined) pod.spec = old.spec;
    else delete pod.spec;
    const owners = old.metadata?.ownerReferences;
    if (owners !== undefined) (pod.metadata ??= {}).ownerReferences = owners;
    else if (pod.metadata !== undefined) delete pod.metadata.ownerReferences;
    const qosClass = old.status?.qosClass;
    if ((pod.status?.qosClass ?? '') === '' && qosClass !== undefined)
      (pod.status ??= {}).qosClass = qosClass;
  },
  validateUpdate: (_ctx, pod, old) => validatePodStatusUpdate(pod, old),
} satisfies UpdateStrategy<Pod>;

/**
 * CheckGracefulDelete: the period asked for, else the pod's own; at once, whatever was asked, when no
 * node runs the pod (never bound) or it has finished (no kubelet would ever confirm the deletion).
 */
export const podDeleteStrategy = {
  checkGracefulDelete: (_ctx, pod, options) => {
    let period = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
    const phase = pod.status?.phase;
    if ((pod.spec?.nodeName ?? '') === '' || phase === 'Failed' || phase === 'Succeeded') period = 0;
    options.gracePeriodSeconds = period;
    return true;
  },
} satisfies DeleteStrategy<Pod>;
