// PodTopologySpread's DefaultSelector (scheduler plugins' helper/spread.go): what a pod without
// spread constraints of its own is spread by. The selectors of the Services in its namespace that
// select it, merged, and the selector of the ReplicationController, ReplicaSet or StatefulSet that
// controls it, when the informers know them.
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { Service } from '../../../api/core/v1/service.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import type { Selector } from '../../../machinery/labels/selector.js';
import { selectorFromSet } from '../../../machinery/labels/selector-from-set.js';
import { controllerRefOf } from '../simulation/controller-ref.js';
import type { Informer } from '../simulation/informer.js';

/** What the selector reads of an informer. */
type OwnerIndex<T extends Service | ReplicationController | ReplicaSet | StatefulSet> = Pick<
  Informer<T>,
  'get' | 'list'
>;

export interface SpreadOwners {
  readonly services?: OwnerIndex<Service> | undefined;
  readonly replicationControllers?: OwnerIndex<ReplicationController> | undefined;
  readonly replicaSets?: OwnerIndex<ReplicaSet> | undefined;
  readonly statefulSets?: OwnerIndex<StatefulSet> | undefined;
}

export function defaultSpreadSelector(pod: Pod, owners: SpreadOwners): Selector {
  const namespace = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels ?? {};
  const merged: Record<string, string> = {};
  for (const service of owners.services?.list() ?? []) {
    const selector = service.spec?.selector;
    if (selector === undefined || (service.metadata?.namespace ?? '') !== namespace) continue;
    if (selectorFromSet(selector).matches(labels)) Object.assign(merged, selector);
  }
  const owner = controllerRefOf(pod);
  const key = `${namespace}/${owner?.name ?? ''}`;
  // A ReplicationController's equality selector joins the Services' set.
  if (owner?.apiVersion === 'v1' && owner.kind === 'ReplicationController')
    Object.assign(merged, owners.replicationControllers?.get(key)?.spec?.selector);
  const selector = selectorFromSet(merged);
  if (owner?.apiVersion !== 'apps/v1') return selector;
  const ownerSelector =
    owner.kind === 'ReplicaSet'
      ? owners.replicaSets?.get(key)?.spec?.selector
      : owner.kind === 'StatefulSet'
        ? owners.statefulSets?.get(key)?.spec?.selector
        : undefined;
  if (ownerSelector === undefined) return selector;
  const parsed = labelSelectorAsSelector(ownerSelector);
  return parsed.ok ? selector.add(...parsed.selector.requirements) : selector;
}
