// Pod policy (pkg/registry/core/pod/strategy.go): create starts Pending with its QoS class (and,
// while scheduling gates hold it, PodScheduled=False/SchedulingGated) and its AppArmor annotations
// and fields in sync; the main resource keeps status, /status keeps spec; deletion is graceful once
// the pod is bound to a node.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { setAdmittedPodDefaults, setPodDefaults } from './defaults.js';
import { computePodQOS } from './qos.js';
import { mergeAffinityLabelKeys } from './validation/affinity.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from './validation.js';
import { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import { dropDisabledPodSpecFields, dropDisabledPodStatusFields } from './disabled-fields.js';
import { applyAppArmorVersionSkew } from './apparmor-skew.js';
import { nowTimestamp } from '../../generic/object-meta.js';
import { podNameWarnings, podStatusIPWarnings, warningsForPod, type PodWarningOptions } from './warnings.js';

/** applySchedulingGatedCondition's message. */
const schedulingGatedMessage = 'Scheduling is blocked due to non-empty scheduling gates';

/**
 * The pod strategies of a server with these feature gates (what they turn off is dropped); `now`
 * is its clock (ms), which stamps a gated pod's PodScheduled condition.
 */
export function podStrategiesFor(gates: FeatureGates, now: () => number = Date.now) {
  const warningOptions: PodWarningOptions = { gitRepoVolumeDriver: gates.enabled('GitRepoVolumeDriver') };
  const pod = {
    namespaceScoped: true,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    defaultDecoded: setPodDefaults,
    prepareForCreate: (ctx, pod) => {
      dropDisabledPodSpecFields(pod.spec, undefined, gates);
      setAdmittedPodDefaults(pod);
      mergeAffinityLabelKeys(pod.spec?.affinity, pod.metadata?.labels ?? {});
      pod.status = { phase: 'Pending', qosClass: computePodQOS(pod.spec) };
      // applySchedulingGatedCondition: a gated pod says why no scheduler takes it.
      if ((pod.spec?.schedulingGates ?? []).length > 0)
        pod.status.conditions = [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'SchedulingGated',
            message: schedulingGatedMessage,
            lastTransitionTime: nowTimestamp(now()),
          },
        ];
      applyAppArmorVersionSkew(ctx, pod);
    },
    validate: (_ctx, pod) => validatePod(pod),
    warningsOnCreate: (_ctx, pod) =>
      podNameWarnings(pod.metadata?.name).concat(warningsForPod(pod, warningOptions)),
    prepareForUpdate: (_ctx, pod, old) => {
      setAdmittedPodDefaults(pod);
      if (old.status !== undefined) pod.status = old.status;
      else delete pod.status;
      if (pod.spec !== old.spec) dropDisabledPodSpecFields(pod.spec, old.spec, gates);
    },
    validateUpdate: (_ctx, pod, old) => validatePodUpdate(pod, old),
    // kube skips them: people seldom update pods by hand, and machines update them too often to pay.
    warningsOnUpdate: () => [],
  } satisfies CreateStrategy<Pod> & UpdateStrategy<Pod>;

  /**
   * pods/status: takes the status, keeps the spec and the owner references (old kubelets corrupted
   * them, which broke garbage collection). A status without a qosClass keeps the old one, as kube
   * backfills it (old kubelets dropped it); a different one is refused, the class being immutable.
   */
  const status = {
    ...pod,
    prepareForUpdate: (_ctx, next, old) => {
      if (old.spec !== undefined) next.spec = old.spec;
      else delete next.spec;
      const owners = old.metadata?.ownerReferences;
      if (owners !== undefined) (next.metadata ??= {}).ownerReferences = owners;
      else if (next.metadata !== undefined) delete next.metadata.ownerReferences;
      const qosClass = old.status?.qosClass;
      if ((next.status?.qosClass ?? '') === '' && qosClass !== undefined)
        (next.status ??= {}).qosClass = qosClass;
      dropDisabledPodStatusFields(next, old, gates);
    },
    validateUpdate: (_ctx, next, old) => validatePodStatusUpdate(next, old),
    warningsOnUpdate: (_ctx, next) => podStatusIPWarnings(next),
  } satisfies UpdateStrategy<Pod>;
  return { pod, status };
}

const defaultStrategies = podStrategiesFor(FeatureGates.defaults());
/** The pod strategy with kube 1.33's default gates. */
export const podStrategy = defaultStrategies.pod;
/** The pods/status strategy with kube 1.33's default gates. */
export const podStatusStrategy = defaultStrategies.status;

/**
 * CheckGracefulDelete: the period asked for, else the pod's own; at once, whatever was asked, when no
 * node runs the pod (never bound) or it has finished (no kubelet would ever confirm the deletion). A
 * negative period left (a stored pod's own: the options' was raised to 1 before, and a pod's is made 1
 * as it is decoded) becomes 1 second.
 */
export const podDeleteStrategy = {
  checkGracefulDelete: (_ctx, pod, options) => {
    let period = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
    const phase = pod.status?.phase;
    if ((pod.spec?.nodeName ?? '') === '' || phase === 'Failed' || phase === 'Succeeded') period = 0;
    if (period < 0) period = 1;
    options.gracePeriodSeconds = period;
    return true;
  },
} satisfies DeleteStrategy<Pod>;
