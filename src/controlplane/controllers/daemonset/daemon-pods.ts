// Which nodes a DaemonSet runs on and the pod it makes for one (pkg/controller/daemon/util and
// daemon_controller.go's nodeShouldRunDaemonPod): the node must match the template's nodeSelector and
// required node affinity and have no NoSchedule/NoExecute taint the pod does not tolerate; the pod
// gets the daemon tolerations and a required affinity to its node's name, so the scheduler binds it
// there.
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import { computeHash } from '../deployment/template-hash.js';
import { matchesNodeAffinity, tolerates } from '../scheduler/filters.js';
import { podFromTemplate } from '../simulation/pod-control.js';

export const daemonSetKind = { apiVersion: 'apps/v1', kind: 'DaemonSet' } as const;
export const revisionLabel = 'controller-revision-hash';

/** AddOrUpdateDaemonPodTolerations: what every daemon pod tolerates. */
const daemonTolerations: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

export const templateHash = (ds: DaemonSet): string =>
  computeHash(ds.spec?.template, ds.status?.collisionCount ?? 0);

function tolerationsOf(ds: DaemonSet): Toleration[] {
  const own = ds.spec?.template?.spec?.tolerations ?? [];
  const same = (a: Toleration, b: Toleration): boolean =>
    a.key === b.key && a.effect === b.effect && (a.operator ?? 'Equal') === (b.operator ?? 'Equal');
  return [...own, ...daemonTolerations.filter((t) => !own.some((o) => same(o, t)))];
}

/** The daemon pod as it is made (the pod the node checks are done for). */
export function newDaemonPod(ds: DaemonSet, nodeName: string): Pod {
  const pod = podFromTemplate(ds, { gvk: daemonSetKind, template: ds.spec?.template });
  (pod.metadata ??= {}).labels = { ...pod.metadata.labels, [revisionLabel]: templateHash(ds) };
  const spec = (pod.spec ??= { containers: [] });
  spec.tolerations = tolerationsOf(ds);
  const affinity = (spec.affinity ?? {}) as Record<string, unknown>;
  spec.affinity = {
    ...affinity,
    nodeAffinity: {
      ...(affinity['nodeAffinity'] as Record<string, unknown> | undefined),
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
  return pod;
}

/**
 * nodeShouldRunDaemonPod: whether a daemon pod should be made on the node (its labels fit and every
 * NoSchedule/NoExecute taint is tolerated), and whether one already there may stay (only an
 * untolerated NoExecute taint or labels that no longer fit send it away).
 */
export function daemonPlacement(ds: DaemonSet, node: Node): { shouldRun: boolean; shouldContinue: boolean } {
  const probe: Pod = {
    spec: { ...(ds.spec?.template?.spec ?? { containers: [] }), tolerations: tolerationsOf(ds) },
  };
  if (!matchesNodeAffinity(probe, node)) return { shouldRun: false, shouldContinue: false };
  const untolerated = (effect: string): boolean =>
    (node.spec?.taints ?? []).some(
      (taint) => taint.effect === effect && !(probe.spec?.tolerations ?? []).some((t) => tolerates(t, taint)),
    );
  const noExecute = untolerated('NoExecute');
  return { shouldRun: !noExecute && !untolerated('NoSchedule'), shouldContinue: !noExecute };
}

/** The node a daemon pod is for: where it is bound, else what its affinity names. */
export function targetNode(pod: Pod): string | undefined {
  if ((pod.spec?.nodeName ?? '') !== '') return pod.spec?.nodeName;
  const affinity = pod.spec?.affinity as
    | {
        nodeAffinity?: {
          requiredDuringSchedulingIgnoredDuringExecution?: {
            nodeSelectorTerms?: { matchFields?: { key: string; values?: string[] }[] }[];
          };
        };
      }
    | undefined;
  const terms = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const field = terms?.[0]?.matchFields?.find((f) => f.key === 'metadata.name');
  return field?.values?.[0];
}
