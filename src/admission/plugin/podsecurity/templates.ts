// DefaultPodSpecExtractor: the pod template of the workload resources PodSecurity warns about.
import type { KubeObject } from '../../../api/meta.js';
import { groupResourceString } from '../../../machinery/schema/group-resource.js';
import type { PodMetaView, PodSpecView } from './shape.js';

export interface PodTemplateView {
  readonly metadata?: PodMetaView;
  readonly spec?: PodSpecView;
}

type Extract = (obj: Readonly<Record<string, unknown>>) => PodTemplateView | undefined;

const record = (v: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;

const template = (v: unknown): PodTemplateView | undefined => record(v);
const specTemplate: Extract = (obj) => template(record(obj['spec'])?.['template']);

const extractors: Readonly<Record<string, Extract>> = {
  '/podtemplates': (obj) => template(obj['template']),
  '/replicationcontrollers': specTemplate,
  'apps/replicasets': specTemplate,
  'apps/deployments': specTemplate,
  'apps/statefulsets': specTemplate,
  'apps/daemonsets': specTemplate,
  'batch/jobs': specTemplate,
  'batch/cronjobs': (obj) =>
    template(record(record(record(obj['spec'])?.['jobTemplate'])?.['spec'])?.['template']),
};

/** The workload resources, as group resources (`replicasets.apps`). */
export const podControllerResources: readonly string[] = Object.keys(extractors).map((key) => {
  const [group = '', resource = ''] = key.split('/');
  return groupResourceString({ group, resource });
});

/** Whether the group/resource is one whose pod template is checked. */
export const isPodController = (group: string, resource: string): boolean =>
  Object.hasOwn(extractors, `${group}/${resource}`);

/** The template, or undefined when the object carries none. */
export function podTemplateOf(group: string, resource: string, obj: KubeObject): PodTemplateView | undefined {
  return extractors[`${group}/${resource}`]?.(obj);
}
