// ValidatePodStatusUpdate (pkg/apis/core/validation/validation.go): what a write to pods/status may
// change, and how.
import type { Pod } from '../../../../api/core/v1/pod.js';
import type { ContainerStatus } from '../../../../api/core/v1/pod-status.js';
import {
  FieldError,
  FieldPath,
  isQualifiedName,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../../machinery/validation/index.js';
import { validateCoreObjectMetaUpdate } from '../../namespace/finalizer-names.js';
import { validatePodAnnotationUpdates } from './pod-annotations.js';
import { validatePodResourceClaimStatuses } from './resource-claims.js';
import { validateHostIPs, validatePodIPs } from './status-ips.js';

/**
 * ValidatePodStatusUpdate: meta and the pod's annotations, custom conditions, a changed nominated
 * node, the QoS class, no restarts of finished containers, the claim statuses, the pod and host IPs.
 */
export function validatePodStatusUpdate(pod: Pod, old: Pod): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pod.metadata ?? {}, old.metadata ?? {});
  errs.push(...validatePodAnnotationUpdates(pod, old));
  // kube hangs the conditions under the metadata path, and spells Type with a capital.
  (pod.status?.conditions ?? []).forEach((c, i) => {
    if (systemConditions.includes(c.type)) return;
    const p = FieldPath.of('metadata', 'conditions').index(i).child('Type');
    for (const msg of isQualifiedName(c.type)) errs.push(FieldError.invalid(p, c.type, msg));
  });
  const path = FieldPath.of('status');
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated !== '' && nominated !== (old.status?.nominatedNodeName ?? ''))
    for (const msg of nameIsDNSSubdomain(nominated, false))
      errs.push(FieldError.invalid(path.child('nominatedNodeName'), nominated, msg));
  const qos = pod.status?.qosClass ?? '';
  if (qos !== (old.status?.qosClass ?? ''))
    errs.push(FieldError.invalid(path.child('qosClass'), qos, 'field is immutable'));
  const oldSpec = old.spec ?? { containers: [] };
  errs.push(
    ...validateStateTransitions(pod.status?.containerStatuses, old.status?.containerStatuses, {
      path: path.child('containerStatuses'),
      restartPolicy: oldSpec.restartPolicy ?? '',
    }),
    ...validateStateTransitions(pod.status?.initContainerStatuses, old.status?.initContainerStatuses, {
      path: path.child('initContainerStatuses'),
      restartPolicy: oldSpec.restartPolicy ?? '',
      sidecars: new Set(
        (oldSpec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
      ),
    }),
    // The kubelet never restarts an ephemeral container.
    ...validateStateTransitions(
      pod.status?.ephemeralContainerStatuses,
      old.status?.ephemeralContainerStatuses,
      {
        path: path.child('ephemeralContainerStatuses'),
        restartPolicy: 'Never',
      },
    ),
  );
  errs.push(
    ...validatePodResourceClaimStatuses(
      pod.status?.resourceClaimStatuses,
      pod.spec?.resourceClaims,
      path.child('resourceClaimStatuses'),
    ),
  );
  errs.push(...validatePodIPs(pod, old), ...validateHostIPs(pod, old));
  return errs;
}

const systemConditions = ['PodScheduled', 'Ready', 'Initialized'];

interface TransitionOptions {
  readonly path: FieldPath;
  readonly restartPolicy: string;
  /** Restartable init containers, which may leave the terminated state. */
  readonly sidecars?: ReadonlySet<string>;
}

/** ValidateContainerStateTransition / ValidateInitContainerStateTransition. */
function validateStateTransitions(
  statuses: readonly ContainerStatus[] | undefined,
  olds: readonly ContainerStatus[] | undefined,
  opts: TransitionOptions,
): ErrorList {
  if (opts.restartPolicy === 'Always') return [];
  const errs: ErrorList = [];
  (olds ?? []).forEach((prior, i) => {
    const terminated = prior.state?.terminated;
    if (terminated === undefined) return;
    if (terminated.exitCode !== 0 && opts.restartPolicy === 'OnFailure') return;
    if (opts.sidecars?.has(prior.name) === true) return;
    for (const now of statuses ?? [])
      if (now.name === prior.name && now.state?.terminated === undefined)
        errs.push(
          FieldError.forbidden(
            opts.path.index(i).child('state'),
            'may not be transitioned to non-terminated state',
          ),
        );
  });
  return errs;
}
