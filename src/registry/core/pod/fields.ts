// Pod field selectors (pod.GetAttrs / PodToSelectableFields, and the v1 field label conversion).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import type { TriggerFuncs } from '../../generic/rest-options.js';
import type { AttrFunc } from '../../rest/strategy.js';

const podFields = [
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
];

// One object literal: the watch cache keeps it with every Pod, and a literal holds its eleven
// members in the object itself (an object assembled from {} keeps seven of them in a second array).
export const podAttrs: AttrFunc<Pod> = (pod) => ({
  labels: pod.metadata?.labels ?? {},
  fields: {
    'metadata.name': pod.metadata?.name ?? '',
    'metadata.namespace': pod.metadata?.namespace ?? '',
    'spec.nodeName': pod.spec?.nodeName ?? '',
    'spec.restartPolicy': pod.spec?.restartPolicy ?? '',
    'spec.schedulerName': pod.spec?.schedulerName ?? '',
    'spec.serviceAccountName': pod.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': String(pod.spec?.hostNetwork ?? false),
    'status.phase': pod.status?.phase ?? '',
    // The first IP only, as kube's selectable fields hold it.
    'status.podIP': pod.status?.podIP ?? '',
    'status.podIPs': pod.status?.podIPs?.[0]?.ip ?? '',
    'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
  },
});

export const podFieldLabelConversion: TransformFunc = (field, value) =>
  podFields.includes(field)
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };

/** The watch cache's trigger: watchers selecting on spec.nodeName see only their node's pods. */
export const podTriggerFuncs: TriggerFuncs = { 'spec.nodeName': (obj) => (obj as Pod).spec?.nodeName ?? '' };
